// The Tools tab: the server's tools beside the selected one's results,
// description and schemas, and the running call's banner.

package page

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tools is the Tools tab. It holds the tools listed, each tool's results
// in this session (which of them its pane shows), and what it is told of
// the running call and of the call the server refused until a page is
// opened; calling is the program's, asked by [OpenTool], [CallAsTask] and
// [layer.CallTool].
type Tools struct {
	c     *widget.Common
	from  ToolsFrom
	tools []*mcp.Tool
	err   error // why the list is missing or short
	list  widget.List
	focus bool // ↑/↓ scroll the pane
	pane  widget.Pane

	results map[string][]string // per tool, oldest first
	shown   map[string]int      // per tool, the index shown; absent: the latest
	run     Running
	refused Refused // the call c calls again, if any
}

// ToolsFrom is what the Tools tab reads of the program as it draws.
type ToolsFrom struct {
	// AppText is what the pane says of a tool's app and visibility.
	AppText func(*mcp.Tool) string
	// Spinner is the spinner's frame, drawn in the running call's banner.
	Spinner func() string
	// Now is the time the banner counts from its call's start.
	Now func() time.Time
}

// NewTools is the Tools tab, drawn with c's styles and keys.
func NewTools(c *widget.Common, from ToolsFrom) *Tools {
	if from.AppText == nil {
		from.AppText = func(*mcp.Tool) string { return "" }
	}
	if from.Spinner == nil {
		from.Spinner = func() string { return "" }
	}
	if from.Now == nil {
		from.Now = time.Now
	}
	return &Tools{c: c, from: from}
}

// Messages the program sends the Tools tab.
type (
	// ToolList is the server's tools, or why they are missing or short:
	// the selection stays on the tool it named.
	ToolList struct {
		Tools []*mcp.Tool
		Err   error
	}
	// Running is the call in flight: its tool ("" for none), when it
	// started, and its latest progress.
	Running struct {
		Tool     string
		Start    time.Time
		Progress *mcpclient.ProgressEvent
	}
	// ToolResult is a call's outcome, drawn: it shows under its tool.
	ToolResult struct{ Tool, Text string }
	// Refused is the last call the server refused until a page is
	// opened (-32042), which c calls again with the same arguments, on
	// this connection ([NewConnection] forgets it).
	Refused struct {
		Tool   *mcp.Tool
		Args   json.RawMessage
		AsTask bool
	}
)

// Actions of the Tools tab, for the program to carry out.
type (
	// OpenTool asks for the tool's arguments and calls it.
	OpenTool struct{ Tool *mcp.Tool }
	// CallAsTask calls the tool as a task, once its listing says it may.
	CallAsTask struct{ Tool *mcp.Tool }
)

// Title is "Tools".
func (*Tools) Title() string { return "Tools" }

// Help is the list's keys, or the pane's while it is focused.
func (p *Tools) Help() []key.Binding { return listOrPaneHelp(p.c, p.focus) }

// Focus does nothing: the list and pane keep their places.
func (*Tools) Focus(bool) {}

// Filtering reports whether the list's filter is being typed.
func (p *Tools) Filtering() bool { return p.list.Filtering() }

// Update takes the tools, the calls' news, the pane's text and the keys.
func (p *Tools) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case ToolList:
		kept := ""
		if t := p.Selected(); t != nil {
			kept = t.Name
		}
		p.tools, p.err = msg.Tools, msg.Err
		reselect(&p.list, p.names(), kept)
	case Running:
		p.run = msg
	case Refused:
		p.refused = msg
	case NewConnection: // a refused call is the old connection's
		p.refused = Refused{}
	case ToolResult:
		if p.results == nil {
			p.results, p.shown = map[string][]string{}, map[string]int{}
		}
		p.results[msg.Tool] = append(p.results[msg.Tool], msg.Text)
		delete(p.shown, msg.Tool)
	case Show: // the body's room: the pane is what the list leaves
		h := msg.Height
		if p.runShown() {
			h -= runBannerLines
		}
		p.pane.Set(msg.Text, detailWidth(msg.Width), h)
	case tea.MouseMsg:
		p.pane.Wheel(msg)
	case tea.KeyMsg:
		return p.key(msg)
	}
	return nil
}

func (p *Tools) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	if p.list.Filtering() {
		p.list.Update(msg, p.c.Keys, len(p.Visible()))
		return nil
	}
	t := p.Selected()
	switch {
	case t == nil && key.Matches(msg, k.Open, k.AsTask, k.Retry):
	case key.Matches(msg, k.Open):
		return OpenTool{t}
	case key.Matches(msg, k.AsTask):
		return CallAsTask{t}
	case key.Matches(msg, k.Retry):
		return p.retry(t)
	case key.Matches(msg, k.Earlier, k.Later):
		if t != nil {
			p.step(t.Name, key.Matches(msg, k.Later))
		}
	case key.Matches(msg, k.Focus):
		p.focus = true
	case key.Matches(msg, k.Back):
		p.focus = false
	case p.pane.Scroll(msg, k, p.focus):
	case key.Matches(msg, k.Filter, k.Up, k.Down):
		p.list.Update(msg, p.c.Keys, len(p.Visible()))
	default:
		return layer.Pass{}
	}
	return nil
}

// retry calls the refused call again, with the same arguments, when it is
// the tool's.
func (p *Tools) retry(t *mcp.Tool) Action {
	switch r := p.refused; {
	case r.Tool == nil || r.Tool.Name != t.Name:
		return Note{Text: "c calls a tool again once the server asked for a page to be opened first; enter calls it", Err: true}
	case p.run.Tool != "":
		return Note{Text: "a call is running: esc cancels it", Err: true}
	}
	r := p.refused
	p.refused = Refused{}
	return layer.CallTool{Tool: r.Tool, Args: r.Args, AsTask: r.AsTask}
}

// RefusedTool names the tool whose refused call c calls again, or "".
func (p *Tools) RefusedTool() string {
	if p.refused.Tool == nil {
		return ""
	}
	return p.refused.Tool.Name
}

// step shows the tool's earlier or later result, if it has one.
func (p *Tools) step(tool string, later bool) {
	_, i, n := p.at(tool)
	next := i - 2
	if later {
		next = i
	}
	if n > 0 && next >= 0 && next < n {
		p.shown[tool] = next
	}
}

// at is the result a tool's pane shows, its place (1 = the first) and
// how many there are; n is 0 when the tool has none.
func (p *Tools) at(tool string) (result string, i, n int) {
	all := p.results[tool]
	if len(all) == 0 {
		return "", 0, 0
	}
	i, ok := p.shown[tool]
	if !ok {
		i = len(all) - 1
	}
	return all[i], i + 1, len(all)
}

// Shown is the place (from 0) of the result a tool's pane shows, and how
// many results it has (0: none).
func (p *Tools) Shown(tool string) (i, n int) {
	_, i, n = p.at(tool)
	return i - 1, n
}

// List is a copy of the list's cursor and filter, as they are.
func (p *Tools) List() *widget.List { l := p.list; return &l }

// Visible are the tools the filter lets through.
func (p *Tools) Visible() []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range p.tools {
		if p.list.Matches(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

func (p *Tools) names() []string {
	var names []string
	for _, t := range p.Visible() {
		names = append(names, t.Name)
	}
	return names
}

// Selected is the tool under the cursor, or nil.
func (p *Tools) Selected() *mcp.Tool {
	if tools := p.Visible(); p.list.Cursor() < len(tools) {
		return tools[p.list.Cursor()]
	}
	return nil
}

// Named is the listed tool of that name, or nil.
func (p *Tools) Named(name string) *mcp.Tool {
	for _, t := range p.tools {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// All is the tools listed, the filter aside.
func (p *Tools) All() []*mcp.Tool { return p.tools }

// View lists the tools beside the pane, under the running call's banner
// while its tool is selected.
func (p *Tools) View(w, h int) string {
	lw := listWidth(w)
	tools := p.Visible()
	rows := make([]widget.Row, len(tools))
	for i, t := range tools {
		rows[i] = ToolRow(t) // marked when it has an app, or only apps may call it
	}
	widget.CutRows(rows, lw) // names that share a long start stay told apart
	list := p.list.View(p.c, rows, p.err, lw, h)
	return columns(p.c, list, p.banner(detailWidth(w))+p.pane.View(p.c, p.stepHint()), lw, p.focus)
}

// ToolRow is a tool's row in the Tools list: marked app when it has an
// app, app only (and faint) when only apps may call it, hidden when
// neither a model nor apps may.
func ToolRow(t *mcp.Tool) widget.Row {
	r := widget.Row{Name: t.Name}
	var marks []string
	if mcpclient.ToolAppURI(t) != "" {
		marks = append(marks, "app")
	}
	switch model, app := mcpclient.ModelVisible(t), mcpclient.AppVisible(t); {
	case app && !model:
		marks, r.Faint = append(marks, "app only"), true
	case !app && !model:
		marks, r.Faint = append(marks, "hidden"), true
	}
	r.Mark = strings.Join(marks, " · ")
	return r
}

// stepHint is the pane's hint when the selected tool has earlier
// results: the keys that step through them.
func (p *Tools) stepHint() string {
	t := p.Selected()
	if t == nil {
		return ""
	}
	if _, _, n := p.at(t.Name); n < 2 {
		return ""
	}
	k := p.c.Keys.Tabs
	return p.c.KeyLine(keys.Hint("[/]", "earlier/later result", k.Earlier, k.Later))
}

// Text is the pane's text: the selected tool's result shown, if it has
// one, then its description and schemas.
func (p *Tools) Text() string {
	s := p.c.Styles
	t := p.Selected()
	if t == nil {
		return ""
	}
	var b strings.Builder
	// While the tool runs, the banner above the pane shows the call.
	if res, i, n := p.at(t.Name); n > 0 && p.run.Tool != t.Name {
		if n > 1 {
			b.WriteString(s.Dim.Render(fmt.Sprintf("result %d of %d", i, n)) + "\n")
		}
		b.WriteString(res + "\n\n")
	}
	b.WriteString(s.Title.Render(widget.Clean(t.Name)) + "\n" + widget.Clean(t.Description) + "\n")
	if t.Annotations != nil {
		b.WriteString(s.Dim.Render("annotations: ") + s.ColourJSON(widget.Clean(widget.PrettyJSON(t.Annotations))) + "\n")
	}
	b.WriteString(s.Dim.Render("input schema: ") + s.ColourJSON(widget.Clean(widget.PrettyJSON(t.InputSchema))) + "\n")
	if t.OutputSchema != nil {
		b.WriteString(s.Dim.Render("output schema: ") + s.ColourJSON(widget.Clean(widget.PrettyJSON(t.OutputSchema))) + "\n")
	}
	if ui, ok := t.Meta["ui"]; ok {
		b.WriteString(s.Dim.Render("_meta.ui: ") + s.ColourJSON(widget.Clean(widget.PrettyJSON(ui))) + "\n")
	}
	b.WriteString(p.from.AppText(t))
	b.WriteString(s.Dim.Render("enter calls it"))
	return b.String()
}

// runBannerLines is the banner's height: its three lines and a blank one.
const runBannerLines = 4

// runShown reports whether the pane shows the running call: the running
// tool is the one selected.
func (p *Tools) runShown() bool {
	t := p.Selected()
	return t != nil && p.run.Tool != "" && p.run.Tool == t.Name
}

// banner is drawn above the pane while the selected tool runs: what runs
// and for how long, its progress, and the server's message. It is
// runBannerLines lines, so that the pane under it keeps its place.
func (p *Tools) banner(width int) string {
	if !p.runShown() {
		return ""
	}
	s, spin := p.c.Styles, p.from.Spinner()
	k := p.c.Keys.Tabs.CancelCall
	head := s.Title.Render(fmt.Sprintf("%scalling %s… %s", spin, widget.Clean(p.run.Tool), p.from.Now().Sub(p.run.Start).Round(time.Second))) +
		s.Dim.Render(" · "+k.Help().Key+" cancels")
	lines := []string{widget.Fit(head, width), "", ""}
	switch pr := p.run.Progress; {
	case pr == nil:
		lines[1] = s.Dim.Render("no progress reported yet")
	case pr.Total > 0:
		count := " " + Number(pr.Progress) + "/" + Number(pr.Total)
		bar := progress.New(progress.WithDefaultGradient(), progress.WithColorProfile(lipgloss.ColorProfile()),
			progress.WithWidth(max(width-lipgloss.Width(count), 10)))
		lines[1] = widget.Fit(bar.ViewAs(min(max(pr.Progress/pr.Total, 0), 1))+count, width)
	default:
		lines[1] = widget.Fit(spin+Number(pr.Progress)+s.Dim.Render(" so far (the server names no total)"), width)
	}
	if pr := p.run.Progress; pr != nil && pr.Message != "" {
		lines[2] = s.Dim.Render(widget.Line(pr.Message, width))
	}
	return strings.Join(lines, "\n") + "\n\n"
}

// ProgressBrief is a call's progress in a few words, for the footer:
// " · 3/5", " · 3", or "".
func ProgressBrief(pr *mcpclient.ProgressEvent) string {
	switch {
	case pr == nil:
		return ""
	case pr.Total > 0:
		return " · " + Number(pr.Progress) + "/" + Number(pr.Total)
	default:
		return " · " + Number(pr.Progress)
	}
}

// Number is a progress value as a person writes it: 3, 2.5.
func Number(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// reselect keeps a list's selection on the entry it named when its
// entries changed (a server's list_changed reloads the lists while the
// person watches): where an entry was added or removed before it, the
// cursor follows it; where it left the list, the cursor stays in its
// place, on the list. No entries (the lists of a connection being made)
// leave the cursor where it was, for the entries to come.
func reselect(l *widget.List, names []string, kept string) {
	if len(names) == 0 {
		return
	}
	l.SetLen(len(names))
	if i := slices.Index(names, kept); kept != "" && i >= 0 {
		l.Select(i)
	}
}

// The Requests tab: the server's requests to mcpeek, every kind
// (elicitation, sampling, roots), newest first; enter shows one's request
// and response whole.

package page

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Records are the server's requests to mcpeek so far, oldest first, as
// the connection recorded them: the program sends them after every
// message.
type Records []mcpclient.Record

// Requests is the Requests tab: a list of the records, or one of them
// whole in a pane.
type Requests struct {
	c        *widget.Common
	records  []mcpclient.Record
	list     widget.List
	expanded int // the line shown whole, or -1
	pane     widget.Pane
	cache    requestCache
	room     tea.WindowSizeMsg
}

// NewRequests is the Requests tab, drawn with c's styles and keys.
func NewRequests(c *widget.Common) *Requests { return &Requests{c: c, expanded: -1} }

// Title is "Requests".
func (*Requests) Title() string { return "Requests" }

// Help is the pane's keys while a record shows whole, else the list's.
func (p *Requests) Help() []key.Binding { return listOrPaneHelp(p.c, p.open() >= 0) }

// Filtering reports whether the list's filter is being typed.
func (p *Requests) Filtering() bool { return p.list.Filtering() }

// Copy is the record shown whole, as y copies it.
func (p *Requests) Copy() string {
	if p.open() < 0 {
		return ""
	}
	return ansi.Strip(widget.Redact(p.recordText()))
}

// Update takes the records, the room, and the keys and wheel of the list
// and the pane.
func (p *Requests) Update(msg tea.Msg) Action {
	var a Action
	switch msg := msg.(type) {
	case Records:
		p.records = msg
	case tea.WindowSizeMsg:
		p.room = msg
	case tea.MouseMsg:
		if p.open() >= 0 {
			p.pane.Wheel(msg)
		}
	case tea.KeyMsg:
		a = p.key(msg)
	}
	p.sync()
	return a
}

func (p *Requests) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	if p.list.Filtering() {
		p.list.Update(msg, p.c.Keys, len(p.shown()))
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		p.expanded = p.list.Cursor()
	case key.Matches(msg, k.Collapse, k.Back):
		p.expanded = -1
	case key.Matches(msg, k.Focus):
	case p.open() >= 0 && p.pane.Scroll(msg, k, true):
	case key.Matches(msg, k.Filter, k.Up, k.Down):
		p.list.Update(msg, p.c.Keys, len(p.shown()))
	default:
		return layer.Pass{}
	}
	return nil
}

// Selected is the record shown whole or, on the list, the one under the
// cursor.
func (p *Requests) Selected() (mcpclient.Record, bool) {
	i := p.open()
	if i < 0 {
		if shown := p.shown(); p.list.Cursor() < len(shown) {
			i = shown[p.list.Cursor()]
		}
	}
	if i < 0 || i >= len(p.records) {
		return mcpclient.Record{}, false
	}
	return p.records[i], true
}

// open is the record shown whole, or -1.
func (p *Requests) open() int {
	if p.expanded < 0 {
		return -1
	}
	if p.list.Filter() == "" { // the lines are the records
		if p.expanded < len(p.records) {
			return len(p.records) - 1 - p.expanded
		}
		return -1
	}
	if shown := p.shown(); p.expanded < len(shown) {
		return shown[p.expanded]
	}
	return -1
}

// sync gives the pane the record shown whole and its room.
func (p *Requests) sync() {
	if p.open() >= 0 {
		p.pane.Set(widget.Redact(p.recordText()), p.room.Width, p.room.Height-1)
	}
}

// View lists the records, newest first, or shows one whole.
func (p *Requests) View(width, height int) string {
	s := p.c.Styles
	if len(p.records) == 0 {
		return s.Dim.Render(widget.Block("No requests from the server yet. Call a tool that asks for input, for a model's reply or for roots (Tools tab).", width, 3))
	}
	if p.open() >= 0 {
		return p.pane.View(p.c, closesHint(p.c))
	}
	var rows []string
	for _, i := range p.shown() {
		head := recordHead(p.records[i])
		rows = append(rows, head+widget.Line(p.records[i].Message, width-lipgloss.Width(head)-2))
	}
	return p.list.View(p.c, widget.Names(rows), nil, width, height)
}

// recordHead is the start of a record's line: its key, when it came,
// its kind, how it was answered, by which path and how fast.
func recordHead(r mcpclient.Record) string {
	path := string(r.Path)
	if r.Fallback != "" {
		path += ":" + string(r.Fallback)
	}
	return fmt.Sprintf("%s %s %s %s %s %dms ", r.Key, r.ReceivedAt.Format("15:04:05"), recordKind(r), recordAction(r), path, r.AnsweredMs)
}

// maxMatched bounds what of a record's message the filter searches.
const maxMatched = 4096

// shown are the records the filter lets through, by index, newest first.
func (p *Requests) shown() []int {
	out := make([]int, 0, len(p.records))
	for i := len(p.records) - 1; i >= 0; i-- {
		r := p.records[i]
		msg := r.Message[:min(len(r.Message), maxMatched)] // a huge message is matched by its start
		if p.list.Matches(recordHead(r) + msg) {
			out = append(out, i)
		}
	}
	return out
}

// Focus does nothing: the list keeps its place while another tab shows.
func (*Requests) Focus(bool) {}

// recordKind is a record's kind: elicitation, sampling or roots.
func recordKind(r mcpclient.Record) string {
	if r.Kind == "" {
		return mcpclient.KindElicitation
	}
	return r.Kind
}

// recordAction is how a request was answered: its action, or "error" for
// one that failed without one.
func recordAction(r mcpclient.Record) string {
	if r.Action == "" && r.Error != "" {
		return "error"
	}
	return r.Action
}

// requestCache keeps the text of the record last shown whole: a sampling
// request may carry megabytes, which are cut once, not on every message.
type requestCache struct {
	key  string
	at   time.Time
	text string
}

// recordText is the record shown whole: its kind, how it was answered,
// its request and the response sent.
func (p *Requests) recordText() string {
	e := p.open()
	if e < 0 {
		return ""
	}
	r := p.records[e]
	if c := &p.cache; c.key != r.Key || !c.at.Equal(r.ReceivedAt) {
		*c = requestCache{key: r.Key, at: r.ReceivedAt, text: renderRecord(p.c.Styles, r)}
	}
	return p.cache.text
}

func renderRecord(s widget.Styles, r mcpclient.Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s · %s · %s\n", s.Title.Render(r.Key), recordAction(r), recordKind(r), r.Path)
	if r.Fallback != "" {
		b.WriteString(s.Warn.Render("rendered natively: "+r.Fallback.Describe()) + "\n")
	}
	if r.Error != "" {
		b.WriteString(s.Err.Render("error: ") + widget.Clean(r.Error) + "\n")
	}
	b.WriteString(s.Dim.Render("request:") + "\n" + s.ColourJSON(widget.Clean(indentJSON(r.Request))) + "\n")
	b.WriteString(s.Dim.Render("response:") + "\n" + s.ColourJSON(widget.Clean(indentJSON(r.Response))))
	return b.String()
}

// recordStringRunes bounds each string of a record shown whole: a huge
// message or an image's data shows its beginning and how much more there
// is.
const recordStringRunes = 2000

// indentJSON indents raw JSON for reading, each string cut to a preview.
func indentJSON(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return widget.CutRedacted(string(raw), recordStringRunes*4)
	}
	return widget.PrettyJSON(cutStrings(v, recordStringRunes))
}

// cutStrings cuts every string in a decoded JSON value to n runes.
func cutStrings(v any, n int) any {
	switch v := v.(type) {
	case string:
		v = widget.Redact(v) // before it is cut, which would keep part of a secret
		if utf8.RuneCountInString(v) <= n {
			return v
		}
		cut := string([]rune(v)[:n])
		return cut + fmt.Sprintf("… (%d more bytes)", len(v)-len(cut))
	case []any:
		for i := range v {
			v[i] = cutStrings(v[i], n)
		}
	case map[string]any:
		for k := range v {
			v[k] = cutStrings(v[k], n)
		}
	}
	return v
}

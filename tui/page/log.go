// The Log tab: the wire traffic, one message a line, or the server's log
// (serverlog.go), over a line that says whether it follows new lines;
// enter shows one whole.

package page

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Wire is the wire log's entries, oldest first: the program sends them
// after every message.
type Wire []mcpclient.WireEntry

// Log is the Log tab. Its lines are made once per entry of the wire log,
// so that the poll that refreshes the log twice a second does not parse
// every message again.
type Log struct {
	c     *widget.Common
	room  tea.WindowSizeMsg
	shown bool // the tab shows: only then does it follow new lines

	// The view on screen: its filter and cursor, the line shown whole
	// (or -1) and its pane, and whether it is paused: the cursor is off
	// the newest line, so new lines do not move it. Moving back to the
	// newest line (end/G) follows again.
	list     widget.List
	expanded int
	paused   bool
	pane     widget.Pane

	wire  []mcpclient.WireEntry
	lines []logLine // one per entry of wire
	made  map[wireKey]logLine
	seen  wireMark // the wire log the lines were made for

	// The server's log (serverlog.go): whether the tab shows it rather
	// than the wire, the other view's place, its messages and their
	// lines as made so far, how many messages left it, the message last
	// opened whole, and how many arrived while the wire was shown.
	server, toggled bool
	away            logPlace
	events          []mcpclient.LogEvent
	srvRows         []string
	srvGone         int
	openID          int // srvGone+index+1 of the message openText shows
	openText        string
	unseen          int
	status          ServerLogStatus
}

// logPlace is where one of the Log tab's two views stands: its filter and
// cursor, the entry shown whole, and whether it follows new lines. The
// view on screen keeps its place in the Log's own fields; the other's
// waits here.
type logPlace struct {
	list     widget.List
	expanded int
	paused   bool
}

// NewLog is the Log tab, drawn with c's styles and keys, on the wire.
func NewLog(c *widget.Common) *Log { return &Log{c: c, expanded: -1} }

// Title is "Log".
func (*Log) Title() string { return "Log" }

// Help is the pane's keys while an entry shows whole, else the list's.
func (p *Log) Help() []key.Binding { return listOrPaneHelp(p.c, p.open() >= 0) }

// Filtering reports whether the list's filter is being typed.
func (p *Log) Filtering() bool { return p.list.Filtering() }

// Copy is the entry shown whole or, on the list, the one under the
// cursor, as enter would show it.
func (p *Log) Copy() string {
	e := p.open()
	if e < 0 {
		e = p.list.Cursor()
	}
	return ansi.Strip(widget.Redact(p.textAt(e)))
}

// Selected is the wire log's entry shown whole or, on the list, the one
// under the cursor; false while the server's log shows, or none is.
func (p *Log) Selected() (mcpclient.WireEntry, bool) {
	if p.server {
		return mcpclient.WireEntry{}, false
	}
	e := p.open()
	if e < 0 {
		e = p.list.Cursor()
	}
	i, ok := p.wireEntry(e)
	if !ok || i >= len(p.wire) {
		return mcpclient.WireEntry{}, false
	}
	return p.wire[i], true
}

// Focus tells the page whether it shows: it follows new lines only then.
func (p *Log) Focus(shown bool) { p.shown = shown }

// Update takes the traffic, the room, and the keys and wheel of the list
// and the pane; after each, the lines follow the newest unless paused.
func (p *Log) Update(msg tea.Msg) Action {
	var a Action
	switch msg := msg.(type) {
	case Wire:
		p.wire = msg
	case LogEvents:
		p.add(msg)
	case ServerLogStatus:
		p.status = msg
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

func (p *Log) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	if p.list.Filtering() {
		p.list.Update(msg, p.c.Keys, p.rowCount())
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		p.expanded = p.list.Cursor()
	case key.Matches(msg, k.LogView):
		p.toggle()
	case p.move(msg):
	case key.Matches(msg, k.Collapse, k.Back):
		p.expanded = -1
	case key.Matches(msg, k.Focus):
	case p.open() >= 0 && p.pane.Scroll(msg, k, true):
	case key.Matches(msg, k.Filter):
		p.list.Update(msg, p.c.Keys, p.rowCount())
	default:
		return layer.Pass{}
	}
	return nil
}

// move moves through the list, reporting whether the key was one that
// does. The log follows new lines while the cursor is on the newest, and
// stops once it is moved off.
func (p *Log) move(msg tea.KeyMsg) bool {
	if p.open() >= 0 {
		return false
	}
	k := p.c.Keys.Tabs
	n := p.rowCount()
	l := &p.list
	page := max(p.room.Height-2, 1) // the filter's line and the status aside
	l.SetLen(n)
	switch {
	case key.Matches(msg, k.Up):
		l.Move(-1)
	case key.Matches(msg, k.Down):
		l.Move(1)
	case key.Matches(msg, k.PageUp):
		l.Move(-page)
	case key.Matches(msg, k.PageDown):
		l.Move(page)
	case key.Matches(msg, k.Top):
		l.Select(0)
	case key.Matches(msg, k.Bottom):
		l.Select(n - 1)
	default:
		return false
	}
	p.paused = l.Cursor() < n-1
	return true
}

// sync makes the lines for the wire log, keeps the cursor on the newest
// line the filter lets through unless it was moved off, and gives the
// pane the entry shown whole.
func (p *Log) sync() {
	if mark := markOf(p.wire); mark != p.seen || len(p.lines) != len(p.wire) {
		p.seen = mark
		old := p.lines
		p.lines, p.made = makeLines(p.wire, p.made)
		list, expanded := &p.list, &p.expanded
		if p.server { // the wire's place waits while the server's log shows
			list, expanded = &p.away.list, &p.away.expanded
		}
		if list.Filter() == "" { // the lines are the entries
			list.Place(p.moved(old, list.Cursor()), len(p.lines))
			*expanded = p.moved(old, *expanded)
		}
	}
	if p.shown && !p.paused {
		n := p.rowCount()
		p.list.Place(n-1, n)
	}
	if e := p.open(); e >= 0 {
		p.pane.Set(widget.Redact(p.textAt(e)), p.room.Width, p.room.Height-1)
	}
}

// rowCount is how many lines the view lists.
func (p *Log) rowCount() int {
	switch {
	case p.server && p.list.Filter() == "":
		return len(p.events)
	case p.server:
		return len(p.serverRows())
	case p.list.Filter() == "":
		return len(p.lines)
	}
	rows, _ := p.wireRows()
	return len(rows)
}

// open is the line shown whole, or -1.
func (p *Log) open() int {
	e := p.expanded
	if _, ok := p.serverEntry(e); ok && p.server {
		return e
	}
	if _, ok := p.wireEntry(e); ok && !p.server {
		return e
	}
	return -1
}

// View lists the log, one message a line, over a line that says whether
// it follows new messages, or shows one whole.
func (p *Log) View(width, height int) string {
	if p.open() >= 0 {
		return p.pane.View(p.c, closesHint(p.c))
	}
	if p.server {
		return p.serverView(width, height)
	}
	rows, _ := p.wireRows()
	list := p.list.View(p.c, widget.Names(rows), nil, width, height-1)
	if pad := height - 1 - lipgloss.Height(list); pad > 0 {
		list += strings.Repeat("\n", pad)
	}
	return list + "\n" + widget.Fit(p.wireStatus(len(rows)), width)
}

// wireStatus says whether the log follows new messages, and how to make
// it follow again when it does not.
func (p *Log) wireStatus(n int) string {
	d := p.c.Styles.Dim
	k := p.c.Keys.Tabs
	var out string
	if !p.paused {
		out = d.Render(fmt.Sprintf("following new messages · %d", n))
	} else {
		out = d.Render(fmt.Sprintf("paused at %d of %d · ", p.list.Cursor()+1, n)) + p.c.KeyLine(keys.Hint(k.Bottom.Help().Key, "follows", k.Bottom))
	}
	server := "server log"
	if p.unseen > 0 {
		server += fmt.Sprintf(" (%d new)", p.unseen)
	}
	return out + d.Render(" · ") + p.c.KeyLine(keys.Hint(k.LogView.Help().Key, server, k.LogView))
}

// textAt is the entry the e-th line of the view shows, whole.
func (p *Log) textAt(e int) string {
	if p.server {
		return p.serverTextAt(e)
	}
	return p.wireTextAt(e)
}

// logLine is one entry of the wire log as the Log tab shows it: label is
// what it is ("← tools/call #5 error -32602"), row is the list's line.
type logLine struct {
	key        wireKey
	label, row string
}

// wireKey tells the entries of the wire log apart.
type wireKey struct {
	at  int64
	dir mcpclient.Direction
	id  string
	n   int
}

func keyOf(e mcpclient.WireEntry) wireKey {
	return wireKey{e.Time.UnixNano(), e.Dir, string(e.ID), len(e.Message) + len(e.Text)}
}

// wireMark tells whether the wire log changed since the lines were made:
// entries are only added at its end and dropped at its start.
type wireMark struct {
	n           int
	first, last wireKey
}

func markOf(wire []mcpclient.WireEntry) wireMark {
	if len(wire) == 0 {
		return wireMark{}
	}
	return wireMark{len(wire), keyOf(wire[0]), keyOf(wire[len(wire)-1])}
}

// moved is where the entry on line i of old lines is now: a full wire log
// drops its oldest entries as new ones arrive, so that the cursor and the
// open entry stay on their message rather than on its place.
func (p *Log) moved(old []logLine, i int) int {
	if i < 0 || i >= len(old) {
		return i
	}
	for j := min(i, len(p.lines)-1); j >= 0; j-- {
		if p.lines[j].key == old[i].key {
			return j
		}
	}
	return 0 // it left the log: the oldest line is nearest
}

// makeLines makes a line for each entry, reusing those already made: a
// response keeps the method it answers once its request has left the
// log.
func makeLines(wire []mcpclient.WireEntry, made map[wireKey]logLine) ([]logLine, map[wireKey]logLine) {
	methods := map[string]string{} // by direction and id: the requests in the log
	for _, e := range wire {
		if e.Method != "" && e.ID != nil {
			methods[string(e.Dir)+string(e.ID)] = e.Method
		}
	}
	lines := make([]logLine, len(wire))
	next := make(map[wireKey]logLine, len(wire))
	for i, e := range wire {
		k := keyOf(e)
		l, ok := made[k]
		if !ok {
			l = makeLine(e, methods)
		}
		lines[i], next[k] = l, l
	}
	return lines, next
}

// The marks of the Log tab: the direction of a message, and the lines
// that are not messages.
const (
	markSent   = "→"
	markRecv   = "←"
	markStderr = "┆ stderr"
	markNote   = "· note"
)

func makeLine(e mcpclient.WireEntry, methods map[string]string) logLine {
	var label string
	switch e.Dir {
	case mcpclient.DirStderr:
		label = markStderr
	case mcpclient.DirNote:
		label = markNote
	case mcpclient.DirSend, mcpclient.DirRecv:
		label = messageLabel(e, methods)
	default:
		label = string(e.Dir)
	}
	text := e.Text
	if len(e.Message) > 0 {
		text = string(e.Message)
	}
	return logLine{key: keyOf(e), label: widget.Clean(label), row: widget.Clean(e.Time.Format("15:04:05.000") + " " + label + "  " + text)}
}

// messageLabel says what a message is: its direction, then its method
// and id, or for a response the method of the request it answers, its id
// and its outcome.
func messageLabel(e mcpclient.WireEntry, methods map[string]string) string {
	arrow, other := markSent, mcpclient.DirRecv
	if e.Dir == mcpclient.DirRecv {
		arrow, other = markRecv, mcpclient.DirSend
	}
	id := ""
	if e.ID != nil {
		id = " #" + strings.Trim(string(e.ID), `"`)
	}
	if e.Method != "" || e.ID == nil {
		return arrow + " " + e.Method + id
	}
	method := methods[string(other)+string(e.ID)]
	if method == "" {
		method = "response"
	}
	label := arrow + " " + method + id
	if o := outcome(e.Message); o != "" {
		label += " " + o
	}
	return label
}

// outcome is how a response ended: "result", "error -32602", or
// "input_required" when the result asks for more input first.
func outcome(msg json.RawMessage) string {
	var r struct {
		Result *struct {
			ResultType string `json:"resultType"`
		} `json:"result"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if len(msg) == 0 || json.Unmarshal(msg, &r) != nil {
		return ""
	}
	switch {
	case r.Error != nil:
		return fmt.Sprintf("error %d", r.Error.Code)
	case r.Result != nil && r.Result.ResultType == "input_required":
		return "input_required"
	case r.Result != nil:
		return "result"
	}
	return ""
}

// wireRows are the log's lines the filter lets through, and the entry
// each shows.
func (p *Log) wireRows() (rows []string, entries []int) {
	for i, l := range p.lines {
		if p.list.Matches(l.row) {
			rows, entries = append(rows, l.row), append(entries, i)
		}
	}
	return rows, entries
}

// wireEntry is the entry the e-th line the filter lets through shows.
// Without a filter it is the e-th entry, found without drawing the log.
func (p *Log) wireEntry(e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if p.list.Filter() == "" {
		return e, e < len(p.lines)
	}
	_, entries := p.wireRows()
	if e >= len(entries) {
		return 0, false
	}
	return entries[e], true
}

// wireTextAt is the entry the e-th line the filter lets through shows,
// whole.
func (p *Log) wireTextAt(e int) string {
	i, ok := p.wireEntry(e)
	if !ok || i >= len(p.wire) {
		return ""
	}
	w := p.wire[i]
	head := p.c.Styles.Title.Render(w.Time.Format("15:04:05.000") + " " + p.lines[i].label)
	body := w.Text
	if len(w.Message) > 0 {
		body = widget.PrettyText(string(w.Message))
	}
	return head + "\n" + p.c.Styles.ColourJSON(widget.Clean(body))
}

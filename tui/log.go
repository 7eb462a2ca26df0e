package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// logState is the Log tab's own state: whether it follows new traffic,
// and its lines, made once per entry of the wire log (Model.wire), so
// that the poll that refreshes the log twice a second does not parse
// every message again.
type logState struct {
	// paused: the cursor is off the newest line, so new traffic does not
	// move it. Moving back to the newest line (end/G) follows again.
	paused bool
	lines  []logLine // one per entry of Model.wire
	made   map[wireKey]logLine
	seen   wireMark // the wire log the lines were made for

	// The server's log (serverlog.go): whether the tab shows it rather
	// than the wire, the other view's place, its lines as made so far,
	// how many messages left it, the message last opened whole, and how
	// many arrived while the wire was shown.
	server, toggled bool
	away            logPlace
	srvRows         []string
	srvGone         int
	openID          int // srvGone+index+1 of the message openText shows
	openText        string
	unseen          int
	level           string // the level chosen with L, which a new connection is set to again
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

// syncLog makes the Log tab's lines for the wire log, and keeps its
// cursor on the newest line the filter lets through unless the person
// moved it off; Update calls it after every message.
func (m *Model) syncLog() {
	l := &m.log
	if mark := markOf(m.wire); mark != l.seen || len(l.lines) != len(m.wire) {
		l.seen = mark
		old := l.lines
		l.lines, l.made = makeLines(m.wire, l.made)
		pick, expanded := &m.pick[tabLog], &m.expanded[tabLog]
		if l.server { // the wire's place waits while the server's log shows
			pick, expanded = &l.away.pick, &l.away.expanded
		}
		if pick.Filter() == "" { // the lines are the entries
			pick.Place(l.moved(old, pick.Cursor()), len(l.lines))
			*expanded = l.moved(old, *expanded)
		}
	}
	if m.tab != tabLog || l.paused {
		return
	}
	n := m.logRowCount()
	m.pick[tabLog].Place(n-1, n)
}

// logRowCount is how many lines the Log tab's view lists.
func (m *Model) logRowCount() int {
	switch {
	case m.log.server && m.pick[tabLog].Filter() == "":
		return len(m.serverLog)
	case m.log.server:
		return len(m.serverRows())
	case m.pick[tabLog].Filter() == "":
		return len(m.log.lines)
	}
	rows, _ := m.wireRows()
	return len(rows)
}

// moved is where the entry on line i of old lines is now: a full wire log
// drops its oldest entries as new ones arrive, so that the cursor and the
// open entry stay on their message rather than on its place.
func (l *logState) moved(old []logLine, i int) int {
	if i < 0 || i >= len(old) {
		return i
	}
	for j := min(i, len(l.lines)-1); j >= 0; j-- {
		if l.lines[j].key == old[i].key {
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
	if o := outcome(e.Outcome()); o != "" {
		label += " " + o
	}
	return label
}

// outcome is how a response ended: "result", "error -32602", or
// "input_required" when the result asks for more input first.
func outcome(o mcpclient.Outcome) string {
	switch o.Kind {
	case mcpclient.OutcomeError:
		return fmt.Sprintf("error %d", o.Code)
	case mcpclient.OutcomeInputRequired:
		return "input_required"
	case mcpclient.OutcomeResult:
		return "result"
	case mcpclient.OutcomeNone:
	}
	return ""
}

// logView lists the wire log, one message a line, over a line that says
// whether it follows new traffic; enter shows one message whole.
func (m *Model) logView(h int) string {
	if m.expandedEntry() >= 0 {
		return m.paneView(m.closesHint())
	}
	if m.log.server {
		return m.serverLogView(h)
	}
	rows, _ := m.wireRows()
	list := m.pick[tabLog].View(&m.c, widget.Names(rows), nil, m.c.Width, h-1)
	if pad := h - 1 - lipgloss.Height(list); pad > 0 {
		list += strings.Repeat("\n", pad)
	}
	return list + "\n" + widget.Fit(m.logStatus(len(rows)), m.c.Width)
}

// logStatus says whether the log follows new messages, and how to make
// it follow again when it does not.
func (m *Model) logStatus(n int) string {
	d := m.c.Styles.Dim
	k := m.c.Keys.Tabs
	var out string
	if !m.log.paused {
		out = d.Render(fmt.Sprintf("following new messages · %d", n))
	} else {
		out = d.Render(fmt.Sprintf("paused at %d of %d · ", m.pick[tabLog].Cursor()+1, n)) + m.c.KeyLine(keys.Hint(k.Bottom.Help().Key, "follows", k.Bottom))
	}
	server := "server log"
	if m.log.unseen > 0 {
		server += fmt.Sprintf(" (%d new)", m.log.unseen)
	}
	return out + d.Render(" · ") + m.c.KeyLine(keys.Hint(k.LogView.Help().Key, server, k.LogView))
}

// logKey moves through the log's list, reporting whether the key was one
// that does. The log follows new messages while the cursor is on the
// newest line, and stops once it is moved off.
func (m *Model) logKey(msg tea.KeyMsg) bool {
	if m.tab != tabLog || m.expandedEntry() >= 0 {
		return false
	}
	k := m.c.Keys.Tabs
	n := m.logRowCount()
	p := &m.pick[tabLog]
	page := max(m.bodyHeight()-2, 1) // the filter's line and the status aside
	p.SetLen(n)
	switch {
	case key.Matches(msg, k.Up):
		p.Move(-1)
	case key.Matches(msg, k.Down):
		p.Move(1)
	case key.Matches(msg, k.PageUp):
		p.Move(-page)
	case key.Matches(msg, k.PageDown):
		p.Move(page)
	case key.Matches(msg, k.Top):
		p.Select(0)
	case key.Matches(msg, k.Bottom):
		p.Select(n - 1)
	default:
		return false
	}
	m.log.paused = p.Cursor() < n-1
	return true
}

// wireRows are the log's lines the filter lets through, and the entry
// each shows.
func (m *Model) wireRows() (rows []string, entries []int) {
	p := &m.pick[tabLog]
	for i, l := range m.log.lines {
		if p.Matches(l.row) {
			rows, entries = append(rows, l.row), append(entries, i)
		}
	}
	return rows, entries
}

// wireEntry is the entry the e-th line the filter lets through shows.
// Without a filter it is the e-th entry, found without drawing the log.
func (m *Model) wireEntry(e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if m.pick[tabLog].Filter() == "" {
		return e, e < len(m.log.lines)
	}
	_, entries := m.wireRows()
	if e >= len(entries) {
		return 0, false
	}
	return entries[e], true
}

// logText is the Log tab's expanded entry: a wire message or a server
// log message.
func (m *Model) logText() string { return m.logTextAt(m.expanded[tabLog]) }

// logTextAt is the entry the e-th line of the Log tab's view shows,
// whole.
func (m *Model) logTextAt(e int) string {
	if m.log.server {
		return m.serverTextAt(e)
	}
	return m.wireTextAt(e)
}

// wireTextAt is the entry the e-th line the filter lets through shows,
// as wireText shows it.
func (m *Model) wireTextAt(e int) string {
	i, ok := m.wireEntry(e)
	if !ok || i >= len(m.wire) {
		return ""
	}
	w := m.wire[i]
	head := m.c.Styles.Title.Render(w.Time.Format("15:04:05.000") + " " + m.log.lines[i].label)
	body := w.Text
	if len(w.Message) > 0 {
		body = widget.PrettyText(string(w.Message))
	}
	return head + "\n" + m.c.Styles.ColourJSON(widget.Clean(body))
}

// expandedEntry is the entry the Requests or Log tab shows whole, or
// -1.
func (m *Model) expandedEntry() int {
	e := m.expanded[m.tab]
	switch m.tab {
	case tabRequests:
		if e < len(m.records) {
			return e
		}
	case tabLog:
		if _, ok := m.serverEntry(e); ok && m.log.server {
			return e
		}
		if _, ok := m.wireEntry(e); ok && !m.log.server {
			return e
		}
	case tabTools, tabResources, tabPrompts, tabInfo, tabCount:
	}
	return -1
}

package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The server's log: its notifications/message, shown on the Log tab in
// place of the wire traffic (v switches between the two). Both are
// streams of what came over the connection, listed, filtered, followed
// and opened alike; the server's log reads as a log (time, level, logger,
// data), coloured by level. L sets the level the server logs at.
//
// It costs little per delivery: a message is kept as it came (its data
// already cut by mcpclient), and its line is made only when it is drawn or
// filtered, once.

// logPlace is where one of the Log tab's two views stands: its filter and
// cursor, the entry shown whole, and whether it follows new lines. The
// view on screen keeps its place in the tab's own state (Model.pick,
// Model.expanded, logState.paused); the other's waits here.
type logPlace struct {
	pick     widget.List
	expanded int
	paused   bool
}

// notifyKey handles the keys of what the server tells: the Log tab's
// view, the log level, a resource's subscription.
func (m *Model) notifyKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.Keys.Tabs
	switch {
	case key.Matches(msg, k.LogView) && m.tab == tabLog:
		m.toggleLogView()
	case key.Matches(msg, k.LogLevel):
		return m.openLevelPicker()
	case key.Matches(msg, k.Subscribe) && m.tab == tabResources:
		return m.toggleSubscription()
	}
	return nil
}

// toggleLogView switches the Log tab between the wire and the server's log.
func (m *Model) toggleLogView() {
	l := &m.log
	if !l.toggled { // the server's view starts closed, following
		l.away.expanded, l.toggled = -1, true
	}
	here := logPlace{m.pick[tabLog], m.expanded[tabLog], l.paused}
	m.pick[tabLog], m.expanded[tabLog], l.paused = l.away.pick, l.away.expanded, l.away.paused
	l.away = here
	l.server = !l.server
	if l.server {
		l.unseen = 0
	}
}

// serverPlace is the server view's place, on screen or waiting.
func (m *Model) serverPlace() (pick *widget.List, expanded *int) {
	if m.log.server {
		return &m.pick[tabLog], &m.expanded[tabLog]
	}
	if !m.log.toggled {
		return nil, nil
	}
	return &m.log.away.pick, &m.log.away.expanded
}

// clearServerLog forgets the server's log (another server's begins), and
// the lines drawn of it; the messages' ids go on from where they were.
func (m *Model) clearServerLog() {
	m.log.srvGone += len(m.serverLog)
	m.serverLog, m.log.srvRows = nil, nil
	m.log.openID, m.log.openText, m.log.unseen = 0, "", 0
	m.log.away = logPlace{}
}

// trimServerLog drops the oldest log messages beyond maxServerLog, once a
// batch; the server view's cursor and open entry stay on their messages.
func (m *Model) trimServerLog() {
	over := len(m.serverLog) - maxServerLog
	if over <= 0 {
		return
	}
	m.serverLog = append(m.serverLog[:0:0], m.serverLog[over:]...)
	m.log.srvGone += over
	if len(m.log.srvRows) >= over {
		m.log.srvRows = append(m.log.srvRows[:0:0], m.log.srvRows[over:]...)
	} else {
		m.log.srvRows = nil
	}
	filtered := (m.log.server && m.pick[tabLog].Filter() != "") || (!m.log.server && m.log.away.pick.Filter() != "")
	if pick, expanded := m.serverPlace(); pick != nil && !filtered {
		pick.Place(pick.Cursor()-over, len(m.serverLog))
		if *expanded >= 0 {
			if *expanded -= over; *expanded < 0 {
				*expanded = -1 // it left the log
			}
		}
	}
}

// logLevelWidth is the width of the level column: "emergency".
const logLevelWidth = 9

// maxLogRowData bounds the data a list line holds (and the filter
// searches); enter shows all that was kept.
const maxLogRowData = 512

// serverRow is the list's line for the i-th message: its time, level,
// logger and data on one line (how long data cut short was is added when
// it is drawn). Lines are made once, when first needed.
func (m *Model) serverRow(i int) string {
	for len(m.log.srvRows) < len(m.serverLog) {
		m.log.srvRows = append(m.log.srvRows, "")
	}
	if r := m.log.srvRows[i]; r != "" {
		return r
	}
	e := m.serverLog[i]
	data := widget.Line(logData(e.Data, e.Cut > 0, maxLogRowData), maxLogRowData)
	logger := ""
	if e.Logger != "" {
		logger = widget.Line(e.Logger, 40) + "  "
	}
	r := e.Time.Format("15:04:05.000") + " " + fmt.Sprintf("%-*s", logLevelWidth, widget.Line(e.Level, 20)) + "  " + logger + data
	m.log.srvRows[i] = r
	return r
}

// logData is a message's data as a person reads it: a string as its
// text, anything else as the compact JSON mcpclient made of it. Data that
// mcpclient cut is a JSON string holding the start of the data's JSON:
// that start is read the same way, as far as it goes. With limit > 0,
// only about limit bytes are read.
func logData(data json.RawMessage, cut bool, limit int) string {
	if cut {
		data = json.RawMessage(jsonText(data, 0)) // the start of the data's JSON
	}
	if len(data) > 0 && data[0] == '"' {
		return jsonText(data, limit)
	}
	if limit > 0 {
		return widget.CutText(string(data), 4*limit)
	}
	return string(data)
}

// jsonText is the text of a JSON string, which may be cut short: its
// escapes undone as far as it goes. With limit > 0, only about limit
// bytes are read.
func jsonText(raw json.RawMessage, limit int) string {
	if limit > 0 && len(raw) > 4*limit {
		raw = raw[:4*limit]
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	// Cut short: close it, back from an escape cut in two (\u00e9 is
	// the longest).
	for k := 0; k < 6 && k < len(raw); k++ {
		if json.Unmarshal(append(raw[:len(raw)-k:len(raw)-k], '"'), &s) == nil {
			return s
		}
	}
	return strings.TrimPrefix(string(raw), `"`)
}

// bytesCount is a byte count in words: "3145728 bytes".
func bytesCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// serverRows are the indices of the messages the filter lets through.
func (m *Model) serverRows() []int {
	p := &m.pick[tabLog]
	out := make([]int, 0, len(m.serverLog))
	for i := range m.serverLog {
		if p.Filter() == "" || p.Matches(m.serverRow(i)) {
			out = append(out, i)
		}
	}
	return out
}

// serverEntry is the message the e-th line the filter lets through shows.
func (m *Model) serverEntry(e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if m.pick[tabLog].Filter() == "" {
		return e, e < len(m.serverLog)
	}
	rows := m.serverRows()
	if e >= len(rows) {
		return 0, false
	}
	return rows[e], true
}

// serverLogView lists the server's log messages, one a line, over a line
// that says the level and whether it follows new messages.
func (m *Model) serverLogView(h int) string {
	rows := m.serverRows()
	p := &m.pick[tabLog]
	width := m.c.Width
	var b strings.Builder
	b.WriteString(p.Head(&m.c, width))
	height := max(h-2, 1)
	switch {
	case len(rows) == 0 && len(m.serverLog) == 0:
		b.WriteString("\n" + m.c.Styles.Dim.Render(widget.Line(m.serverLogEmpty(), width)))
	case len(rows) == 0:
		b.WriteString("\n" + m.c.Styles.Dim.Render("(none)"))
	}
	p.SetLen(len(rows))
	first, end, pos := p.Visible(height)
	for j := first; j < end; j++ {
		b.WriteString("\n" + m.serverLine(rows[j], j == p.Cursor(), width))
	}
	if pos != "" {
		b.WriteString("\n" + m.c.Styles.Dim.Render(widget.Fit(pos, width)))
	}
	list := b.String()
	if pad := h - 1 - lipgloss.Height(list); pad > 0 {
		list += strings.Repeat("\n", pad)
	}
	return list + "\n" + widget.Fit(m.serverLogStatus(len(rows)), width)
}

// serverLine draws the i-th message's line: the cursor's reversed, the
// others with their level coloured.
func (m *Model) serverLine(i int, selected bool, width int) string {
	// Its parts are clean; a message cut short says how long it was, at
	// the end of the line.
	var cut string
	if n := m.serverLog[i].Cut; n > 0 {
		cut = fmt.Sprintf(" … (%s)", bytesCount(n))
	}
	row := ansi.Truncate(m.serverRow(i), max(width-2-ansi.StringWidth(cut), 1), "…") + cut
	if selected {
		return m.c.Styles.Selected.Render("> " + row)
	}
	const at = len("15:04:05.000 ")
	level := m.serverLog[i].Level
	if len(row) < at+logLevelWidth || !slices.Contains(mcpclient.LogLevels, level) {
		return "  " + row
	}
	return "  " + row[:at] + m.c.Styles.Level(level).Render(row[at:at+logLevelWidth]) + row[at+logLevelWidth:]
}

// serverLogEmpty says why the server's log is empty.
func (m *Model) serverLogEmpty() string {
	switch {
	case m.conn == nil:
		return "not connected"
	case !offersLogging(m.conn):
		return "the server does not offer logging (no logging capability): it may send no log messages"
	case m.conn.LogLevel() == "":
		return "no log messages yet: many servers send none until a level is set (" + m.c.Keys.Tabs.LogLevel.Help().Key + " sets it)"
	}
	return "no log messages yet at level " + m.conn.LogLevel() + " and above"
}

// serverLogStatus is the view's last line: the level, whether it follows
// new messages, and the key back to the wire.
func (m *Model) serverLogStatus(n int) string {
	d := m.c.Styles.Dim
	k := m.c.Keys.Tabs
	level := "level not set"
	if m.conn != nil && m.conn.LogLevel() != "" {
		level = "level " + m.conn.LogLevel()
	}
	out := d.Render("server log · " + level + " · ")
	if m.log.paused {
		out += d.Render(fmt.Sprintf("paused at %d of %d · ", m.pick[tabLog].Cursor()+1, n)) + m.c.KeyLine(keys.Hint(k.Bottom.Help().Key, "follows", k.Bottom))
	} else {
		out += d.Render(fmt.Sprintf("following new messages · %d", n))
	}
	if m.droppedEvents > 0 {
		out += m.c.Styles.Warn.Render(fmt.Sprintf(" · %d notifications dropped (too many at once)", m.droppedEvents))
	}
	return out + d.Render(" · ") + m.c.KeyLine(keys.Hint(k.LogLevel.Help().Key, "level", k.LogLevel), keys.Hint(k.LogView.Help().Key, "wire", k.LogView))
}

// serverTextAt is the message the e-th line the filter lets through shows,
// whole: its time, level and logger, then its data, pretty-printed, and
// how much of it was dropped.
func (m *Model) serverTextAt(e int) string {
	i, ok := m.serverEntry(e)
	if !ok {
		return ""
	}
	id := m.log.srvGone + i
	if m.log.openID == id+1 && m.log.openText != "" {
		return m.log.openText
	}
	ev := m.serverLog[i]
	s := m.c.Styles
	head := s.Title.Render(ev.Time.Format("15:04:05.000")+" ") + s.Level(ev.Level).Render(widget.Clean(ev.Level))
	if ev.Logger != "" {
		head += s.Title.Render(" " + widget.Clean(ev.Logger))
	}
	text := head + "\n"
	if ev.Cut > 0 { // said first: the end is far down
		text += s.Warn.Render(fmt.Sprintf("… (%s: mcpeek kept the first %s)", bytesCount(ev.Cut), bytesCount(len(ev.Data)))) + "\n"
	}
	text += s.ColourJSON(widget.Clean(widget.PrettyText(logData(ev.Data, ev.Cut > 0, 0))))
	if ev.Cut > 0 {
		text += "…"
	}
	m.log.openID, m.log.openText = id+1, text
	return text
}

// offersLogging reports whether the server offers logging.
func offersLogging(conn *mcpclient.Conn) bool {
	//lint:ignore SA1019 logging is deprecated from 2026-07-28 on, and still offered by servers of both eras
	return conn.ServerCapabilities().Logging != nil
}

// openLevelPicker opens the level picker (tui/layer) on the current
// level, when the server offers logging.
func (m *Model) openLevelPicker() tea.Cmd {
	switch {
	case m.conn == nil || m.state != stateConnected:
		return func() tea.Msg { return statusMsg{"not connected: no log level to set", true} }
	case !offersLogging(m.conn):
		return func() tea.Msg {
			return statusMsg{"the server does not offer logging (no logging capability)", true}
		}
	}
	m.host(layer.NewLevelPicker(&m.c, m.conn.LogLevel(), m.conn.ProtocolVersion() >= mcpclient.ProtocolModern))
	return nil
}

// setLogLevel asks the server to log at a level, in a command.
func setLogLevel(conn *mcpclient.Conn, level string) tea.Cmd {
	if conn == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		return levelSetMsg{level, conn.SetLogLevel(ctx, level)}
	}
}

// levelSetMsg says how setting the log level ended.
type levelSetMsg struct {
	level string
	err   error
}

func (msg levelSetMsg) update(m *Model) tea.Cmd {
	if msg.err != nil {
		m.status = statusMsg{"setting the log level failed: " + widget.Clean(msg.err.Error()), true}
		return nil
	}
	m.log.level = msg.level
	m.status = statusMsg{"the server now logs at " + msg.level + " and above", false}
	return nil
}

// keepLogLevel sets a new connection to the level chosen with L before
// (a reconnection does not lose it).
func (m *Model) keepLogLevel() tea.Cmd {
	if l := m.log.level; l == "" || m.conn == nil || m.conn.LogLevel() == l || !offersLogging(m.conn) {
		return nil
	}
	return setLogLevel(m.conn, m.log.level)
}

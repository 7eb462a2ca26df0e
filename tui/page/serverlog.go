// The server's log on the Log tab: its notifications/message, shown in
// place of the wire traffic (v switches between the two). Both are
// streams of what came over the connection, listed, filtered, followed
// and opened alike; the server's log reads as a log (time, level, logger,
// data), coloured by level.
//
// It costs little per delivery: a message is kept as it came (its data
// already cut by mcpclient), and its line is made only when it is drawn or
// filtered, once.

package page

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// LogEvents are a batch of the server's log messages, oldest first, as
// they arrived: the Log tab keeps them, up to [MaxServerLog].
type LogEvents []mcpclient.LogEvent

// ServerLogStatus is what the server's log says of the connection: the
// program sends it after every message.
type ServerLogStatus struct {
	Connected bool   // there is a connection
	Logging   bool   // the server offers logging
	Level     string // the level the server logs at, "" when not set
	Dropped   int    // notifications dropped because they came too fast
}

// MaxServerLog bounds the server log messages the Log tab keeps.
const MaxServerLog = 2000

// ServerLog is the server's log messages kept, oldest first.
func (p *Log) ServerLog() []mcpclient.LogEvent { return p.events }

// add keeps a batch of log messages, and drops the oldest beyond
// MaxServerLog, once a batch; the server view's cursor and open entry
// stay on their messages.
func (p *Log) add(batch LogEvents) {
	p.events = append(p.events, batch...)
	if !p.server {
		p.unseen += len(batch)
	}
	over := len(p.events) - MaxServerLog
	if over <= 0 {
		return
	}
	p.events = append(p.events[:0:0], p.events[over:]...)
	p.srvGone += over
	if len(p.srvRows) >= over {
		p.srvRows = append(p.srvRows[:0:0], p.srvRows[over:]...)
	} else {
		p.srvRows = nil
	}
	list, expanded := p.serverPlace()
	if list == nil || list.Filter() != "" {
		return
	}
	list.Place(list.Cursor()-over, len(p.events))
	if *expanded >= 0 {
		if *expanded -= over; *expanded < 0 {
			*expanded = -1 // it left the log
		}
	}
}

// toggle switches between the wire and the server's log.
func (p *Log) toggle() {
	if !p.toggled { // the server's view starts closed, following
		p.away.expanded, p.toggled = -1, true
	}
	here := logPlace{p.list, p.expanded, p.paused}
	p.list, p.expanded, p.paused = p.away.list, p.away.expanded, p.away.paused
	p.away = here
	p.server = !p.server
	if p.server {
		p.unseen = 0
	}
}

// serverPlace is the server view's place, on screen or waiting.
func (p *Log) serverPlace() (list *widget.List, expanded *int) {
	if p.server {
		return &p.list, &p.expanded
	}
	if !p.toggled {
		return nil, nil
	}
	return &p.away.list, &p.away.expanded
}

// maxLogRowData bounds the data a list line holds (and the filter
// searches); enter shows all that was kept.
const maxLogRowData = 512

// serverRow is the list's line for the i-th message: its time, level,
// logger and data on one line (how long data cut short was is added when
// it is drawn). Lines are made once, when first needed.
func (p *Log) serverRow(i int) string {
	for len(p.srvRows) < len(p.events) {
		p.srvRows = append(p.srvRows, "")
	}
	if r := p.srvRows[i]; r != "" {
		return r
	}
	e := p.events[i]
	data := widget.Line(logData(e.Data, e.Cut > 0, maxLogRowData), maxLogRowData)
	logger := ""
	if e.Logger != "" {
		logger = widget.Line(e.Logger, 40) + "  "
	}
	r := e.Time.Format("15:04:05.000") + " " + fmt.Sprintf("%-*s", widget.LevelWidth, widget.Line(e.Level, 20)) + "  " + logger + data
	p.srvRows[i] = r
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
func (p *Log) serverRows() []int {
	out := make([]int, 0, len(p.events))
	for i := range p.events {
		if p.list.Filter() == "" || p.list.Matches(p.serverRow(i)) {
			out = append(out, i)
		}
	}
	return out
}

// serverEntry is the message the e-th line the filter lets through shows.
func (p *Log) serverEntry(e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if p.list.Filter() == "" {
		return e, e < len(p.events)
	}
	rows := p.serverRows()
	if e >= len(rows) {
		return 0, false
	}
	return rows[e], true
}

// serverView lists the server's log messages, one a line, over a line
// that says the level and whether it follows new messages.
func (p *Log) serverView(width, h int) string {
	rows := p.serverRows()
	l := &p.list
	var b strings.Builder
	b.WriteString(l.Head(p.c, width))
	height := max(h-2, 1)
	switch {
	case len(rows) == 0 && len(p.events) == 0:
		b.WriteString("\n" + p.c.Styles.Dim.Render(widget.Line(p.serverEmpty(), width)))
	case len(rows) == 0:
		b.WriteString("\n" + p.c.Styles.Dim.Render("(none)"))
	}
	l.SetLen(len(rows))
	first, end, pos := l.Visible(height)
	for j := first; j < end; j++ {
		b.WriteString("\n" + p.serverLine(rows[j], j == l.Cursor(), width))
	}
	if pos != "" {
		b.WriteString("\n" + p.c.Styles.Dim.Render(widget.Fit(pos, width)))
	}
	list := b.String()
	if pad := h - 1 - lipgloss.Height(list); pad > 0 {
		list += strings.Repeat("\n", pad)
	}
	return list + "\n" + widget.Fit(p.serverStatus(len(rows)), width)
}

// serverLine draws the i-th message's line: the cursor's reversed, the
// others with their level coloured.
func (p *Log) serverLine(i int, selected bool, width int) string {
	// Its parts are clean; a message cut short says how long it was, at
	// the end of the line.
	var cut string
	if n := p.events[i].Cut; n > 0 {
		cut = fmt.Sprintf(" … (%s)", bytesCount(n))
	}
	row := ansi.Truncate(p.serverRow(i), max(width-2-ansi.StringWidth(cut), 1), "…") + cut
	if selected {
		return p.c.Styles.Selected.Render("> " + row)
	}
	const at = len("15:04:05.000 ")
	level := p.events[i].Level
	if len(row) < at+widget.LevelWidth || !slices.Contains(mcpclient.LogLevels, level) {
		return "  " + row
	}
	return "  " + row[:at] + p.c.Styles.Level(level).Render(row[at:at+widget.LevelWidth]) + row[at+widget.LevelWidth:]
}

// serverEmpty says why the server's log is empty.
func (p *Log) serverEmpty() string {
	switch st := p.status; {
	case !st.Connected:
		return "not connected"
	case !st.Logging:
		return "the server does not offer logging (no logging capability): it may send no log messages"
	case st.Level == "":
		return "no log messages yet: many servers send none until a level is set (" + p.c.Keys.Tabs.LogLevel.Help().Key + " sets it)"
	}
	return "no log messages yet at level " + p.status.Level + " and above"
}

// serverStatus is the view's last line: the level, whether it follows
// new messages, and the key back to the wire.
func (p *Log) serverStatus(n int) string {
	d := p.c.Styles.Dim
	k := p.c.Keys.Tabs
	level := "level not set"
	if p.status.Connected && p.status.Level != "" {
		level = "level " + p.status.Level
	}
	out := d.Render("server log · " + level + " · ")
	if p.paused {
		out += d.Render(fmt.Sprintf("paused at %d of %d · ", p.list.Cursor()+1, n)) + p.c.KeyLine(keys.Hint(k.Bottom.Help().Key, "follows", k.Bottom))
	} else {
		out += d.Render(fmt.Sprintf("following new messages · %d", n))
	}
	if p.status.Dropped > 0 {
		out += p.c.Styles.Warn.Render(fmt.Sprintf(" · %d notifications dropped (too many at once)", p.status.Dropped))
	}
	return out + d.Render(" · ") + p.c.KeyLine(keys.Hint(k.LogLevel.Help().Key, "level", k.LogLevel), keys.Hint(k.LogView.Help().Key, "wire", k.LogView))
}

// serverTextAt is the message the e-th line the filter lets through shows,
// whole: its time, level and logger, then its data, pretty-printed, and
// how much of it was dropped.
func (p *Log) serverTextAt(e int) string {
	i, ok := p.serverEntry(e)
	if !ok {
		return ""
	}
	id := p.srvGone + i
	if p.openID == id+1 && p.openText != "" {
		return p.openText
	}
	ev := p.events[i]
	s := p.c.Styles
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
	p.openID, p.openText = id+1, text
	return text
}

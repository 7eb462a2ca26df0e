package tui

import (
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// logView lists the wire log, one message a line; enter shows one whole.
func (m *Model) logView(h int) string {
	if m.expandedEntry() >= 0 {
		return m.paneView(m.closesHint())
	}
	rows, _ := m.wireRows()
	return m.pick[tabLog].list(&m.c, rows, nil, m.c.width, h)
}

// wireRows are the log's lines the filter lets through, and the entry
// each shows.
func (m *Model) wireRows() (rows []string, entries []int) {
	p := &m.pick[tabLog]
	for i, e := range m.wire {
		if r := wireRow(e); p.matches(r) {
			rows, entries = append(rows, r), append(entries, i)
		}
	}
	return rows, entries
}

func wireRow(e mcpclient.WireEntry) string {
	what := e.Method
	if what == "" && e.ID != nil {
		what = "response " + string(e.ID)
	}
	text := string(e.Message)
	if e.Text != "" {
		text = e.Text
	}
	return clean(fmt.Sprintf("%s %-6s %s %s", e.Time.Format("15:04:05.000"), e.Dir, what, text))
}

// wireEntry is the entry the e-th line the filter lets through shows.
// Without a filter it is the e-th entry, found without drawing the log.
func (m *Model) wireEntry(e int) (int, bool) {
	if e < 0 {
		return 0, false
	}
	if m.pick[tabLog].filter == "" {
		return e, e < len(m.wire)
	}
	_, entries := m.wireRows()
	if e >= len(entries) {
		return 0, false
	}
	return entries[e], true
}

// wireText is the expanded log entry: what it is, then the message
// pretty-printed.
func (m *Model) wireText() string {
	i, ok := m.wireEntry(m.expanded[tabLog])
	if !ok {
		return ""
	}
	w := m.wire[i]
	what := w.Method
	if what == "" && w.ID != nil {
		what = "response " + string(w.ID)
	}
	head := m.c.styles.title.Render(clean(strings.TrimSpace(fmt.Sprintf("%s %s %s", w.Time.Format("15:04:05.000"), w.Dir, what))))
	body := w.Text
	if len(w.Message) > 0 {
		body = prettyText(string(w.Message))
	}
	return head + "\n" + clean(body)
}

// expandedEntry is the entry the Elicitations or Log tab shows whole, or
// -1.
func (m *Model) expandedEntry() int {
	e := m.expanded[m.tab]
	switch m.tab {
	case tabElicitations:
		if e < len(m.records) {
			return e
		}
	case tabLog:
		if _, ok := m.wireEntry(e); ok {
			return e
		}
	case tabTools, tabResources, tabPrompts, tabInfo, tabCount:
	}
	return -1
}

package tui

import "fmt"

// logView lists the wire log, one message a line; enter shows one whole.
func (m *Model) logView(h int) string {
	p := &m.pick[tabLog]
	var rows []string
	for _, e := range m.wire {
		what := e.Method
		if what == "" && e.ID != nil {
			what = "response " + string(e.ID)
		}
		text := string(e.Message)
		if e.Text != "" {
			text = e.Text
		}
		rows = append(rows, clean(fmt.Sprintf("%s %-6s %s %s", e.Time.Format("15:04:05.000"), e.Dir, what, text)))
	}
	var filtered []string
	for _, r := range rows {
		if p.matches(r) {
			filtered = append(filtered, r)
		}
	}
	if e := m.expanded[tabLog]; e >= 0 && e < len(filtered) {
		return block(filtered[e], m.c.width, h-1) + "\n" + m.closesHint()
	}
	return p.list(&m.c, filtered, nil, m.c.width, h)
}

package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// elicitationsView lists the elicitations answered, newest first; enter
// shows one's request and response.
func (m *Model) elicitationsView(h int) string {
	s := m.c.styles
	if len(m.records) == 0 {
		return s.dim.Render("No elicitations yet. Call a tool that asks for input (Tools tab).")
	}
	if m.expandedEntry() >= 0 {
		return m.paneView(m.closesHint())
	}
	p := &m.pick[tabElicitations]
	var rows []string
	for i := len(m.records) - 1; i >= 0; i-- { // newest first
		r := m.records[i]
		path := string(r.Path)
		if r.Fallback != "" {
			path += ":" + string(r.Fallback)
		}
		head := fmt.Sprintf("%s %s %-7s %s %dms ", r.Key, r.ReceivedAt.Format("15:04:05"), r.Action, path, r.AnsweredMs)
		rows = append(rows, head+line(r.Message, m.c.width-lipgloss.Width(head)-2))
	}
	return p.list(&m.c, rows, nil, m.c.width, h)
}

// recordText is one elicitation's record: its request and the response
// sent.
func (m *Model) recordText() string {
	s := m.c.styles
	e := m.expanded[tabElicitations]
	if e < 0 || e >= len(m.records) {
		return ""
	}
	r := m.records[len(m.records)-1-e]
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s · %s\n", s.title.Render(r.Key), r.Action, r.Path)
	if r.Fallback != "" {
		b.WriteString(s.warn.Render("rendered natively: "+r.Fallback.Describe()) + "\n")
	}
	if r.Error != "" {
		b.WriteString(s.err.Render("error: ") + clean(r.Error) + "\n")
	}
	b.WriteString(s.dim.Render("request:") + "\n" + s.colourJSON(clean(indentJSON(r.Request))) + "\n")
	b.WriteString(s.dim.Render("response:") + "\n" + s.colourJSON(clean(indentJSON(r.Response))))
	return b.String()
}

// indentJSON indents raw JSON for reading.
func indentJSON(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return prettyJSON(v)
}

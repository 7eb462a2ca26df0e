package tui

import (
	"fmt"
	"strings"
)

func (m *Model) helpView() string {
	k := m.c.keys
	rows := [][2]string{
		{"1-6, tab, shift+tab", "switch tabs: " + strings.Join(tabNames[:], ", ")},
		{"↑/↓ or k/j", "move in a list"},
		{"/", "filter the list (enter or esc ends)"},
		{"enter", "call a tool, read a resource, get a prompt, expand a log line"},
		{"esc", "cancel a running call"},
		{k.abandon.Help().Key, "answer an app-rendered elicitation natively instead"},
		{"ctrl+n", "next pending elicitation"},
		{"in a form", "ctrl+s submit · ctrl+d decline · esc cancel"},
		{"r", "disconnect and connect again"},
		{"q", "quit (asks first when elicitations are pending)"},
	}
	var b strings.Builder
	b.WriteString(m.c.styles.title.Render("Keys") + "\n\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s %s\n", r[0], r[1])
	}
	b.WriteString("\n" + m.c.styles.dim.Render("any key closes this"))
	return b.String()
}

package tui

import (
	tea "github.com/charmbracelet/bubbletea"
)

// helpScreen lists every key of the inspector, generated from the key
// map; any key closes it.
type helpScreen struct{}

func (*helpScreen) view(m *Model, h int, _ *level) string {
	return m.c.styles.title.Render("Keys") + "\n\n" + m.c.helpColumns(m.c.keys.helpSections(), h-2)
}

// helpSections are the groups of keys on the help screen. The filter's
// and the quit prompt's keys are not among them: their footers list
// them, and they are there whenever those keys work.
func (k keyMap) helpSections() []helpSection {
	return []helpSection{
		{"Tabs", k.tabs},
		{"App card (answering in the browser)", k.app},
		{"Forms", k.form},
		{"URL consent card", k.url},
		{"Arguments as JSON", k.json},
	}
}

func (l *helpScreen) key(m *Model, _ tea.KeyMsg, _ *level) tea.Cmd {
	m.close(l)
	return nil
}

func (*helpScreen) footer(m *Model, _ *level) string {
	return m.c.styles.dim.Render("any key closes this")
}

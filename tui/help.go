package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// helpScreen lists every key of the inspector, generated from the key
// map; any key closes it but those that scroll it (↑↓, j/k, pgup/pgdn,
// g/G), which never do, so that scrolling past its end does not close it.
type helpScreen struct {
	offset int // the first line shown
}

// lines are the help screen's lines under its title, laid out for the
// terminal, and how many show at once.
func (*helpScreen) lines(m *Model) (lines []string, shown int) {
	shown = max(m.bodyHeight()-2, 1)
	return strings.Split(m.c.helpColumns(m.c.keys.helpSections(), shown, m.c.width), "\n"), shown
}

func (l *helpScreen) view(m *Model, _ int, _ *level) string {
	lines, shown := l.lines(m)
	l.offset = min(l.offset, max(len(lines)-shown, 0))
	return m.c.styles.title.Render("Keys") + "\n\n" + strings.Join(lines[l.offset:min(l.offset+shown, len(lines))], "\n")
}

// helpSections are the groups of keys on the help screen. The filter's,
// the quit prompt's and the log level picker's keys are not among them:
// their footers list them, and they are there whenever those keys work.
func (k keyMap) helpSections() []helpSection {
	return []helpSection{
		{"Tabs", k.tabs},
		{"App card (answering in the browser)", k.app},
		{"Forms", k.form},
		{"Form controls (date, slider, choice, multi-select)", k.controls},
		{"URL consent card", k.url},
		{"Login card (OAuth)", k.login},
		{"Apps panel (tool apps)", k.apps},
		{"An app's own tools (t on the Apps panel)", k.appTools},
		{"Tasks", k.tasks},
		{"Arguments as JSON", k.json},
		{"A prompt's arguments on several lines (e)", k.promptArgs},
	}
}

func (l *helpScreen) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.keys.tabs
	lines, shown := l.lines(m)
	last := max(len(lines)-shown, 0)
	switch {
	case key.Matches(msg, k.down):
		l.offset = min(l.offset+1, last)
	case key.Matches(msg, k.up):
		l.offset = max(l.offset-1, 0)
	case key.Matches(msg, k.pageDown):
		l.offset = min(l.offset+shown, last)
	case key.Matches(msg, k.pageUp):
		l.offset = max(l.offset-shown, 0)
	case key.Matches(msg, k.bottom):
		l.offset = last
	case key.Matches(msg, k.top):
		l.offset = 0
	default: // the keys that scroll never close it, even when all of it shows
		m.close(l)
	}
	return nil
}

func (l *helpScreen) footer(m *Model, _ *level) string {
	if lines, shown := l.lines(m); len(lines) > shown {
		k := m.c.keys.tabs
		return m.c.keyLine(hint("↑↓/jk/pgup/pgdn/g/G", "scroll", k.up, k.down, k.pageUp, k.pageDown, k.top, k.bottom)) +
			m.c.styles.dim.Render(fmt.Sprintf(" · %d–%d of %d · any other key closes this", l.offset+1, min(l.offset+shown, len(lines)), len(lines)))
	}
	return m.c.styles.dim.Render("any key closes this")
}

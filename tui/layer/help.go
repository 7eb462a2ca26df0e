// The help screen: every key of the inspector, generated from the key map.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// HelpScreen lists every key of the inspector, generated from the key
// map; any key closes it but those that scroll it (↑↓, j/k, pgup/pgdn,
// g/G), which never do, so that scrolling past its end does not close it.
type HelpScreen struct {
	c             *widget.Common
	width, height int // the room it is drawn in
	offset        int // the first line shown
}

// NewHelpScreen is the help screen, drawn with c's styles and keys.
func NewHelpScreen(c *widget.Common) *HelpScreen {
	return &HelpScreen{c: c, width: c.Width, height: c.Height}
}

// Lines are the help screen's lines under its title, laid out for its
// room, and how many show at once.
func (l *HelpScreen) Lines() (lines []string, shown int) { return l.linesIn(l.width, l.height) }

func (l *HelpScreen) linesIn(width, height int) (lines []string, shown int) {
	shown = max(height-2, 1)
	return strings.Split(l.c.HelpColumns(HelpSections(l.c), shown, width), "\n"), shown
}

// Offset is the first line shown.
func (l *HelpScreen) Offset() int { return l.offset }

// Update scrolls the help screen, or closes it on any other key.
func (l *HelpScreen) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.width, l.height = msg.Width, msg.Height
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *HelpScreen) key(msg tea.KeyMsg) Action {
	k := l.c.Keys.Tabs
	lines, shown := l.Lines()
	last := max(len(lines)-shown, 0)
	switch {
	case key.Matches(msg, k.Down):
		l.offset = min(l.offset+1, last)
	case key.Matches(msg, k.Up):
		l.offset = max(l.offset-1, 0)
	case key.Matches(msg, k.PageDown):
		l.offset = min(l.offset+shown, last)
	case key.Matches(msg, k.PageUp):
		l.offset = max(l.offset-shown, 0)
	case key.Matches(msg, k.Bottom):
		l.offset = last
	case key.Matches(msg, k.Top):
		l.offset = 0
	default: // the keys that scroll never close it, even when all of it shows
		return Close{}
	}
	return nil
}

// View draws the title and the lines that show.
func (l *HelpScreen) View(width, height int) string {
	lines, shown := l.linesIn(width, height)
	offset := min(l.offset, max(len(lines)-shown, 0))
	return l.c.Styles.Title.Render("Keys") + "\n\n" + strings.Join(lines[offset:min(offset+shown, len(lines))], "\n")
}

// Help is the keys that scroll the help screen.
func (l *HelpScreen) Help() []key.Binding {
	k := l.c.Keys.Tabs
	return []key.Binding{keys.Hint("↑↓/jk/pgup/pgdn/g/G", "scroll", k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom)}
}

// Footer says how to scroll and which lines show, or that any key closes
// the screen when all of it shows.
func (l *HelpScreen) Footer(int) string {
	if lines, shown := l.Lines(); len(lines) > shown {
		return l.c.KeyLine(l.Help()...) +
			l.c.Styles.Dim.Render(fmt.Sprintf(" · %d–%d of %d · any other key closes this", l.offset+1, min(l.offset+shown, len(lines)), len(lines)))
	}
	return l.c.Styles.Dim.Render("any key closes this")
}

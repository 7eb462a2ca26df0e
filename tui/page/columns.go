// The layout of a tab with a list beside a pane: the widths of both, the
// line between them, and the footer's keys of either.

package page

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// listWidth is the width of a tab's list beside its pane, in a body of
// width cells.
func listWidth(width int) int { return min(max(width/3, 20), 40) }

// detailWidth is the width of the pane beside the list.
func detailWidth(width int) int { return max(width-listWidth(width)-3, 20) }

// columns lays out a list and a detail pane side by side; the line
// between them is heavy when the pane is focused.
func columns(c *widget.Common, left, right string, leftWidth int, focused bool) string {
	l := lipgloss.NewStyle().Width(leftWidth).Render(left)
	bar, style := "│", c.Styles.Dim
	if focused {
		bar, style = "┃", c.Styles.Accent
	}
	sep := style.Render(strings.Repeat(bar+"\n", max(lipgloss.Height(l), lipgloss.Height(right))-1) + bar)
	return lipgloss.JoinHorizontal(lipgloss.Top, l, " ", sep, " ", right)
}

// listOrPaneHelp is a list tab's footer keys: the pane's while the pane
// has the keys (focused, or an entry shown whole), else the list's.
func listOrPaneHelp(c *widget.Common, pane bool) []key.Binding {
	if pane {
		return c.Keys.Tabs.PaneHelp(true)
	}
	return c.Keys.Tabs.ShortHelp()
}

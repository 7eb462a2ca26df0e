// The layout of a tab with a list beside a pane (Resources): the widths
// of both, and the line between them.

package page

import (
	"strings"

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

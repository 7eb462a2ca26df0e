// The layout of a tab with a list beside a detail pane: the widths of
// both, and the line between them.

package widget

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// ListWidth is the width of a tab's list in a body width wide: a third,
// between 20 and 40 cells.
func ListWidth(width int) int { return min(max(width/3, 20), 40) }

// DetailWidth is the width of the pane beside a tab's list.
func DetailWidth(width int) int { return max(width-ListWidth(width)-3, 20) }

// Columns lays out a list and a detail pane side by side; the line
// between them is heavy when the pane is focused.
func Columns(c *Common, left, right string, leftWidth int, focused bool) string {
	l := lipgloss.NewStyle().Width(leftWidth).Render(left)
	bar, style := "│", c.Styles.Dim
	if focused {
		bar, style = "┃", c.Styles.Accent
	}
	sep := style.Render(strings.Repeat(bar+"\n", max(lipgloss.Height(l), lipgloss.Height(right))-1) + bar)
	return lipgloss.JoinHorizontal(lipgloss.Top, l, " ", sep, " ", right)
}

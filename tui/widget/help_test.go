package widget

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/keys"
)

// The help screen reckons the width of each layout it tries instead of
// drawing it: the reckoning must be the width packHelp draws, for every
// height, or the screen would choose a layout wider than the terminal.
func TestPackedWidthIsTheWidthDrawn(t *testing.T) {
	c := NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	sections := c.Keys.HelpSections()
	sizes := make([]helpSize, len(sections))
	total := 0
	for i, sec := range sections {
		sizes[i] = sizeHelp(sec)
		total += sizes[i].rows
	}
	for h := 1; h <= total; h++ {
		if got, want := packedWidth(sizes, h), lipgloss.Width(c.packHelp(sections, h)); got != want {
			t.Errorf("height %d: reckoned %d columns wide, drawn %d", h, got, want)
		}
	}
	for _, w := range []int{80, 120, 200} {
		out := c.HelpColumns(sections, 20, w)
		if got := lipgloss.Width(out); got > w && lipgloss.Height(out) < total {
			t.Errorf("width %d: the help is %d wide and %d tall", w, got, lipgloss.Height(out))
		}
	}
}

// BenchmarkHelpColumns lays the help screen out at 80×24: one layout is
// drawn, however many heights are tried (every height was drawn once, at
// 150–240 ms a screen).
func BenchmarkHelpColumns(b *testing.B) {
	c := NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	sections := c.Keys.HelpSections()
	for b.Loop() {
		c.HelpColumns(sections, 20, 80)
	}
}

package widget_test

import (
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The help screen reckons the width of each layout it tries instead of
// drawing it: the reckoning must be the width packHelp draws, for every
// height, or the screen would choose a layout wider than the terminal.
func TestPackedWidthIsTheWidthDrawn(t *testing.T) {
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	sections := layer.HelpSections(&c)
	sizes := make([]widget.HelpSize, len(sections))
	total := 0
	for i, sec := range sections {
		sizes[i] = widget.SizeHelp(sec)
		total += sizes[i].Rows()
	}
	for h := 1; h <= total; h++ {
		if got, want := widget.PackedWidth(sizes, h), lipgloss.Width(c.PackHelp(sections, h)); got != want {
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
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	sections := layer.HelpSections(&c)
	for b.Loop() {
		c.HelpColumns(sections, 20, 80)
	}
}

package page

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The Info page shows the text it is given, scrolls it with the pane's
// keys (↓ included: the pane is all there is) and the wheel, and passes
// the keys that are not its own.
func TestInfoPage(t *testing.T) {
	c := widget.NewCommon(keys.NewMap())
	p := NewInfo(&c)
	var lines []string
	for i := range 50 {
		lines = append(lines, fmt.Sprintf("line %02d", i))
	}
	p.Update(Show{Text: strings.Join(lines, "\n"), Width: 40, Height: 10})
	if v := ansi.Strip(p.View(40, 11)); !strings.Contains(v, "line 00") || !strings.Contains(v, "1–10 of 50") {
		t.Errorf("the first screen:\n%s", v)
	}
	for _, k := range []tea.KeyMsg{{Type: tea.KeyDown}, {Type: tea.KeyRunes, Runes: []rune("j")}, {Type: tea.KeyRight}} {
		if a := p.Update(k); a != nil {
			t.Errorf("%s: action %#v, want none (the page's key)", k, a)
		}
	}
	if v := ansi.Strip(p.View(40, 11)); !strings.HasPrefix(v, "line 02") || !strings.Contains(v, "3–12 of 50") {
		t.Errorf("after ↓ j:\n%s", v)
	}
	p.Update(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	if v := ansi.Strip(p.View(40, 11)); !strings.HasPrefix(v, "line 05") {
		t.Errorf("after a turn of the wheel:\n%s", v)
	}
	if a := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}); a != (layer.Pass{}) {
		t.Errorf("r: action %#v, want Pass", a)
	}
	p.Update(Show{Text: "other server", Width: 40, Height: 10})
	if v := ansi.Strip(p.View(40, 11)); !strings.HasPrefix(v, "other server") || strings.Contains(v, " of ") {
		t.Errorf("new text shows from its top, whole:\n%s", v)
	}
}

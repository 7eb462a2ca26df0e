package layer

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

func keyOf(name string) tea.KeyMsg {
	switch name {
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

func common() *widget.Common {
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	return &c
}

// The help screen scrolls with j/k, g/G and the pages, never closing on
// them even past its end; any other key closes it.
func TestHelpScreenScrollsAndAnyOtherKeyCloses(t *testing.T) {
	l := NewHelpScreen(common())
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	lines, shown := l.Lines()
	if len(lines) <= shown {
		t.Fatalf("the help screen fits in 80×20 (%d lines): nothing to scroll", len(lines))
	}
	for _, k := range []string{"j", "j", "k"} {
		if a := l.Update(keyOf(k)); a != nil {
			t.Fatalf("%s: action %#v, want none", k, a)
		}
	}
	if l.Offset() != 1 {
		t.Errorf("after j j k: offset %d, want 1", l.Offset())
	}
	l.Update(keyOf("G"))
	l.Update(keyOf("j"))
	if last := len(lines) - shown; l.Offset() != last {
		t.Errorf("after G j: offset %d, want the last %d", l.Offset(), last)
	}
	if view := ansi.Strip(l.View(80, 20)); !strings.Contains(view, lines[len(lines)-1]) || strings.Count(view, "\n") > 20 {
		t.Errorf("at its end the view does not show the last line in 20 lines:\n%s", view)
	}
	if f := ansi.Strip(l.Footer(80)); !strings.Contains(f, "jk") || !strings.Contains(f, "any other key closes this") {
		t.Errorf("footer %q", f)
	}
	if a := l.Update(keyOf("x")); a != (Close{}) {
		t.Errorf("x: action %#v, want Close", a)
	}
}

// y at the quit prompt quits; any other key only closes the prompt. It
// asks how many requests wait each time it is drawn.
func TestQuitPrompt(t *testing.T) {
	pending := 1
	l := NewQuitPrompt(common(), func() int { return pending })
	if f := ansi.Strip(l.Footer(80)); f != "1 request(s) pending: quit and cancel them? y/n" {
		t.Errorf("footer %q", f)
	}
	pending = 2
	if f := ansi.Strip(l.Footer(80)); !strings.HasPrefix(f, "2 request(s)") {
		t.Errorf("footer %q after a second request came", f)
	}
	a, ok := l.Update(keyOf("y")).(Batch)
	if !ok || len(a) != 2 || a[0] != (Close{}) || a[1] != (Quit{}) {
		t.Errorf("y: action %#v, want Close then Quit", a)
	}
	if a := l.Update(keyOf("3")); a != (Close{}) {
		t.Errorf("3: action %#v, want Close", a)
	}
	if l.Rank() != Prompt {
		t.Errorf("rank %d, want Prompt", l.Rank())
	}
}

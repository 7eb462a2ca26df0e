package layer

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompt's arguments on several lines: a required argument left
// empty is named, tab goes to the next, enter is a new line, ctrl+s gets
// the prompt with the text as typed; esc goes back, ctrl+c asks to quit.
func TestPromptArgs(t *testing.T) {
	c := widget.NewCommon(keys.NewMap())
	greet := &mcp.Prompt{Name: "greet", Arguments: []*mcp.PromptArgument{
		{Name: "language", Required: true, Description: "the language"}, {Name: "who"}}}
	l, blink := NewPromptArgs(&c, greet, nil)
	if blink == nil {
		t.Error("no blink for the cursor")
	}
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	typed := func(s string) { l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	if a := l.Update(tea.KeyMsg{Type: tea.KeyCtrlS}); a != nil {
		t.Errorf("ctrl+s with language empty: %#v", a)
	}
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "language is required") || !strings.Contains(v, "Arguments for the prompt greet") {
		t.Errorf("the view:\n%s", v)
	}
	typed("French")
	l.Update(tea.KeyMsg{Type: tea.KeyTab})
	typed("Ada")
	l.Update(tea.KeyMsg{Type: tea.KeyEnter})
	typed("and Grace")
	want := Batch{Close{}, GetPrompt{Name: "greet", Args: map[string]string{"language": "French", "who": "Ada\nand Grace"}}}
	if a := l.Update(tea.KeyMsg{Type: tea.KeyCtrlS}); !reflect.DeepEqual(a, want) {
		t.Errorf("ctrl+s: %#v, want %#v", a, want)
	}
	if a := l.Update(tea.KeyMsg{Type: tea.KeyEsc}); a != (Close{}) {
		t.Errorf("esc: %#v", a)
	}
	if a := l.Update(tea.KeyMsg{Type: tea.KeyCtrlC}); a != (AskQuit{}) {
		t.Errorf("ctrl+c: %#v", a)
	}
	again, _ := NewPromptArgs(&c, greet, map[string]string{"who": "Grace"})
	again.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	if v := ansi.Strip(again.View(80, 20)); !strings.Contains(v, "Grace") {
		t.Errorf("the editor does not start from the arguments last given:\n%s", v)
	}
}

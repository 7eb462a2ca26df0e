package page

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func newPrompts(t *testing.T, prompts ...*mcp.Prompt) *Prompts {
	t.Helper()
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	p := NewPrompts(&c)
	p.Update(PromptList{Prompts: prompts})
	return p
}

// enter gets a prompt: at once when it takes no arguments, else through a
// form the program opens, which starts from the arguments last given; e
// edits them on several lines, and says so when there are none.
func TestPromptsKeys(t *testing.T) {
	plain := &mcp.Prompt{Name: "plain"}
	greet := &mcp.Prompt{Name: "greet", Title: "Greet someone", Description: "A greeting.",
		Arguments: []*mcp.PromptArgument{{Name: "language", Required: true, Description: "the language"}, {Name: "who"}}}
	p := newPrompts(t, plain, greet)
	if a := p.Update(keyMsg("enter")); !reflect.DeepEqual(a, layer.GetPrompt{Name: "plain"}) {
		t.Errorf("enter on a prompt without arguments: %#v", a)
	}
	if a, ok := p.Update(keyMsg("e")).(Note); !ok || !a.Err || !strings.Contains(a.Text, "plain takes no arguments: enter gets it") {
		t.Errorf("e on a prompt without arguments: %#v", a)
	}
	p.Update(keyMsg("j"))
	if a := p.Update(keyMsg("enter")); !reflect.DeepEqual(a, AskPrompt{Prompt: greet}) {
		t.Errorf("enter on a prompt with arguments: %#v", a)
	}
	last := map[string]string{"language": "French"}
	p.Update(PromptGetting{Name: "greet", Args: last})
	if a := p.Update(keyMsg("enter")); !reflect.DeepEqual(a, AskPrompt{Prompt: greet, Last: last}) {
		t.Errorf("enter again: %#v, want the arguments last given", a)
	}
	b, ok := p.Update(keyMsg("e")).(layer.Batch)
	if !ok || len(b) != 2 {
		t.Fatalf("e: %#v, want the editor opened", b)
	}
	if o, ok := b[0].(layer.Open); !ok || !strings.Contains(ansi.Strip(o.Layer.View(80, 20)), "French") {
		t.Errorf("e opens %#v, which should start from French", b[0])
	}
	for _, k := range []string{"y", "esc", "r"} {
		if a := p.Update(keyMsg(k)); a != (layer.Pass{}) {
			t.Errorf("%s: %#v, want Pass", k, a)
		}
	}
}

// The pane says what the prompt is, then that it is being got, then what
// getting it gave.
func TestPromptsPane(t *testing.T) {
	greet := &mcp.Prompt{Name: "greet", Title: "Greet someone", Description: "A greeting.",
		Arguments: []*mcp.PromptArgument{{Name: "language", Title: "Language", Required: true, Description: "the language"}}}
	p := newPrompts(t, greet)
	text := ansi.Strip(p.Text())
	for _, want := range []string{"Greet someone", "name: greet", "A greeting.", "Language (language) required", "the language",
		"enter gets the prompt, asking for its arguments first; e edits them on several lines"} {
		if !strings.Contains(text, want) {
			t.Errorf("the pane lacks %q:\n%s", want, text)
		}
	}
	p.Update(PromptGetting{Name: "greet"})
	if text := ansi.Strip(p.Text()); !strings.Contains(text, "getting greet…") {
		t.Errorf("while getting:\n%s", text)
	}
	p.Update(PromptGot{Name: "greet", Text: "user: hello"})
	p.Update(Show{Text: p.Text(), Width: 80, Height: 10})
	if v := ansi.Strip(p.View(80, 11)); !strings.Contains(v, "user: hello") || !strings.Contains(v, "> greet") {
		t.Errorf("what getting it gave:\n%s", v)
	}
}

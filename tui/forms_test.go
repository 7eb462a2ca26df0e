package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ctrl+c in a form asks first, as q does on the tabs, when elicitations
// are pending; n (any other key) goes back to the form as it was.
func TestCtrlCInAFormAsksFirst(t *testing.T) {
	t.Parallel()
	argsTool := &mcp.Tool{Name: "b_args", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}}}}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, m *Model)
		want  string // the footer of the prompt
	}{
		{"an elicitation's form", func(t *testing.T, m *Model) { m.Update(askMsg{formAsk(t, "e-1")}) },
			"1 request(s) pending: quit and cancel them? y/n"},
		{"an arguments form, an app answering", func(_ *testing.T, m *Model) { withAppPending(m); m.openToolAs(argsTool, false) },
			"1 request(s) pending: quit and cancel them? y/n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := New(Options{})
			tc.setup(t, m)
			form := m.top().layer()
			m.Update(keyMsg("ctrl+c"))
			if _, ok := findTop[*layer.QuitPrompt](m); !ok || m.quitting {
				t.Fatalf("top %T, quitting %v; want the quit prompt", m.top().layer(), m.quitting)
			}
			if f := footerOf(m.View()); !strings.Contains(f, tc.want) {
				t.Errorf("footer %q, want %q", f, tc.want)
			}
			m.Update(keyMsg("n"))
			if m.top().layer() != form || m.quitting {
				t.Fatalf("top %T, quitting %v; n should go back to the form", m.top().layer(), m.quitting)
			}
			if _, settled := form.(interface{ Form() *nativeform.Form }).Form().Result(); settled {
				t.Error("the form was answered")
			}
			m.Update(keyMsg("ctrl+c"))
			m.Update(keyMsg("y"))
			wantQuitting(true)(t, m)
		})
	}
}

// A tool's arguments form is the person's, not a server's question: it
// is not framed as "asking for input" and has no decline.
func TestArgumentsFormIsNotAQuestion(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.openToolAs(&mcp.Tool{Name: "b_args", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}}}}, false)
	view := m.View()
	if !strings.Contains(view, "Arguments for b_args") {
		t.Fatalf("no arguments form:\n%s", view)
	}
	for _, unwanted := range []string{"is asking for input", "your input", "decline"} {
		if strings.Contains(view, unwanted) {
			t.Errorf("the form shows %q:\n%s", unwanted, view)
		}
	}
	l, _ := findLayer[*layer.ArgsForm](&m.stack)
	if r, settled := l.Form().Result(); settled {
		t.Errorf("opened settled: %+v", r)
	}
}

// At 40×12 an elicitation's form keeps its keys on the screen.
func TestFormKeepsItsFooterOnASmallTerminal(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 12})
	schema, err := formschema.Parse(fixture.AllFieldsSchema())
	if err != nil {
		t.Fatal(err)
	}
	m.Update(askMsg{&ask{req: &mcpclient.NativeRequest{Key: "e-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.ElicitParams{Message: "Fill in every kind of field. Accepting the defaults is enough."}, Schema: schema},
		reply: make(chan *mcp.ElicitResult, 1)}})
	view := m.View()
	if lines := strings.Split(view, "\n"); len(lines) != 12 || !strings.Contains(view, "ctrl+s submit") || !strings.Contains(view, "shift+tab back") {
		t.Errorf("%d lines, want 12 with the form's keys:\n%s", len(lines), view)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pagerServer has a tool with a long result and two that describe
// themselves differently.
func pagerServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "pager", Version: "1"}, nil)
	empty := json.RawMessage(`{"type":"object"}`)
	text := func(t string) mcp.ToolHandler {
		return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}, nil
		}
	}
	var rows []string
	for i := 1; i <= 300; i++ {
		rows = append(rows, fmt.Sprintf("row %03d", i))
	}
	s.AddTool(&mcp.Tool{Name: "alpha", Description: "Describes tool A.", InputSchema: empty}, text("result of alpha"))
	s.AddTool(&mcp.Tool{Name: "beta", Description: "Describes tool B.", InputSchema: empty}, text("result of beta"))
	s.AddTool(&mcp.Tool{Name: "long", Description: "Three hundred rows.", InputSchema: empty}, text(strings.Join(rows, "\n")))
	return s
}

func wantOnScreen(t *testing.T, view string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Errorf("the screen lacks %q:\n%s", w, view)
		}
	}
}

// End and G scroll a long result to its last line.
func TestScrollALongResultToItsEnd(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"end", "G"} {
		t.Run(k, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
			in.selectTool("long").keys("enter").expect("row 001").keys(k)
			view := in.screen()
			wantOnScreen(t, view, "row 300", " of ")
			if strings.Contains(view, "row 001") {
				t.Errorf("the top of the result still shows:\n%s", view)
			}
		})
	}
}

// The elicitation's detail scrolls to the response of a 16-field form.
func TestElicitationDetailReachesTheResponse(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 30).expect("all_fields")
	in.selectTool("all_fields").keys("enter").formOpen().press(layer.FormKeys.Submit).expect("Lovelace")
	in.keys("4").expect("accept").keys("enter").expect("request:").keys("G")
	wantOnScreen(t, in.screen(), "response:", `"action": "accept"`, `"name": "Ada Lovelace"`)
}

// At 80×24 the Info tab scrolls to the server's instructions.
func TestInfoReachesTheInstructions(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 80, 24).expect("all_fields")
	in.keys("6").expect("server capabilities").keys("end")
	wantOnScreen(t, in.screen(), "instructions", "A test server whose tools ask")
}

// After a tool is called, another tool shows its own description, and
// the result stays with the tool that produced it.
func TestToolsPaneFollowsTheSelection(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
	in.keys("enter").expect("result of alpha").keys("j")
	view := in.screen()
	wantOnScreen(t, view, "Describes tool B.")
	if strings.Contains(view, "result of alpha") {
		t.Errorf("beta's pane shows alpha's result:\n%s", view)
	}

	in = open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
	in.keys("enter").expect("result of alpha").keys("j", "k")
	wantOnScreen(t, in.screen(), "result of alpha", "Describes tool A.")
}

// press sends keys by name straight to a model.
func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

// → puts ↑/↓ on the pane beside the list, and ← gives them back.
func TestFocusMovesBetweenTheListAndThePane(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	long := strings.Repeat("a long description, ", 200)
	setTools(m, &mcp.Tool{Name: "alpha", Description: long}, &mcp.Tool{Name: "beta"})
	press(m, "j", "k", "right", "j", "j")
	if c := toolsPage(m).List().Cursor(); c != 0 {
		t.Errorf("focused: cursor %d; want 0", c)
	}
	if view := m.View(); !strings.Contains(view, "┃") || !strings.Contains(view, "3–") { // the pane at its third line
		t.Errorf("the focused pane shows neither its focus nor its place:\n%s", view)
	}
	press(m, "left", "j")
	if c := toolsPage(m).List().Cursor(); c != 1 {
		t.Errorf("after ←: cursor %d; want 1", c)
	}
	if view := m.View(); strings.Contains(view, "┃") {
		t.Errorf("the pane still looks focused:\n%s", view)
	}
}

// An expanded log message is pretty-printed, and ← closes it.
func TestExpandedLogMessageIsPrettyPrinted(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.wire = []mcpclient.WireEntry{{Dir: "send", Method: "tools/call", ID: json.RawMessage("1"),
		Message: json.RawMessage(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"alpha","arguments":{"text":"` + strings.Repeat("word ", 40) + `"}}}`)}}
	press(m, "5", "enter")
	view := m.View()
	wantOnScreen(t, view, `"method": "tools/call"`, `    "name": "alpha",`)
	press(m, "left")
	if v := m.View(); strings.Contains(v, "x closes") {
		t.Errorf("← left the entry expanded:\n%s", v)
	}
}

// Wrapped text breaks between words, never inside one that fits, and
// wrapped JSON keeps its indentation.
func TestWrapKeepsTokensWhole(t *testing.T) {
	t.Parallel()
	text := widget.PrettyText(`{"a":{"description":"the quick brown fox jumps over the lazy dog again and again","url":"https://example.com/x"}}`)
	got := widget.Wrap(text, 30)
	words := map[string]bool{}
	for _, w := range strings.Fields(strings.NewReplacer(",", " ", ":", " ", `"`, " ").Replace(text)) {
		words[w] = true
	}
	for _, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > 30 {
			t.Errorf("line %q is %d cells wide", l, w)
		}
		for _, w := range strings.Fields(strings.NewReplacer(",", " ", ":", " ", `"`, " ").Replace(l)) {
			if !words[w] {
				t.Errorf("%q is a piece of a word, in %q:\n%s", w, l, got)
			}
		}
	}
	if !strings.Contains(got, "\n      ") {
		t.Errorf("the wrapped JSON lost its indentation:\n%s", got)
	}
}

// TestMouseWheelScrollsThePane: the wheel scrolls the pane on screen, down
// and back up.
func TestMouseWheelScrollsThePane(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(pagerServer, "")}, 100, 30).expect("long")
	in.selectTool("long").keys("enter").expect("row 001")
	for range 10 {
		in.tm.Send(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelDown})
	}
	in.tm.Send(tea.MouseMsg{Action: tea.MouseActionPress, Button: tea.MouseButtonWheelUp})
	wantOnScreen(t, in.screen(), "28–52 of", "row 028")
}

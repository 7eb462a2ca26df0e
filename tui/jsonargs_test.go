package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The JSON editor checks the arguments against the tool's input schema
// before calling it (its oneOf of objects, a format): arguments that do
// not match are refused and the editor says where; arguments that do
// match are sent.
func TestJSONEditorChecksTheInputSchema(t *testing.T) {
	t.Parallel()
	tool := &mcp.Tool{Name: "deep", InputSchema: map[string]any{"type": "object",
		"properties": map[string]any{
			"shape": deepTool.InputSchema.(map[string]any)["properties"].(map[string]any)["shape"],
			"owner": map[string]any{"type": "string", "format": "email"},
		},
		"required": []any{"shape"}}}
	for _, tc := range []struct {
		args, want string
	}{
		{`{"shape":{"r":"wide"}}`, "at '/shape'"},
		{`{"shape":{"r":1},"owner":"nobody"}`, "'/owner': 'nobody' is not valid email"},
	} {
		m := New(Options{})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.openToolAs(tool, false)
		ed, ok := findTop[*layer.JSONEditor](m)
		if !ok {
			t.Fatalf("top %T, want the JSON editor", m.top().layer())
		}
		ed.Editor().SetValue(tc.args)
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
		if _, still := findTop[*layer.JSONEditor](m); !still {
			t.Fatalf("%s: the editor closed: the arguments were sent", tc.args)
		}
		view := m.View()
		if !strings.Contains(view, "the arguments do not match the input schema") || !strings.Contains(view, tc.want) {
			t.Errorf("%s: the editor does not say %q:\n%s", tc.args, tc.want, view)
		}
		ed.Editor().SetValue(`{"shape":{"w":2},"owner":"ada@example.com"}`)
		m.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
		if _, still := findTop[*layer.JSONEditor](m); still {
			t.Errorf("arguments that match the schema were not sent:\n%s", m.View())
		}
	}
}

package tui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretTool has an ordinary field, one secret by its name and one by its
// schema.
var secretTool = &mcp.Tool{Name: "search", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
	"query":   map[string]any{"type": "string"},
	"apiKey":  map[string]any{"type": "string"},
	"session": map[string]any{"type": "string", "writeOnly": true},
}}}

// A secret typed into a tool's form is not remembered, in the state file
// or in the form of the next run, while an ordinary field is; the form
// says which fields are not remembered.
func TestSecretArgumentsAreNotRemembered(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	server := argsServer("srv", "srv --stdio")

	first := New(Options{})
	first.runs.recall(state, server)
	save := first.runs.remember(secretTool, []byte(`{"query":"cats","apiKey":"sk-live-4242","session":"s3ss10n-v4lue"}`))
	if save == nil {
		t.Fatal("nothing to save")
	}
	save()
	path, err := argsPath(state, server)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "cats") || strings.Contains(string(b), "sk-live-4242") || strings.Contains(string(b), "s3ss10n-v4lue") {
		t.Errorf("the state file holds:\n%s", b)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the state file's mode is %v (%v), want 0600", fi.Mode().Perm(), err)
	}

	// This run's next call and the next run's start from the query alone.
	next := New(Options{})
	next.Update(next.runs.recall(state, server)())
	for name, m := range map[string]*Model{"this run": first, "the next run": next} {
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		m.openToolAs(secretTool, false)
		view := m.View()
		if !strings.Contains(view, "cats") {
			t.Errorf("%s: the ordinary field is not prefilled:\n%s", name, view)
		}
		if strings.Contains(view, "sk-live-4242") || strings.Contains(view, "s3ss10n-v4lue") {
			t.Errorf("%s: a secret is prefilled:\n%s", name, view)
		}
		if n := strings.Count(view, widget.NotRemembered); n != 2 {
			t.Errorf("%s: %q shows %d times, want by the two secret fields:\n%s", name, widget.NotRemembered, n, view)
		}
	}
}

// A schema the form cannot show (a password format) is edited as JSON: the
// editor starts without the secret and names the fields not remembered.
func TestJSONEditorForgetsSecrets(t *testing.T) {
	t.Parallel()
	tool := &mcp.Tool{Name: "login", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"user": map[string]any{"type": "string"},
		"pw":   map[string]any{"type": "string", "format": "password"},
	}}}
	m := New(Options{})
	m.runs.recall(t.TempDir(), argsServer("srv", "srv"))
	m.runs.remember(tool, []byte(`{"user":"ada","pw":"hunter2-long"}`))()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.openToolAs(tool, false)
	view := m.View()
	if !strings.Contains(view, "as JSON") || !strings.Contains(view, `"ada"`) || strings.Contains(view, "hunter2-long") {
		t.Errorf("the JSON editor shows:\n%s", view)
	}
	if !strings.Contains(view, widget.NotRemembered+": pw") {
		t.Errorf("the JSON editor does not say pw is not remembered:\n%s", view)
	}
}

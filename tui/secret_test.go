package tui

import (
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Which fields hold a secret: by name, as whole words of it, or by the
// schema's password format or writeOnly.
func TestSecretFieldClassification(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		def  map[string]any
		want bool
	}{
		{"apiKey", nil, true},
		{"api_key", nil, true},
		{"APIKey", nil, true},
		{"x-api-key", nil, true},
		{"GITHUB_TOKEN", nil, true},
		{"accessToken", nil, true},
		{"accesstoken", nil, true},
		{"client_secret", nil, true},
		{"clientSecret", nil, true},
		{"password", nil, true},
		{"dbPassword", nil, true},
		{"db_pass", nil, true},
		{"passphrase", nil, true},
		{"Authorization", nil, true},
		{"oauth2Token", nil, true},
		{"private_key", nil, true},
		{"credentials", nil, true},
		{"anything", map[string]any{"type": "string", "format": "password"}, true},
		{"anything", map[string]any{"type": "string", "writeOnly": true}, true},
		// Near misses: the words are not secret ones.
		{"keyboard_layout", nil, false},
		{"monkey", nil, false},
		{"hotkey", nil, false},
		{"keyword", nil, false},
		{"max_tokens", nil, false},
		{"tokenizer", nil, false},
		{"secretary", nil, false},
		{"compass", nil, false},
		{"bypass_cache", nil, false},
		{"query", nil, false},
		{"anything", map[string]any{"type": "string", "format": "email"}, false},
		{"anything", map[string]any{"type": "string", "writeOnly": false}, false},
	} {
		if got := secretField(tc.name, tc.def); got != tc.want {
			t.Errorf("secretField(%q, %v) = %v, want %v", tc.name, tc.def, got, tc.want)
		}
	}
}

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
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	server := argsServer("srv", "srv --stdio")

	first := New(Options{})
	first.runs.recall(server)
	save := first.runs.remember(secretTool, []byte(`{"query":"cats","apiKey":"sk-live-4242","session":"s3ss10n-v4lue"}`))
	if save == nil {
		t.Fatal("nothing to save")
	}
	save()
	path, err := argsPath(server)
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
	next.Update(next.runs.recall(server)())
	for name, m := range map[string]*Model{"this run": first, "the next run": next} {
		m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		m.openTool(secretTool)
		view := m.View()
		if !strings.Contains(view, "cats") {
			t.Errorf("%s: the ordinary field is not prefilled:\n%s", name, view)
		}
		if strings.Contains(view, "sk-live-4242") || strings.Contains(view, "s3ss10n-v4lue") {
			t.Errorf("%s: a secret is prefilled:\n%s", name, view)
		}
		if n := strings.Count(view, notRemembered); n != 2 {
			t.Errorf("%s: %q shows %d times, want by the two secret fields:\n%s", name, notRemembered, n, view)
		}
	}
}

// A schema the form cannot show (a password format) is edited as JSON: the
// editor starts without the secret and names the fields not remembered.
func TestJSONEditorForgetsSecrets(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	tool := &mcp.Tool{Name: "login", InputSchema: map[string]any{"type": "object", "properties": map[string]any{
		"user": map[string]any{"type": "string"},
		"pw":   map[string]any{"type": "string", "format": "password"},
	}}}
	m := New(Options{})
	m.runs.recall(argsServer("srv", "srv"))
	m.runs.remember(tool, []byte(`{"user":"ada","pw":"hunter2-long"}`))()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.openTool(tool)
	view := m.View()
	if !strings.Contains(view, "as JSON") || !strings.Contains(view, `"ada"`) || strings.Contains(view, "hunter2-long") {
		t.Errorf("the JSON editor shows:\n%s", view)
	}
	if !strings.Contains(view, notRemembered+": pw") {
		t.Errorf("the JSON editor does not say pw is not remembered:\n%s", view)
	}
}

// A group's secret field is marked in the form as a top-level one is.
func TestGroupSecretFieldsAreMarked(t *testing.T) {
	input := map[string]any{"type": "object", "properties": map[string]any{
		"auth": map[string]any{"type": "object", "properties": map[string]any{
			"user":  map[string]any{"type": "string"},
			"token": map[string]any{"type": "string"},
		}},
	}}
	s, err := formschema.ParseArguments(input)
	if err != nil {
		t.Fatal(err)
	}
	marked := markSecrets(s, input)
	group := marked.Field("auth")
	for _, f := range group.Fields {
		if got, want := f.Description == notRemembered, f.Key == "token"; got != want {
			t.Errorf("auth › %s: description %q", f.Key, f.Description)
		}
	}
	for _, f := range s.Field("auth").Fields {
		if f.Description != "" {
			t.Errorf("marking changed the shared parsed schema: auth › %s says %q", f.Key, f.Description)
		}
	}
}

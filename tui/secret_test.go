package tui

import (
	"fmt"
	"os"
	"slices"
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
		{"api_keys", nil, true},
		{"private_key", nil, true},
		{"privateKey", nil, true},
		{"access_key", nil, true},
		{"secret_key", nil, true},
		{"signing_key", nil, true},
		{"encryption_key", nil, true},
		{"ssh_key", nil, true},
		{"license_key", nil, true},
		{"token", nil, true},
		{"GITHUB_TOKEN", nil, true},
		{"access_token", nil, true},
		{"accessToken", nil, true},
		{"accesstoken", nil, true},
		{"oauth2Token", nil, true},
		{"client_secret", nil, true},
		{"clientSecret", nil, true},
		{"password", nil, true},
		{"dbPassword", nil, true},
		{"passwd", nil, true},
		{"pwd", nil, true},
		{"passphrase", nil, true},
		{"auth", nil, true},
		{"Authorization", nil, true},
		{"basic_auth", nil, true},
		{"proxyAuthorization", nil, true},
		{"credentials", nil, true},
		{"session_cookie", nil, true},
		{"anything", map[string]any{"type": "string", "format": "password"}, true},
		{"anything", map[string]any{"type": "string", "writeOnly": true}, true},
		// Near misses: the words are not secret ones, or not where they
		// would be.
		{"key", nil, false},
		{"keys", nil, false},
		{"cache_key", nil, false},
		{"objectKey", nil, false},
		{"public_key", nil, false},
		{"primary_key", nil, false},
		{"access_key_id", nil, false},
		{"keyboard_layout", nil, false},
		{"monkey", nil, false},
		{"hotkey", nil, false},
		{"keyword", nil, false},
		{"token_limit", nil, false},
		{"token_count", nil, false},
		{"tokens", nil, false},
		{"max_tokens", nil, false},
		{"tokenizer", nil, false},
		{"pin", nil, false},
		{"pass", nil, false},
		{"db_pass", nil, false},
		{"auth_type", nil, false},
		{"authorization_url", nil, false},
		{"author", nil, false},
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

// A field marked secret through what its schema refers to or is made of
// ($ref into $defs or definitions, allOf, anyOf, oneOf), at any depth, is
// not remembered and is named as not remembered; references that lead
// back to themselves end.
func TestSecretsThroughReferencesAreNotRemembered(t *testing.T) {
	t.Parallel()
	writeOnly := map[string]any{"type": "string", "writeOnly": true}
	password := map[string]any{"type": "string", "format": "password"}
	ref := func(to string) map[string]any { return map[string]any{"$ref": to} }
	object := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props}
	}
	node := object(map[string]any{"value": ref("#/$defs/Secret"), "note": map[string]any{"type": "string"}, "kids": map[string]any{"type": "array", "items": ref("#/$defs/Node")}})
	for _, tc := range []struct {
		name   string
		schema map[string]any
		args   string
		want   string // what is remembered
		field  string // the field named as not remembered
	}{
		{"a $ref into $defs", map[string]any{"$defs": map[string]any{"Secret": writeOnly}, "properties": map[string]any{"value": ref("#/$defs/Secret")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a $ref into definitions", map[string]any{"definitions": map[string]any{"Secret": password}, "properties": map[string]any{"value": ref("#/definitions/Secret")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"allOf", object(map[string]any{"value": map[string]any{"allOf": []any{map[string]any{"type": "string"}, map[string]any{"writeOnly": true}}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"anyOf", object(map[string]any{"value": map[string]any{"anyOf": []any{password, map[string]any{"type": "null"}}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"oneOf", object(map[string]any{"value": map[string]any{"oneOf": []any{map[string]any{"type": "integer"}, writeOnly}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"properties in an allOf", map[string]any{"allOf": []any{object(map[string]any{"value": writeOnly})}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a nested object by $ref", map[string]any{"$defs": map[string]any{"Login": object(map[string]any{"value": password})}, "properties": map[string]any{"login": ref("#/$defs/Login")}},
			`{"login":{"value":"s3cret-value","user":"ada"}}`, `{"login":{"user":"ada"}}`, "login.value"},
		{"a recursive $ref", map[string]any{"$defs": map[string]any{"Secret": writeOnly, "Node": node}, "$ref": "#/$defs/Node"},
			`{"kids":[{"kids":[{"value":"s3cret-value","note":"kept"}]}]}`, `{"kids":[{"kids":[{"note":"kept"}]}]}`, "value"},
		{"references in a cycle", map[string]any{"$defs": map[string]any{"A": ref("#/$defs/B"), "B": map[string]any{"allOf": []any{ref("#/$defs/A"), writeOnly}}}, "properties": map[string]any{"value": ref("#/$defs/A")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a $ref to the root", map[string]any{"properties": map[string]any{"value": writeOnly, "next": ref("#")}},
			`{"next":{"next":{"value":"s3cret-value","note":"kept"}}}`, `{"next":{"next":{"note":"kept"}}}`, "value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, ok := forgetSecrets(tc.schema, []byte(tc.args))
			if !ok || string(kept) != tc.want {
				t.Errorf("remembered %s (%v), want %s", kept, ok, tc.want)
			}
			if got := secretFields(tc.schema); !slices.Contains(got, tc.field) {
				t.Errorf("named as not remembered: %q, want %q among them", got, tc.field)
			}
		})
	}
}

// A schema whose references to each other make countless paths is
// walked only so far: the arguments form and the JSON editor still open.
func TestSecretFieldsOfACountlessSchema(t *testing.T) {
	t.Parallel()
	defs := map[string]any{}
	for i := range 60 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/D%d", i+1)}
		defs[fmt.Sprintf("D%d", i)] = map[string]any{"properties": map[string]any{"a": next, "b": next, "c": next}}
	}
	schema := map[string]any{"$defs": defs, "properties": map[string]any{"token": map[string]any{"type": "string"}, "tree": map[string]any{"$ref": "#/$defs/D0"}}}
	if got := secretFields(schema); !slices.Contains(got, "token") {
		t.Errorf("secretFields = %q, want token among them", got)
	}
	if kept, ok := forgetSecrets(schema, []byte(`{"token":"t0ken-value","tree":{"a":{"b":{}}}}`)); !ok || string(kept) != `{"tree":{"a":{"b":{}}}}` {
		t.Errorf("remembered %s (%v)", kept, ok)
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
		m.openToolAs(secretTool, false)
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
	m.openToolAs(tool, false)
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

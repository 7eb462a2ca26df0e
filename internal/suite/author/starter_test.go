package author

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStarter(t *testing.T) {
	t.Parallel()
	yes := true
	tools := []*mcp.Tool{
		{Name: "search", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, InputSchema: map[string]any{"type": "object", "required": []any{"q", "limit", "kind"},
			"properties": map[string]any{"q": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer", "default": 10},
				"kind": map[string]any{"type": "string", "enum": []any{"notes", "tags"}}, "page": map[string]any{"type": "integer"}}}},
		{Name: "delete_all", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
	}
	text, _, err := Starter(StarterInput{Server: []string{"node", "server.js"}, Tools: tools})
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Parse("starter.mcpeek.yaml", text, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(s.Tests) != 2 || s.Server[0] != "node" {
		t.Fatalf("%d tests, server %v:\n%s", len(s.Tests), s.Server, text)
	}
	del, search := s.Tests[0], s.Tests[1]
	if !del.Skip || search.Skip {
		t.Errorf("skip: delete_all %t, search %t (only the destructive one is skipped)", del.Skip, search.Skip)
	}
	args, _ := search.Steps[0].Args.(map[string]any)
	if len(args) != 3 || args["q"] != "" || args["limit"] != 10.0 || args["kind"] != "notes" {
		t.Errorf("search's arguments %v, want the required ones with their default, first enum value or an empty value", args)
	}
}

// A starter suite is meant to be committed: the values a server's URL
// carries (an API key in its query, a password) are written as
// {{env.NAME}} templates, which give the URL back when the suite runs.
func TestStarterKeepsNoURLSecrets(t *testing.T) {
	t.Parallel()
	server := []string{"https://bob:hunter2@api.example.com/mcp?api_key=sk-123&region=eu&api_key=sk-456"}
	words, vars := TemplateSecrets(server)
	s := starterRunsWith(t, words, vars, "hunter2", "sk-123", "sk-456")
	u, err := url.Parse(s.Server[0])
	if err != nil {
		t.Fatal(err)
	}
	if pw, _ := u.User.Password(); pw != "hunter2" || !slices.Equal(u.Query()["api_key"], []string{"sk-123", "sk-456"}) || u.Query().Get("region") != "eu" {
		t.Errorf("the suite runs against %s, want the URL given", s.Server[0])
	}
	if words, vars := TemplateSecrets([]string{"node", "server.js", "--key=sk-1"}); vars["MCPEEK_SECRET_KEY"] != "sk-1" || words[2] != "--key={{env.MCPEEK_SECRET_KEY}}" {
		t.Errorf("a command's words: %v %v (a flag named as a key is templated)", words, vars)
	}
}

// A starter suite is meant to be committed: a command's flag whose name
// says it holds a secret (--*key*, --*token*, --*secret*, --password), as
// --name=VALUE or --name VALUE, is written as an {{env.MCPEEK_SECRET_…}}
// template, which gives the command back when the suite runs; other
// flags, and a flag followed by another flag, are written as they are.
func TestStarterKeepsNoArgvSecrets(t *testing.T) {
	t.Parallel()
	server := []string{"node", "srv.js", "--api-key=sk-live-1", "--token", "ghp_abc", "--client-secret", "cs-9",
		"--password=hunter2", "--port", "8080", "--verbose", "--access-token", "--debug", "-db-password=pw-2", "@notes"}
	words, vars := TemplateSecrets(server)
	want := []string{"node", "srv.js", "--api-key={{env.MCPEEK_SECRET_API_KEY}}", "--token", "{{env.MCPEEK_SECRET_TOKEN}}",
		"--client-secret", "{{env.MCPEEK_SECRET_CLIENT_SECRET}}", "--password={{env.MCPEEK_SECRET_PASSWORD}}", "--port", "8080",
		"--verbose", "--access-token", "--debug", "-db-password={{env.MCPEEK_SECRET_DB_PASSWORD}}", "@notes"}
	if !slices.Equal(words, want) {
		t.Errorf("words\n%q, want\n%q", words, want)
	}
	s := starterRunsWith(t, words, vars, "sk-live-1", "ghp_abc", "cs-9", "hunter2", "pw-2")
	if !slices.Equal(s.Server, server) {
		t.Errorf("the suite runs %q, want %q", s.Server, server)
	}
	if words, vars := TemplateSecrets([]string{"@notes", "--token", "x"}); len(vars) != 0 || words[2] != "x" {
		t.Errorf("a config's server: %q %v", words, vars)
	}
}

// A starter suite is meant to be committed: a required argument the
// secret rule holds secret (by its schema through a $ref, by its name, by
// a value the session knows) is an {{env.MCPEEK_SECRET_…}} template, not
// the schema's default or example.
func TestStarterKeepsNoSecretArguments(t *testing.T) {
	t.Parallel()
	known := &mcpclient.Secrets{}
	known.Add("region-secret-eu")
	tools := []*mcp.Tool{{Name: "login", InputSchema: map[string]any{"type": "object",
		"required": []any{"api_key", "pin", "user", "region"},
		"$defs":    map[string]any{"Pin": map[string]any{"type": "string", "format": "password"}},
		"properties": map[string]any{
			"api_key": map[string]any{"type": "string", "examples": []any{"sk-example-123"}},
			"pin":     map[string]any{"$ref": "#/$defs/Pin", "default": "pin-0000-default"},
			"user":    map[string]any{"type": "string", "default": "ada"},
			"region":  map[string]any{"type": "string", "default": "region-secret-eu"},
		}}}}
	text, env, err := Starter(StarterInput{Tools: tools, Known: known})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"MCPEEK_SECRET_API_KEY", "MCPEEK_SECRET_PIN", "MCPEEK_SECRET_REGION"}
	if !slices.Equal(env, want) {
		t.Errorf("env %v, want %v", env, want)
	}
	for _, s := range []string{"sk-example-123", "pin-0000-default", "region-secret-eu"} {
		if strings.Contains(string(text), s) {
			t.Errorf("the starter holds %q:\n%s", s, text)
		}
	}
	vars := map[string]string{"MCPEEK_SECRET_API_KEY": "k", "MCPEEK_SECRET_PIN": "p", "MCPEEK_SECRET_REGION": "r"}
	s, err := suite.Parse("starter.mcpeek.yaml", text, func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	args, _ := s.Tests[0].Steps[0].Args.(map[string]any)
	if args["user"] != "ada" || args["api_key"] != "k" || args["pin"] != "p" {
		t.Errorf("login's arguments %v:\n%s", args, text)
	}
}

// starterRunsWith writes a starter for server words holding none of
// secrets, and reads it back with vars set, as the suite runs.
func starterRunsWith(t *testing.T, words []string, vars map[string]string, secrets ...string) *suite.Suite {
	t.Helper()
	text, _, err := Starter(StarterInput{Server: words, Tools: []*mcp.Tool{{Name: "ping", InputSchema: map[string]any{"type": "object"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range secrets {
		if strings.Contains(string(text), secret) {
			t.Errorf("the starter holds %q:\n%s", secret, text)
		}
	}
	s, err := suite.Parse("starter.mcpeek.yaml", text, func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	return s
}

// test init reads a tool's hints as diff does, with the spec's defaults:
// a tool not marked read-only is destructive unless it says it is not;
// such a tool is written skipped, with the reason the report prints and
// a comment saying how to run it.
func TestStarterReadsHintsAsDiffDoes(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	tools := []*mcp.Tool{
		{Name: "plain", InputSchema: map[string]any{"type": "object"}},
		{Name: "read_only", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &yes}},
		{Name: "additive", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: &no}},
		{Name: "destroys", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
	}
	tried := map[string]bool{}
	text, _, err := Starter(StarterInput{Tools: tools, Try: func(tool string, _ map[string]any) Tried {
		tried[tool] = true
		return Tried{}
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Parse("starter.mcpeek.yaml", text, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	for _, tt := range s.Tests {
		want := tt.Name == "plain" || tt.Name == "destroys"
		if tt.Skip != want || want && !strings.Contains(tt.SkipReason, "may change or lose data") || tried[tt.Name] == want {
			t.Errorf("%s: skip %t (%q), tried %t; want skipped %t", tt.Name, tt.Skip, tt.SkipReason, tried[tt.Name], want)
		}
	}
	if !strings.Contains(string(text), "# plain is skipped so that the suite changes nothing. To run it") ||
		!strings.Contains(string(text), "delete the skip: line") {
		t.Errorf("no comment says why and how to run a destructive tool:\n%s", text)
	}
}

// In a starter that runs in both eras, a tool whose result differs from
// one call to the next (an elicitation's id, a time) is written with
// parity: false and a comment naming where, asking or not; one whose
// result is the same each time keeps era parity, and a starter of one era
// tries each tool once.
func TestStarterTurnsParityOffWhereResultsVary(t *testing.T) {
	t.Parallel()
	empty := map[string]any{"type": "object"}
	tools := []*mcp.Tool{
		{Name: "clock", InputSchema: empty, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "consent", InputSchema: empty, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "steady", InputSchema: empty, Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
	}
	for _, revisions := range [][]string{{"2025-11-25", "2026-07-28"}, {"2026-07-28"}} {
		calls := map[string]int{}
		text, _, err := Starter(StarterInput{Tools: tools, Revisions: revisions, Try: func(tool string, _ map[string]any) Tried {
			calls[tool]++
			text := "the same"
			if tool != "steady" {
				text = fmt.Sprintf("%s #%d", tool, calls[tool])
			}
			r := Tried{Era: revisions[0], Result: map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}}
			if tool == "consent" {
				r.Questions = []suite.Question{{Kind: "elicitation", Mode: "url", Message: "Open the page", Action: "decline"}}
				r.Rounds = 1
			}
			return r
		}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := suite.Parse("starter.mcpeek.yaml", text, os.LookupEnv)
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		both := len(revisions) == 2
		if len(s.Tests) != len(tools) {
			t.Fatalf("revisions %v: %d tests, want one per tool (%d):\n%s", revisions, len(s.Tests), len(tools), text)
		}
		for _, tt := range s.Tests {
			want := !both || tt.Name == "steady"
			if tt.Parity != want {
				t.Errorf("revisions %v, %s: parity %t, want %t:\n%s", revisions, tt.Name, tt.Parity, want, text)
			}
			if tries := 1 + btoi(both); calls[tt.Name] != tries {
				t.Errorf("revisions %v, %s: tried %d times, want %d", revisions, tt.Name, calls[tt.Name], tries)
			}
		}
		for _, tool := range []string{"clock", "consent"} {
			comment := "# " + tool + "'s result differed from one call to the next (at $.content[0].text)"
			if strings.Contains(string(text), comment) != both {
				t.Errorf("revisions %v: the comment %q is there: %t:\n%s", revisions, comment, !both, text)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The -e and -H a starter was made with are its env: and headers:; a
// value the secret rule holds secret is a template.
func TestStarterKeepsEnvAndHeaders(t *testing.T) {
	t.Parallel()
	known := &mcpclient.Secrets{}
	known.Add("Bearer tok-123")
	text, env, err := Starter(StarterInput{Server: []string{"https://api.example.com/mcp"},
		Tools: []*mcp.Tool{{Name: "ping", InputSchema: map[string]any{"type": "object"}}},
		Env:   []string{"REGION=eu", "GITHUB_TOKEN=ghp-secret"}, Headers: []string{"X-Trace: on", "Authorization: Bearer tok-123"}, Known: known})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"ghp-secret", "tok-123"} {
		if strings.Contains(string(text), secret) {
			t.Errorf("the starter holds %q:\n%s", secret, text)
		}
	}
	if want := []string{"MCPEEK_SECRET_AUTHORIZATION", "MCPEEK_SECRET_GITHUB_TOKEN"}; !slices.Equal(env, want) {
		t.Errorf("env %v, want %v", env, want)
	}
	vars := map[string]string{"MCPEEK_SECRET_AUTHORIZATION": "Bearer x", "MCPEEK_SECRET_GITHUB_TOKEN": "g"}
	s, err := suite.Parse("starter.mcpeek.yaml", text, func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !slices.Equal(s.Env, []string{"GITHUB_TOKEN=g", "REGION=eu"}) || !slices.Equal(s.Headers, []string{"Authorization: Bearer x", "X-Trace: on"}) {
		t.Errorf("env %v, headers %v:\n%s", s.Env, s.Headers, text)
	}
}

// A tool that asks questions is written with the answers test init gave
// and what it asked, so its first run meets no unexpected elicitation;
// one whose call failed is written skipped, saying so.
func TestStarterAnswersWhatAToolAsks(t *testing.T) {
	t.Parallel()
	tools := []*mcp.Tool{
		{Name: "confirm", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, InputSchema: map[string]any{"type": "object"}},
		{Name: "broken", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}, InputSchema: map[string]any{"type": "object"}},
	}
	params := json.RawMessage(`{"mode":"form","message":"Pick a size","requestedSchema":{"type":"object","required":["size"],"properties":{"size":{"type":"integer","minimum":2}}}}`)
	text, _, err := Starter(StarterInput{Tools: tools, Try: func(tool string, _ map[string]any) Tried {
		if tool == "broken" {
			return Tried{Failed: "returned an error (isError: true)"}
		}
		return Tried{Era: mcpclient.ProtocolLegacy, Rounds: 1, Questions: []suite.Question{{Kind: mcpclient.KindElicitation, Mode: "form",
			Message: "Pick a size", Action: "accept", Params: params, Answer: json.RawMessage(`{"action":"accept","content":{"size":2}}`)}}}
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Parse("starter.mcpeek.yaml", text, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	broken, confirm := s.Tests[0], s.Tests[1]
	if !broken.Skip || !strings.Contains(broken.SkipReason, "returned an error") {
		t.Errorf("a tool whose call failed: skip %t %q", broken.Skip, broken.SkipReason)
	}
	st := confirm.Steps[0]
	if confirm.Skip || len(st.Answers) != 1 || st.Answers[0].Action != "accept" || len(st.Expect.Asked) != 1 || st.Expect.IsError == nil || *st.Expect.IsError {
		t.Errorf("the asking tool's test:\n%s", text)
	}
}

// A server's tool names reach the starter's comments on one line: a name
// holding line breaks and YAML adds no test of its own, whichever comment
// it is in (destructive, failed, asking, varying).
func TestStarterCommentsHoldNoServerYAML(t *testing.T) {
	t.Parallel()
	evil := func(kind string) string {
		return kind + "\n- name: injected-" + kind + "\n  steps:\n    - list: tools\n#"
	}
	empty := map[string]any{"type": "object"}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	tools := []*mcp.Tool{
		{Name: evil("destroys"), InputSchema: empty},
		{Name: evil("fails"), InputSchema: empty, Annotations: ro},
		{Name: evil("asks"), InputSchema: empty, Annotations: ro},
		{Name: evil("varies"), InputSchema: empty, Annotations: ro},
	}
	calls := 0
	text, _, err := Starter(StarterInput{Tools: tools, Revisions: []string{"2025-11-25", "2026-07-28"}, Try: func(tool string, _ map[string]any) Tried {
		calls++
		r := Tried{Era: "2025-11-25", Result: map[string]any{"n": calls}}
		switch {
		case strings.HasPrefix(tool, "fails"):
			r.Failed = "failed"
		case strings.HasPrefix(tool, "asks"):
			r.Result = map[string]any{"n": 0}
			r.Questions = []suite.Question{{Kind: "elicitation", Mode: "url", Message: "Open the page", Action: "decline"}}
			r.Rounds = 1
		}
		return r
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := suite.Parse("starter.mcpeek.yaml", text, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if len(s.Tests) != len(tools) {
		t.Fatalf("%d tests, want one per tool (%d):\n%s", len(s.Tests), len(tools), text)
	}
	for _, tt := range s.Tests {
		if strings.HasPrefix(tt.Name, "injected") {
			t.Errorf("a tool's name wrote a test of its own, %q:\n%s", tt.Name, text)
		}
	}
}

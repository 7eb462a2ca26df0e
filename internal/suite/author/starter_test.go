package author

import (
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
		{Name: "search", InputSchema: map[string]any{"type": "object", "required": []any{"q", "limit", "kind"},
			"properties": map[string]any{"q": map[string]any{"type": "string"}, "limit": map[string]any{"type": "integer", "default": 10},
				"kind": map[string]any{"type": "string", "enum": []any{"notes", "tags"}}, "page": map[string]any{"type": "integer"}}}},
		{Name: "delete_all", InputSchema: map[string]any{"type": "object"}, Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}},
	}
	text, _, err := Starter([]string{"node", "server.js"}, tools, nil, nil)
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
	text, env, err := Starter(nil, tools, known, nil)
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
	text, _, err := Starter(words, []*mcp.Tool{{Name: "ping", InputSchema: map[string]any{"type": "object"}}}, nil, nil)
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

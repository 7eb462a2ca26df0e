package author

import (
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
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
	text, err := Starter([]string{"node", "server.js"}, tools)
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
	text, err := Starter(words, []*mcp.Tool{{Name: "ping", InputSchema: map[string]any{"type": "object"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"hunter2", "sk-123", "sk-456"} {
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
	u, err := url.Parse(s.Server[0])
	if err != nil {
		t.Fatal(err)
	}
	if pw, _ := u.User.Password(); pw != "hunter2" || !slices.Equal(u.Query()["api_key"], []string{"sk-123", "sk-456"}) || u.Query().Get("region") != "eu" {
		t.Errorf("the suite runs against %s, want the URL given", s.Server[0])
	}
	if words, vars := TemplateSecrets([]string{"node", "server.js", "--key=sk-1"}); len(vars) != 0 || words[2] != "--key=sk-1" {
		t.Errorf("a command's words: %v %v (only URLs are templated)", words, vars)
	}
}

package suite

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// outputServer has tools whose structuredContent is whatever the call's
// arguments say, under output schemas that need the validator's formats
// and its reading of an older draft.
func outputServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "output", Version: "1"}, nil)
	echo := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args map[string]any
		if err := unmarshalArgs(req, &args); err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}, StructuredContent: args}, nil
	}
	s.AddTool(&mcp.Tool{Name: "contact", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{
		"type": "object", "required": []any{"email", "site", "born", "seen"},
		"properties": map[string]any{
			"email": map[string]any{"type": "string", "format": "email"},
			"site":  map[string]any{"type": "string", "format": "uri"},
			"born":  map[string]any{"type": "string", "format": "date"},
			"seen":  map[string]any{"type": "string", "format": "date-time"},
		}}}, echo)
	// Draft-04's exclusiveMaximum is a boolean that makes maximum exclusive;
	// read as 2020-12 it would be a malformed bound.
	s.AddTool(&mcp.Tool{Name: "rating", InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{
		"$schema": "http://json-schema.org/draft-04/schema#",
		"type":    "object",
		"properties": map[string]any{
			"stars": map[string]any{"type": "number", "maximum": 10, "exclusiveMaximum": true},
		}}}, echo)
	return s
}

func unmarshalArgs(req *mcp.CallToolRequest, v any) error {
	if len(req.Params.Arguments) == 0 {
		return nil
	}
	return json.Unmarshal(req.Params.Arguments, v)
}

func TestOutputSchemaFormatsAndDrafts(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: output
tests:
  - name: valid formats pass
    steps:
      - call: contact
        args: {email: ada@example.com, site: "https://example.com/ada", born: "1815-12-10", seen: "2026-01-02T03:04:05Z"}
        expect: {schema: output}
  - name: an invalid email fails
    steps:
      - call: contact
        args: {email: not-an-email, site: "https://example.com/ada", born: "1815-12-10", seen: "2026-01-02T03:04:05Z"}
        expect: {schema: output}
  - name: a relative uri fails
    steps:
      - call: contact
        args: {email: ada@example.com, site: "ada/home", born: "1815-12-10", seen: "2026-01-02T03:04:05Z"}
        expect: {schema: output}
  - name: an impossible date fails
    steps:
      - call: contact
        args: {email: ada@example.com, site: "https://example.com/ada", born: "1815-02-30", seen: "2026-01-02T03:04:05Z"}
        expect: {schema: output}
  - name: a date-time without its time fails
    steps:
      - call: contact
        args: {email: ada@example.com, site: "https://example.com/ada", born: "1815-12-10", seen: "2026-01-02"}
        expect: {schema: output}
  - name: draft-04 exclusiveMaximum refuses the bound
    steps:
      - call: rating
        args: {stars: 10}
        expect: {schema: output}
  - name: draft-04 exclusiveMaximum allows below the bound
    steps:
      - call: rating
        args: {stars: 9.5}
        expect: {schema: output}
`, Options{Dial: dialer(outputServer)})
	byTest := map[string][]string{}
	runs := 0
	for _, s := range rep.Suites {
		for _, tr := range s.Tests {
			runs++
			for _, f := range tr.Failures {
				byTest[tr.Name] = append(byTest[tr.Name], f.String())
			}
		}
	}
	if runs == 0 {
		t.Fatal("no test ran")
	}
	for _, tc := range []struct{ test, want string }{
		{"an invalid email fails", "at '/email': 'not-an-email' is not valid email"},
		{"a relative uri fails", "at '/site': 'ada/home' is not valid uri"},
		{"an impossible date fails", "at '/born': '1815-02-30' is not valid date"},
		{"a date-time without its time fails", "at '/seen': '2026-01-02' is not valid date-time"},
		{"draft-04 exclusiveMaximum refuses the bound", "at '/stars': exclusiveMaximum: got 10, want 10"},
	} {
		got := strings.Join(byTest[tc.test], "\n")
		if !strings.Contains(got, "schema output: structuredContent does not match the outputSchema: ") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: failures\n%s\nwant a schema output failure with %q", tc.test, got, tc.want)
		}
	}
	for _, name := range []string{"valid formats pass", "draft-04 exclusiveMaximum allows below the bound"} {
		if got := byTest[name]; len(got) > 0 {
			t.Errorf("%s: failures %q, want none", name, got)
		}
	}
}

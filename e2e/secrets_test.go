//lint:file-ignore SA1019 the careless server logs the header it got, as servers still do (docs/architecture.md, "Sampling, roots and notifications").

package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/oauthtest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// carelessServer is a streamable HTTP server that quotes the request's
// Authorization header back everywhere: in a tool's isError result (its
// text and structured content), in a log message, and in a JSON-RPC error.
func carelessServer(t *testing.T) *httptest.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "careless", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo_auth"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		got := req.Extra.Header.Get("Authorization")
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "error", Data: "rejected " + got})
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused: Authorization: " + got}},
			StructuredContent: map[string]any{"header": got}}, nil, nil
	})
	mcp.AddTool(server, &mcp.Tool{Name: "echo_headers"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		var got []string
		for _, name := range []string{"X-Auth-Token", "Private-Token", "X-Goog-Api-Key"} {
			got = append(got, name+": "+req.Extra.Header.Get(name))
		}
		quoted := strings.Join(got, ", ")
		// The task the request names is quoted in --elicit-log.
		meta := mcp.Meta{mcpclient.RelatedTaskKey: map[string]any{"taskId": "task of " + quoted}}
		_, _ = req.Session.Elicit(ctx, &mcp.ElicitParams{Meta: meta, Message: "confirm " + quoted,
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}}})
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused " + quoted}}}, nil, nil
	})
	mcp.AddTool(server, &mcp.Tool{Name: "fail_auth"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return nil, nil, &jsonrpc.Error{Code: -32000, Message: "bad credentials " + req.Extra.Header.Get("Authorization")}
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(srv.Close)
	return srv
}

// A token given with -H that the server quotes back never reaches stdout
// (the result scripts read) or stderr (errors, log lines): it is printed
// as [redacted], and the JSON on stdout stays valid.
func TestHeaderSecretNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "sk-live-<0123456789>&abcdef" // with characters JSON escapes
	srv := carelessServer(t)
	for _, tc := range []struct {
		tool     string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"echo_auth", exitToolError, `"text": "refused: Authorization: [redacted]"`, "mcpeek: server log error: rejected [redacted]"},
		{"fail_auth", exitConnection, "", "bad credentials [redacted]"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			r := mcpeek(t, "call", tc.tool, "--log-level", "debug", "--timeout", "20s", "-H", "Authorization: Bearer "+secret, srv.URL)
			if r.code != tc.wantCode {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tc.wantCode, r.stderr)
			}
			for _, leak := range []string{secret, `sk-live-\u003c0123456789\u003e\u0026abcdef`, "sk-live"} {
				if strings.Contains(r.stdout, leak) || strings.Contains(r.stderr, leak) {
					t.Errorf("the token was printed (%q):\nstdout %s\nstderr %s", leak, r.stdout, r.stderr)
				}
			}
			if !strings.Contains(r.stdout, tc.wantOut) || !strings.Contains(r.stderr, tc.wantErr) {
				t.Errorf("stdout %q, stderr %q; want %q and %q", r.stdout, r.stderr, tc.wantOut, tc.wantErr)
			}
			if tc.wantOut != "" {
				if m := r.structured(t); m["header"] != "[redacted]" {
					t.Errorf("structuredContent %v", m)
				}
			}
		})
	}
}

// Credentials whatever their header is named (X-Auth-Token,
// Private-Token, X-Goog-Api-Key) and those of a stdio server's environment
// (-e API_TOKEN, DB_PASSWORD) are secrets too: quoted back in a result, an
// elicitation or on stderr, they reach neither stdout, stderr, the wire
// log nor the elicitation log. A short or all-digit value is not one.
func TestEveryCredentialRedacted(t *testing.T) {
	t.Parallel()
	srv := carelessServer(t)
	dir := t.TempDir()
	tokens := []string{"tok-auth-<12345678>", "glpat-abcdefgh12345678", "AIzaSyD-abcdefgh12345678"}
	wire, elicit := filepath.Join(dir, "wire.jsonl"), filepath.Join(dir, "elicit.jsonl")
	r := mcpeek(t, "call", "echo_headers", "--on-elicit", "decline", "--timeout", "20s", "--wire-log", wire, "--elicit-log", elicit,
		"-H", "X-Auth-Token: "+tokens[0], "-H", "Private-Token: "+tokens[1], "-H", "X-Goog-Api-Key: "+tokens[2], srv.URL)
	if r.code != exitToolError || !strings.Contains(r.stdout, "refused X-Auth-Token: [redacted], Private-Token: [redacted], X-Goog-Api-Key: [redacted]") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the isError result, redacted", r.code, r.stdout, r.stderr)
	}
	wantNone(t, r, tokens, wire, elicit)

	envTokens := []string{"ghp_0123456789abcdef", "hunter2-correct-horse"}
	wire = filepath.Join(dir, "wire-stdio.jsonl")
	r = mcpeek(t, "call", "leak_env", "--timeout", "20s", "--wire-log", wire, "-e", "MCPEEK_TEST_SERVER=default",
		"-e", "API_TOKEN="+envTokens[0], "-e", "DB_PASSWORD="+envTokens[1], "-e", "PIN_KEY=1234", "--", testBinary)
	if r.code != exitToolError || !strings.Contains(r.stdout, "API_TOKEN=[redacted] DB_PASSWORD=[redacted] PIN_KEY=1234") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the isError result, redacted", r.code, r.stdout, r.stderr)
	}
	wantNone(t, r, envTokens, wire)
}

// wantNone checks that none of the secrets shows in a run's output or in
// the files it wrote.
func wantNone(t *testing.T, r result, secrets []string, files ...string) {
	t.Helper()
	texts := map[string]string{"stdout": r.stdout, "stderr": r.stderr}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "[redacted]") {
			t.Errorf("%s: %v; want it to hold [redacted]:\n%s", f, err, b)
		}
		texts[filepath.Base(f)] = string(b)
	}
	for where, text := range texts {
		for _, secret := range secrets {
			if strings.Contains(text, secret) || strings.Contains(text, secret[:10]) {
				t.Errorf("%s shows %q:\n%s", where, secret, text)
			}
		}
	}
}

// An OAuth access token, learned from the token store during the run, is
// redacted from the result when the server quotes it back.
func TestOAuthTokenNeverPrinted(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // a token store of this test's own
	as := oauthtest.New()
	defer as.Close()
	path, err := oauth.DefaultStorePath()
	if err != nil {
		t.Fatal(err)
	}
	// Log in once, as `mcpeek auth login` would, into the test's store.
	tokens := []string{as.LoginInto(t, path)}
	r := mcpeek(t, "call", "echo_token", "--stored-auth-only", "--timeout", "20s", as.URL)
	if r.code != exitToolError || !strings.Contains(r.stdout, "refused: Authorization: Bearer [redacted]") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the isError result, redacted", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, tokens[0]) {
		t.Errorf("the token was printed:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}

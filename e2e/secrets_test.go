//lint:file-ignore SA1019 the careless server logs the header it got, as servers still do (docs/architecture.md, "Sampling, roots and notifications").

package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
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
	a, err := oauth.New(oauth.Options{Resource: as.URL, Store: oauth.OpenStore(path), Show: func(string) {},
		Open: func(authURL string) (func(), error) {
			go func() {
				if loc, err := oauthtest.Browser(context.Background(), authURL); err == nil {
					_, _ = oauthtest.Follow(context.Background(), loc)
				}
			}()
			return nil, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: as.URL}, Auth: a})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	tokens := as.AccessTokens()
	if len(tokens) != 1 {
		t.Fatalf("%d tokens issued, want 1", len(tokens))
	}
	r := mcpeek(t, "call", "echo_token", "--stored-auth-only", "--timeout", "20s", as.URL)
	if r.code != exitToolError || !strings.Contains(r.stdout, "refused: Authorization: Bearer [redacted]") {
		t.Errorf("exit %d, stdout %q, stderr %q; want the isError result, redacted", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, tokens[0]) {
		t.Errorf("the token was printed:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}

package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptsOnly serves, over streamable HTTP (both eras), a server that
// offers one prompt and neither tools nor resources, and answers their
// lists "Method not found" as the TypeScript SDK's servers do.
func promptsOnly(t *testing.T) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "prompts-only", Version: "1"}, nil)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/list", "resources/list", "resources/templates/list":
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
			}
			return next(ctx, method, req)
		}
	})
	s.AddPrompt(&mcp.Prompt{Name: "hello"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestListWhatTheServerDoesNotOffer: listing what a server's capabilities
// do not offer is an empty list (exit 0) and one line on stderr saying
// so, in both eras, not "Method not found" and exit 3; what it offers is
// listed as ever.
func TestListWhatTheServerDoesNotOffer(t *testing.T) {
	url := promptsOnly(t)
	for _, era := range []string{"legacy", "modern"} {
		for _, what := range []string{"resources", "tools"} {
			t.Run(era+"/"+what, func(t *testing.T) {
				code, stdout, stderr := run("list", what, "--protocol", era, url)
				if code != exitOK || stdout != "{\n  \""+what+"\": []\n}\n" {
					t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
				}
				if want := "mcpeek: the server offers no " + what + " (its capabilities have no \"" + what + "\")\n"; stderr != want {
					t.Errorf("stderr %q, want %q", stderr, want)
				}
			})
		}
		t.Run(era+"/prompts", func(t *testing.T) {
			code, stdout, stderr := run("list", "prompts", "--protocol", era, url)
			if code != exitOK || !strings.Contains(stdout, `"name": "hello"`) || stderr != "" {
				t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// TestSummaryOfAServerWithoutTools: the summary mcpeek prints without a
// terminal says a server offers no tools rather than failing to list them.
func TestSummaryOfAServerWithoutTools(t *testing.T) {
	code, stdout, stderr := run(promptsOnly(t))
	if code != exitOK || !strings.Contains(stdout, "tools: none (the server does not offer tools)") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestServerCommandShownQuoted: where mcpeek names a server's command
// (a connection error, the doctor's report), it is quoted as a shell
// takes it, so that it can be pasted back.
func TestServerCommandShownQuoted(t *testing.T) {
	server := filepath.Join(t.TempDir(), "no such server")
	want := "'" + server + "' 'a b' plain"
	code, _, stderr := run("caps", "--", server, "a b", "plain")
	if code != exitConnection || !strings.Contains(stderr, "connect to "+want+": ") {
		t.Errorf("caps: exit %d, stderr %q; want it to name %s", code, stderr, want)
	}
	_, stdout, _ := run("doctor", "--", server, "a b", "plain")
	if !strings.HasPrefix(stdout, "mcpeek doctor: "+want+"\n") {
		t.Errorf("doctor: %q; want it to begin with the command %s", stdout, want)
	}
}

package tui

import (
	"context"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// headerEchoServer is a careless streamable HTTP server: its tool
// echo_auth fails quoting the request's Authorization header.
func headerEchoServer(t *testing.T) *httptest.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "careless", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo_auth"}, func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "refused: Authorization: " + req.Extra.Header.Get("Authorization")}}}, nil, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(srv.Close)
	return srv
}

// A token given with -H that the server quotes back in a tool's error
// shows as [redacted] in the Tools pane, never itself, and is copied so.
func TestHeaderSecretRedactedInTheToolsPane(t *testing.T) {
	t.Parallel()
	const secret = "sk-live-0123456789abcdef"
	srv := headerEchoServer(t)
	target, err := mcpclient.ParseTarget([]string{srv.URL}, []string{"Authorization: Bearer " + secret}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	in := open(t, Options{Target: srv.URL, Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		return mcpclient.Connect(ctx, mcpclient.Config{Target: target, Asker: asker, Records: mcpclient.NewRecorder(nil)})
	}}, 120, 30)
	in.expect("echo_auth").keys("enter").expect("refused: Authorization: [redacted]")
	if view := in.screen(); strings.Contains(view, secret) || strings.Contains(view, secret[:12]) {
		t.Errorf("the screen shows the token:\n%s", view)
	}
	if text, _ := in.m.paneCopy(); strings.Contains(text, secret) || !strings.Contains(text, "[redacted]") {
		t.Errorf("copying the pane copies %q", text)
	}
}

// A token learned in a login during the session, quoted back by the
// server, shows as [redacted] in the Tools pane.
func TestLoginTokenRedactedInTheToolsPane(t *testing.T) {
	t.Parallel()
	p := newProtected(t)
	in := open(t, p.options(), 120, 30)
	in.expect("address: ").paste(p.browse(p.nextURL())).expect("whoami")
	in.selectTool("echo_token").keys("enter").expect("refused: Authorization: Bearer [redacted]")
	view := in.screen()
	tokens := p.as.AccessTokens()
	if len(tokens) != 1 {
		t.Fatalf("%d tokens issued, want 1", len(tokens))
	}
	if strings.Contains(view, tokens[0]) {
		t.Errorf("the screen shows the token:\n%s", view)
	}
}

// A header credential the server quotes back is not written into the
// snapshot + saves (a file meant to be committed), as it is not shown.
func TestSavedSnapshotHidesTheHeaderSecret(t *testing.T) {
	t.Parallel()
	const secret = "sk-live-0123456789abcdef"
	srv := headerEchoServer(t)
	target, err := mcpclient.ParseTarget([]string{srv.URL}, []string{"Authorization: Bearer " + secret}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := open(t, Options{Target: srv.URL, Dir: dir, Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		return mcpclient.Connect(ctx, mcpclient.Config{Target: target, Asker: asker, Records: mcpclient.NewRecorder(nil)})
	}}, 120, 30)
	k := keys.NewMap()
	in.expect("echo_auth").keys("enter").expect("refused: Authorization: [redacted]")
	in.press(k.Tabs.SaveTest).expect("Save as a test").press(layer.SaveTestKeys.Confirm).expect("saved the test")
	var files int
	err = filepath.WalkDir(filepath.Join(dir, "mcpeek"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(b), secret[:12]) {
			t.Errorf("%s holds the token:\n%s", path, b)
		}
		return err
	})
	if err != nil || files < 2 {
		t.Fatalf("%d files written under mcpeek/ (want the suite and its snapshot): %v", files, err)
	}
}

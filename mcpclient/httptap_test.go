package mcpclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestHTTPStandaloneStreamAndVersionHeader connects over streamable HTTP to
// a stateful server that asks its question on the standalone SSE stream (a
// request not tied to the tool call's own stream, as servers built on the
// TypeScript SDK do). The question must reach the asker, every request after
// the handshake must carry MCP-Protocol-Version, and the wire log must hold
// the whole exchange in order.
func TestHTTPStandaloneStreamAndVersionHeader(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "detached", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "ask_detached"}, func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		// A context not derived from the call's routes the request to the
		// standalone stream; its deadline keeps a client that never sees the
		// question from hanging the test.
		detached, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := req.Session.Elicit(detached, &mcp.ElicitParams{
			Message:         "detached question",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
		})
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answer " + res.Action}}}, nil, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	var mu sync.Mutex
	var missing []string // methods posted without the version header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") != "" && r.Header.Get("Mcp-Protocol-Version") == "" {
			mu.Lock()
			missing = append(missing, r.Method+" after the handshake")
			mu.Unlock()
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()

	asked := make(chan string, 1)
	wire := NewWireLog(0, nil)
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetHTTP, URL: srv.URL},
		Protocol:     "legacy",
		Capabilities: CapabilityOptions{FormElicitation: true},
		Wire:         wire,
		Asker: askerFunc(func(_ context.Context, req *NativeRequest) (*mcp.ElicitResult, error) {
			asked <- req.Params.Message
			return &mcp.ElicitResult{Action: "decline"}, nil
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := conn.Call(ctx, "ask_detached", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "answer decline" {
		t.Errorf("tool result %q, want %q", got, "answer decline")
	}
	select { // the answer went out before the result came back
	case got := <-asked:
		if got != "detached question" {
			t.Errorf("asker got %q", got)
		}
	default:
		t.Error("the question never reached the asker")
	}
	mu.Lock()
	if len(missing) > 0 {
		t.Errorf("requests without MCP-Protocol-Version: %v", missing)
	}
	mu.Unlock()

	// The log shows the call, then the question, then its answer, then the
	// call's result.
	var seq []string
	for _, e := range wire.Entries() {
		switch {
		case e.Dir == DirSend && e.Method == "tools/call":
			seq = append(seq, "send call")
		case e.Dir == DirRecv && e.Method == "elicitation/create":
			seq = append(seq, "recv question")
		case e.Dir == DirSend && e.Method == "" && strings.Contains(string(e.Message), `"decline"`):
			seq = append(seq, "send answer")
		case e.Dir == DirRecv && strings.Contains(string(e.Message), "answer decline"):
			seq = append(seq, "recv result")
		}
	}
	if got, want := strings.Join(seq, ", "), "send call, recv question, send answer, recv result"; got != want {
		t.Errorf("wire order: %s\nwant:       %s", got, want)
	}
}

// TestCallMirrorsParamHeaders: in the 2026-07-28 era a call over HTTP must
// copy the arguments its tool marks with x-mcp-header into Mcp-Param-*
// headers, which the SDK does only for tools it has listed; a call straight
// after connecting must carry them too.
func TestCallMirrorsParamHeaders(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "headers", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{
		Name: "where",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"region": map[string]any{"type": "string", "x-mcp-header": "Region"},
		}},
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true})
	got := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Method") == "tools/call" {
			got <- r.Header.Get("Mcp-Param-Region")
		}
		handler.ServeHTTP(w, r)
	}))
	defer srv.Close()

	conn, err := Connect(context.Background(), Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "modern"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for range 2 { // the second call reuses what the first one learnt
		if _, err := conn.Call(ctx, "where", []byte(`{"region":"eu-west1"}`)); err != nil {
			t.Fatal(err)
		}
		if h := <-got; h != "eu-west1" {
			t.Errorf("Mcp-Param-Region = %q, want %q", h, "eu-west1")
		}
	}
}

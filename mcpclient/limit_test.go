package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bigAnswerServer is a streamable HTTP server whose tool "big" answers
// with n bytes of text, as a JSON body or as one event of an event stream
// (sse), written as it goes (so that the server holds none of it); every
// other tool answers "small".
func bigAnswerServer(t *testing.T, n int, sse bool) *httptest.Server {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	for _, name := range []string{"big", "small"} {
		server.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "small"}}}, nil
			})
	}
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if r.Method != http.MethodPost || json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" || msg.Params.Name != "big" {
			r.Body = io.NopCloser(bytes.NewReader(body))
			handler.ServeHTTP(w, r)
			return
		}
		head, tail := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, msg.ID), `"}]}}`
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			head, tail = "event: message\ndata: "+head, tail+"\n\n"
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		_, _ = io.WriteString(w, head)
		chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
		for sent := 0; sent < n; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up
			}
		}
		_, _ = io.WriteString(w, tail)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// allocated is how many bytes the process has allocated so far.
func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

// An HTTP server's answer larger than the limit, as a JSON body or as one
// event of a stream, fails the call at once with an error that says so and
// names the flag that raises it, and mcpeek reads no more of it than the
// limit: what it allocates stays far below the answer's size. A normal
// answer on the same connection worked before.
func TestHTTPAnswerLargerThanLimit(t *testing.T) {
	const answer = 40 << 20
	for _, tc := range []struct {
		name     string
		sse      bool
		limit    int64
		want     string
		maxAlloc uint64 // 0: not measured
	}{
		{"JSON body, 1 MiB limit", false, 1 << 20, "larger than 1.0 MiB", 12 << 20},
		{"SSE event, 1 MiB limit", true, 1 << 20, "larger than 1.0 MiB", 12 << 20},
		{"JSON body, default limit", false, 0, "larger than 16 MiB", 0},
		{"SSE event, default limit", true, 0, "larger than 16 MiB", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := bigAnswerServer(t, answer, tc.sse)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			conn, err := Connect(ctx, Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "legacy", MaxMessageSize: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if res, err := conn.Call(ctx, "small", nil); err != nil || res.Content[0].(*mcp.TextContent).Text != "small" {
				t.Fatalf("a small answer: %v, %v", res, err)
			}
			runtime.GC()
			before := allocated()
			_, err = conn.Call(ctx, "big", nil)
			alloc := allocated() - before
			t.Logf("err: %v; allocated %.1f MB for a %d MB answer", err, float64(alloc)/(1<<20), answer>>20)
			if err == nil || !strings.Contains(err.Error(), tc.want+"; --max-message-size raises the limit") {
				t.Errorf("err = %v, want it to say the answer is %s and name --max-message-size", err, tc.want)
			}
			if tc.maxAlloc > 0 && alloc > tc.maxAlloc {
				t.Errorf("reading the answer allocated %.1f MB, want at most %.0f MB (the answer is %d MB)",
					float64(alloc)/(1<<20), float64(tc.maxAlloc)/(1<<20), answer>>20)
			}
			if ctx.Err() != nil {
				t.Error("the call waited for the time to run out")
			}
		})
	}
}

// A limit raised above the size of an answer lets it through, whole.
func TestHTTPAnswerWithinRaisedLimit(t *testing.T) {
	for _, sse := range []bool{false, true} {
		srv := bigAnswerServer(t, 20<<20, sse)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := Connect(ctx, Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "legacy", MaxMessageSize: 32 << 20})
		if err != nil {
			t.Fatal(err)
		}
		res, err := conn.Call(ctx, "big", nil)
		if err != nil {
			t.Fatalf("sse %v: %v", sse, err)
		}
		if n := len(res.Content[0].(*mcp.TextContent).Text); n < 20<<20 {
			t.Errorf("sse %v: got %d bytes of text", sse, n)
		}
		_ = conn.Close()
	}
}

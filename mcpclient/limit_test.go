package mcpclient

import (
	"bytes"
	"cmp"
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
	return answered(t, server, "tools/call", func(w http.ResponseWriter, id json.RawMessage, tool string) bool {
		if tool != "big" {
			return false
		}
		head, tail := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, id), `"}]}}`
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
				return true // the client hung up
			}
		}
		_, _ = io.WriteString(w, tail)
		return true
	})
}

// answered serves server as streamable HTTP, except the POSTed requests
// of method that answer writes the response to itself (returning true);
// name is the params' name (a tool's).
func answered(t *testing.T, server *mcp.Server, method string, answer func(w http.ResponseWriter, id json.RawMessage, name string) bool) *httptest.Server {
	t.Helper()
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
		if r.Method == http.MethodPost && json.Unmarshal(body, &msg) == nil && msg.Method == method && answer(w, msg.ID, msg.Params.Name) {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		handler.ServeHTTP(w, r)
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
// limit: what it allocates stays a small multiple of the limit, far below
// the answer's size. A JSON body costs the tap the limit once (measured:
// 1.0×), and the SDK nothing, for it fails before the SDK reads; an event
// costs the tap the limit once too, but go-sdk's event reader grows its
// line by appending up to the same limit, about 6× (measured: 7.0× in all
// at the default limit). A normal answer on the same connection worked
// before.
func TestHTTPAnswerLargerThanLimit(t *testing.T) {
	const answer = 40 << 20
	for _, tc := range []struct {
		name  string
		sse   bool
		limit int64
		want  string
		// maxAlloc is the most the call may allocate, in limits (plus
		// 1 MiB for the call itself).
		maxAlloc float64
	}{
		{"JSON body, 1 MiB limit", false, 1 << 20, "larger than 1.0 MiB", 1.5},
		{"SSE event, 1 MiB limit", true, 1 << 20, "larger than 1.0 MiB", 7.5},
		{"JSON body, default limit", false, 0, "larger than 16 MiB", 1.5},
		{"SSE event, default limit", true, 0, "larger than 16 MiB", 7.5},
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
			t.Logf("err: %v; allocated %.1f MiB for a %d MiB answer", err, float64(alloc)/(1<<20), answer>>20)
			if err == nil || !strings.Contains(err.Error(), tc.want+"; --max-message-size raises the limit") {
				t.Errorf("err = %v, want it to say the answer is %s and name --max-message-size", err, tc.want)
			}
			limit := float64(cmp.Or(tc.limit, DefaultMaxMessageSize))
			if most := tc.maxAlloc*limit + 1<<20; float64(alloc) > most {
				t.Errorf("reading the answer allocated %.1f MiB, want at most %.1f MiB (%.1f× the limit; the answer is %d MiB)",
					float64(alloc)/(1<<20), most/(1<<20), tc.maxAlloc, answer>>20)
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

// The tap logs each event of a stream once its blank line has passed,
// whatever the reads' sizes: data on one line or several (joined by a
// line feed), "data:" with or without its space, lines ended by CRLF,
// other fields and comments ignored; an event over the limit is skipped
// and the next one logged. What the SDK reads is the stream unchanged.
func TestSSETapLogsEachEvent(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":9,"result":{"text":"` + strings.Repeat("x", 300) + `"}}`
	stream := ": a comment\n" +
		"event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n" +
		"data:{\"jsonrpc\":\"2.0\",\r\ndata: \"id\":2,\"result\":{}}\r\n\r\n" +
		"data: " + big + "\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\n"
	for _, chunk := range []int{1, 7, 4096} {
		wire := NewWireLog(0, nil)
		tooLarge := 0
		body := &sseTapBody{ReadCloser: io.NopCloser(&chunkReader{s: stream, n: chunk}), tap: httpTap{wire: wire, limit: 200},
			big: func(*MessageTooLargeError) { tooLarge++ }}
		read, err := io.ReadAll(body)
		if err != nil || string(read) != stream {
			t.Fatalf("chunks of %d: read %q, %v", chunk, read, err)
		}
		var ids []string
		for _, e := range wire.Entries() {
			if e.Dir == DirRecv {
				ids = append(ids, string(e.ID))
			}
		}
		if strings.Join(ids, " ") != "1 2 3" || tooLarge != 1 {
			t.Errorf("chunks of %d: logged ids %v, %d too large; want 1 2 3 and the event of 9 skipped", chunk, ids, tooLarge)
		}
	}
}

// chunkReader reads s n bytes at a time.
type chunkReader struct {
	s string
	n int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.s)
	r.s = r.s[k:]
	return k, nil
}

// A message over the limit breaks the connection, and every error after
// it says why (larger than the limit, naming the flag); an error page over
// the limit is no message: the request fails for its status, and what
// follows is not blamed on a message too large.
func TestTooLargeExplainsWhatItBroke(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  func(w http.ResponseWriter, id json.RawMessage)
		want    string
		wantNot string
	}{
		{"an answer", func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"resources":[],"x":"%s"}}`, id, strings.Repeat("x", 2<<20))
		}, "larger than 1.0 MiB; --max-message-size raises the limit", ""},
		{"an event", func(w http.ResponseWriter, id json.RawMessage) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":{\"x\":\"%s\"}}\n\n", id, strings.Repeat("x", 2<<20))
		}, "larger than 1.0 MiB; --max-message-size raises the limit", ""},
		{"an error page", func(w http.ResponseWriter, _ json.RawMessage) {
			http.Error(w, strings.Repeat("an error page ", 200_000), http.StatusBadRequest)
		}, "Bad Request", "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
				Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}})
			srv := answered(t, server, "resources/list", func(w http.ResponseWriter, id json.RawMessage, _ string) bool {
				tc.answer(w, id)
				return true
			})
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			conn, err := Connect(ctx, Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "legacy", MaxMessageSize: 1 << 20})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			for _, what := range []string{"resources", "tools"} {
				_, err := conn.List(ctx, what)
				if err == nil || !strings.Contains(err.Error(), tc.want) || tc.wantNot != "" && strings.Contains(err.Error(), tc.wantNot) {
					t.Errorf("%s: %v; want it to say %q (and not %q)", what, err, tc.want, tc.wantNot)
				}
			}
		})
	}
}

// An answer on the side channel (a task call) whose event is over the
// limit, made of many short lines, fails saying it is too large, not that
// the answer carried no response.
func TestSideChannelEventOfShortLinesTooLarge(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !bytes.Contains(body, []byte(`"id":"`+sidePrefix)) {
			r.Body = io.NopCloser(bytes.NewReader(body))
			handler.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		line := []byte("data: x\n")
		for range (2 << 20) / len(line) {
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Connect(ctx, Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "legacy", MaxMessageSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.CallTask(ctx, "job", nil, nil); err == nil || !strings.Contains(err.Error(), "larger than 1.0 MiB") {
		t.Errorf("err = %v, want it to say the answer is larger than 1.0 MiB", err)
	}
}

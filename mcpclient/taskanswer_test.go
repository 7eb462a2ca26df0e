package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestTaskStatusIsNoToolResult: a tools/call answered with a task's
// status, {taskId, status: completed} without content, is refused as
// malformed, whether the SDK made the call or mcpeek called the tool as a
// task: taken for an empty result, it printed a call that did nothing as
// a success.
func TestTaskStatusIsNoToolResult(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "tasky", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
		})
	srv := answered(t, server, "tools/call", func(w http.ResponseWriter, id json.RawMessage, _ string) bool {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"taskId":"t1","status":"completed"}}`, id)
		return true
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Connect(ctx, Config{Target: Target{Kind: TargetHTTP, URL: srv.URL}, Protocol: "legacy"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for name, call := range map[string]func() (*mcp.CallToolResult, error){
		"call":         func() (*mcp.CallToolResult, error) { return conn.Call(ctx, "x", nil) },
		"call as task": func() (*mcp.CallToolResult, error) { return conn.CallTask(ctx, "x", nil, nil) },
	} {
		res, err := call()
		if err == nil || !strings.Contains(err.Error(), "malformed: it has no content but a taskId") {
			t.Errorf("%s: %v, %v; want it refused as malformed", name, res, err)
		}
	}
	// The connection is as good as before: a later answer is read.
	if _, err := conn.List(ctx, "tools"); err != nil {
		t.Errorf("after the refusal: %v", err)
	}
}

// oneAnswer is a connection whose server answers with the messages given,
// in order.
type oneAnswer struct {
	mcp.Connection
	answers []jsonrpc.Message
}

func (c *oneAnswer) Write(context.Context, jsonrpc.Message) error { return nil }

func (c *oneAnswer) Read(context.Context) (jsonrpc.Message, error) {
	msg := c.answers[0]
	c.answers = c.answers[1:]
	return msg, nil
}

// Over stdio too, the answer to a tools/call that is a task's status is
// refused before the SDK takes it; a tool result with content stands, and
// so does the same status answering another request (tasks/get).
func TestTaskStatusRefusedOnAConnection(t *testing.T) {
	status := json.RawMessage(`{"taskId":"t1","status":"completed"}`)
	id7, _ := jsonrpc.MakeID(float64(7))
	id8, _ := jsonrpc.MakeID(float64(8))
	id9, _ := jsonrpc.MakeID("nine")
	conn := &tapConn{wire: NewWireLog(100, nil), Connection: &oneAnswer{answers: []jsonrpc.Message{
		&jsonrpc.Response{ID: id7, Result: status},
		&jsonrpc.Response{ID: id8, Result: json.RawMessage(`{"taskId":"t1","content":[]}`)},
		&jsonrpc.Response{ID: id9, Result: status},
	}}}
	ctx := context.Background()
	for _, req := range []*jsonrpc.Request{{ID: id7, Method: "tools/call"}, {ID: id8, Method: "tools/call"}, {ID: id9, Method: "tasks/get"}} {
		if err := conn.Write(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []string{"malformed: it has no content but a taskId", "", ""} {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp := msg.(*jsonrpc.Response)
		switch {
		case want == "" && resp.Error != nil:
			t.Errorf("answer %d: refused: %v", i+1, resp.Error)
		case want != "" && (resp.Error == nil || !strings.Contains(resp.Error.Error(), want)):
			t.Errorf("answer %d: %v %s, want it refused as malformed", i+1, resp.Error, resp.Result)
		}
	}
}

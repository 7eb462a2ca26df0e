package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// sideServer is an in-memory server with resources whose reads tell
// apart which request they answer, and a tool that waits until cancelled.
func sideServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "side", Version: "1"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "echo://{n}", Name: "echo"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "read " + req.Params.URI}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	return s
}

func connectSide(t *testing.T) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Connect(ctx, Config{Target: Target{Kind: TargetEmbedded, Embedded: sideServer}, Protocol: "legacy"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// Side-channel requests run beside the SDK's own, concurrently: each
// answer reaches the request that asked it, and the SDK's calls are
// untouched (their ids are numbers, the side channel's strings).
func TestSideChannelRoutesEachAnswer(t *testing.T) {
	c := connectSide(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 100 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			uri := fmt.Sprintf("echo://%d", i)
			raw, err := c.side.call(ctx, "resources/read", map[string]any{"uri": uri})
			if err != nil {
				errs <- err
				return
			}
			if !strings.Contains(string(raw), `"read `+uri+`"`) {
				errs <- fmt.Errorf("side read of %s got %s", uri, raw)
			}
		}()
		go func() {
			defer wg.Done()
			uri := fmt.Sprintf("echo://sdk-%d", i)
			res, err := c.Session().ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
			if err != nil {
				errs <- err
				return
			}
			if res.Contents[0].Text != "read "+uri {
				errs <- fmt.Errorf("SDK read of %s got %q", uri, res.Contents[0].Text)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c.side.mu.Lock()
	defer c.side.mu.Unlock()
	if len(c.side.waiters) != 0 {
		t.Errorf("%d waiters left", len(c.side.waiters))
	}
}

// A connection that closes settles every side-channel request waiting on
// it, at once, with an error saying so.
func TestSideChannelSettlesOnClose(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := connectSide(t)
	done := make(chan error, 5)
	for range 5 {
		go func() {
			_, err := c.side.call(context.Background(), "tools/call", map[string]any{"name": "wait"})
			done <- err
		}()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.side.mu.Lock()
		n := len(c.side.waiters)
		c.side.mu.Unlock()
		if n == 5 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = c.Close()
	for range 5 {
		select {
		case err := <-done:
			if !errors.Is(err, errSideClosed) {
				t.Errorf("err = %v, want the connection's close", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a side-channel request outlived its connection")
		}
	}
	if _, err := c.side.call(context.Background(), "ping", nil); !errors.Is(err, errSideClosed) {
		t.Errorf("a request after the close: %v", err)
	}
}

// A request whose context ends returns at once and leaves no waiter.
func TestSideChannelContextEnds(t *testing.T) {
	c := connectSide(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := c.side.call(ctx, "tools/call", map[string]any{"name": "wait"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v", err)
	}
	c.side.mu.Lock()
	defer c.side.mu.Unlock()
	if len(c.side.waiters) != 0 {
		t.Errorf("%d waiters left", len(c.side.waiters))
	}
}

// Task polling clamps what the server says to sensible bounds.
func TestTaskPollClamped(t *testing.T) {
	ms := func(n int64) *int64 { return &n }
	for _, tc := range []struct {
		poll *int64
		want time.Duration
	}{{nil, defaultPoll}, {ms(0), minPoll}, {ms(3_600_000), maxPoll}, {ms(250), 250 * time.Millisecond}} {
		if got := (wireTask{PollInterval: tc.poll}).status(time.Now(), nil).PollInterval; got != tc.want {
			t.Errorf("pollInterval %v → %v, want %v", tc.poll, got, tc.want)
		}
	}
}

// A tool's task support, and the SDK's listing of the tools, are each
// listed once per connection, and again after the server says its tools
// changed.
func TestTaskSupportListedOnceUntilToolsChange(t *testing.T) {
	var lists atomic.Int32 // tools/list requests the server answered
	count := func() int { return int(lists.Load()) }
	srv := sideServer()
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	changed := make(chan struct{}, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Connect(ctx, Config{Target: Target{Kind: TargetEmbedded, Embedded: func() *mcp.Server { return srv }}, Protocol: "legacy",
		OnEvent: func(e Event) {
			if l, ok := e.(ListChangedEvent); ok && l.List == "tools" {
				changed <- struct{}{}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for range 3 {
		if s, err := c.TaskSupport(ctx, "wait"); err != nil || s != "" {
			t.Fatalf("TaskSupport(wait) = %q, %v", s, err)
		}
	}
	if n := count(); n != 1 {
		t.Errorf("three calls listed the tools %d times, want once", n)
	}
	for range 3 { // the SDK's listing (a tool's app, what it may call), once too
		if tool, err := c.Tool(ctx, "wait"); err != nil || tool == nil {
			t.Fatalf("Tool(wait) = %v, %v", tool, err)
		}
	}
	if n := count(); n != 2 {
		t.Errorf("three Tool calls made %d listings in all, want two", n)
	}
	srv.AddTool(&mcp.Tool{Name: "later", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("the server's tools/list_changed never arrived")
	}
	if _, err := c.TaskSupport(ctx, "later"); err != nil {
		t.Fatal(err)
	}
	if tool, err := c.Tool(ctx, "later"); err != nil || tool == nil {
		t.Fatalf("Tool(later) after the change = %v, %v", tool, err)
	}
	if n := count(); n != 4 {
		t.Errorf("after the tools changed, listed %d times in all, want four", n)
	}
}

// A side-channel answer is checked against the era spoken: each era's
// task and input shapes are refused in the other, an unknown resultType
// and a completed extension task without a tool result are refused, and a
// tool result without content (structuredContent alone) is a result.
func TestSideAnswerShapesByEra(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		method  string
		modern  bool
		result  string
		wantErr string // "": taken
	}{
		{"tools/call", false, `{"content":[]}`, ""},
		{"tools/call", false, `{"structuredContent":{"n":1}}`, ""},
		{"tools/call", false, `{"resultType":"complete","content":[]}`, ""},
		{"tools/call", false, `{"task":{"taskId":"t","status":"working"}}`, ""},
		{"tools/call", false, `{"content":null}`, "its content is null, not an array"},
		{"tools/call", false, `{"content":"text"}`, "its content is a string, not an array"},
		{"tools/call", false, `{"resultType":"bogus"}`, `its resultType "bogus" belongs to the 2026-07-28 tasks extension`},
		{"tools/call", false, `{"resultType":"task","taskId":"t","status":"working"}`, `its resultType "task" belongs to`},
		{"tools/call", false, `{"resultType":"input_required","inputRequests":{}}`, `its resultType "input_required" belongs to`},
		{"tools/call", true, `{"resultType":"complete","content":[]}`, ""},
		{"tools/call", true, `{"structuredContent":{"n":1}}`, ""},
		{"tools/call", true, `{"resultType":"task","taskId":"t","status":"working"}`, ""},
		{"tools/call", true, `{"resultType":"input_required","inputRequests":{"a":{}}}`, ""},
		{"tools/call", true, `{"resultType":"bogus"}`, `its resultType "bogus" is none of complete, task or input_required`},
		{"tools/call", true, `{"resultType":"input_required","inputRequests":{}}`, "it asks for input without inputRequests"},
		{"tools/call", true, `{"task":{"taskId":"t","status":"working"}}`, "it is a 2025-11-25 task"},
		{"tools/call", true, `{"resultType":"task","taskId":"t","status":"completed","result":null}`, "its completed task's result is null, not an object"},
		{"tasks/get", true, `{"taskId":"t","status":"completed","result":{"content":[]}}`, ""},
		{"tasks/get", true, `{"taskId":"t","status":"working"}`, ""},
		{"tasks/get", true, `{"taskId":"t","status":"completed","result":null}`, "its completed task's result is null, not an object"},
		{"tasks/get", true, `{"taskId":"t","status":"completed"}`, "its completed task's result is missing, not an object"},
		{"tasks/get", true, `{"taskId":"t","status":"completed","result":{"content":{}}}`, "its content is an object, not an array"},
		{"tasks/get", false, `{"taskId":"t","status":"completed"}`, ""},
		{"tools/call", false, `{"taskId":"t","status":"completed"}`, "it has no content but a taskId"},
		{"tools/call", true, `{"taskId":"t","status":"completed"}`, "it has no content but a taskId"},
		{"tasks/result", false, `{"taskId":"t","status":"completed"}`, "it has no content but a taskId"},
		{"tasks/result", false, `{}`, ""},
		{"tasks/result", false, `null`, "its result is null, not an object"},
	} {
		_, err := answerOf(tc.method, tc.modern, &jsonrpc.Response{Result: json.RawMessage(tc.result)}, nil)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s (modern %v) %s: refused: %v", tc.method, tc.modern, tc.result, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s (modern %v) %s: error %v, want it to say %q", tc.method, tc.modern, tc.result, err, tc.wantErr)
		}
	}
}

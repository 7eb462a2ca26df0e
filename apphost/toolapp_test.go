package apphost

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakePeer is what a tool app reaches, recorded.
type fakePeer struct {
	mu       sync.Mutex
	calls    []string
	links    []string
	messages []string
	block    chan struct{} // when set, CallTool waits for it
}

func (f *fakePeer) CallTool(ctx context.Context, name string, _ json.RawMessage) (*mcp.CallToolResult, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	block := f.block
	f.mu.Unlock()
	if block != nil {
		select {
		case <-block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if name == "model_only" {
		return nil, errors.New(`tool "model_only" is not visible to apps`)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil
}
func (f *fakePeer) ListTools(context.Context) ([]*mcp.Tool, error) {
	return []*mcp.Tool{{Name: "app_tool"}}, nil
}
func (f *fakePeer) ReadResource(context.Context, string) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{}, nil
}
func (f *fakePeer) ListResources(context.Context) ([]*mcp.Resource, error) { return nil, nil }
func (f *fakePeer) OpenLink(_ context.Context, u string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.links = append(f.links, u)
	return nil
}
func (f *fakePeer) Message(kind string, params json.RawMessage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.messages = append(f.messages, kind+" "+string(params))
}

func toolAppFor(key string, peer mcpclient.ToolAppPeer) *mcpclient.ToolApp {
	req := sampleRequest(key)
	req.Params = nil
	return &mcpclient.ToolApp{Request: req, Tool: &mcp.Tool{Name: "notes", Title: "Notes"},
		Arguments: json.RawMessage(`{"text":"hi"}`), Peer: peer}
}

// bootTool opens a tool app and plays its page up to initialized; the
// app's ui/initialize result is returned.
func bootTool(t *testing.T, e *env, peer mcpclient.ToolAppPeer) (mcpclient.ToolAppSession, *page, inFrame) {
	t.Helper()
	app := toolAppFor("t-1", peer)
	s, err := e.h.OpenToolApp(context.Background(), app)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.Close()
		select {
		case <-s.Done():
		case <-time.After(3 * patience):
			t.Error("the tool app session did not end after Close")
		}
	})
	key, token := e.link()
	p := e.open(key, token)
	ctl := p.expectControl("session")
	if !strings.Contains(string(ctl.raw), `"title":"Choice Server: Notes"`) || ctl.Message != "" {
		t.Fatalf("session control %s", ctl)
	}
	p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
	p.expectNotification("ui/notifications/sandbox-resource-ready")
	p.sendText(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"a","version":"0"},"appCapabilities":{}}}`)
	init := p.expectResponse("1")
	return s, p, init
}

// A tool app is told what mcpeek serves it, gets the call's input when it
// initializes, and the result whether it came before or after.
func TestToolAppGetsInputAndResult(t *testing.T) {
	for _, early := range []bool{true, false} {
		name := map[bool]string{true: "result before init", false: "result after init"}[early]
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, nil)
			s, p, init := bootTool(t, e, &fakePeer{})
			for _, want := range []string{`"serverTools":{}`, `"serverResources":{}`, `"openLinks":{}`, `"message":{"text":{}}`, `"toolInfo":{"tool":{`, `"name":"notes","title":"Notes"`} {
				if !strings.Contains(string(init.Result), want) {
					t.Errorf("initialize result lacks %s: %s", want, init.Result)
				}
			}
			if strings.Contains(string(init.Result), `"timeZone":"Local"`) {
				t.Errorf("the time zone is no IANA name: %s", init.Result)
			}
			if strings.Contains(string(init.Result), `"elicitation"`) {
				t.Errorf("a tool app is offered elicitation: %s", init.Result)
			}
			result := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}
			if early {
				s.Result(result)
			}
			p.send(notification("ui/notifications/initialized", map[string]any{}))
			in := p.expectNotification("ui/notifications/tool-input")
			if string(in.Params) != `{"arguments":{"text":"hi"}}` {
				t.Errorf("tool-input params %s", in.Params)
			}
			if !early {
				s.Result(result)
			}
			res := p.expectNotification("ui/notifications/tool-result")
			if !strings.Contains(string(res.Params), `"text":"done"`) {
				t.Errorf("tool-result params %s", res.Params)
			}
		})
	}
}

// What a tool app may not do is refused, and the session goes on: a
// model-only tool, links that are not http(s), unknown methods, a flood.
func TestToolAppRefusals(t *testing.T) {
	e := newEnv(t, nil)
	peer := &fakePeer{}
	_, p, _ := bootTool(t, e, peer)
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	p.expectNotification("ui/notifications/tool-input")

	p.send(request(10, "tools/call", map[string]any{"name": "model_only"}))
	if r := p.expectResponse("10"); r.Error == nil || !strings.Contains(r.Error.Message, "not visible to apps") {
		t.Errorf("model-only tool: %s", r)
	}
	for i, link := range []string{"javascript:alert(1)", "file:///etc/passwd", "data:text/html,x"} {
		id := 20 + i
		p.send(request(id, "ui/open-link", map[string]any{"url": link}))
		if r := p.expectResponse(jsonID(id)); r.Error == nil || r.Error.Code != -32602 {
			t.Errorf("link %s: %s", link, r)
		}
	}
	p.send(request(30, "sampling/createMessage", map[string]any{}))
	if r := p.expectResponse("30"); r.Error == nil || r.Error.Code != -32601 {
		t.Errorf("an unadvertised method: %s", r)
	}
	p.send(request(31, "ui/open-link", map[string]any{"url": "https://example.com/x"}))
	if r := p.expectResponse("31"); r.Error != nil {
		t.Errorf("an https link: %s", r)
	}
	p.send(request(32, "ui/message", map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hi"}}}))
	p.expectResponse("32")
	peer.mu.Lock()
	links, messages := peer.links, peer.messages
	peer.mu.Unlock()
	if len(links) != 1 || links[0] != "https://example.com/x" || len(messages) != 1 || !strings.HasPrefix(messages[0], "ui/message ") {
		t.Errorf("links %v, messages %v", links, messages)
	}
	// The session still answers.
	p.send(request(40, "tools/call", map[string]any{"name": "app_tool"}))
	if r := p.expectResponse("40"); r.Error != nil || !strings.Contains(string(r.Result), "app_tool ran") {
		t.Errorf("after the refusals: %s", r)
	}
}

// A flood of tools/call is bounded: at most a few in flight, the rest
// refused at once, and none of them stops the session.
func TestToolAppFloodBounded(t *testing.T) {
	e := newEnv(t, nil)
	peer := &fakePeer{block: make(chan struct{})}
	_, p, _ := bootTool(t, e, peer)
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	p.expectNotification("ui/notifications/tool-input")
	for i := 0; i < 20; i++ {
		p.send(request(100+i, "tools/call", map[string]any{"name": "app_tool"}))
	}
	refused := 0
	for i := 0; i < 20-maxToolAppInflight; i++ {
		f := p.expect("a refusal", func(f inFrame) bool { return f.Error != nil })
		if f.Error.Code == -32000 {
			refused++
		}
	}
	close(peer.block)
	for i := 0; i < maxToolAppInflight; i++ {
		p.expect("an answer", func(f inFrame) bool { return f.Result != nil })
	}
	peer.mu.Lock()
	defer peer.mu.Unlock()
	if refused != 20-maxToolAppInflight || len(peer.calls) != maxToolAppInflight {
		t.Errorf("refused %d, reached the server %d", refused, len(peer.calls))
	}
}

// The app asking to close ends the session with ErrAppClosed; a tab that
// closes ends it with no error.
func TestToolAppEnds(t *testing.T) {
	t.Run("the app asks", func(t *testing.T) {
		e := newEnv(t, nil)
		s, p, _ := bootTool(t, e, &fakePeer{})
		p.send(notification("ui/notifications/initialized", map[string]any{}))
		p.expectNotification("ui/notifications/tool-input")
		p.send(notification("ui/notifications/request-teardown", map[string]any{}))
		p.teardown()
		<-s.Done()
		if !errors.Is(s.Err(), mcpclient.ErrAppClosed) {
			t.Errorf("Err = %v", s.Err())
		}
	})
	t.Run("the tab closes", func(t *testing.T) {
		e := newEnv(t, nil)
		s, p, _ := bootTool(t, e, &fakePeer{})
		p.close()
		select {
		case <-s.Done():
		case <-time.After(3 * patience):
			t.Fatal("the session outlived its tab")
		}
		if s.Err() != nil {
			t.Errorf("Err = %v", s.Err())
		}
	})
}

func jsonID(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

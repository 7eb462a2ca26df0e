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

func (f *fakePeer) AppToolsChanged() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.messages = append(f.messages, "tools changed")
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
	return bootToolWith(t, e, peer, "{}")
}

// bootToolWith is bootTool for an app that declares appCapabilities.
func bootToolWith(t *testing.T, e *env, peer mcpclient.ToolAppPeer, appCapabilities string) (mcpclient.ToolAppSession, *page, inFrame) {
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
	p.sendText(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"a","version":"0"},"appCapabilities":` + appCapabilities + `}}`)
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

// askAsync runs a request of the host's to the app beside the page's
// play.
func askAsync[T any](f func(context.Context) (T, error)) <-chan struct {
	v   T
	err error
} {
	out := make(chan struct {
		v   T
		err error
	}, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*patience)
		defer cancel()
		v, err := f(ctx)
		out <- struct {
			v   T
			err error
		}{v, err}
	}()
	return out
}

// The app's own tools: listed and called through tools/list and
// tools/call sent to the app once it has initialized, only when it
// declared tools; its error answers are errors; its list_changed reaches
// the peer. A theme change is a host-context-changed notification, and
// the theme a remounted app is told in its hostContext.
func TestToolAppOwnTools(t *testing.T) {
	t.Run("declared none", func(t *testing.T) {
		e := newEnv(t, nil)
		s, p, _ := bootTool(t, e, &fakePeer{})
		p.send(notification("ui/notifications/initialized", map[string]any{}))
		p.expectNotification("ui/notifications/tool-input")
		if _, err := s.AppTools(context.Background()); !errors.Is(err, mcpclient.ErrNoAppTools) {
			t.Errorf("AppTools of an app without tools: %v", err)
		}
		if _, err := s.CallAppTool(context.Background(), "x", nil); !errors.Is(err, mcpclient.ErrNoAppTools) {
			t.Errorf("CallAppTool of an app without tools: %v", err)
		}
		p.quiet(100 * time.Millisecond) // nothing was sent to the app
	})
	t.Run("declared", func(t *testing.T) {
		e := newEnv(t, nil)
		peer := &fakePeer{}
		s, p, _ := bootToolWith(t, e, peer, `{"tools":{"listChanged":true}}`)
		if _, err := s.AppTools(context.Background()); err == nil || !strings.Contains(err.Error(), "not initialized") {
			t.Errorf("AppTools before initialized: %v", err)
		}
		p.send(notification("ui/notifications/initialized", map[string]any{}))
		p.expectNotification("ui/notifications/tool-input")

		listed := askAsync(s.AppTools)
		req := p.expectRequest("tools/list")
		p.sendText(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"tools":[{"name":"app_echo","description":"echo","inputSchema":{"type":"object"}}]}}`)
		if got := <-listed; got.err != nil || len(got.v) != 1 || got.v[0].Name != "app_echo" {
			t.Errorf("AppTools = %v, %v", got.v, got.err)
		}

		called := askAsync(func(ctx context.Context) (*mcp.CallToolResult, error) {
			return s.CallAppTool(ctx, "app_echo", json.RawMessage(`{"x":1}`))
		})
		req = p.expectRequest("tools/call")
		if string(req.Params) != `{"arguments":{"x":1},"name":"app_echo"}` {
			t.Errorf("tools/call params %s", req.Params)
		}
		p.sendText(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"content":[{"type":"text","text":"echoed 1"}]}}`)
		if got := <-called; got.err != nil || got.v.Content[0].(*mcp.TextContent).Text != "echoed 1" {
			t.Errorf("CallAppTool = %v, %v", got.v, got.err)
		}

		called = askAsync(func(ctx context.Context) (*mcp.CallToolResult, error) { return s.CallAppTool(ctx, "gone", nil) })
		req = p.expectRequest("tools/call")
		p.sendText(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32602,"message":"Tool gone not found"}}`)
		if got := <-called; got.err == nil || !strings.Contains(got.err.Error(), "Tool gone not found") {
			t.Errorf("a tool the app refuses: %v", got.err)
		}

		p.send(notification("notifications/tools/list_changed", map[string]any{}))
		s.SetTheme("dark")
		n := p.expectNotification("ui/notifications/host-context-changed")
		if string(n.Params) != `{"theme":"dark"}` {
			t.Errorf("host-context-changed params %s", n.Params)
		}
		var msgs string
		for deadline := time.Now().Add(patience); msgs == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			peer.mu.Lock()
			msgs = strings.Join(peer.messages, "|")
			peer.mu.Unlock()
		}
		if msgs != "tools changed" {
			t.Errorf("the peer heard %q, want the tools changed", msgs)
		}

		// A request the app leaves unanswered fails when it starts again,
		// and the remounted app is told the theme chosen.
		pending := askAsync(s.AppTools)
		p.expectRequest("tools/list")
		p.sendText(`{"jsonrpc":"2.0","id":2,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"a","version":"0"},"appCapabilities":{"tools":{}}}}`)
		init := p.expectResponse("2")
		if !strings.Contains(string(init.Result), `"theme":"dark"`) {
			t.Errorf("the remounted app was not told the theme: %s", init.Result)
		}
		if got := <-pending; got.err == nil || !strings.Contains(got.err.Error(), "started again") {
			t.Errorf("a request outliving the app's restart: %v", got.err)
		}
		p.send(notification("ui/notifications/initialized", map[string]any{}))
		p.expectNotification("ui/notifications/tool-input")

		// One outliving the session fails when it ends.
		pending = askAsync(s.AppTools)
		p.expectRequest("tools/list")
		s.Close()
		if got := <-pending; got.err == nil || !strings.Contains(got.err.Error(), "ended") {
			t.Errorf("a request outliving the session: %v", got.err)
		}
	})
}

// A flood of ui/message and ui/update-model-context is rate-limited as the
// app's other requests are: of 1,500, at most the burst and the refill of
// the time they took reach the person, the rest are refused with -32000,
// and the session still answers.
func TestToolAppMessagesRateLimited(t *testing.T) {
	e := newEnv(t, nil)
	peer := &fakePeer{}
	s, p, _ := bootTool(t, e, peer)
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	p.expectNotification("ui/notifications/tool-input")
	const n = 1500
	start := time.Now()
	for i := 0; i < n; i++ {
		method := []string{"ui/message", "ui/update-model-context"}[i%2]
		p.send(request(1000+i, method, map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "spam"}}}))
	}
	accepted, refused := 0, 0
	for i := 0; i < n; i++ {
		f := p.expect("an answer", func(f inFrame) bool { return f.Result != nil || f.Error != nil })
		switch {
		case f.Error == nil:
			accepted++
		case f.Error.Code == -32000:
			refused++
		default:
			t.Errorf("refused with %d: %s", f.Error.Code, f.Error.Message)
		}
	}
	elapsed := time.Since(start)
	if most := toolAppRate + int(float64(toolAppRate)*elapsed.Seconds()); accepted > most || accepted+refused != n {
		t.Errorf("accepted %d, refused %d of %d in %v; want at most %d accepted", accepted, refused, n, elapsed, most)
	}
	peer.mu.Lock()
	delivered := len(peer.messages)
	peer.mu.Unlock()
	if delivered != accepted {
		t.Errorf("%d messages reached the person, %d were accepted", delivered, accepted)
	}
	// The session goes on.
	p.send(request(9000, "ping", nil))
	if r := p.expectResponse("9000"); r.Error != nil {
		t.Errorf("ping after the flood: %s", r)
	}
	select {
	case <-s.Done():
		t.Errorf("the flood ended the session: %v", s.Err())
	default:
	}
}

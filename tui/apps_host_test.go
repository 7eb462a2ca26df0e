package tui

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/apphost"
)

// appTab plays the bridge page of a tool app's tab over the app host's
// WebSocket: it relays JSON-RPC as the app would send it.
type appTab struct {
	t      *testing.T
	c      *websocket.Conn
	frames chan tabFrame
}

// tabFrame is what mcpeek sends the page: its own control message, or
// JSON-RPC for the app.
type tabFrame struct {
	Mcpeek string          `json:"mcpeek"`
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// openTab connects to the tab the host opened at raw, as its page does.
func openTab(t *testing.T, host *apphost.Host, raw string) *appTab {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	key, _ := strings.CutPrefix(u.Path, "/e/")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+strconv.Itoa(host.Port())+"/ws/"+key,
		&websocket.DialOptions{HTTPHeader: http.Header{"Origin": {host.BridgeOrigin()}}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(4 << 20)
	tb := &appTab{t: t, c: c, frames: make(chan tabFrame, 256)}
	go func() {
		defer close(tb.frames)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var f tabFrame
			if json.Unmarshal(b, &f) == nil {
				tb.frames <- f
			}
		}
	}()
	tb.write(u.Fragment) // the token, first
	return tb
}

func (tb *appTab) write(s string) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := tb.c.Write(ctx, websocket.MessageText, []byte(s)); err != nil {
		tb.t.Fatal(err)
	}
}

// send sends the app's JSON-RPC message: a request when id is not 0.
func (tb *appTab) send(id int, method string, params any) {
	tb.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != 0 {
		msg["id"] = id
	}
	b, _ := json.Marshal(msg)
	tb.write(string(b))
}

// await skips frames until one matches.
func (tb *appTab) await(what string, match func(tabFrame) bool) tabFrame {
	tb.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case f, ok := <-tb.frames:
			if !ok {
				tb.t.Fatalf("the tab closed while waiting for %s", what)
			}
			if match(f) {
				return f
			}
		case <-timeout:
			tb.t.Fatalf("the tab never got %s", what)
		}
	}
}

func (tb *appTab) notified(method string) tabFrame {
	tb.t.Helper()
	return tb.await(method, func(f tabFrame) bool { return f.Method == method && len(f.ID) == 0 })
}

func (tb *appTab) answer(id int) tabFrame {
	tb.t.Helper()
	return tb.await("the answer to "+strconv.Itoa(id), func(f tabFrame) bool { return f.Method == "" && string(f.ID) == strconv.Itoa(id) })
}

// The fixture's notes app, played over a real app host's WebSocket: it
// gets its call's input and result, calls the app-only tool and is refused
// the model-only one, sends a message (shown in the Apps panel), asks for
// a link (opened through the consent card), and closing its tab ends its
// session, which the panel shows.
func TestToolAppOverTheWebSocket(t *testing.T) {
	t.Parallel()
	urls := make(chan string, 4)
	host, err := apphost.Start(apphost.Options{Open: func(u string) error { urls <- u; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Close() })
	browsed := make(chan string, 1)
	in := open(t, Options{ToolApps: host, AppHost: "127.0.0.1:" + strconv.Itoa(host.Port()), AppSSHHint: host.SSHHint(),
		OpenURL: func(u string) error { browsed <- u; return nil }}, 100, 30).expect("notes")
	in.callNotes("first")
	var tb *appTab
	select {
	case raw := <-urls:
		tb = openTab(t, host, raw)
	case <-time.After(10 * time.Second):
		t.Fatal("the host opened no tab")
	}
	defer func() { _ = tb.c.CloseNow() }()
	tb.await("the session", func(f tabFrame) bool { return f.Mcpeek == "session" })
	tb.send(0, "ui/notifications/sandbox-proxy-ready", map[string]any{})
	tb.notified("ui/notifications/sandbox-resource-ready")
	tb.send(1, "ui/initialize", map[string]any{"protocolVersion": "2026-01-26", "appInfo": map[string]any{"name": "notes", "version": "0"}, "appCapabilities": map[string]any{}})
	tb.answer(1)
	tb.send(0, "ui/notifications/initialized", map[string]any{})
	if f := tb.notified("ui/notifications/tool-input"); string(f.Params) != `{"arguments":{"text":"first"}}` {
		t.Errorf("tool-input %s", f.Params)
	}
	if f := tb.notified("ui/notifications/tool-result"); !strings.Contains(string(f.Params), `1 notes, the last \"first\"`) {
		t.Errorf("tool-result %s", f.Params)
	}

	tb.send(2, "tools/call", map[string]any{"name": "add_note", "arguments": map[string]any{"text": "second"}})
	if f := tb.answer(2); f.Error != nil || !strings.Contains(string(f.Result), "add_note: 2 notes") {
		t.Errorf("add_note: %s %+v", f.Result, f.Error)
	}
	tb.send(3, "tools/call", map[string]any{"name": "reset_notes", "arguments": map[string]any{}})
	if f := tb.answer(3); f.Error == nil || !strings.Contains(f.Error.Message, "not visible to apps") {
		t.Errorf("reset_notes was not refused: %s", f.Result)
	}
	tb.send(4, "ui/message", map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "Two notes now."}}})
	tb.answer(4)

	tb.send(5, "ui/open-link", map[string]any{"url": "https://example.com/notes"})
	in.expect("host: example.com")
	in.keys("o")
	if f := tb.answer(5); f.Error != nil || strings.Contains(string(f.Result), "isError") {
		t.Errorf("an accepted link: %s %+v", f.Result, f.Error)
	}
	select {
	case u := <-browsed:
		if u != "https://example.com/notes" {
			t.Errorf("opened %q", u)
		}
	case <-time.After(10 * time.Second):
		t.Error("the accepted link was not opened")
	}

	in.keys("A").expect("Two notes now.")
	_ = tb.c.Close(websocket.StatusGoingAway, "the tab closed")
	in.expect("ended: the tab closed")
	wantOnScreen(t, in.screen(), "ui/message · user", "ui/open-link · opened", "https://example.com/notes")
}

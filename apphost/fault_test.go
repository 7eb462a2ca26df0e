package apphost

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const cutAppURI = "ui://cut/app.html"

// cutServer asks one question rendered by its app, in either era, and
// counts the answers it receives: each must arrive exactly once.
func cutServer(answers *atomic.Int32, got chan<- string) func() *mcp.Server {
	return func() *mcp.Server {
		caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		caps.AddExtension(mcpclient.UIExtension, map[string]any{"elicitation": map[string]any{}})
		s := mcp.NewServer(&mcp.Implementation{Name: "cut", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
		s.AddResource(&mcp.Resource{URI: cutAppURI, Name: "app", MIMEType: mcpclient.AppMIMEType},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: cutAppURI, MIMEType: mcpclient.AppMIMEType, Text: "<!doctype html><p>app</p>"}}}, nil
			})
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 {
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{
						Message:         "Pick one",
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]}},"required":["choice"]}`),
						Meta:            mcp.Meta{"ui": map[string]any{"resourceUri": cutAppURI}},
					}}, RequestState: "q"}, nil
				}
				answers.Add(1)
				r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
				if r == nil {
					return nil, fmt.Errorf("no answer")
				}
				got <- r.Action
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Action}}}, nil
			})
		return s
	}
}

// onceAsker is the native form: it answers decline and counts its calls.
type onceAsker struct {
	mu    sync.Mutex
	calls []*mcpclient.NativeRequest
}

func (a *onceAsker) Ask(_ context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.calls = append(a.calls, req)
	return &mcp.ElicitResult{Action: "decline"}, nil
}

func (a *onceAsker) asked() []*mcpclient.NativeRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*mcpclient.NativeRequest(nil), a.calls...)
}

// cutPage is a page whose TCP connection the test holds, to cut it.
type cutPage struct {
	*page
	tcp *net.TCPConn
}

// dialCut opens a tab's WebSocket over a TCP connection the test can cut.
func (e *env) dialCut(key, token string) *cutPage {
	e.t.Helper()
	var mu sync.Mutex
	var tcp *net.TCPConn
	hc := &http.Client{Transport: &http.Transport{
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err == nil {
				mu.Lock()
				tcp = c.(*net.TCPConn)
				mu.Unlock()
			}
			return c, err
		},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	c, _, err := websocket.Dial(ctx, e.wsURL(key), &websocket.DialOptions{HTTPClient: hc, HTTPHeader: http.Header{"Origin": {e.h.BridgeOrigin()}}})
	if err != nil {
		e.t.Fatalf("dial %s: %v", key, err)
	}
	p := &cutPage{page: newPage(e.t, c)}
	mu.Lock()
	p.tcp = tcp
	mu.Unlock()
	p.sendText(token)
	return p
}

// cut ends the page's connection in one of the ways a tab or a network
// can end it.
func (p *cutPage) cut(how string) {
	p.t.Helper()
	switch how {
	case "close frame": // the tab closes: the browser says goodbye
		_ = p.c.Close(websocket.StatusGoingAway, "tab closed")
	case "no close frame": // the browser process dies: FIN without a word
		_ = p.c.CloseNow()
	case "reset": // the connection is torn: RST
		if err := p.tcp.SetLinger(0); err != nil {
			p.t.Fatal(err)
		}
		_ = p.tcp.Close()
	default:
		p.t.Fatalf("unknown cut %q", how)
	}
}

// cutStages are the stages of an app session, in order, at which the test
// cuts the WebSocket.
var cutStages = []string{"page connected", "sandbox loaded", "app initialized", "question shown", "app answered"}

// playUntil plays the page's part of the session up to the stage and
// reports whether the app has answered.
func (p *cutPage) playUntil(stage string) (appAnswered bool) {
	p.t.Helper()
	at := slices.Index(cutStages, stage)
	if at < 0 {
		p.t.Fatalf("unknown stage %q", stage)
	}
	reached := func(s string) bool { return at >= slices.Index(cutStages, s) }
	if reached("sandbox loaded") {
		p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
		p.expectNotification("ui/notifications/sandbox-resource-ready")
	}
	if reached("app initialized") {
		p.sendText(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appCapabilities":{"elicitation":{}}}}`)
		p.expectResponse("1")
	}
	if !reached("question shown") {
		return false
	}
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	el := p.expectRequest("elicitation/create")
	if !reached("app answered") {
		return false
	}
	p.answer(el, `{"action":"accept","content":{"choice":"option-a"}}`)
	return true
}

// cutSession is one call of cutServer's tool over a connection whose
// renderer is the test's app host, and everything that notes its outcome.
type cutSession struct {
	conn    *mcpclient.Conn
	answers atomic.Int32 // answers the server received
	got     chan string  // the actions it received
	asker   *onceAsker
	records *mcpclient.Recorder
	done    chan cutCall
}

// cutCall is what the tool call returned.
type cutCall struct {
	res *mcp.CallToolResult
	err error
}

// startCutSession connects to cutServer in the era, with the env's host
// as renderer, and starts the call; the connection closes with the test.
func startCutSession(t *testing.T, e *env, era string) *cutSession {
	t.Helper()
	s := &cutSession{got: make(chan string, 4), asker: &onceAsker{}, records: mcpclient.NewRecorder(nil), done: make(chan cutCall, 1)}
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: cutServer(&s.answers, s.got)},
		Protocol:     era,
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        s.asker, Renderer: e.h, Records: s.records,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s.conn = conn
	go func() {
		res, err := conn.Call(context.Background(), "ask", nil)
		s.done <- cutCall{res, err}
	}()
	return s
}

// awaitCall waits for the call to end, which it must do without an error.
func (s *cutSession) awaitCall(t *testing.T) {
	t.Helper()
	var r cutCall
	select {
	case r = <-s.done:
	case <-time.After(3 * patience):
		t.Fatal("the call never ended")
	}
	if r.err != nil || r.res.IsError {
		t.Fatalf("call = %v, %v", r.res, r.err)
	}
}

// check holds the ended session to one answer received by the server, one
// record that agrees with it, and nothing left pending.
func (s *cutSession) check(t *testing.T, how string, appAnswered bool) {
	t.Helper()
	if n := s.answers.Load(); n != 1 {
		t.Errorf("the server received %d answers, want exactly one", n)
	}
	recs := s.records.Records()
	if len(recs) != 1 {
		t.Fatalf("records = %+v, want one", recs)
	}
	rec, asked := recs[0], s.asker.asked()
	checkCutAnswer(t, rec, asked, <-s.got, how, appAnswered)
	if pending := s.conn.Pending(); len(pending) != 0 {
		t.Errorf("still pending: %+v", pending)
	}
}

// checkCutAnswer holds the record, the native form's calls (asked) and
// the action the server got to one story: the app's answer, read before
// the cut, or the native form's, opened once with bridge_closed.
func checkCutAnswer(t *testing.T, rec mcpclient.Record, asked []*mcpclient.NativeRequest, serverGot, how string, appAnswered bool) {
	t.Helper()
	if rec.Path == mcpclient.PathApp {
		// The app's answer was read before the cut: it stands, and the
		// native form never opened.
		if !appAnswered || len(asked) != 0 || serverGot != "accept" || rec.Action != "accept" {
			t.Errorf("app path: answered=%v, native asked %d times, server got %s, record %s", appAnswered, len(asked), serverGot, rec.Action)
		}
		return
	}
	if appAnswered && how != "reset" {
		// Only a reset may lose an answer already sent.
		t.Errorf("the app's answer was lost to a %s", how)
	}
	if len(asked) != 1 || asked[0].Fallback != mcpclient.FallbackBridgeClosed {
		t.Fatalf("native form asked %d times (%+v), want once with bridge_closed", len(asked), asked)
	}
	if rec.Path != mcpclient.PathNative || rec.Fallback != mcpclient.FallbackBridgeClosed || rec.Action != "decline" || serverGot != "decline" {
		t.Errorf("record path %s fallback %s action %s, server got %s; want native, bridge_closed, decline", rec.Path, rec.Fallback, rec.Action, serverGot)
	}
}

// TestWebSocketCutMidSession cuts the tab's WebSocket at each stage of an
// app session, in each way it can end, in both eras, with the whole
// elicitation path in play (router, app host, page). Before the app
// answers, the question falls back to the native form with the reason
// bridge_closed; once the app has answered, its answer stands. Either way
// the server receives exactly one answer, well before any timeout.
func TestWebSocketCutMidSession(t *testing.T) {
	cuts := []string{"close frame", "no close frame", "reset"}
	for _, era := range []string{"legacy", "modern"} {
		for _, stage := range cutStages {
			for _, how := range cuts {
				t.Run(era+"/"+stage+"/"+how, func(t *testing.T) {
					e := newEnv(t, nil)
					s := startCutSession(t, e, era)
					key, token := e.link()
					p := e.dialCut(key, token)
					p.expectControl("session")
					appAnswered := p.playUntil(stage)
					cutAt := time.Now()
					p.cut(how)

					s.awaitCall(t)
					if settledIn := time.Since(cutAt); settledIn > patience/2 {
						t.Errorf("the call ended %s after the cut; the app timeouts are %s: the cut went unnoticed", settledIn, patience)
					}
					s.check(t, how, appAnswered)
				})
			}
		}
	}
}

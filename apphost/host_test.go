package apphost

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if target := os.Getenv(getAsEnv); target != "" {
		os.Exit(getAs(target)) // the test binary run as another user: see runAs
	}
	goleak.VerifyTestMain(m)
}

// patience bounds every wait in these tests; the host's own timeouts are
// set to it unless a test is about them.
const patience = 5 * time.Second

// env is one running Host and the links it asked to open.
type env struct {
	t  *testing.T
	h  *Host
	tr *http.Transport
	hc *http.Client

	urls chan string

	mu    sync.Mutex
	logs  []string
	notes []string
}

func newEnv(t *testing.T, tweak func(*Options)) *env {
	t.Helper()
	e := &env{t: t, urls: make(chan string, 64)}
	opts := Options{
		InitTimeout:   patience,
		AnswerTimeout: patience,
		Version:       "1.2.3-test",
		Open:          func(u string) error { e.urls <- u; return nil },
		Notify: func(s string) {
			e.mu.Lock()
			e.notes = append(e.notes, s)
			e.mu.Unlock()
		},
		// Not t.Logf: sessions may log after the test has returned.
		Logf: func(f string, a ...any) {
			e.mu.Lock()
			e.logs = append(e.logs, fmt.Sprintf(f, a...))
			e.mu.Unlock()
		},
	}
	if tweak != nil {
		tweak(&opts)
	}
	h, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	e.h = h
	e.tr = &http.Transport{DisableKeepAlives: true}
	e.hc = &http.Client{Transport: e.tr}
	t.Cleanup(func() {
		_ = h.Close()
		e.tr.CloseIdleConnections()
	})
	return e
}

func (e *env) logged(substr string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, l := range e.logs {
		if strings.Contains(l, substr) {
			return true
		}
	}
	return false
}

func (e *env) port() string { return strconv.Itoa(e.h.Port()) }

// call is one Render in flight.
type call struct {
	req     *mcpclient.AppRequest
	cancel  context.CancelFunc
	started time.Time
	done    chan struct{}
	ans     *mcpclient.AppAnswer
	err     error
}

// render starts Render in the background under ctx.
func (e *env) render(ctx context.Context, req *mcpclient.AppRequest) *call {
	ctx, cancel := context.WithCancel(ctx)
	c := &call{req: req, cancel: cancel, started: time.Now(), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.ans, c.err = e.h.Render(ctx, req)
	}()
	e.t.Cleanup(func() {
		cancel()
		select {
		case <-c.done:
		case <-time.After(3 * patience):
			e.t.Errorf("Render(%s) did not return after cancel", req.Key)
		}
	})
	return c
}

// start renders req and waits for the link the host opens for it.
func (e *env) start(req *mcpclient.AppRequest) (c *call, key, token string) {
	e.t.Helper()
	c = e.render(context.Background(), req)
	key, token = e.link()
	return c, key, token
}

// link waits for the next URL given to Options.Open and checks its shape.
func (e *env) link() (key, token string) {
	e.t.Helper()
	var raw string
	select {
	case raw = <-e.urls:
	case <-time.After(patience):
		e.t.Fatal("the host opened no URL")
	}
	return e.parseLink(raw)
}

func (e *env) parseLink(raw string) (key, token string) {
	e.t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		e.t.Fatalf("link %q: %v", raw, err)
	}
	key, ok := strings.CutPrefix(u.Path, "/e/")
	if u.Scheme != "http" || u.Host != "127.0.0.1:"+e.port() || !ok || key == "" || strings.Contains(key, "/") || u.RawQuery != "" {
		e.t.Fatalf("link %q is not http://127.0.0.1:%s/e/KEY#TOKEN", raw, e.port())
	}
	// The fragment is TOKEN.SANDBOX, and .ALLOW once the app is read
	// (session.link): the page starts its sandbox frame from it.
	token, rest, _ := strings.Cut(u.Fragment, ".")
	if b, err := base64.RawURLEncoding.DecodeString(token); err != nil || len(b) != 32 {
		e.t.Fatalf("link %q: token %q is not 256 bits in URL-safe base64", raw, token)
	}
	sandbox, allow, known := strings.Cut(rest, ".")
	if s := e.h.session(key); s != nil { // a session that has ended has no sandbox to compare
		if sandbox != s.sandboxID {
			e.t.Fatalf("link %q: %q is not the session's sandbox page", raw, sandbox)
		}
		if got, err := base64.RawURLEncoding.DecodeString(allow); known && (err != nil || string(got) != s.allow) {
			e.t.Fatalf("link %q: allow %q, want %q", raw, got, s.allow)
		}
	}
	return key, token
}

func (c *call) result(t *testing.T) (*mcpclient.AppAnswer, error) {
	t.Helper()
	select {
	case <-c.done:
		return c.ans, c.err
	case <-time.After(3 * patience):
		t.Fatalf("Render(%s) did not return", c.req.Key)
		return nil, nil
	}
}

func (c *call) pending(t *testing.T) {
	t.Helper()
	select {
	case <-c.done:
		t.Fatalf("Render(%s) returned early: %v, %v", c.req.Key, c.ans, c.err)
	default:
	}
}

func wantReason(t *testing.T, err error, want mcpclient.FallbackReason) {
	t.Helper()
	var ae *mcpclient.AppError
	if !errors.As(err, &ae) {
		t.Fatalf("Render error = %v (%T), want an *AppError %s", err, err, want)
	}
	if ae.Reason != want {
		t.Fatalf("Render error reason = %s (%v), want %s", ae.Reason, err, want)
	}
}

func wantAnswer(t *testing.T, c *call, result string) {
	t.Helper()
	ans, err := c.result(t)
	if err != nil {
		t.Fatalf("Render(%s) = %v, want an answer", c.req.Key, err)
	}
	if ans == nil || !bytes.Equal(ans.Result, []byte(result)) {
		t.Fatalf("Render(%s) result = %s, want %s", c.req.Key, resultOf(ans), result)
	}
	if ans.InitTime <= 0 {
		t.Fatalf("Render(%s) InitTime = %v, want > 0", c.req.Key, ans.InitTime)
	}
}

func resultOf(a *mcpclient.AppAnswer) string {
	if a == nil {
		return "<nil answer>"
	}
	return string(a.Result)
}

func sampleRequest(key string) *mcpclient.AppRequest {
	return &mcpclient.AppRequest{
		Connection:  "stdio: ./choice-server --flag",
		Server:      &mcp.Implementation{Name: "choice-server", Title: "Choice Server", Version: "1"},
		Key:         key,
		ResourceURI: "ui://choice/app.html",
		HTML:        `<!doctype html><html><body><p>é & <b>bold</b></p><script>if (1 < 2 && "x") parent.postMessage({}, "*")</script></body></html>`,
		MIMEType:    "text/html;profile=mcp-app",
		Params: &mcp.ElicitParams{
			Meta:    mcp.Meta{"ui": map[string]any{"resourceUri": "ui://choice/app.html"}},
			Mode:    "form",
			Message: "Pick one <now> & go",
			RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"choice": map[string]any{"type": "string", "enum": []any{"option-a", "option-b"}},
				},
				"required": []any{"choice"},
			},
		},
	}
}

// page plays the bridge page over the WebSocket.
type page struct {
	t    *testing.T
	c    *websocket.Conn
	in   chan inFrame
	quit chan struct{}
	done chan struct{}
	err  error // why the stream ended, once done is closed
}

// inFrame is a frame from mcpeek: a control message or JSON-RPC.
type inFrame struct {
	raw []byte

	Mcpeek     string `json:"mcpeek"`
	Text       string `json:"text"`
	Server     string `json:"server"`
	Connection string `json:"connection"`
	Message    string `json:"message"`
	Sandbox    string `json:"sandbox"`
	Width      *int   `json:"width"`
	Height     *int   `json:"height"`
	Mode       string `json:"mode"`
	Allow      string `json:"allow"`

	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *rpcError       `json:"error"`
}

func (f inFrame) String() string { return string(f.raw) }

func (e *env) wsURL(key string) string { return "ws://127.0.0.1:" + e.port() + "/ws/" + key }

// dial opens a WebSocket to /ws/KEY with the given headers (the bridge
// Origin when nil).
func (e *env) dial(key string, header http.Header) (*websocket.Conn, *http.Response, error) {
	if header == nil {
		header = http.Header{"Origin": {e.h.BridgeOrigin()}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	return websocket.Dial(ctx, e.wsURL(key), &websocket.DialOptions{HTTPClient: e.hc, HTTPHeader: header})
}

// connect opens a page's WebSocket without sending the token.
func (e *env) connect(key string) *page {
	e.t.Helper()
	c, _, err := e.dial(key, nil)
	if err != nil {
		e.t.Fatalf("dial %s: %v", key, err)
	}
	return newPage(e.t, c)
}

// open connects and sends the token, as the bridge page does.
func (e *env) open(key, token string) *page {
	e.t.Helper()
	p := e.connect(key)
	p.sendText(token)
	return p
}

func newPage(t *testing.T, c *websocket.Conn) *page {
	c.SetReadLimit(4 << 20)
	p := &page{t: t, c: c, in: make(chan inFrame, 4096), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(p.done)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				p.err = err
				return
			}
			f := inFrame{raw: b}
			if err := json.Unmarshal(b, &f); err != nil {
				f = inFrame{raw: b, Mcpeek: "<not JSON>"}
			}
			select {
			case p.in <- f:
			case <-p.quit:
				return
			}
		}
	}()
	t.Cleanup(p.close)
	return p
}

func (p *page) close() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	_ = p.c.CloseNow()
	<-p.done
}

func (p *page) sendText(s string) {
	p.t.Helper()
	if err := p.write([]byte(s)); err != nil {
		p.t.Fatalf("page write: %v", err)
	}
}

func (p *page) write(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	return p.c.Write(ctx, websocket.MessageText, b)
}

func (p *page) send(v any) {
	p.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		p.t.Fatal(err)
	}
	p.sendText(string(b))
}

func request(id any, method string, params any) map[string]any {
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	return m
}

func notification(method string, params any) map[string]any {
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		m["params"] = params
	}
	return m
}

// next returns the next frame, or ok false when the stream has ended.
func (p *page) next(d time.Duration) (f inFrame, ok bool) {
	p.t.Helper()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case f := <-p.in:
		return f, true
	case <-p.done:
		select {
		case f := <-p.in:
			return f, true
		default:
			return inFrame{}, false
		}
	case <-timer.C:
		p.t.Fatalf("page: nothing arrived within %s", d)
		return inFrame{}, false
	}
}

// expect returns the next frame other than a status line, which must match.
func (p *page) expect(what string, match func(inFrame) bool) inFrame {
	p.t.Helper()
	for {
		f, ok := p.next(patience)
		if !ok {
			p.t.Fatalf("page: stream ended (%v) while expecting %s", p.err, what)
		}
		if f.Mcpeek == "status" {
			continue
		}
		if !match(f) {
			p.t.Fatalf("page: got %s, want %s", f, what)
		}
		return f
	}
}

func (p *page) expectControl(kind string) inFrame {
	p.t.Helper()
	return p.expect("control "+kind, func(f inFrame) bool { return f.Mcpeek == kind })
}

func (p *page) expectRequest(method string) inFrame {
	p.t.Helper()
	return p.expect("request "+method, func(f inFrame) bool {
		return f.Mcpeek == "" && f.JSONRPC == "2.0" && f.Method == method && len(f.ID) > 0
	})
}

func (p *page) expectNotification(method string) inFrame {
	p.t.Helper()
	return p.expect("notification "+method, func(f inFrame) bool {
		return f.Mcpeek == "" && f.JSONRPC == "2.0" && f.Method == method && len(f.ID) == 0
	})
}

func (p *page) expectResponse(id string) inFrame {
	p.t.Helper()
	return p.expect("response to "+id, func(f inFrame) bool {
		return f.Mcpeek == "" && f.JSONRPC == "2.0" && f.Method == "" && string(f.ID) == id && (f.Result != nil) != (f.Error != nil)
	})
}

// expectClosed waits for the end of the stream, with nothing but status
// lines before it; code < 0 accepts any close.
func (p *page) expectClosed(code websocket.StatusCode) {
	p.t.Helper()
	for {
		f, ok := p.next(3 * patience)
		if !ok {
			break
		}
		if f.Mcpeek != "status" {
			p.t.Fatalf("page: got %s, want the connection to close", f)
		}
	}
	if code >= 0 && websocket.CloseStatus(p.err) != code {
		p.t.Fatalf("page: closed with %v, want status %v", p.err, code)
	}
}

// quiet checks that nothing but status lines arrives for a while.
func (p *page) quiet(d time.Duration) {
	p.t.Helper()
	deadline := time.After(d)
	for {
		select {
		case f := <-p.in:
			if f.Mcpeek != "status" {
				p.t.Fatalf("page: got %s, want nothing", f)
			}
		case <-p.done:
			p.t.Fatalf("page: stream ended (%v), want it open", p.err)
		case <-deadline:
			return
		}
	}
}

// expectRefused checks that the host refused this page with a visible message.
func (p *page) expectRefused() {
	p.t.Helper()
	f := p.expectControl("refused")
	if f.Text == "" {
		p.t.Fatalf("refused without a message: %s", f)
	}
	p.expectClosed(websocket.StatusPolicyViolation)
}

// boot plays the page and sandbox up to the reply to ui/initialize: the
// session control, the sandbox's HTML, and the init result (returned).
func (p *page) boot(e *env, req *mcpclient.AppRequest, key, appCapabilities string) inFrame {
	p.t.Helper()
	s := p.expectControl("session")
	server := req.Server.Title
	if server == "" {
		server = req.Server.Name
	}
	if s.Server != server || s.Connection != req.Connection || s.Message != req.Params.Message {
		p.t.Fatalf("session control = %s, want server %q, connection %q, message %q", s, server, req.Connection, req.Params.Message)
	}
	if want := "http://localhost:" + e.port() + sandboxPath(e, key); s.Sandbox != want {
		p.t.Fatalf("session sandbox = %q, want %q", s.Sandbox, want)
	}
	p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
	rr := p.expectNotification("ui/notifications/sandbox-resource-ready")
	var res struct {
		HTML    *string `json:"html"`
		Sandbox string  `json:"sandbox"`
	}
	if err := json.Unmarshal(rr.Params, &res); err != nil || res.HTML == nil || *res.HTML != req.HTML {
		p.t.Fatalf("sandbox-resource-ready params = %s, want html %q", rr.Params, req.HTML)
	}
	if res.Sandbox != "allow-scripts allow-forms" {
		p.t.Fatalf("sandbox-resource-ready sandbox = %q", res.Sandbox)
	}
	params := `{"protocolVersion":"2026-01-26","appInfo":{"name":"test-app","version":"0"}`
	if appCapabilities != "" {
		params += `,"appCapabilities":` + appCapabilities
	}
	p.sendText(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":` + params + `}}`)
	return p.expectResponse("1")
}

// ready sends initialized and returns the elicitation/create that follows.
func (p *page) ready(req *mcpclient.AppRequest) inFrame {
	p.t.Helper()
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	el := p.expectRequest("elicitation/create")
	want := []byte(req.RawParams)
	if len(want) == 0 {
		var err error
		if want, err = json.Marshal(req.Params); err != nil {
			p.t.Fatal(err)
		}
	}
	if !bytes.Equal(el.Params, want) {
		p.t.Fatalf("elicitation/create params = %s, want the request unchanged: %s", el.Params, want)
	}
	return el
}

// answer replies to the elicitation/create.
func (p *page) answer(el inFrame, result string) {
	p.t.Helper()
	p.sendText(`{"jsonrpc":"2.0","id":` + string(el.ID) + `,"result":` + result + `}`)
}

// teardown expects ui/resource-teardown (answering it), the end control and the close.
func (p *page) teardown() inFrame {
	p.t.Helper()
	td := p.expectRequest("ui/resource-teardown")
	p.sendText(`{"jsonrpc":"2.0","id":` + string(td.ID) + `,"result":{}}`)
	return p.end()
}

func (p *page) end() inFrame {
	p.t.Helper()
	end := p.expectControl("end")
	if end.Text == "" {
		p.t.Fatalf("end control without text: %s", end)
	}
	p.expectClosed(websocket.StatusNormalClosure)
	return end
}

const elicitCaps = `{"elicitation":{}}`

// complete plays a page through a whole successful session.
func (e *env) complete(c *call, key, token, result string) {
	e.t.Helper()
	p := e.open(key, token)
	p.boot(e, c.req, key, elicitCaps)
	el := p.ready(c.req)
	p.answer(el, result)
	p.teardown()
	wantAnswer(e.t, c, result)
}

func TestHandshake(t *testing.T) {
	tests := []struct {
		name       string
		title      string
		appVersion string
		result     string
	}{
		{name: "accept", title: "Choice Server", result: `{"action":"accept","content":{"choice":"option-a"}}`},
		{name: "accept kept byte for byte", result: `{ "action" : "accept", "content": {"choice": "option-b", "note": "<&>"}, "_meta": {"x": 1} }`},
		{name: "decline", title: "Choice Server", result: `{"action":"decline"}`},
		{name: "cancel", result: `{"action":"cancel"}`},
		{name: "unknown app protocol version", appVersion: "2099-01-01", result: `{"action":"cancel"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			req := sampleRequest("e-1")
			req.Server.Title = tc.title
			c, key, token := e.start(req)
			if key != "e-1" {
				t.Fatalf("key = %q, want e-1", key)
			}
			p := e.open(key, token)

			s := p.expectControl("session")
			wantServer := tc.title
			if wantServer == "" {
				wantServer = req.Server.Name
			}
			if s.Server != wantServer || s.Connection != req.Connection || s.Message != req.Params.Message ||
				s.Sandbox != "http://localhost:"+e.port()+sandboxPath(e, key) {
				t.Fatalf("session control = %s", s)
			}
			p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
			rr := p.expectNotification("ui/notifications/sandbox-resource-ready")
			var html struct{ HTML string }
			if err := json.Unmarshal(rr.Params, &html); err != nil || html.HTML != req.HTML {
				t.Fatalf("sandbox-resource-ready = %s, want the app's HTML", rr)
			}

			version := tc.appVersion
			if version == "" {
				version = ProtocolVersion
			}
			p.send(request(1, "ui/initialize", map[string]any{
				"protocolVersion": version,
				"appInfo":         map[string]any{"name": "app", "version": "1"},
				"appCapabilities": map[string]any{"elicitation": map[string]any{}},
			}))
			ir := p.expectResponse("1")
			var init struct {
				ProtocolVersion  string `json:"protocolVersion"`
				HostInfo         struct{ Name, Version string }
				HostCapabilities json.RawMessage `json:"hostCapabilities"`
				HostContext      map[string]any  `json:"hostContext"`
			}
			if err := json.Unmarshal(ir.Result, &init); err != nil {
				t.Fatalf("ui/initialize result %s: %v", ir.Result, err)
			}
			if init.ProtocolVersion != "2026-01-26" {
				t.Errorf("protocolVersion = %q, want 2026-01-26", init.ProtocolVersion)
			}
			if init.HostInfo.Name != "mcpeek" || init.HostInfo.Version != "1.2.3-test" {
				t.Errorf("hostInfo = %+v, want mcpeek 1.2.3-test", init.HostInfo)
			}
			// Only what mcpeek serves during an elicitation: the request,
			// and the app's log messages (recorded in the wire log).
			if !jsonEqual(init.HostCapabilities, `{"elicitation":{},"logging":{}}`) {
				t.Errorf("hostCapabilities = %s, want elicitation and logging only", init.HostCapabilities)
			}
			if modes, _ := init.HostContext["availableDisplayModes"].([]any); len(modes) == 0 || init.HostContext["displayMode"] != "inline" {
				t.Errorf("hostContext = %v, want displayMode inline and availableDisplayModes", init.HostContext)
			}
			if theme, _ := init.HostContext["theme"].(string); theme != "light" && theme != "dark" {
				t.Errorf("hostContext = %v, want a theme", init.HostContext)
			}
			if _, ok := init.HostContext["containerDimensions"].(map[string]any); !ok {
				t.Errorf("hostContext = %v, want containerDimensions", init.HostContext)
			}

			// Nothing but status lines until initialized.
			p.quiet(200 * time.Millisecond)
			c.pending(t)

			p.send(notification("ui/notifications/initialized", map[string]any{}))
			el := p.expectRequest("elicitation/create")
			want, _ := json.Marshal(req.Params)
			if !bytes.Equal(el.Params, want) {
				t.Fatalf("elicitation/create params = %s, want %s", el.Params, want)
			}
			began := time.Now()
			p.answer(el, tc.result)
			// Exactly one elicitation/create: the next thing is the teardown.
			p.teardown()
			wantAnswer(t, c, tc.result)
			if c.ans.InitTime > began.Sub(c.started) {
				t.Errorf("InitTime = %v, longer than the time from Render to initialized (%v)", c.ans.InitTime, began.Sub(c.started))
			}
		})
	}
}

func jsonEqual(raw json.RawMessage, want string) bool {
	var a, b any
	if json.Unmarshal(raw, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}

func TestFallbacks(t *testing.T) {
	const short = 300 * time.Millisecond
	tests := []struct {
		name  string
		tweak func(*Options)
		play  func(t *testing.T, e *env, c *call, key, token string)
		want  mcpclient.FallbackReason
	}{
		{
			name: "app without elicitation capability",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				ir := p.boot(e, c.req, key, `{"availableDisplayModes":["inline"]}`)
				if ir.Result == nil {
					t.Fatalf("ui/initialize got %s, want a result", ir)
				}
				p.end() // never sent initialized: the host may not speak to it, so no teardown
			},
			want: mcpclient.FallbackAppNoElicitation,
		},
		{
			name: "app with no appCapabilities",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, "")
				p.end()
			},
			want: mcpclient.FallbackAppNoElicitation,
		},
		{
			name: "elicitation capability not an object",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, `{"elicitation":true}`)
				p.end()
			},
			want: mcpclient.FallbackAppNoElicitation,
		},
		{
			name:  "init timeout, page never connects",
			tweak: func(o *Options) { o.InitTimeout = short },
			play:  func(t *testing.T, e *env, c *call, key, token string) {},
			want:  mcpclient.FallbackInitTimeout,
		},
		{
			name:  "init timeout, page connects but never initializes",
			tweak: func(o *Options) { o.InitTimeout = short },
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.expectControl("session")
				p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
				p.expectNotification("ui/notifications/sandbox-resource-ready")
				p.end() // never initialized: no teardown
			},
			want: mcpclient.FallbackInitTimeout,
		},
		{
			name:  "init timeout, app initializes but never sends initialized",
			tweak: func(o *Options) { o.InitTimeout = short },
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				p.end()
			},
			want: mcpclient.FallbackInitTimeout,
		},
		{
			name:  "answer timeout",
			tweak: func(o *Options) { o.AnswerTimeout = short },
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				p.ready(c.req)
				p.teardown()
			},
			want: mcpclient.FallbackAnswerTimeout,
		},
		{
			name: "tab closed mid-request",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				p.ready(c.req)
				if err := p.c.Close(websocket.StatusGoingAway, "tab closed"); err != nil {
					t.Logf("close: %v", err)
				}
			},
			want: mcpclient.FallbackBridgeClosed,
		},
		{
			name: "tab dropped before initialize",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.expectControl("session")
				p.close()
			},
			want: mcpclient.FallbackBridgeClosed,
		},
		{
			name: "app answers with a JSON-RPC error",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				el := p.ready(c.req)
				p.sendText(`{"jsonrpc":"2.0","id":` + string(el.ID) + `,"error":{"code":-32000,"message":"user closed the app"}}`)
				p.teardown()
			},
			want: mcpclient.FallbackInvalidResult,
		},
		{
			name: "app asks to be torn down before answering",
			play: func(t *testing.T, e *env, c *call, key, token string) {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				p.ready(c.req)
				p.send(notification("ui/notifications/request-teardown", map[string]any{}))
				p.teardown()
			},
			want: mcpclient.FallbackBridgeClosed,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.tweak)
			c, key, token := e.start(sampleRequest("e-1"))
			tc.play(t, e, c, key, token)
			_, err := c.result(t)
			wantReason(t, err, tc.want)
		})
	}
}

func TestContextEnds(t *testing.T) {
	tests := []struct {
		name string
		// play brings the page to where the context ends; it returns the
		// page, or nil when none connected.
		play     func(e *env, c *call, key, token string) *page
		teardown bool
	}{
		{
			name: "before the page connects",
			play: func(e *env, c *call, key, token string) *page { return nil },
		},
		{
			name: "page connected, app not initialized",
			play: func(e *env, c *call, key, token string) *page {
				p := e.open(key, token)
				p.expectControl("session")
				return p
			},
		},
		{
			name: "app initialized, waiting for the answer",
			play: func(e *env, c *call, key, token string) *page {
				p := e.open(key, token)
				p.boot(e, c.req, key, elicitCaps)
				p.ready(c.req)
				return p
			},
			teardown: true,
		},
	}
	for _, tc := range tests {
		for _, want := range []error{context.Canceled, context.DeadlineExceeded} {
			t.Run(tc.name+"/"+want.Error(), func(t *testing.T) {
				e := newEnv(t, nil)
				ctx := newEndCtx()
				c := e.render(ctx, sampleRequest("e-1"))
				key, token := e.link()
				p := tc.play(e, c, key, token)
				ctx.end(want)
				if p != nil {
					if tc.teardown {
						p.teardown()
					} else {
						p.end()
					}
				}
				_, err := c.result(t)
				if !errors.Is(err, want) {
					t.Fatalf("Render = %v, want %v", err, want)
				}
				var ae *mcpclient.AppError
				if errors.As(err, &ae) {
					t.Fatalf("Render = %v, an *AppError; want ctx.Err() only", err)
				}
				// The token is spent with the request.
				e.open(key, token).expectRefused()
			})
		}
	}
}

// endCtx is a context the test ends, with the error it chooses.
type endCtx struct {
	context.Context
	done chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

func newEndCtx() *endCtx {
	return &endCtx{Context: context.Background(), done: make(chan struct{})}
}

func (c *endCtx) Done() <-chan struct{} { return c.done }

func (c *endCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *endCtx) end(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func TestAppRequestsDuringSession(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	p := e.open(key, token)
	p.boot(e, c.req, key, elicitCaps)
	el := p.ready(c.req)

	tests := []struct {
		name      string
		frame     string
		id        string
		wantError int // 0: a result
		result    string
	}{
		{name: "ping", frame: `{"jsonrpc":"2.0","id":10,"method":"ping"}`, id: "10", result: `{}`},
		{name: "ping with params", frame: `{"jsonrpc":"2.0","id":"p","method":"ping","params":{}}`, id: `"p"`, result: `{}`},
		{name: "tools/call", frame: `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"delete_everything","arguments":{}}}`, id: "11", wantError: -32601},
		{name: "tools/list", frame: `{"jsonrpc":"2.0","id":12,"method":"tools/list"}`, id: "12", wantError: -32601},
		{name: "resources/read", frame: `{"jsonrpc":"2.0","id":13,"method":"resources/read","params":{"uri":"file:///etc/passwd"}}`, id: "13", wantError: -32601},
		{name: "prompts/get", frame: `{"jsonrpc":"2.0","id":14,"method":"prompts/get","params":{"name":"x"}}`, id: "14", wantError: -32601},
		{name: "ui/open-link", frame: `{"jsonrpc":"2.0","id":15,"method":"ui/open-link","params":{"url":"https://evil.example"}}`, id: "15", wantError: -32601},
		{name: "ui/message", frame: `{"jsonrpc":"2.0","id":16,"method":"ui/message","params":{}}`, id: "16", wantError: -32601},
		{name: "unknown method", frame: `{"jsonrpc":"2.0","id":17,"method":"no/such-thing"}`, id: "17", wantError: -32601},
		// Display modes: the app declared none, so it stays inline.
		{name: "display mode not declared", frame: `{"jsonrpc":"2.0","id":18,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}`, id: "18", result: `{"mode":"inline"}`},
		{name: "display mode nonsense", frame: `{"jsonrpc":"2.0","id":19,"method":"ui/request-display-mode","params":{"mode":"\u0000huge"}}`, id: "19", result: `{"mode":"inline"}`},
		{name: "display mode without params", frame: `{"jsonrpc":"2.0","id":20,"method":"ui/request-display-mode"}`, id: "20", result: `{"mode":"inline"}`},
	}
	for _, tc := range tests {
		p.sendText(tc.frame)
		r := p.expectResponse(tc.id)
		switch {
		case tc.wantError != 0 && (r.Error == nil || r.Error.Code != tc.wantError || r.Error.Message == ""):
			t.Errorf("%s: got %s, want error %d", tc.name, r, tc.wantError)
		case tc.wantError == 0 && (r.Error != nil || !jsonEqual(r.Result, tc.result)):
			t.Errorf("%s: got %s, want result %s", tc.name, r, tc.result)
		}
	}

	// Responses to ids mcpeek never used are ignored.
	for _, f := range []string{
		`{"jsonrpc":"2.0","id":"nope","result":{"action":"accept","content":{"choice":"option-b"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":"mcpeek-teardown","result":{}}`,
		`{"jsonrpc":"2.0","id":99,"error":{"code":1,"message":"x"}}`,
	} {
		p.sendText(f)
	}
	// A second initialized without a new ui/initialize sends no second
	// elicitation/create; size-changed is passed to the bridge page.
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	p.send(notification("ui/notifications/size-changed", map[string]any{"width": 320, "height": 480}))
	sz := p.expectControl("size")
	if sz.Width == nil || *sz.Width != 320 || sz.Height == nil || *sz.Height != 480 {
		t.Errorf("size control = %s, want 320×480", sz)
	}
	p.send(notification("ui/notifications/something-else", map[string]any{}))
	p.quiet(200 * time.Millisecond)
	c.pending(t)

	const result = `{"action":"accept","content":{"choice":"option-a"}}`
	p.answer(el, result)
	p.teardown()
	wantAnswer(t, c, result)
}

func TestMessagesBeforeInitialized(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	p := e.open(key, token)
	p.expectControl("session")

	// Before ui/initialize: a stray answer carrying the id mcpeek will use,
	// and an early initialized. Neither starts the elicitation.
	p.sendText(`{"jsonrpc":"2.0","id":"mcpeek-elicit","result":{"action":"accept","content":{"choice":"option-b"}}}`)
	p.send(notification("ui/notifications/initialized", map[string]any{}))
	p.quiet(150 * time.Millisecond)
	c.pending(t)

	p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
	p.expectNotification("ui/notifications/sandbox-resource-ready")
	p.send(request(1, "ui/initialize", map[string]any{"protocolVersion": ProtocolVersion, "appCapabilities": map[string]any{"elicitation": map[string]any{}}}))
	p.expectResponse("1")

	// After ui/initialize, before initialized: the same again.
	p.sendText(`{"jsonrpc":"2.0","id":"mcpeek-elicit","result":{"action":"decline"}}`)
	p.quiet(150 * time.Millisecond)
	c.pending(t)

	el := p.ready(c.req)
	const result = `{"action":"accept","content":{"choice":"option-a"}}`
	p.answer(el, result)
	p.teardown()
	wantAnswer(t, c, result)
}

func TestRefusedTokens(t *testing.T) {
	e := newEnv(t, nil)
	a, key, token := e.start(sampleRequest("e-1"))
	b, keyB, tokenB := e.start(sampleRequest("e-2"))

	tests := []struct {
		name  string
		key   string
		first string
	}{
		{name: "wrong token", key: key, first: newToken()},
		{name: "another request's token", key: key, first: tokenB},
		{name: "empty frame", key: key, first: ""},
		{name: "token with a suffix", key: key, first: token + "x"},
		{name: "token with a suffix before a dot", key: key, first: token + "x." + sandboxPath(e, key)[len("/sandbox/"):]},
		{name: "another token before this session's sandbox", key: key, first: tokenB + "." + sandboxPath(e, key)[len("/sandbox/"):]},
		{name: "token cut short", key: key, first: token[:len(token)-1]},
		{name: "token in JSON", key: key, first: `{"token":"` + token + `"}`},
		{name: "token for the wrong key", key: keyB, first: token},
		{name: "unknown key", key: "e-404", first: token},
	}
	shown := map[string]bool{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := newPage(t, mustDial(t, e, tc.key))
			p.sendText(tc.first)
			f := p.expectControl("refused")
			shown[f.Text] = true
			p.expectClosed(websocket.StatusPolicyViolation)
		})
	}
	// A page without the token cannot tell a live key from an unknown one.
	if len(shown) != 1 {
		t.Errorf("refusals say %d different things %v: a live key can be told from an unknown one", len(shown), shown)
	}
	a.pending(t)
	b.pending(t)
	if !e.logged("refused a tab") {
		t.Error("refusals were not logged")
	}

	// The real pages still connect and complete: one sends its token, the
	// other the whole fragment of its link, which begins with it.
	e.complete(b, keyB, tokenB, `{"action":"decline"}`)
	e.complete(a, key, token+"."+sandboxPath(e, key)[len("/sandbox/"):]+".", `{"action":"accept","content":{"choice":"option-a"}}`)
}

func mustDial(t *testing.T, e *env, key string) *websocket.Conn {
	t.Helper()
	c, _, err := e.dial(key, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", key, err)
	}
	return c
}

func TestSecondTab(t *testing.T) {
	tests := []struct {
		name  string
		phase string // where the first tab is when the second arrives
	}{
		{name: "right after the first connects", phase: "connected"},
		{name: "while the app initializes", phase: "booted"},
		{name: "while the app answers", phase: "ready"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			c, key, token := e.start(sampleRequest("e-1"))
			first := e.open(key, token)
			second := func() {
				t.Helper()
				e.open(key, token).expectRefused()
			}
			var el inFrame
			switch tc.phase {
			case "connected":
				first.expectControl("session")
				second()
				first.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
				first.expectNotification("ui/notifications/sandbox-resource-ready")
				first.send(request(1, "ui/initialize", map[string]any{"appCapabilities": map[string]any{"elicitation": map[string]any{}}}))
				first.expectResponse("1")
				el = first.ready(c.req)
			case "booted":
				first.boot(e, c.req, key, elicitCaps)
				second()
				el = first.ready(c.req)
			case "ready":
				first.boot(e, c.req, key, elicitCaps)
				el = first.ready(c.req)
				second()
			}
			c.pending(t)
			const result = `{"action":"accept","content":{"choice":"option-b"}}`
			first.answer(el, result)
			first.teardown()
			wantAnswer(t, c, result)

			// The token is spent once the request has ended.
			e.open(key, token).expectRefused()
		})
	}
}

func TestWrongHost(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	port := e.port()
	hosts := []string{
		"evil.example:" + port,
		"evil.example",
		"[::1]:" + port,
		"127.0.0.1",
		"localhost",
		"0.0.0.0:" + port,
		"127.0.0.2:" + port,
		"127.0.0.1:1",
		"localhost.:" + port,
		"evil.127.0.0.1:" + port,
	}
	paths := []string{"/e/" + key, "/static/bridge.js", "/static/bridge.css", sandboxPath(e, key), "/ws/" + key, "/"}
	for _, host := range hosts {
		t.Run(host, func(t *testing.T) {
			for _, path := range paths {
				if code := e.get(t, host, path, nil); code != http.StatusMisdirectedRequest {
					t.Errorf("GET %s with Host %s: %d, want 421", path, host, code)
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), patience)
			defer cancel()
			ws, resp, err := websocket.Dial(ctx, e.wsURL(key), &websocket.DialOptions{
				HTTPClient: e.hc, Host: host, HTTPHeader: http.Header{"Origin": {e.h.BridgeOrigin()}},
			})
			if err == nil {
				_ = ws.CloseNow()
				t.Fatalf("WebSocket with Host %s was accepted", host)
			}
			if resp == nil || resp.StatusCode != http.StatusMisdirectedRequest {
				t.Fatalf("WebSocket with Host %s: %v, want 421", host, err)
			}
		})
	}
	c.pending(t)
	e.complete(c, key, token, `{"action":"cancel"}`)
}

// get requests path on the host's port with the given Host header and
// returns the status code.
func (e *env) get(t *testing.T, host, path string, check func(*http.Response, []byte)) int {
	t.Helper()
	return e.do(t, http.MethodGet, host, path, nil, check)
}

func (e *env) do(t *testing.T, method, host, path string, header http.Header, check func(*http.Response, []byte)) int {
	t.Helper()
	req, err := http.NewRequest(method, "http://127.0.0.1:"+e.port()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := e.hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s (Host %s): %v", method, path, host, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	if check != nil {
		check(resp, body)
	}
	return resp.StatusCode
}

func TestOrigins(t *testing.T) {
	e := newEnv(t, nil)
	csp := map[string]any{"connectDomains": []any{"https://api.example.com"}, "resourceDomains": []any{"https://cdn.example.com"}}
	req := sampleRequest("e-1")
	req.CSP = csp
	c, key, token := e.start(req)
	sb := sandboxPath(e, key)
	bridge, sandbox := "127.0.0.1:"+e.port(), "localhost:"+e.port()
	upgrade := http.Header{
		"Connection": {"Upgrade"}, "Upgrade": {"websocket"}, "Sec-Websocket-Version": {"13"},
		"Sec-Websocket-Key": {"dGhlIHNhbXBsZSBub25jZQ=="}, "Origin": {e.h.BridgeOrigin()},
	}
	tests := []struct {
		name   string
		method string
		host   string
		path   string
		header http.Header
		want   int
		check  func(t *testing.T, resp *http.Response, body []byte)
	}{
		{name: "sandbox page", host: sandbox, path: sb, want: 200, check: func(t *testing.T, resp *http.Response, body []byte) {
			want := BuildCSP(csp) + "; frame-ancestors http://127.0.0.1:" + e.port()
			if got := resp.Header.Get("Content-Security-Policy"); got != want {
				t.Errorf("sandbox CSP = %q, want %q", got, want)
			}
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
				t.Errorf("sandbox Content-Type = %q", ct)
			}
			if !bytes.Contains(body, []byte("sandbox-proxy-ready")) || bytes.Contains(body, []byte(token)) {
				t.Errorf("sandbox page body is not the sandbox relay")
			}
		}},
		{name: "bridge page on the sandbox origin", host: sandbox, path: "/e/" + key, want: 404},
		{name: "bridge script on the sandbox origin", host: sandbox, path: "/static/bridge.js", want: 404},
		{name: "bridge style on the sandbox origin", host: sandbox, path: "/static/bridge.css", want: 404},
		{name: "socket on the sandbox origin", host: sandbox, path: "/ws/" + key, want: 404},
		{name: "socket upgrade on the sandbox origin", host: sandbox, path: "/ws/" + key, header: upgrade, want: 404},
		{name: "unknown sandbox key", host: sandbox, path: "/sandbox/e-404", want: 404},
		// The request's key names no sandbox page: a page without the
		// token cannot tell which requests are live.
		{name: "sandbox by request key", host: sandbox, path: "/sandbox/" + key, want: 404},
		{name: "empty sandbox key", host: sandbox, path: "/sandbox/", want: 404},
		{name: "sandbox root", host: sandbox, path: "/", want: 404},
		{name: "sandbox POST", method: http.MethodPost, host: sandbox, path: sb, want: 404},
		{name: "sandbox page on the bridge origin", host: bridge, path: sb, want: 404},
		{name: "bridge page", host: bridge, path: "/e/" + key, want: 200, check: func(t *testing.T, resp *http.Response, body []byte) {
			got := resp.Header.Get("Content-Security-Policy")
			for _, want := range []string{"connect-src ws://127.0.0.1:" + e.port(), "frame-src http://localhost:" + e.port(), "frame-ancestors 'none'", "default-src 'none'"} {
				if !strings.Contains(got, want) {
					t.Errorf("bridge CSP %q lacks %q", got, want)
				}
			}
			if resp.Header.Get("Referrer-Policy") != "no-referrer" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("bridge headers = %v", resp.Header)
			}
			if bytes.Contains(body, []byte(token)) || bytes.Contains(body, []byte(`src="http`)) || bytes.Contains(body, []byte(`href="http`)) {
				t.Errorf("bridge page loads something remote or carries the token")
			}
		}},
		{name: "bridge script", host: bridge, path: "/static/bridge.js", want: 200, check: func(t *testing.T, resp *http.Response, body []byte) {
			if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
				t.Errorf("bridge.js Content-Type = %q", ct)
			}
		}},
		{name: "bridge POST", method: http.MethodPost, host: bridge, path: "/e/" + key, want: 405},
		{name: "bridge unknown path", host: bridge, path: "/static/../pages/bridge.js", want: 404},
		{name: "bridge root", host: bridge, path: "/", want: 404},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = http.MethodGet
			}
			code := e.do(t, method, tc.host, tc.path, tc.header, func(resp *http.Response, body []byte) {
				if tc.check != nil && resp.StatusCode == tc.want {
					tc.check(t, resp, body)
				}
			})
			if code != tc.want {
				t.Errorf("%s %s (Host %s) = %d, want %d", method, tc.path, tc.host, code, tc.want)
			}
		})
	}

	// localhost may resolve to ::1: the sandbox is served there too.
	if len(e.h.listeners) > 1 {
		resp, err := e.hc.Get("http://[::1]:" + e.port() + sb)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMisdirectedRequest {
			t.Errorf("GET [::1] with its own Host = %d, want 421", resp.StatusCode)
		}
		req, _ := http.NewRequest(http.MethodGet, "http://[::1]:"+e.port()+sb, nil)
		req.Host = sandbox
		resp, err = e.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("sandbox over ::1 = %d, want 200", resp.StatusCode)
		}
	}

	e.complete(c, key, token, `{"action":"decline"}`)
	// The sandbox page ends with its request.
	if code := e.get(t, sandbox, sb, nil); code != http.StatusNotFound {
		t.Errorf("sandbox page after the request ended = %d, want 404", code)
	}
}

func TestWrongOrigin(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	origins := []struct {
		name   string
		header http.Header
	}{
		{name: "no Origin", header: http.Header{}},
		{name: "sandbox origin", header: http.Header{"Origin": {e.h.SandboxOrigin()}}},
		{name: "another site", header: http.Header{"Origin": {"http://evil.example"}}},
		{name: "opaque origin", header: http.Header{"Origin": {"null"}}},
		{name: "another port", header: http.Header{"Origin": {"http://127.0.0.1:1"}}},
		{name: "https", header: http.Header{"Origin": {"https://127.0.0.1:" + e.port()}}},
		{name: "trailing slash", header: http.Header{"Origin": {e.h.BridgeOrigin() + "/"}}},
	}
	for _, tc := range origins {
		t.Run(tc.name, func(t *testing.T) {
			ws, resp, err := e.dial(key, tc.header)
			if err == nil {
				_ = ws.CloseNow()
				t.Fatal("WebSocket accepted")
			}
			if resp == nil || resp.StatusCode != http.StatusForbidden {
				t.Fatalf("dial: %v, want HTTP 403", err)
			}
		})
	}
	c.pending(t)
	e.complete(c, key, token, `{"action":"accept","content":{"choice":"option-a"}}`)
}

func TestOversizedFrame(t *testing.T) {
	t.Run("mid-session, beside another session", func(t *testing.T) {
		e := newEnv(t, nil)
		a, keyA, tokenA := e.start(sampleRequest("e-1"))
		b, keyB, tokenB := e.start(sampleRequest("e-2"))
		pa, pb := e.open(keyA, tokenA), e.open(keyB, tokenB)
		pa.boot(e, a.req, keyA, elicitCaps)
		pb.boot(e, b.req, keyB, elicitCaps)
		pa.ready(a.req)
		elB := pb.ready(b.req)

		big := bytes.Repeat([]byte("a"), maxFrame+1)
		_ = pa.write(big) // the host may hang up before all of it is written
		pa.expectClosed(-1)
		_, err := a.result(t)
		wantReason(t, err, mcpclient.FallbackBridgeClosed)

		const result = `{"action":"accept","content":{"choice":"option-b"}}`
		pb.answer(elB, result)
		pb.teardown()
		wantAnswer(t, b, result)
	})
	t.Run("as the first frame", func(t *testing.T) {
		e := newEnv(t, nil)
		c, key, token := e.start(sampleRequest("e-1"))
		p := e.connect(key)
		_ = p.write(bytes.Repeat([]byte("a"), maxFrame+1))
		p.expectClosed(-1)
		c.pending(t)
		e.complete(c, key, token, `{"action":"decline"}`)
	})
	t.Run("at the limit is read", func(t *testing.T) {
		e := newEnv(t, nil)
		c, key, token := e.start(sampleRequest("e-1"))
		p := e.open(key, token)
		p.boot(e, c.req, key, elicitCaps)
		el := p.ready(c.req)
		head, tail := `{"jsonrpc":"2.0","method":"x/padding","params":{"pad":"`, `"}}`
		p.sendText(head + strings.Repeat("a", maxFrame-len(head)-len(tail)) + tail)
		p.quiet(100 * time.Millisecond)
		const result = `{"action":"cancel"}`
		p.answer(el, result)
		p.teardown()
		wantAnswer(t, c, result)
	})
}

var junkFrames = []struct {
	name  string
	frame string
}{
	{"malformed JSON", `{"jsonrpc":"2.0","method":`},
	{"not JSON", `hello`},
	{"empty", ``},
	{"null", `null`},
	{"number", `42`},
	{"string", `"ui/notifications/initialized"`},
	{"batch", `[{"jsonrpc":"2.0","method":"ui/notifications/initialized"}]`},
	{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":"mcpeek-elicit","result":{"action":"decline"}}`},
	{"no jsonrpc", `{"id":"mcpeek-elicit","result":{"action":"decline"}}`},
	{"neither method nor id", `{"jsonrpc":"2.0","result":{"action":"decline"}}`},
	{"method of the wrong type", `{"jsonrpc":"2.0","method":5,"id":1}`},
	{"control message from the page", `{"mcpeek":"end","text":"forged"}`},
	{"invalid UTF-8", "\xff\xfe\xfd"},
	{"deeply nested", strings.Repeat("[", 5000) + strings.Repeat("]", 5000)},
}

func TestJunkFrames(t *testing.T) {
	for _, tc := range junkFrames {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			c, key, token := e.start(sampleRequest("e-1"))
			p := e.open(key, token)
			p.expectControl("session")
			p.sendText(tc.frame) // before initialize
			p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
			p.expectNotification("ui/notifications/sandbox-resource-ready")
			p.send(request(1, "ui/initialize", map[string]any{"protocolVersion": ProtocolVersion, "appCapabilities": map[string]any{"elicitation": map[string]any{}}}))
			p.expectResponse("1")
			p.sendText(tc.frame) // before initialized
			el := p.ready(c.req)
			p.sendText(tc.frame) // during the elicitation
			p.quiet(50 * time.Millisecond)
			c.pending(t)
			const result = `{"action":"accept","content":{"choice":"option-a"}}`
			p.answer(el, result)
			p.teardown()
			wantAnswer(t, c, result)
		})
	}
}

// slow gives a session long enough to take thousands of frames on a busy
// machine under -race.
func slow(o *Options) { o.InitTimeout, o.AnswerTimeout = 60*time.Second, 60*time.Second }

func TestFlood(t *testing.T) {
	e := newEnv(t, slow)
	a, keyA, tokenA := e.start(sampleRequest("e-1"))
	pa := e.open(keyA, tokenA)
	pa.boot(e, a.req, keyA, elicitCaps)
	elA := pa.ready(a.req)

	// Flood session A from another goroutine while B runs start to finish.
	const n = 2000
	flooded := make(chan error, 1)
	go func() {
		for i := range n {
			f := junkFrames[i%len(junkFrames)].frame
			if i%3 == 0 {
				f = fmt.Sprintf(`{"jsonrpc":"2.0","method":"x/noise","params":{"i":%d}}`, i)
			}
			if err := pa.write([]byte(f)); err != nil {
				flooded <- fmt.Errorf("frame %d: %w", i, err)
				return
			}
		}
		flooded <- nil
	}()

	b, keyB, tokenB := e.start(sampleRequest("e-2"))
	startB := time.Now()
	e.complete(b, keyB, tokenB, `{"action":"decline"}`)
	if d := time.Since(startB); d > 30*time.Second {
		t.Errorf("session B took %s beside the flood", d)
	}

	select {
	case err := <-flooded:
		if err != nil {
			t.Fatalf("flood: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the flood did not finish")
	}
	// A survived the flood and still answers.
	const result = `{"action":"accept","content":{"choice":"option-a"}}`
	pa.answer(elA, result)
	pa.teardown()
	wantAnswer(t, a, result)
}

func TestTooManyFrames(t *testing.T) {
	e := newEnv(t, slow)
	a, keyA, tokenA := e.start(sampleRequest("e-1"))
	b, keyB, tokenB := e.start(sampleRequest("e-2"))
	pa := e.open(keyA, tokenA)
	pa.boot(e, a.req, keyA, elicitCaps)
	pa.ready(a.req)
	for i := 0; i < maxFrames+100; i++ {
		if err := pa.write([]byte(`{}`)); err != nil {
			break // the host hung up
		}
	}
	pa.expectClosed(-1)
	_, err := a.result(t)
	wantReason(t, err, mcpclient.FallbackBridgeClosed)
	if !e.logged("more than") {
		t.Error("the flood was not logged")
	}
	e.complete(b, keyB, tokenB, `{"action":"cancel"}`)
}

func TestConcurrentSessions(t *testing.T) {
	tests := []struct {
		name       string
		keyA, keyB string
		wantB      string
	}{
		{name: "different keys", keyA: "e-1", keyB: "e-2", wantB: "e-2"},
		{name: "same key", keyA: "e-1", keyB: "e-1", wantB: "e-1-2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, nil)
			a, keyA, tokenA := e.start(sampleRequest(tc.keyA))
			b, keyB, tokenB := e.start(sampleRequest(tc.keyB))
			if keyA != tc.keyA || keyB != tc.wantB || tokenA == tokenB {
				t.Fatalf("links: %s#%s and %s#%s", keyA, tokenA, keyB, tokenB)
			}
			pa, pb := e.open(keyA, tokenA), e.open(keyB, tokenB)
			pa.boot(e, a.req, keyA, elicitCaps)
			pb.boot(e, b.req, keyB, elicitCaps)
			elA, elB := pa.ready(a.req), pb.ready(b.req)

			const resultA = `{"action":"accept","content":{"choice":"option-a"}}`
			const resultB = `{"action":"accept","content":{"choice":"option-b"}}`
			// Answered in reverse order, each resolves its own Render.
			pb.answer(elB, resultB)
			pb.teardown()
			wantAnswer(t, b, resultB)
			a.pending(t)
			pa.answer(elA, resultA)
			pa.teardown()
			wantAnswer(t, a, resultA)
		})
	}
}

func TestBuildCSP(t *testing.T) {
	const def = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; font-src data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'"
	tests := []struct {
		name     string
		declared map[string]any
		want     string
	}{
		{name: "none declared", declared: nil, want: def},
		{name: "empty", declared: map[string]any{}, want: def},
		{name: "empty lists", declared: map[string]any{"connectDomains": []any{}, "resourceDomains": []any{}, "frameDomains": []any{}}, want: def},
		{
			name:     "connect domains",
			declared: map[string]any{"connectDomains": []any{"https://api.example.com", "wss://ws.example.com"}},
			want:     strings.Replace(def, "connect-src 'none'", "connect-src https://api.example.com wss://ws.example.com", 1),
		},
		{
			name:     "resource domains",
			declared: map[string]any{"resourceDomains": []any{"https://cdn.example.com"}},
			want: "default-src 'none'; script-src 'unsafe-inline' https://cdn.example.com; style-src 'unsafe-inline' https://cdn.example.com; " +
				"img-src data: https://cdn.example.com; media-src data: https://cdn.example.com; font-src data: https://cdn.example.com; " +
				"connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'",
		},
		{
			name:     "frame domains",
			declared: map[string]any{"frameDomains": []any{"https://player.example.com"}},
			want:     strings.Replace(def, "frame-src 'none'", "frame-src https://player.example.com", 1),
		},
		{
			name: "all three",
			declared: map[string]any{
				"connectDomains":  []any{"https://api.example.com"},
				"resourceDomains": []any{"https://cdn.example.com", "https://*.fonts.example"},
				"frameDomains":    []any{"https://player.example.com"},
			},
			want: "default-src 'none'; script-src 'unsafe-inline' https://cdn.example.com https://*.fonts.example; " +
				"style-src 'unsafe-inline' https://cdn.example.com https://*.fonts.example; img-src data: https://cdn.example.com https://*.fonts.example; " +
				"media-src data: https://cdn.example.com https://*.fonts.example; font-src data: https://cdn.example.com https://*.fonts.example; " +
				"connect-src https://api.example.com; frame-src https://player.example.com; object-src 'none'; base-uri 'none'; form-action 'none'",
		},
		{
			name: "unsafe entries dropped",
			declared: map[string]any{
				"connectDomains": []any{
					"https://a.example; script-src *", "https://b.example,https://c.example", "'unsafe-eval'", `"https://d.example"`,
					"https://e.example *", "https://f.example\t", "https://g.example\n", "https://h.example\r", "", 42, nil,
					map[string]any{"x": "y"}, []any{"https://i.example"},
				},
				"resourceDomains": []any{"'self'", "https://j.example;"},
				"frameDomains":    []any{"https://k.example\f", "https://l.example\v"},
			},
			want: def,
		},
		{
			name: "safe entries kept beside unsafe ones",
			declared: map[string]any{
				"connectDomains": []any{"https://ok.example", "https://bad.example; connect-src *", "wss://ok2.example:8443"},
			},
			want: strings.Replace(def, "connect-src 'none'", "connect-src https://ok.example wss://ok2.example:8443", 1),
		},
		{
			name:     "not a list",
			declared: map[string]any{"connectDomains": "https://api.example.com", "resourceDomains": map[string]any{"a": "https://x"}, "frameDomains": 7},
			want:     def,
		},
		{
			name:     "typed string slice is not read",
			declared: map[string]any{"connectDomains": []string{"https://api.example.com"}},
			want:     def,
		},
		{
			name:     "base URI domains",
			declared: map[string]any{"baseUriDomains": []any{"https://x.example"}},
			want:     strings.Replace(def, "base-uri 'none'", "base-uri https://x.example", 1),
		},
		{
			name:     "unknown keys add nothing",
			declared: map[string]any{"scriptDomains": []any{"*"}, "defaultDomains": []any{"https://x.example"}},
			want:     def,
		},
		{
			name: "control characters and non-ASCII dropped",
			declared: map[string]any{
				"connectDomains":  []any{"https://a.example\x00; script-src *", "https://b.example\x00", "https://c.example\x1b[31m", "https://d.example\u0085", "https://\u00e9.example", "https://e.example\x7f"},
				"baseUriDomains":  []any{"https://f.example\u2028"},
				"resourceDomains": []any{"\x00"},
			},
			want: def,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := BuildCSP(tc.declared)
			if got != tc.want {
				t.Errorf("BuildCSP = %q\nwant       %q", got, tc.want)
			}
			if n := len(strings.Split(got, "; ")); n != len(directiveOrder) {
				t.Errorf("BuildCSP has %d directives, want %d", n, len(directiveOrder))
			}
		})
	}
	// The default is not changed by a call that adds domains.
	BuildCSP(map[string]any{"connectDomains": []any{"https://api.example.com"}})
	if got := BuildCSP(nil); got != def {
		t.Errorf("BuildCSP(nil) after another call = %q", got)
	}
}

func TestHostClose(t *testing.T) {
	opened := 0
	var mu sync.Mutex
	e := newEnv(t, nil)
	waiting, _, _ := e.start(sampleRequest("e-1"))
	c, key, token := e.start(sampleRequest("e-2"))
	p := e.open(key, token)
	p.boot(e, c.req, key, elicitCaps)
	p.ready(c.req)

	if err := e.h.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	_, err := waiting.result(t)
	wantReason(t, err, mcpclient.FallbackBridgeUnavailable)
	p.teardown()
	_, err = c.result(t)
	wantReason(t, err, mcpclient.FallbackBridgeClosed)

	// New requests are refused without opening anything.
	e.h.opts.Open = func(string) error { mu.Lock(); opened++; mu.Unlock(); return nil }
	_, err = e.h.Render(context.Background(), sampleRequest("e-3"))
	wantReason(t, err, mcpclient.FallbackBridgeUnavailable)
	mu.Lock()
	if opened != 0 {
		t.Error("Render after Close opened a URL")
	}
	mu.Unlock()
	if _, _, err := e.dial(key, nil); err == nil {
		t.Error("the host still accepts WebSocket connections after Close")
	}
	if err := e.h.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestShowURL(t *testing.T) {
	tests := []struct {
		name         string
		open, launch func(string) error
		wantLog      bool
	}{
		{name: "no opener", open: nil},
		{name: "opener fails", open: func(string) error { return errors.New("no display") }, wantLog: true},
		{name: "launcher fails", launch: func(string) error { return errors.New("connected over SSH") }, wantLog: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			notes := make(chan string, 4)
			e := newEnv(t, func(o *Options) {
				o.Open, o.Launch = tc.open, tc.launch
				o.Notify = func(s string) { notes <- s }
				// A person who must open the URL by hand (over SSH, after
				// setting up a tunnel) is given the answer time to do it;
				// the init time starts when the tab connects.
				o.InitTimeout = 300 * time.Millisecond
			})
			c := e.render(context.Background(), sampleRequest("e-1"))
			var note string
			select {
			case note = <-notes:
			case <-time.After(patience):
				t.Fatal("nothing was shown")
			}
			m := regexp.MustCompile(`http://127\.0\.0\.1:\d+/e/[^\s#]+#[A-Za-z0-9_.-]+`).FindString(note)
			if m == "" {
				t.Fatalf("note %q has no link", note)
			}
			hint := fmt.Sprintf("ssh -L %s:127.0.0.1:%s", e.port(), e.port())
			if !strings.Contains(note, hint) || e.h.SSHHint() != hint+" user@host" {
				t.Errorf("note %q / hint %q lack %q", note, e.h.SSHHint(), hint)
			}
			if tc.wantLog != e.logged("could not open a browser") {
				t.Errorf("browser failure logged = %v, want %v", !tc.wantLog, tc.wantLog)
			}
			key, token := e.parseLink(m)
			time.Sleep(1 * time.Second) // well past the init time
			e.complete(c, key, token, `{"action":"decline"}`)
		})
	}
	t.Run("nobody opens it", func(t *testing.T) {
		e := newEnv(t, func(o *Options) {
			o.Open = nil
			o.InitTimeout, o.AnswerTimeout = 100*time.Millisecond, 500*time.Millisecond
		})
		c := e.render(context.Background(), sampleRequest("e-1"))
		_, err := c.result(t)
		wantReason(t, err, mcpclient.FallbackInitTimeout)
		if err == nil || !strings.Contains(err.Error(), "nobody opened the tab within 500ms") {
			t.Errorf("error %v, want it to say nobody opened the tab", err)
		}
	})
}

func TestLoopbackAddr(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{in: "", want: "127.0.0.1:0"},
		{in: "8123", want: "127.0.0.1:8123"},
		{in: ":8123", want: "127.0.0.1:8123"},
		{in: "127.0.0.1:8123", want: "127.0.0.1:8123"},
		{in: "localhost:8123", want: "127.0.0.1:8123"},
		{in: "127.0.0.1:0", want: "127.0.0.1:0"},
		{in: "0.0.0.0:8123", err: true},
		{in: "192.168.1.2:8123", err: true},
		{in: "[::1]:8123", err: true},
		{in: "example.com:80", err: true},
		{in: "a:b:c", err: true},
	}
	for _, tc := range tests {
		got, err := loopbackAddr(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("loopbackAddr(%q) = %q, %v; want %q (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestStart(t *testing.T) {
	e := newEnv(t, nil)
	if _, err := Start(Options{Addr: e.port()}); err == nil {
		t.Error("Start on a port in use succeeded")
	}
	if _, err := Start(Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Error("Start on 0.0.0.0 succeeded")
	}
	if e.h.BridgeOrigin() != "http://127.0.0.1:"+e.port() || e.h.SandboxOrigin() != "http://localhost:"+e.port() {
		t.Errorf("origins %s, %s", e.h.BridgeOrigin(), e.h.SandboxOrigin())
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	h, err := Start(Options{Addr: strconv.Itoa(port)})
	if err != nil {
		t.Skipf("port %d was taken again: %v", port, err)
	}
	defer h.Close()
	if h.Port() != port {
		t.Errorf("Port = %d, want %d", h.Port(), port)
	}
}

// TestConnectAsTheSessionEnds races a page proving its token against the
// init timeout: whichever wins, the page is told and its socket closed.
func TestConnectAsTheSessionEnds(t *testing.T) {
	for i := range 8 {
		timeout := time.Duration(250+i*350) * time.Microsecond
		e := newEnv(t, func(o *Options) { o.InitTimeout = timeout })
		for range 25 {
			c, key, token := e.start(sampleRequest("e-1"))
			p := e.open(key, token)
			_, err := c.result(t)
			wantReason(t, err, mcpclient.FallbackInitTimeout)
			var last inFrame
			for {
				f, ok := p.next(patience)
				if !ok {
					break
				}
				if f.Mcpeek != "status" {
					last = f
				}
			}
			if last.Mcpeek != "end" && last.Mcpeek != "refused" {
				t.Fatalf("init timeout %v: the page's last word was %s, want end or refused", timeout, last)
			}
			p.close()
		}
	}
}

func TestURL(t *testing.T) {
	e := newEnv(t, nil)
	c := e.render(context.Background(), sampleRequest("e-1"))
	var opened string
	select {
	case opened = <-e.urls:
	case <-time.After(patience):
		t.Fatal("the host opened no URL")
	}
	if got, ok := e.h.URL("e-1"); !ok || got != opened {
		t.Errorf("URL(e-1) = %q, %v; want %q", got, ok, opened)
	}
	if got, ok := e.h.URL("e-2"); ok || got != "" {
		t.Errorf("URL(e-2) = %q, %v; want none", got, ok)
	}
	key, token := e.parseLink(opened)
	e.complete(c, key, token, `{"action":"cancel"}`)
	if got, ok := e.h.URL("e-1"); ok || got != "" {
		t.Errorf("URL(e-1) after the request = %q, %v; want none", got, ok)
	}
}

// TestIPv6LoopbackSquatter: a process holding [::1]:PORT would receive
// whatever the browser sends to localhost:PORT (the sandbox origin), app and
// elicitation included. A fixed port whose ::1 side is taken is refused with
// a clear error; a free port is always owned on both loopbacks.
func TestIPv6LoopbackSquatter(t *testing.T) {
	squat, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	defer squat.Close()
	port := squat.Addr().(*net.TCPAddr).Port
	h, err := Start(Options{Addr: strconv.Itoa(port)})
	if err == nil {
		h.Close()
		t.Fatalf("Start on port %d succeeded while another process holds [::1]:%d", port, port)
	}
	if !strings.Contains(err.Error(), "[::1]:"+strconv.Itoa(port)) || !strings.Contains(err.Error(), "--app-host-addr") {
		t.Errorf("error %q does not name the taken address and the flag to change", err)
	}

	for range 5 {
		h, err := Start(Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(h.listeners) != 2 {
			t.Errorf("free port %d: %d listeners, want 127.0.0.1 and [::1]", h.Port(), len(h.listeners))
		}
		req, _ := http.NewRequest(http.MethodGet, "http://[::1]:"+strconv.Itoa(h.Port())+"/sandbox/none", nil)
		req.Host = "localhost:" + strconv.Itoa(h.Port())
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("localhost over ::1 did not reach mcpeek: %v", err)
		} else {
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound { // mcpeek's answer for an unknown key
				t.Errorf("localhost over ::1 = %d, want mcpeek's 404", resp.StatusCode)
			}
		}
		h.Close()
	}
}

// TestSandboxReadyRepeated: the app's HTML goes to the sandbox once. A page
// (or an app that gets its messages through) repeating
// sandbox-proxy-ready must not make mcpeek send the whole app again each
// time, and the session still completes.
func TestSandboxReadyRepeated(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	p := e.open(key, token)
	p.boot(e, c.req, key, elicitCaps)
	for range 200 {
		p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
	}
	p.quiet(300 * time.Millisecond)
	const result = `{"action":"accept","content":{"choice":"option-b"}}`
	el := p.ready(c.req)
	p.answer(el, result)
	p.teardown()
	wantAnswer(t, c, result)
}

// TestAppRemounts: an app that mounts again sends a second ui/initialize.
// The host answers it as the first and, after the new initialized, sends
// the same request again (same id, same params) so the remounted app can
// answer it; an app that keeps re-initializing is refused after a while.
func TestAppRemounts(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	p := e.open(key, token)
	first := p.boot(e, c.req, key, elicitCaps)
	el := p.ready(c.req)
	for i := 2; i <= maxInits; i++ {
		p.sendText(fmt.Sprintf(`{"jsonrpc":"2.0","id":"init-%d","method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appCapabilities":{"elicitation":{}}}}`, i))
		again := p.expectResponse(fmt.Sprintf(`"init-%d"`, i))
		if again.Error != nil || !jsonEqual(again.Result, string(first.Result)) {
			t.Fatalf("ui/initialize number %d = %s, want the first answer %s", i, again, first.Result)
		}
		p.quiet(50 * time.Millisecond) // nothing before initialized
		if el2 := p.ready(c.req); string(el2.ID) != string(el.ID) {
			t.Fatalf("the request sent again has id %s, want %s", el2.ID, el.ID)
		}
	}
	p.sendText(`{"jsonrpc":"2.0","id":"one-too-many","method":"ui/initialize","params":{"appCapabilities":{"elicitation":{}}}}`)
	if r := p.expectResponse(`"one-too-many"`); r.Error == nil || r.Error.Code != -32600 {
		t.Errorf("ui/initialize past the limit = %s, want error -32600", r)
	}
	const result = `{"action":"accept","content":{"choice":"option-b"}}`
	p.answer(el, result)
	p.teardown()
	wantAnswer(t, c, result)
}

// TestDisplayModeAndAppLogs: an app that declares fullscreen gets it (the
// bridge page is told), one asking for a mode neither side offers stays
// where it is, and its log messages reach the wire log, bounded and with
// control characters removed.
func TestDisplayModeAndAppLogs(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	p := e.open(key, token)
	p.boot(e, c.req, key, `{"elicitation":{},"availableDisplayModes":["inline","fullscreen","pip"]}`)
	el := p.ready(c.req)

	p.sendText(`{"jsonrpc":"2.0","id":1,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}`)
	if d := p.expectControl("display"); d.Mode != "fullscreen" {
		t.Errorf("display control = %s, want fullscreen", d)
	}
	if r := p.expectResponse("1"); !jsonEqual(r.Result, `{"mode":"fullscreen"}`) {
		t.Errorf("request fullscreen = %s, want mode fullscreen", r)
	}
	p.sendText(`{"jsonrpc":"2.0","id":2,"method":"ui/request-display-mode","params":{"mode":"pip"}}`)
	if r := p.expectResponse("2"); !jsonEqual(r.Result, `{"mode":"fullscreen"}`) {
		t.Errorf("request pip (the host has none) = %s, want the current mode, fullscreen", r)
	}
	p.sendText(`{"jsonrpc":"2.0","id":3,"method":"ui/request-display-mode","params":{"mode":"inline"}}`)
	if d := p.expectControl("display"); d.Mode != "inline" {
		t.Errorf("display control = %s, want inline", d)
	}
	p.expectResponse("3")

	p.send(notification("notifications/message", map[string]any{"level": "warning", "logger": "picker", "data": "no option\x1b[31m chosen yet"}))
	for i := range maxAppLogs + 50 {
		p.send(notification("notifications/message", map[string]any{"level": "debug", "data": map[string]any{"i": i}}))
	}
	const result = `{"action":"decline"}`
	p.answer(el, result)
	p.teardown()
	wantAnswer(t, c, result)
	if !e.logged("app picker [warning]: no option [31m chosen yet") {
		t.Error("the app's warning is not in the log, or not cleaned")
	}
	if !e.logged(fmt.Sprintf("the app logged more than %d messages", maxAppLogs)) {
		t.Error("the flood of app log messages was not cut off")
	}
	if e.logged(fmt.Sprintf(`{"i":%d}`, maxAppLogs+10)) {
		t.Error("app log messages past the limit were recorded")
	}
}

// TestPermissionsAndRejectedSources: declared permissions become the app
// frame's allow attribute (on both frames: the bridge page's sandbox frame
// must delegate them), and a CSP source with a NUL is logged and left out
// of the header rather than failing the request.
func TestPermissionsAndRejectedSources(t *testing.T) {
	e := newEnv(t, nil)
	req := sampleRequest("e-1")
	req.Permissions = map[string]any{"camera": map[string]any{}, "clipboardWrite": map[string]any{}, "geolocation": true, "usb": map[string]any{}}
	req.CSP = map[string]any{"connectDomains": []any{"https://api.example\x00; script-src *", "https://ok.example"}}
	c, key, token := e.start(req)
	p := e.open(key, token)
	s := p.expectControl("session")
	if s.Allow != "camera; clipboard-write" {
		t.Errorf("session allow = %q, want camera; clipboard-write (geolocation is not an object, usb is unknown)", s.Allow)
	}
	p.send(notification("ui/notifications/sandbox-proxy-ready", map[string]any{}))
	rr := p.expectNotification("ui/notifications/sandbox-resource-ready")
	var res struct{ Allow string }
	if err := json.Unmarshal(rr.Params, &res); err != nil || res.Allow != "camera; clipboard-write" {
		t.Errorf("sandbox-resource-ready params %s, want allow camera; clipboard-write", rr.Params)
	}
	if !e.logged("ignored the CSP source") {
		t.Error("the unsafe CSP source was not logged")
	}
	resp, err := e.hc.Do(mustRequest(t, "http://127.0.0.1:"+e.port()+sandboxPath(e, key), "localhost:"+e.port()))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src https://ok.example;") || strings.ContainsRune(csp, 0) {
		t.Errorf("sandbox CSP = %q, want only the safe source", csp)
	}
	p.close()
	wantReason(t, resultErr(c, t), mcpclient.FallbackBridgeClosed)
}

func mustRequest(t *testing.T, url, host string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	return req
}

func resultErr(c *call, t *testing.T) error {
	_, err := c.result(t)
	return err
}

// TestForwardsTheServersBytes: the app gets the request exactly as the
// server wrote it: no mode where the server sent none, members the SDK
// does not know, properties in the server's order.
func TestForwardsTheServersBytes(t *testing.T) {
	e := newEnv(t, nil)
	req := sampleRequest("e-1")
	req.RawParams = json.RawMessage(`{"x-vendor":{"n":1},"message":"Pick one <now> & go","requestedSchema":{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"string"}}},"_meta":{"ui":{"resourceUri":"ui://choice/app.html"}}}`)
	c, key, token := e.start(req)
	p := e.open(key, token)
	p.boot(e, c.req, key, elicitCaps)
	el := p.ready(c.req) // checks the bytes
	if bytes.Contains(el.Params, []byte(`"mode"`)) {
		t.Errorf("forwarded %s: a mode the server did not send", el.Params)
	}
	p.answer(el, `{"action":"cancel"}`)
	p.teardown()
	wantAnswer(t, c, `{"action":"cancel"}`)
}

// TestLaunchFileKeepsTheTokenOutOfArgv: a launcher process (the browser,
// --open-with) gets the file:// URL of a private page that redirects to the
// session, never the tokenized URL, since other local users can read a
// process's arguments. The page is readable by this user only and is gone
// once the tab connects.
func TestLaunchFileKeepsTheTokenOutOfArgv(t *testing.T) {
	argv := filepath.Join(t.TempDir(), "argv")
	launched := make(chan string, 1)
	open := OpenWith(fmt.Sprintf(`printf '%%s\n' "$0" "$@" > %q`, argv))
	e := newEnv(t, func(o *Options) {
		o.Open = nil
		o.Launch = func(u string) error { launched <- u; return open(u) }
		o.procNet = t.TempDir() // no socket tables: the launch file's way
	})
	c := e.render(context.Background(), sampleRequest("e-1"))
	var got string
	select {
	case got = <-launched:
	case <-time.After(patience):
		t.Fatal("nothing was launched")
	}
	u, err := url.Parse(got)
	if err != nil || u.Scheme != "file" || u.Fragment != "" || u.RawQuery != "" {
		t.Fatalf("launched %q, want a plain file:// URL", got)
	}
	info, err := os.Stat(u.Path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("launch file mode %v, want 0600", info.Mode().Perm())
	}
	if dir, _ := os.Stat(filepath.Dir(u.Path)); dir == nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("launch folder mode %v, want 0700", dir.Mode().Perm())
	}
	key, token := e.parseLink(launchTarget(t, u.Path))
	var args []byte
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if args, _ = os.ReadFile(argv); len(args) > 0 {
			break
		}
	}
	if !bytes.Contains(args, []byte(got)) || bytes.Contains(args, []byte(token)) {
		t.Errorf("the --open-with command's argv %q: want the launch file's URL and no token", args)
	}
	e.complete(c, key, token, `{"action":"decline"}`)
	if _, err := os.Stat(u.Path); !os.IsNotExist(err) {
		t.Errorf("the launch file outlived the tab connecting: %v", err)
	}
}

// TestCloseDoesNotWaitForSpareConnections: a browser opens connections
// ahead of need and may never send a request on them; closing the host
// (mcpeek exiting after an app session) does not wait for them.
func TestCloseDoesNotWaitForSpareConnections(t *testing.T) {
	e := newEnv(t, nil)
	c, err := net.Dial("tcp4", "127.0.0.1:"+e.port())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for deadline := time.Now().Add(patience); e.h.open.Load() < 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the host never saw the connection")
		}
	}
	start := time.Now()
	_ = e.h.Close()
	if d := time.Since(start); d > time.Second {
		t.Errorf("Close took %v with a connection that sent nothing, want it at once", d)
	}
	_ = c.SetReadDeadline(time.Now().Add(patience))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("read after Close = %v, want the connection closed", err)
	}
}

// TestConnectionCap: a local process that opens connections and sends
// nothing cannot pile them up: past the cap new ones are closed at once,
// and once they go, the host serves again.
func TestConnectionCap(t *testing.T) {
	e := newEnv(t, nil)
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for range maxOpenConns {
		c, err := net.Dial("tcp4", "127.0.0.1:"+e.port())
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
	}
	for deadline := time.Now().Add(patience); e.h.open.Load() < maxOpenConns && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	extra, err := net.Dial("tcp4", "127.0.0.1:"+e.port())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	_ = extra.SetReadDeadline(time.Now().Add(patience))
	if _, err := extra.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("connection %d past the cap: read = %v, want it closed at once", maxOpenConns+1, err)
	}
	for _, c := range idle {
		c.Close()
	}
	idle = nil
	for deadline := time.Now().Add(patience); e.h.open.Load() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still counted after all closed: the count drifts", e.h.open.Load())
		}
	}
	// Sockets that have not shown their token count too, and are let go.
	var socks []*websocket.Conn
	for range maxOpenConns {
		c, _, err := e.dial("e-none", http.Header{"Origin": {e.h.BridgeOrigin()}})
		if err != nil {
			t.Fatalf("WebSocket %d: %v", len(socks)+1, err)
		}
		socks = append(socks, c)
	}
	if _, _, err := e.dial("e-none", http.Header{"Origin": {e.h.BridgeOrigin()}}); err == nil {
		t.Error("a WebSocket past the cap was accepted")
	}
	for _, c := range socks {
		_ = c.CloseNow()
	}
	for deadline := time.Now().Add(patience); e.h.open.Load() > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections still counted after the sockets closed", e.h.open.Load())
		}
	}
	resp, err := e.hc.Do(mustRequest(t, "http://127.0.0.1:"+e.port()+"/static/bridge.css", "127.0.0.1:"+e.port()))
	if err != nil {
		t.Fatalf("after the idle connections closed: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("after the idle connections closed: %d", resp.StatusCode)
	}
}

// TestLoadOverlapsTheTab: the tab is opened while the app is still being
// read, so the two overlap; a read that fails sends the request to the
// native form with its reason, and the tab is told so.
func TestLoadOverlapsTheTab(t *testing.T) {
	t.Run("slow read", func(t *testing.T) {
		e := newEnv(t, nil)
		release := make(chan struct{})
		req := sampleRequest("e-1")
		html := req.HTML
		req.HTML = ""
		req.Load = func(ctx context.Context) (*mcpclient.AppContent, error) {
			select {
			case <-release:
				return &mcpclient.AppContent{HTML: html, MIMEType: mcpclient.AppMIMEType}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		c := e.render(context.Background(), req)
		key, token := e.link() // opened before the read finished
		p := e.open(key, token)
		p.quiet(200 * time.Millisecond) // nothing until the app has been read
		close(release)
		p.boot(e, sampleRequest("e-1"), key, elicitCaps)
		el := p.ready(req)
		p.answer(el, `{"action":"decline"}`)
		p.teardown()
		wantAnswer(t, c, `{"action":"decline"}`)
	})
	t.Run("read failed at once", func(t *testing.T) {
		e := newEnv(t, nil)
		req := sampleRequest("e-1")
		req.Load = func(context.Context) (*mcpclient.AppContent, error) {
			return nil, &mcpclient.AppError{Reason: mcpclient.FallbackResourceReadFailed}
		}
		c := e.render(context.Background(), req)
		_, err := c.result(t)
		wantReason(t, err, mcpclient.FallbackResourceReadFailed)
		select {
		case u := <-e.urls:
			t.Errorf("a tab was opened (%s) for an app that could not be read", u)
		case <-time.After(200 * time.Millisecond):
		}
	})
	t.Run("failed read", func(t *testing.T) {
		e := newEnv(t, nil)
		req := sampleRequest("e-1")
		connected := make(chan struct{})
		req.Load = func(ctx context.Context) (*mcpclient.AppContent, error) {
			<-connected
			return nil, &mcpclient.AppError{Reason: mcpclient.FallbackResourceNotHTML}
		}
		c := e.render(context.Background(), req)
		key, token := e.link()
		p := e.open(key, token)
		for deadline := time.Now().Add(patience); ; time.Sleep(5 * time.Millisecond) {
			if s := e.h.session(key); s != nil && func() bool { s.mu.Lock(); defer s.mu.Unlock(); return s.claimed }() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the tab never connected")
			}
		}
		close(connected)
		end := p.expectControl("end")
		if !strings.Contains(end.Text, mcpclient.FallbackResourceNotHTML.Describe()) {
			t.Errorf("the tab was told %q, want the reason", end.Text)
		}
		_, err := c.result(t)
		wantReason(t, err, mcpclient.FallbackResourceNotHTML)
	})
}

// TestThemeFollowsTheOption: hostContext.theme is the terminal's, as the
// command line reads it (light when unknown).
func TestThemeFollowsTheOption(t *testing.T) {
	for _, tc := range []struct{ set, want string }{{"dark", "dark"}, {"light", "light"}, {"", "light"}, {"purple", "light"}} {
		e := newEnv(t, func(o *Options) { o.Theme = tc.set })
		c, key, token := e.start(sampleRequest("e-1"))
		p := e.open(key, token)
		ir := p.boot(e, c.req, key, elicitCaps)
		var res struct {
			HostContext struct{ Theme string } `json:"hostContext"`
		}
		if err := json.Unmarshal(ir.Result, &res); err != nil || res.HostContext.Theme != tc.want {
			t.Errorf("Theme %q: hostContext.theme = %q, want %q", tc.set, res.HostContext.Theme, tc.want)
		}
		el := p.ready(c.req)
		p.answer(el, `{"action":"cancel"}`)
		p.teardown()
		wantAnswer(t, c, `{"action":"cancel"}`)
	}
}

// sandboxPath is the path of the live session's sandbox page.
func sandboxPath(e *env, key string) string {
	e.t.Helper()
	s := e.h.session(key)
	if s == nil {
		e.t.Fatalf("no session %s", key)
	}
	return "/sandbox/" + s.sandboxID
}

// TestSystemBrowserGetsTheLaunchFile: the system browser is started
// (through xdg-open, here a stand-in on PATH that notes its arguments)
// with the launch page's URL, never with the token.
func TestSystemBrowserGetsTheLaunchFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("pkg/browser runs xdg-open on Linux only")
	}
	bin := t.TempDir()
	argv := filepath.Join(t.TempDir(), "argv")
	script := "#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > " + strconv.Quote(argv) + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	t.Setenv("SSH_CONNECTION", "")
	e := newEnv(t, func(o *Options) { o.Open, o.Launch, o.procNet = nil, SystemBrowser(false), t.TempDir() })
	c := e.render(context.Background(), sampleRequest("e-1"))
	var args []byte
	for deadline := time.Now().Add(patience); len(args) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("xdg-open was not run")
		}
		args, _ = os.ReadFile(argv)
	}
	lines := strings.Split(strings.TrimSpace(string(args)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "file:///") || strings.Contains(lines[1], "#") {
		t.Fatalf("xdg-open ran with %q, want one file:// URL", lines)
	}
	u, _ := url.Parse(lines[1])
	key, token := e.parseLink(launchTarget(t, u.Path))
	if strings.Contains(string(args), token) {
		t.Error("the token is in xdg-open's arguments")
	}
	e.complete(c, key, token, `{"action":"decline"}`)
}

// launchTarget is the session URL the launch page at path redirects to.
func launchTarget(t *testing.T, path string) string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/e/[^"#]+#[A-Za-z0-9_-]{43}(\.[A-Za-z0-9_.-]+)?)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the launch page %q does not redirect to a session URL", page)
	}
	// Its script leaves for the same URL at once (the refresh is for a
	// browser that runs no script in local pages).
	if !bytes.Contains(page, []byte(`<script>location.replace("`+string(m[1])+`")</script>`)) {
		t.Fatalf("the launch page %q has no script that leaves for %s", page, m[1])
	}
	return string(m[1])
}

// TestSandboxPageCarriesTheAppOnce: the first load of a session's sandbox
// page carries the app (its HTML, byte for byte, and its frame's
// permissions), so that it mounts without a WebSocket round trip; a second
// load does not, and asks over the WebSocket, which still answers.
func TestSandboxPageCarriesTheAppOnce(t *testing.T) {
	e := newEnv(t, nil)
	req := sampleRequest("e-1")
	req.HTML += `<script>"</script><!--"</script>` // an app that would end a careless data block
	c, key, token := e.start(req)
	const open = `<script type="application/json" id="mcpeek-app">`
	app := func(body []byte) (html, allow string, ok bool) {
		_, rest, found := bytes.Cut(body, []byte(open))
		if !found {
			return "", "", false
		}
		data, _, _ := bytes.Cut(rest, []byte("</script>"))
		var v struct{ HTML, Allow string }
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("the app's data block does not hold JSON up to its end (%v): %.200s", err, data)
		}
		return v.HTML, v.Allow, true
	}
	for i, wantApp := range []bool{true, false} {
		e.get(t, "localhost:"+e.port(), sandboxPath(e, key), func(resp *http.Response, body []byte) {
			html, allow, got := app(body)
			switch {
			case got != wantApp:
				t.Errorf("load %d: carries the app = %v, want %v", i+1, got, wantApp)
			case got && (html != req.HTML || allow != e.h.session(key).allow):
				t.Errorf("load %d: app html %q allow %q, want the request's", i+1, html, allow)
			}
		})
	}
	e.complete(c, key, token, `{"action":"decline"}`) // the page asks with sandbox-proxy-ready
}

// TestBridgePageInlinesWhatItsPolicyAllows: the bridge page's script and
// style are inline, each allowed by its hash in the page's
// Content-Security-Policy (and nothing else inline is).
func TestBridgePageInlinesWhatItsPolicyAllows(t *testing.T) {
	e := newEnv(t, nil)
	c, key, token := e.start(sampleRequest("e-1"))
	e.get(t, "127.0.0.1:"+e.port(), "/e/"+key, func(resp *http.Response, body []byte) {
		csp := resp.Header.Get("Content-Security-Policy")
		for _, el := range []struct{ tag, directive string }{{"script", "script-src"}, {"style", "style-src"}} {
			blocks := regexp.MustCompile(`(?s)<`+el.tag+`>(.*?)</`+el.tag+`>`).FindAllSubmatch(body, -1)
			if len(blocks) != 1 {
				t.Fatalf("%d inline %s elements, want 1", len(blocks), el.tag)
			}
			sum := sha256.Sum256(blocks[0][1])
			hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
			if !regexp.MustCompile(el.directive + ` 'self' ` + regexp.QuoteMeta(hash) + `;`).MatchString(csp) {
				t.Errorf("CSP %q does not allow the inline %s (%s)", csp, el.tag, hash)
			}
		}
		if bytes.Contains(body, []byte(`src="/static`)) || bytes.Contains(body, []byte(`href="/static`)) {
			t.Error("the bridge page still loads its script or style")
		}
	})
	e.complete(c, key, token, `{"action":"decline"}`)
}

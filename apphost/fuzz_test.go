package apphost

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// The fuzz targets here cover what the app host reads from the page: each
// WebSocket frame (FuzzDecodeFrame) and whole sequences of them through a
// real session (FuzzSession). Run one with
//
//	go test -run='^$' -fuzz='^FuzzSession$' -fuzztime=60s -fuzzminimizetime=20x ./apphost
//
// FuzzSession needs the short -fuzzminimizetime: the host's own goroutines
// make its coverage vary from run to run, and the default minimization
// (a minute per new input) would stall it. FuzzDecodeFrame does not, but
// takes the same flags.
//
// Seeds live in testdata/fuzz/<FuzzName>/ and below in f.Add; a crasher
// the fuzzer finds is kept there so that plain `go test` replays it.

// frameSeeds are frames a page or app sends, good and bad.
func frameSeeds() []string {
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"a","version":"0"},"appCapabilities":{"elicitation":{}}}}`,
		`{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready"}`,
		`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":300,"height":"x"}}`,
		`{"jsonrpc":"2.0","id":"mcpeek-elicit","result":{"action":"accept","content":{"choice":"option-a"}}}`,
		`{"jsonrpc":"2.0","id":"mcpeek-elicit","error":{"code":-32000,"message":"no","data":[1]}}`,
		`{"jsonrpc":"2.0","id":"mcpeek-elicit","error":{"code":1.5,"message":"no"}}`,
		`{"jsonrpc":"2.0","id":null,"result":null}`,
		`{"jsonrpc":"2.0","id":{"a":[1]},"method":"tools/call","params":[1,2]}`,
		`{"jsonrpc":"2.0","method":"x","params":{"s":"<\u2028&>"}}`,
		`{"jsonrpc":"2.0","method":null,"id":7}`,
		`{"JSONRPC":"2.0","Method":"ui/notifications/initialized"}`,
		` {"jsonrpc" : "2.0", "id" : 1 , "result" : { "a" : [ 1 , 2 ] } } `,
	}
	for _, j := range junkFrames {
		// Not the 10 kB deeply nested one (TestJunkFrames has it): the
		// fuzzer would spend its time minimizing its mutants.
		if len(j.frame) < 1024 {
			seeds = append(seeds, j.frame)
		}
	}
	return seeds
}

func FuzzDecodeFrame(f *testing.F) {
	for _, s := range frameSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, ok := decodeFrame(b)
		if m2, ok2 := decodeFrame(b); ok2 != ok || !reflect.DeepEqual(m2, m) {
			t.Fatalf("decodeFrame(%q) is not deterministic", b)
		}
		if want, sure := strictlyJSONRPC(b); sure && want != ok {
			t.Fatalf("decodeFrame(%q) ok = %v, but the frame read member by member says %v", b, ok, want)
		}
		if !ok {
			if !reflect.DeepEqual(m, rpc{}) {
				t.Fatalf("decodeFrame(%q) refused the frame but returned %#v", b, m)
			}
			return
		}
		if m.JSONRPC != "2.0" || m.Method == "" && m.ID == nil {
			t.Fatalf("decodeFrame(%q) accepted %#v: want jsonrpc 2.0 and a method or an id", b, m)
		}
		if trimmed := bytes.TrimSpace(b); !json.Valid(b) || trimmed[0] != '{' {
			t.Fatalf("decodeFrame(%q) accepted a frame that is not one JSON object", b)
		}
		for name, raw := range map[string]json.RawMessage{"id": m.ID, "params": m.Params, "result": m.Result} {
			if raw != nil && !json.Valid(raw) {
				t.Fatalf("decodeFrame(%q): %s %q is not JSON", b, name, raw)
			}
		}
		// Encoded again, as the host encodes what it sends, the message
		// decodes to the same thing, and encodes the same way after that.
		enc, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("re-encode %#v: %v", m, err)
		}
		back, ok := decodeFrame(enc)
		if !ok {
			t.Fatalf("decodeFrame refuses the re-encoded frame %s", enc)
		}
		if back.JSONRPC != m.JSONRPC || back.Method != m.Method || !reflect.DeepEqual(back.Error, m.Error) ||
			!sameJSON(back.ID, m.ID) || !sameJSON(back.Params, m.Params) || !sameJSON(back.Result, m.Result) {
			t.Fatalf("frame %q re-encodes as %s, which decodes to %#v, not %#v", b, enc, back, m)
		}
		if enc2, _ := json.Marshal(back); !bytes.Equal(enc2, enc) {
			t.Fatalf("re-encoding is not stable: %s, then %s", enc, enc2)
		}
	})
}

// strictlyJSONRPC reads a frame member by member, as JSON-RPC 2.0 defines
// it, and says whether it is a request, notification or response. It is
// sure only of frames without an error member and without members whose
// names differ from JSON-RPC's only in case (which encoding/json would
// fold together).
func strictlyJSONRPC(b []byte) (ok, sure bool) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return false, true // not JSON, or not an object
	}
	if members == nil {
		return false, true // null
	}
	for k := range members {
		for _, name := range []string{"jsonrpc", "id", "method", "params", "result", "error"} {
			if strings.EqualFold(k, name) && k != name || k == "error" {
				return false, false
			}
		}
	}
	var version string
	if json.Unmarshal(members["jsonrpc"], &version) != nil || version != "2.0" {
		return false, true
	}
	var method *string
	if raw, has := members["method"]; has && json.Unmarshal(raw, &method) != nil {
		return false, true // a method that is not a string
	}
	_, hasID := members["id"]
	return method != nil && *method != "" || hasID, true
}

func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y any
	dx, dy := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	dx.UseNumber()
	dy.UseNumber()
	return dx.Decode(&x) == nil && dy.Decode(&y) == nil && reflect.DeepEqual(x, y)
}

// sessionSeeds are scripts for FuzzSession: the page's frames, one a line.
func sessionSeeds() []string {
	const (
		proxyReady  = `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`
		initialize  = `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appCapabilities":{"elicitation":{}}}}`
		initialized = `{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}`
		accept      = `{"jsonrpc":"2.0","id":"mcpeek-elicit","result":{"action":"accept","content":{"choice":"option-a"}}}`
	)
	lines := func(frames ...string) string { return strings.Join(frames, "\n") }
	return []string{
		lines(proxyReady, initialize, initialized, accept),
		lines(initialize, initialized, `{"jsonrpc":"2.0","id":"mcpeek-elicit","result":{"action":"decline"}}`),
		lines(initialize, initialized, `{"jsonrpc":"2.0","id":"mcpeek-elicit","error":{"code":-32603,"message":"boom"}}`),
		lines(proxyReady, `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"appCapabilities":{}}}`),
		lines(initialize, `{"jsonrpc":"2.0","method":"ui/notifications/request-teardown"}`),
		lines(initialized, accept, initialize, accept, initialized, initialize, accept),
		lines(initialize, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`,
			`{"jsonrpc":"2.0","id":3,"method":"ui/open-link","params":{"url":"https://example.com"}}`,
			`{"jsonrpc":"2.0","id":4,"method":"ping"}`, initialized, `{"jsonrpc":"2.0","id":"other","result":{}}`, accept),
		lines(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"width":10,"height":20}}`, initialize, initialized),
		lines(junkFrames[0].frame, junkFrames[5].frame, initialize, junkFrames[7].frame, initialized, junkFrames[9].frame, accept),
		lines(`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":5,"appCapabilities":{"elicitation":{}}}}`, initialized, `{"jsonrpc":"2.0","id":"mcpeek-elicit"}`),
		lines(proxyReady, proxyReady, proxyReady, initialize, initialized, initialize, initialized, initialized, accept),
		lines(initialize, `{"jsonrpc":"2.0","id":5,"method":"ui/request-display-mode","params":{"mode":"fullscreen"}}`, initialized,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi\u0000"}}`, accept),
		lines(initialize, initialize, initialize, initialize, initialize, initialize, initialize, initialize, initialize, initialized, accept),
		"",
	}
}

// FuzzSession plays a page through a real session over a real WebSocket:
// the script's lines are the page's frames. Whatever they are, Render
// returns, with exactly the outcome a plain reading of the Apps protocol
// predicts, and the host sends the app only what the protocol allows.
func FuzzSession(f *testing.F) {
	for _, s := range sessionSeeds() {
		f.Add([]byte(s))
	}
	urls := make(chan string, 1)
	h, err := Start(Options{
		// Long enough never to fire on a busy machine: the page always
		// ends its script by closing, so no run waits for them.
		InitTimeout: time.Minute, AnswerTimeout: time.Minute, Version: "fuzz",
		Open: func(u string) error { urls <- u; return nil },
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = h.Close() })
	hc := lingerlessClient()
	f.Fuzz(func(t *testing.T, script []byte) {
		frames := bytes.Split(script, []byte("\n"))
		if len(frames) > 32 {
			frames = frames[:32]
		}
		req := sampleRequest("e-fuzz")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		rendered := make(chan renderOutcome, 1)
		go func() {
			ans, err := h.Render(ctx, req)
			rendered <- renderOutcome{ans, err}
		}()
		link := awaitLink(t, urls)
		dctx, dcancel := context.WithTimeout(ctx, 30*time.Second)
		defer dcancel()
		p := dialFuzzPage(t, dctx, h, hc, link)
		defer p.c.CloseNow()
		go p.read()
		p.play(t, frames)
		_ = p.c.CloseNow()
		got := awaitRender(t, rendered)
		_ = p.c.CloseNow()
		<-p.readDone

		want := predictSession(frames)
		checkRender(t, got, want)
		p.mu.Lock()
		defer p.mu.Unlock()
		checkHostFrames(t, req, p.received, frames, p.pingID, want)
	})
}

// lingerlessClient dials without lingering: thousands of runs a minute
// must not use up the ephemeral ports, so the page's end of each
// connection closes without staying in TIME_WAIT.
func lingerlessClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetLinger(0)
			}
			return c, err
		}}}
}

// renderOutcome is what Render returned.
type renderOutcome struct {
	ans *mcpclient.AppAnswer
	err error
}

// awaitLink waits for the URL the host opens for the session.
func awaitLink(t *testing.T, urls <-chan string) string {
	t.Helper()
	select {
	case link := <-urls:
		return link
	case <-time.After(30 * time.Second):
		t.Fatal("the host opened no URL")
		return ""
	}
}

// awaitRender waits for Render to return once the page has closed.
func awaitRender(t *testing.T, rendered <-chan renderOutcome) renderOutcome {
	t.Helper()
	select {
	case got := <-rendered:
		return got
	case <-time.After(30 * time.Second):
		t.Fatal("Render did not return after the page closed")
		return renderOutcome{}
	}
}

// fuzzPage is the page's end of a fuzzed session. It reads everything the
// host sends, answers the teardown, and notices the reply to its closing
// ping.
type fuzzPage struct {
	c        *websocket.Conn
	ctx      context.Context // bounds every read and write
	pingID   string          // the closing ping's id, as JSON
	pong     chan struct{}   // closed when the ping is answered
	readDone chan struct{}   // closed when the socket can no longer be read

	mu       sync.Mutex
	received [][]byte // the host's frames, in order
}

// dialFuzzPage opens the WebSocket of the session at link and sends its
// token.
func dialFuzzPage(t *testing.T, ctx context.Context, h *Host, hc *http.Client, link string) *fuzzPage {
	t.Helper()
	u, _ := url.Parse(link)
	key := strings.TrimPrefix(u.Path, "/e/")
	c, _, err := websocket.Dial(ctx, "ws://127.0.0.1:"+u.Port()+"/ws/"+key,
		&websocket.DialOptions{HTTPClient: hc, HTTPHeader: http.Header{"Origin": {h.BridgeOrigin()}}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	c.SetReadLimit(4 << 20)
	nonce := make([]byte, 8)
	_, _ = rand.Read(nonce)
	p := &fuzzPage{c: c, ctx: ctx, pingID: `"fuzz-end-` + hex.EncodeToString(nonce) + `"`,
		pong: make(chan struct{}), readDone: make(chan struct{})}
	token, _, _ := strings.Cut(u.Fragment, ".")
	if err := p.write([]byte(token)); err != nil {
		_ = c.CloseNow()
		t.Fatalf("send token: %v", err)
	}
	return p
}

func (p *fuzzPage) write(b []byte) error { return p.c.Write(p.ctx, websocket.MessageText, b) }

// read reads the host's frames until the socket ends.
func (p *fuzzPage) read() {
	defer close(p.readDone)
	for {
		_, b, err := p.c.Read(p.ctx)
		if err != nil {
			return
		}
		p.mu.Lock()
		p.received = append(p.received, b)
		p.mu.Unlock()
		var m rpc
		_ = json.Unmarshal(b, &m)
		switch {
		case m.Method == "ui/resource-teardown":
			_ = p.write([]byte(`{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":{}}`))
		case m.Method == "" && string(m.ID) == p.pingID:
			close(p.pong)
		}
	}
}

// play sends the frames, then a ping, and waits until the host has read
// them all (it answers the ping) or has ended the session.
func (p *fuzzPage) play(t *testing.T, frames [][]byte) {
	t.Helper()
	for _, fr := range frames {
		if p.write(fr) != nil {
			break // the session has ended and closed the socket
		}
	}
	_ = p.write([]byte(`{"jsonrpc":"2.0","id":` + p.pingID + `,"method":"ping"}`))
	select {
	case <-p.pong: // every frame has been read; hang up
	case <-p.readDone: // the session ended by itself
	case <-time.After(30 * time.Second):
		t.Fatal("the host neither answered the closing ping nor closed the page")
	}
}

// checkRender holds what Render returned to the prediction: the app's
// answer, byte for byte, or a fallback for the predicted reason.
func checkRender(t *testing.T, got renderOutcome, want prediction) {
	t.Helper()
	if want.answer != nil {
		if got.err != nil || got.ans == nil || !bytes.Equal(got.ans.Result, *want.answer) {
			t.Fatalf("Render = %v, %v; want the answer %s", got.ans, got.err, *want.answer)
		}
		return
	}
	var ae *mcpclient.AppError
	if !errors.As(got.err, &ae) || ae.Reason != want.reason {
		t.Fatalf("Render = %v, %v; want fallback %s", got.ans, got.err, want.reason)
	}
}

// prediction is what a session must come to, read from the page's frames
// with the protocol's rules and nothing of the host's code but decodeFrame.
type prediction struct {
	answer      *json.RawMessage
	reason      mcpclient.FallbackReason
	ended       bool       // the session ended before the page hung up
	asks        int        // how often elicitation/create was sent
	initialized bool       // the host answered a ui/initialize
	ready       bool       // the app sent initialized after an answered ui/initialize
	replies     []expected // the host's responses, in order
}

// expected is one response the host owes the page.
type expected struct {
	id     json.RawMessage
	result bool   // a result, else an error
	init   bool   // the reply to a ui/initialize
	method string // what it answers, for messages
}

// predictSession reads the page's frames with the protocol's rules: each
// ui/initialize (up to maxInits: an app may remount) is answered and must
// declare elicitation; each initialized that follows one gets the request;
// display-mode requests and pings are answered, everything else refused;
// the first answer to the request ends the session.
func predictSession(frames [][]byte) prediction {
	p := prediction{}
	end := func(reason mcpclient.FallbackReason) prediction {
		p.reason, p.ended = reason, true
		return p
	}
	inits, awaiting := 0, false
	for _, b := range frames {
		m, ok := decodeFrame(b)
		if !ok {
			continue
		}
		switch {
		case m.Method != "" && m.ID != nil:
			init := m.Method == "ui/initialize" && inits < maxInits
			answered := init || m.Method == "ping" || m.Method == "ui/request-display-mode"
			p.replies = append(p.replies, expected{id: m.ID, result: answered, init: init, method: m.Method})
			if !init {
				continue
			}
			inits++
			p.initialized, awaiting = true, true
			var params struct {
				AppCapabilities map[string]json.RawMessage `json:"appCapabilities"`
			}
			_ = json.Unmarshal(m.Params, &params)
			var elicitation map[string]any
			if json.Unmarshal(params.AppCapabilities["elicitation"], &elicitation) != nil || elicitation == nil {
				return end(mcpclient.FallbackAppNoElicitation)
			}
		case m.Method == "ui/notifications/initialized":
			if awaiting {
				awaiting, p.ready = false, true
				p.asks++
			}
		case m.Method == "ui/notifications/request-teardown":
			return end(mcpclient.FallbackBridgeClosed)
		case m.Method != "":
		case p.ready && string(m.ID) == `"`+elicitID+`"`:
			if m.Error != nil {
				return end(mcpclient.FallbackInvalidResult)
			}
			p.answer = &m.Result
			p.ended = true
			return p
		}
	}
	p.reason = mcpclient.FallbackBridgeClosed // the page hung up
	return p
}

// checkHostFrames holds what the host sent to the protocol: JSON only,
// mcpeek's own controls or JSON-RPC 2.0; one response to each of the
// page's requests, in order; elicitation/create unchanged, only after
// initialized, once per initialized that followed a ui/initialize; the
// app's HTML at most once; a teardown only for an app that initialized.
func checkHostFrames(t *testing.T, req *mcpclient.AppRequest, received [][]byte, frames [][]byte, pingID string, want prediction) {
	t.Helper()
	params, err := json.Marshal(req.Params)
	if err != nil {
		t.Fatal(err)
	}
	replies := want.replies
	if !want.ended {
		replies = append(replies, expected{id: json.RawMessage(pingID), result: true, method: "ping"})
	}
	elicits, n, htmls := 0, 0, 0
	for i, b := range received {
		var ctl struct {
			Kind *string `json:"mcpeek"`
		}
		if err := json.Unmarshal(b, &ctl); err != nil {
			t.Fatalf("host frame %d is not a JSON object: %q", i, b)
		}
		if ctl.Kind != nil {
			continue
		}
		m, ok := decodeFrame(b)
		if !ok {
			t.Fatalf("host frame %d is neither a control nor JSON-RPC 2.0: %s", i, b)
		}
		switch {
		case m.Method == "elicitation/create":
			elicits++
			if want.asks == 0 {
				t.Fatalf("host sent elicitation/create before the app initialized: %s", b)
			}
			if !bytes.Equal(m.Params, params) {
				t.Fatalf("elicitation/create params = %s, want the request unchanged: %s", m.Params, params)
			}
		case m.Method == "ui/resource-teardown":
			if !want.ready {
				t.Fatalf("host tore down an app that never sent initialized: %s", b)
			}
		case m.Method == "ui/notifications/sandbox-resource-ready":
			if htmls++; htmls > 1 {
				t.Fatalf("host sent the app's HTML %d times", htmls)
			}
		case m.Method != "":
			t.Fatalf("host sent an unexpected message: %s", b)
		default:
			if n >= len(replies) {
				t.Fatalf("host sent response %d, %s, but the page made %d requests (page frames %q)", n+1, b, len(replies), frames)
			}
			r := replies[n]
			n++
			if !bytes.Equal(m.ID, r.id) || (m.Result != nil) != r.result || (m.Error != nil) == r.result {
				t.Fatalf("host response %d to %s (id %s) = %s; want a %s with that id", n, r.method, r.id, b,
					map[bool]string{true: "result", false: "error"}[r.result])
			}
			if !r.init {
				continue
			}
			var res struct {
				ProtocolVersion  string         `json:"protocolVersion"`
				HostCapabilities map[string]any `json:"hostCapabilities"`
			}
			if json.Unmarshal(m.Result, &res) != nil || res.ProtocolVersion != ProtocolVersion ||
				!reflect.DeepEqual(res.HostCapabilities, map[string]any{"elicitation": map[string]any{}, "logging": map[string]any{}}) {
				t.Fatalf("ui/initialize result %s: want protocolVersion %s and only the elicitation and logging capabilities", m.Result, ProtocolVersion)
			}
		}
	}
	if n != len(replies) {
		t.Fatalf("host sent %d responses, want %d (page frames %q)", n, len(replies), frames)
	}
	if elicits != want.asks {
		t.Fatalf("host sent elicitation/create %d times, want %d (page frames %q)", elicits, want.asks, frames)
	}
}

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// faultAppURI is the app the fault server names for its questions.
const faultAppURI = "ui://fault/app.html"

// faultServer is a stdio server the fault tests kill at chosen moments. It
// notes what it is doing, with its PID, in the file $MCPEEK_TEST_EVENTS:
// "PID start" when it runs, "PID hang" when a call to hang arrives, "PID
// ask" when a call to ask arrives.
func faultServer() int {
	note := func(event string) {
		f, err := os.OpenFile(os.Getenv("MCPEEK_TEST_EVENTS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
		if err != nil {
			return
		}
		fmt.Fprintf(f, "%d %s\n", os.Getpid(), event)
		f.Close()
	}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension(fixture.UIExtension, map[string]any{"elicitation": map[string]any{}})
	s := mcp.NewServer(&mcp.Implementation{Name: "fault-server", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	s.AddResource(&mcp.Resource{URI: faultAppURI, Name: "app", MIMEType: fixture.AppMIMEType},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: faultAppURI, MIMEType: fixture.AppMIMEType, Text: fixture.ChooseOptionHTML()}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "hang", Description: "Never returns.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			note("hang")
			<-ctx.Done()
			return nil, ctx.Err()
		})
	s.AddTool(&mcp.Tool{Name: "ask", Description: "Asks to choose an option; with {\"app\":true}, in its app.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				note("ask")
				var args struct{ App bool }
				_ = json.Unmarshal(req.Params.Arguments, &args)
				q := &mcp.ElicitParams{Message: "Choose option A or B.", RequestedSchema: json.RawMessage(
					`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]}},"required":["choice"]}`)}
				if args.App {
					q.Meta = mcp.Meta{"ui": map[string]any{"resourceUri": faultAppURI}}
				}
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": q}, RequestState: "ask"}, nil
			}
			r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
			if r == nil {
				return nil, fmt.Errorf("no answer")
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "answered " + r.Action}}}, nil
		})
	note("start")
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// serverEvents reads the fault server's notes.
type serverEvents struct {
	file string
	seen int
}

func newServerEvents(t *testing.T) *serverEvents {
	return &serverEvents{file: filepath.Join(t.TempDir(), "events")}
}

// args are the words that start the fault server as mcpeek's server.
func (e *serverEvents) args() []string {
	return []string{"-e", "MCPEEK_TEST_EVENTS=" + e.file, "-e", "MCPEEK_TEST_SERVER=fault", "--", testBinary}
}

// wait returns the PID of the server that next notes event.
func (e *serverEvents) wait(t *testing.T, event string) int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(e.file)
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		for ; e.seen < len(lines); e.seen++ {
			pid, what, _ := strings.Cut(lines[e.seen], " ")
			if what == event {
				e.seen++
				n, err := strconv.Atoi(pid)
				if err != nil {
					t.Fatalf("event line %q", lines[e.seen-1])
				}
				return n
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("the server never noted %q", event)
	return 0
}

// noLeaks checks, once the test and its cleanups are done, that it left no
// goroutine behind.
func noLeaks(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) })
}

// kill ends the server process as a crash would: SIGKILL, no last words.
func kill(t *testing.T, pid int) {
	t.Helper()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill %d: %v", pid, err)
	}
}

// runAsync runs mcpeek in-process in the background.
func runAsync(ctx context.Context, args ...string) chan result {
	done := make(chan result, 1)
	go func() { done <- inProcess(ctx, args) }()
	return done
}

// waitResult waits a bounded time for a background run to end.
func waitResult(t *testing.T, done chan result, within time.Duration) result {
	t.Helper()
	select {
	case r := <-done:
		return r
	case <-time.After(within):
		t.Fatalf("mcpeek did not exit within %s", within)
		return result{}
	}
}

// wantServerGone checks a headless run's report of a server that died:
// exit 3 and one line that says so.
func wantServerGone(t *testing.T, r result, want string) {
	t.Helper()
	if r.code != exitConnection {
		t.Errorf("exit %d, want %d; stdout %q, stderr %q", r.code, exitConnection, r.stdout, r.stderr)
	}
	if lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "mcpeek: ") {
		t.Errorf("stderr = %q, want one line", r.stderr)
	}
	if !strings.Contains(r.stderr, want) {
		t.Errorf("stderr = %q, want it to say %q", r.stderr, want)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q, want nothing", r.stdout)
	}
}

// TestHeadlessServerKilledMidCall: the server process dies while a call
// waits for its result.
func TestHeadlessServerKilledMidCall(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			noLeaks(t)
			ev := newServerEvents(t)
			done := runAsync(context.Background(), append([]string{"call", "hang", "--protocol", era.flag}, ev.args()...)...)
			pid := ev.wait(t, "hang")
			killed := time.Now()
			kill(t, pid)
			r := waitResult(t, done, 10*time.Second)
			t.Logf("exit %d %s after the kill: %s", r.code, time.Since(killed).Round(time.Millisecond), strings.TrimSpace(r.stderr))
			wantServerGone(t, r, "call hang: the server went away")
		})
	}
}

// TestHeadlessServerKilledMidAppSession: the server process dies while its
// question is rendered in its app, before a tab connected and with the app
// showing the question. mcpeek exits 3 at once, not after the app
// timeouts, and the tab is told the request ended.
func TestHeadlessServerKilledMidAppSession(t *testing.T) {
	for _, era := range eras {
		for _, stage := range []string{"waiting for the tab", "app showing the question"} {
			t.Run(era.name+"/"+stage, func(t *testing.T) {
				noLeaks(t)
				ev := newServerEvents(t)
				o := newOpener(t)
				log := filepath.Join(t.TempDir(), "elicit.jsonl")
				args := []string{"call", "ask", "--args", `{"app":true}`, "--protocol", era.flag, "--app-host", "--open-with", o.flag(),
					"--app-init-timeout", "60s", "--app-timeout", "60s", "--on-elicit", "decline", "--elicit-log", log}
				done := runAsync(context.Background(), append(args, ev.args()...)...)
				link := o.nextLink(t)
				var p *wsPage
				if stage == "app showing the question" {
					p = dialPage(t, link)
					p.bootToQuestion(t)
				}
				kill(t, ev.wait(t, "ask"))
				killed := time.Now()
				r := waitResult(t, done, 10*time.Second)
				t.Logf("exit %d %s after the kill: %s", r.code, time.Since(killed).Round(time.Millisecond), strings.TrimSpace(r.stderr))
				wantServerGone(t, r, "call ask: the server went away")
				if p != nil {
					end := p.until(t, func(f wsFrame) bool { return f.Mcpeek == "end" })
					if !strings.Contains(end.Text, "ended") {
						t.Errorf("the tab was told %q, want that the request ended", end.Text)
					}
					p.closed(t)
				}
				// The question settled, cancelled, and never fell back to
				// the native answer (decline) for a server that is gone.
				recs := readRecords(t, log)
				if len(recs) != 1 || recs[0]["action"] != "cancel" {
					t.Errorf("records = %v, want the question cancelled", recs)
				}
			})
		}
	}
}

// wsPage plays the bridge page over the WebSocket, as the apphost tests do.
type wsPage struct {
	c      *websocket.Conn
	frames chan wsFrame
	err    chan error
}

type wsFrame struct {
	raw    []byte
	Mcpeek string          `json:"mcpeek"`
	Text   string          `json:"text"`
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
}

// dialPage opens the WebSocket of a tab URL and proves the token.
func dialPage(t *testing.T, link string) *wsPage {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimPrefix(u.Path, "/e/")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+u.Host+"/ws/"+key, &websocket.DialOptions{HTTPHeader: map[string][]string{"Origin": {"http://" + u.Host}}})
	if err != nil {
		t.Fatalf("dial the tab's WebSocket: %v", err)
	}
	c.SetReadLimit(4 << 20)
	p := &wsPage{c: c, frames: make(chan wsFrame, 64), err: make(chan error, 1)}
	go func() {
		defer close(p.frames)
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				p.err <- err
				return
			}
			f := wsFrame{raw: b}
			_ = json.Unmarshal(b, &f)
			p.frames <- f
		}
	}()
	t.Cleanup(func() {
		_ = c.CloseNow()
		for range p.frames {
		}
	})
	token, _, _ := strings.Cut(u.Fragment, ".") // TOKEN.SANDBOX.ALLOW: the page sends the token alone
	p.send(t, token)
	return p
}

func (p *wsPage) send(t *testing.T, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.c.Write(ctx, websocket.MessageText, []byte(text)); err != nil {
		t.Fatalf("page write: %v", err)
	}
}

// until returns the first frame that matches, skipping others.
func (p *wsPage) until(t *testing.T, match func(wsFrame) bool) wsFrame {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case f, ok := <-p.frames:
			if !ok {
				t.Fatal("the tab's WebSocket closed early")
			}
			if match(f) {
				return f
			}
		case <-timeout:
			t.Fatal("the expected frame never came")
		}
	}
}

// bootToQuestion plays the page and app up to the elicitation/create.
func (p *wsPage) bootToQuestion(t *testing.T) wsFrame {
	t.Helper()
	p.until(t, func(f wsFrame) bool { return f.Mcpeek == "session" })
	p.send(t, `{"jsonrpc":"2.0","method":"ui/notifications/sandbox-proxy-ready","params":{}}`)
	p.until(t, func(f wsFrame) bool { return f.Method == "ui/notifications/sandbox-resource-ready" })
	p.send(t, `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"t","version":"0"},"appCapabilities":{"elicitation":{}}}}`)
	p.until(t, func(f wsFrame) bool { return string(f.ID) == "1" && f.Result != nil })
	p.send(t, `{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}`)
	return p.until(t, func(f wsFrame) bool { return f.Method == "elicitation/create" })
}

// closed waits for the host to close the WebSocket, answering the
// teardown request if one comes.
func (p *wsPage) closed(t *testing.T) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case f, ok := <-p.frames:
			if !ok {
				return
			}
			if f.Method == "ui/resource-teardown" {
				p.send(t, `{"jsonrpc":"2.0","id":`+string(f.ID)+`,"result":{}}`)
			}
		case <-timeout:
			t.Fatal("the host never closed the tab's WebSocket")
		}
	}
}

// inspectorRun runs the inspector (tui.Run, as mcpeek does) on pipes, on a
// fault server that runs as a real child process, and drives it as a
// person at the terminal would.
type inspectorRun struct {
	t     *testing.T
	keysW *io.PipeWriter
	out   *screenBuffer
	stop  context.CancelFunc
	done  chan error
	ev    *serverEvents
	conns chan *mcpclient.Conn // each connection made, in order
	all   []*mcpclient.Conn
	conn  *mcpclient.Conn // the latest
	tool  string          // the tool last called, which the Tools tab's filter holds
}

// screenBuffer is the terminal: everything the inspector drew, and how far
// the test has read it.
type screenBuffer struct {
	mu   sync.Mutex
	b    []byte
	read int
	// drawn is closed by the next write, for a test waiting on it.
	drawn chan struct{}
}

func (s *screenBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b = append(s.b, p...)
	if s.drawn != nil {
		close(s.drawn)
		s.drawn = nil
	}
	return len(p), nil
}

// wait waits until all the texts are drawn since the last match (then
// consumed as next does), waking at each write, and reports false if the
// deadline passes first.
func (s *screenBuffer) wait(deadline time.Time, texts ...string) bool {
	for {
		s.mu.Lock()
		if s.nextLocked(texts...) {
			s.mu.Unlock()
			return true
		}
		if s.drawn == nil {
			s.drawn = make(chan struct{})
		}
		drawn := s.drawn
		s.mu.Unlock()
		timer := time.NewTimer(time.Until(deadline))
		select {
		case <-drawn:
			timer.Stop()
		case <-timer.C:
			return s.next(texts...)
		}
	}
}

// next reports whether all the texts were drawn since the last match, and
// then consumes the output up to the last of them.
func (s *screenBuffer) next(texts ...string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nextLocked(texts...)
}

func (s *screenBuffer) nextLocked(texts ...string) bool {
	end := s.read
	for _, text := range texts {
		i := bytes.Index(s.b[s.read:], []byte(text))
		if i < 0 {
			return false
		}
		end = max(end, s.read+i+len(text))
	}
	s.read = end
	return true
}

// skip consumes everything drawn so far.
func (s *screenBuffer) skip() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.read = len(s.b)
}

func (s *screenBuffer) tail(n int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return string(s.b[max(len(s.b)-n, 0):])
}

func openInspector(t *testing.T, era string, renderer mcpclient.AppRenderer) *inspectorRun {
	t.Helper()
	keysR, keysW := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	in := &inspectorRun{t: t, keysW: keysW, out: &screenBuffer{}, stop: stop, done: make(chan error, 1),
		ev: newServerEvents(t), conns: make(chan *mcpclient.Conn, 8)}
	args := in.ev.args()
	opts := tui.Options{
		Target: "fault server",
		Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
			cfg := mcpclient.Config{
				Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{testBinary},
					Env: []string{args[1], args[3]}},
				Protocol: era, Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
				Asker: asker, Records: mcpclient.NewRecorder(nil),
			}
			if renderer != nil {
				cfg.Renderer = renderer
			}
			conn, err := mcpclient.Connect(ctx, cfg)
			if err == nil {
				in.conns <- conn
			}
			return conn, err
		},
	}
	go func() { in.done <- tui.Run(ctx, opts, keysR, in.out) }()
	t.Cleanup(func() { in.quit() })
	in.nextConn()
	return in.expect("hang")
}

// quit ends the inspector as a person's Ctrl+C in the shell would, and
// waits for it.
func (in *inspectorRun) quit() {
	in.stop()
	select {
	case <-in.done:
	case <-time.After(10 * time.Second):
		in.t.Error("the inspector did not end")
	}
	_ = in.keysW.Close()
	for _, c := range in.all {
		_ = c.Close()
	}
}

// nextConn waits for the inspector's next connection.
func (in *inspectorRun) nextConn() *mcpclient.Conn {
	in.t.Helper()
	select {
	case c := <-in.conns:
		in.all = append(in.all, c)
		in.conn = c
		return c
	case <-time.After(20 * time.Second):
		in.t.Fatal("the inspector did not connect")
		return nil
	}
}

// expect waits for all the texts to be drawn, in any order.
func (in *inspectorRun) expect(texts ...string) *inspectorRun {
	in.t.Helper()
	if !in.out.wait(time.Now().Add(15*time.Second), texts...) {
		in.t.Fatalf("the inspector never drew %q; last output:\n%q", texts, in.out.tail(2000))
	}
	return in
}

var keyBytes = map[string]string{"enter": "\r", "down": "\x1b[B", "ctrl+s": "\x13"}

// keys types keys, one at a time: each is its own write, which the
// inspector reads and handles in order, as it does a person's typing.
func (in *inspectorRun) keys(keys ...string) *inspectorRun {
	in.t.Helper()
	for _, k := range keys {
		b, ok := keyBytes[k]
		if !ok {
			b = k
		}
		if _, err := in.keysW.Write([]byte(b)); err != nil {
			in.t.Fatalf("type %q: %v", k, err)
		}
	}
	return in
}

// keyUntil types k until the screen shows all the texts: for a form,
// which ignores keys for a moment after it appears.
func (in *inspectorRun) keyUntil(k string, texts ...string) *inspectorRun {
	in.t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(10 * time.Second)
	for {
		in.keys(k)
		for range 10 { // a frame's time for this k to show, before the next
			select {
			case <-tick.C:
			case <-deadline:
				in.t.Fatalf("%q never brought %q on screen; last output:\n%q", k, texts, in.out.tail(2000))
			}
			if in.out.next(texts...) {
				return in
			}
		}
	}
}

// call picks a tool by name on the Tools tab and calls it.
func (in *inspectorRun) call(tool string) *inspectorRun {
	in.t.Helper()
	in.tool = tool
	in.keys("1", "/", strings.Repeat("\x7f", 8)+tool) // the last filter cleared, then the name
	return in.keys("enter", "enter")
}

// settled waits until the connection has no pending question and n records.
func (in *inspectorRun) settled(c *mcpclient.Conn, n int) []mcpclient.Record {
	in.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if recs := c.Records(); len(c.Pending()) == 0 && len(recs) == n {
			return recs
		}
		time.Sleep(10 * time.Millisecond)
	}
	in.t.Fatalf("not settled: %d pending, %d records, want none pending and %d records", len(c.Pending()), len(c.Records()), n)
	return nil
}

// answerAfterReconnect proves the inspector usable again: r reconnects to a
// new server process, and a question asked there is answered.
func (in *inspectorRun) answerAfterReconnect() {
	in.t.Helper()
	// Reconnecting empties the Tools tab until the new connection's tools
	// arrive: the filtered row of the tool last called is drawn anew then.
	in.out.skip()
	in.keys("r")
	c := in.nextConn()
	in.expect("fault-server", "> "+in.tool)
	in.call("ask").expect("is asking for input")
	in.keyUntil("down", "● option-b").keys("ctrl+s").expect("answered accept")
	if recs := in.settled(c, 1); recs[0].Action != "accept" {
		in.t.Errorf("after reconnecting: record %+v, want accept", recs[0])
	}
}

// TestInspectorServerKilled: the server process dies while the inspector
// shows its question in a form, while a call waits, and while its question
// is rendered in its app. The inspector says the server went away, the
// question settles and its form or app card goes, and r connects to a new
// server that works.
func TestInspectorServerKilled(t *testing.T) {
	noLeaks(t) // once all the runs, each a server and an inspector of its own, are over
	for _, era := range eras {
		t.Run(era.name+"/mid-elicitation", func(t *testing.T) {
			t.Parallel()
			in := openInspector(t, era.flag, nil)
			first := in.conn
			in.call("ask").expect("is asking for input")
			kill(t, in.ev.wait(t, "ask"))
			// The header says the server went away, and the form goes: the
			// Tools tab shows again, with the call's end.
			in.expect("disconnected", "r reconnects", "the server went away")
			if recs := in.settled(first, 1); recs[0].Action != "cancel" || recs[0].Error == "" {
				t.Errorf("record %s %s error %q, want the question cancelled with the reason", recs[0].Key, recs[0].Action, recs[0].Error)
			}
			in.answerAfterReconnect()
		})
	}
	t.Run("modern/mid-call", func(t *testing.T) {
		t.Parallel()
		in := openInspector(t, "modern", nil)
		in.call("hang").expect("calling hang")
		kill(t, in.ev.wait(t, "hang"))
		in.expect("disconnected", "r reconnects", "the server went away")
		in.answerAfterReconnect()
	})
	t.Run("modern/mid-app-session", func(t *testing.T) {
		t.Parallel()
		urls := make(chan string, 4)
		host, err := apphost.Start(apphost.Options{InitTimeout: time.Minute, AnswerTimeout: time.Minute,
			Open: func(u string) error { urls <- u; return nil }})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = host.Close() })
		in := openInspector(t, "modern", host)
		first := in.conn
		// The inspector calls ask without arguments; ask {"app":true} is
		// called on the same connection, and the inspector shows its card.
		go func() { _, _ = first.Call(context.Background(), "ask", json.RawMessage(`{"app":true}`)) }()
		var link string
		select {
		case link = <-urls:
		case <-time.After(15 * time.Second):
			t.Fatal("no tab was opened")
		}
		p := dialPage(t, link)
		p.bootToQuestion(t)
		in.expect("answering in the browser")
		kill(t, in.ev.wait(t, "ask"))
		in.expect("disconnected")
		end := p.until(t, func(f wsFrame) bool { return f.Mcpeek == "end" })
		if !strings.Contains(end.Text, "ended") {
			t.Errorf("the tab was told %q, want that the request ended", end.Text)
		}
		p.closed(t)
		if recs := in.settled(first, 1); recs[0].Action != "cancel" {
			t.Errorf("record %+v, want the question cancelled", recs[0])
		}
		in.expect("enter calls it") // the app card went
		in.answerAfterReconnect()
	})
}

// TestBrowserTabClosedMidRequest closes the app's tab in a real browser
// while it shows the question: mcpeek falls back to the native answer with
// the reason bridge_closed, at once rather than at the app timeout, and
// the server receives exactly one answer.
func TestBrowserTabClosedMidRequest(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			o := newOpener(t)
			dir := t.TempDir()
			log, wire := filepath.Join(dir, "elicit.jsonl"), filepath.Join(dir, "wire.jsonl")
			done := appCall(context.Background(), o, log, "choose_option", "--protocol", era.flag,
				"--on-elicit", "decline", "--app-timeout", "60s", "--wire-log", wire)
			tabCtx, closeTab := chromedp.NewContext(browser)
			defer closeTab()
			if err := chromedp.Do(tabCtx, chromedp.Navigate(o.next(t))); err != nil {
				t.Fatal(err)
			}
			bridgeText(t, tabCtx, "Answer in the app")
			closed := time.Now()
			if _, err := chromedp.Call(tabCtx, page.Close, cdp.Empty{}); err != nil {
				t.Fatalf("close the tab: %v", err)
			}
			r := waitResult(t, done, 20*time.Second)
			t.Logf("mcpeek answered %s after the tab closed", time.Since(closed).Round(time.Millisecond))
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got := r.structured(t)["action"]; got != "decline" {
				t.Errorf("the server got %v, want the native answer (decline)", got)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["path"] != "native" || recs[0]["fallback"] != "bridge_closed" || recs[0]["action"] != "decline" {
				t.Errorf("records = %v, want one, native with fallback bridge_closed", recs)
			}
			if n := answersSent(t, wire); n != 1 {
				t.Errorf("mcpeek sent %d answers to the question, want exactly one", n)
			}
		})
	}
}

// answersSent counts the answers to elicitations in a wire log: responses
// to elicitation/create (legacy) and tools/call retries carrying
// inputResponses (modern).
func answersSent(t *testing.T, wireLog string) int {
	t.Helper()
	data, err := os.ReadFile(wireLog)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e struct {
			Dir     string `json:"dir"`
			Message struct {
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Params struct {
					InputResponses json.RawMessage `json:"inputResponses"`
				} `json:"params"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &e) != nil || e.Dir != "send" {
			continue
		}
		var action struct {
			Action string `json:"action"`
		}
		switch {
		case e.Message.Method == "" && json.Unmarshal(e.Message.Result, &action) == nil && action.Action != "":
			n++
		case e.Message.Method == "tools/call" && len(e.Message.Params.InputResponses) > 0:
			n++
		}
	}
	return n
}

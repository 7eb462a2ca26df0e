package proxy

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/oauth2"
)

// seen is what a fake URL server saw of one request.
type seen struct {
	method string
	header http.Header
	body   string
}

// fakeURLServer answers as a streamable-HTTP server: initialize as JSON
// (written over several lines) with a session, a notification with 202,
// GET with a stream of one message of its own, tools/call with a stream
// of a notification and the result, DELETE with 204.
func fakeURLServer(t *testing.T) (*httptest.Server, func() []seen) {
	var mu sync.Mutex
	var log []seen
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		log = append(log, seen{r.Method, r.Header.Clone(), string(body)})
		mu.Unlock()
		switch {
		case r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n")
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case strings.Contains(string(body), `"initialize"`):
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "s-1")
			fmt.Fprint(w, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"result\": {\"protocolVersion\": \"2026-07-28\"}\n}\n")
		case strings.Contains(string(body), `"tools/call"`):
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, ": a comment\n\nid: 1\ndata:\n\n")
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n")
			fmt.Fprint(w, "data: {\"jsonrpc\":\"2.0\",\"id\":2,  \"result\":{\"content\":[]}}\n\n")
		default:
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []seen {
		mu.Lock()
		defer mu.Unlock()
		return append([]seen(nil), log...)
	}
}

// A stdio host in front of a URL server: each message is POSTed with the
// -H headers, the session, the revision and (2026-07-28) the method and
// name, and the store's token; each message of the answers reaches the
// host as a line, as the server wrote it (one written over several lines
// joined); the server's own stream is opened once the session is; the
// session is deleted at the end.
func TestProxyStdioHostToURLServer(t *testing.T) {
	srv, log := fakeURLServer(t)
	hostIn, toProxy := io.Pipe()
	fromProxy, hostOut := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Run(context.Background(), Options{
			Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL + "/mcp", Headers: http.Header{"X-Api-Key": {"k"}}},
			In:     hostIn, Out: hostOut,
			Token: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "stored-token", TokenType: "Bearer"}),
		})
		hostOut.Close()
	}()
	lines := bufio.NewReader(fromProxy)
	read := func() string {
		l, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the proxy: %v", err)
		}
		return l
	}
	write := func(s string) { _, _ = io.WriteString(toProxy, s+"\n") }

	write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	if got, want := read(), `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2026-07-28"}}`+"\n"; got != want {
		t.Errorf("the initialize answer reached the host as %q, want %q", got, want)
	}
	write(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if got := read(); !strings.Contains(got, "list_changed") {
		t.Errorf("the server's own stream reached the host as %q", got)
	}
	write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`)
	if got, want := read()+read(), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n{\"jsonrpc\":\"2.0\",\"id\":2,  \"result\":{\"content\":[]}}\n"; got != want {
		t.Errorf("the call's stream reached the host as %q, want %q", got, want)
	}
	toProxy.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	requests := log()
	var methods []string
	for _, r := range requests {
		methods = append(methods, r.method)
		if r.header.Get("X-Api-Key") != "k" || r.header.Get("Authorization") != "Bearer stored-token" {
			t.Errorf("%s went without -H's header or the token: %v", r.method, r.header)
		}
	}
	if got := strings.Join(methods, " "); got != "POST POST GET POST DELETE" && got != "POST POST POST GET DELETE" {
		t.Errorf("the server saw %s", got)
	}
	for _, r := range requests[1:] {
		if r.header.Get("Mcp-Session-Id") != "s-1" || r.header.Get("Mcp-Protocol-Version") != "2026-07-28" {
			t.Errorf("%s %s went without the session or revision: %v", r.method, r.body, r.header)
		}
		if strings.Contains(r.body, "tools/call") && (r.header.Get("Mcp-Method") != "tools/call" || r.header.Get("Mcp-Name") != "echo") {
			t.Errorf("the call went without its method and name: %v", r.header)
		}
	}
}

// A host on --listen in front of a command: an answer comes on the
// POST's stream; the server's own message sent when no POST is open waits
// for the host's GET stream; a host that takes no stream gets JSON.
func TestProxyListenHostToCommandServer(t *testing.T) {
	// The server answers its first message, then says something of its
	// own, then answers the next.
	script := `read l; echo '{"jsonrpc":"2.0","id":1,"result":{}}'; echo '{"jsonrpc":"2.0","method":"notifications/message","params":{}}'; ` +
		`read l; echo '{"jsonrpc":"2.0","id":2,"result":{"n":2}}'; cat >/dev/null`
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan string, 1)
	done := make(chan error, 1)
	var sink bytes.Buffer
	go func() {
		done <- Run(ctx, Options{
			Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{"sh", "-c", script}},
			Listen: "127.0.0.1:0", Wire: mcpclient.NewWireLog(0, &sink), Listening: func(a string) { addr <- a },
		})
	}()
	url := "http://" + <-addr + "/mcp"
	post := func(session, accept, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("Accept", accept)
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post("", "application/json, text/event-stream", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	session := resp.Header.Get("Mcp-Session-Id")
	if string(got) != "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n" || session == "" {
		t.Fatalf("initialize: %q (session %q)", got, session)
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", session)
	stream, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	event, _ := bufio.NewReader(stream.Body).ReadString('}')
	if !strings.Contains(event, "notifications/message") {
		t.Errorf("the GET stream began %q", event)
	}
	resp = post(session, "application/json", `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != `{"jsonrpc":"2.0","id":2,"result":{"n":2}}` || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("a JSON answer: %q %s", got, resp.Header.Get("Content-Type"))
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// At the bound of sessions, the one used longest ago that waits for
// nothing is ended to make room; a session waiting for an answer is not.
func TestProxyListenEndsTheIdleSessionForANewOne(t *testing.T) {
	opts := Options{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{"cat"}},
		Wire: mcpclient.NewWireLog(0, nil), MaxMessageSize: 1 << 20, ErrOut: io.Discard}
	c := &cmdLink{opts: opts, sessions: map[string]*cmdSession{}}
	defer c.stopAll(0)
	c.mu.Lock()
	idle, err := c.start(true)
	if err != nil {
		t.Fatal(err)
	}
	busy, err := c.start(true)
	c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	busy.touch()
	idle.touch() // used last, but waits for nothing
	busy.await([]string{"1"}, true)
	c.mu.Lock()
	evicted := c.evictIdle()
	_, idleKept := c.sessions[idle.id]
	_, busyKept := c.sessions[busy.id]
	c.mu.Unlock()
	if !evicted || idleKept || !busyKept {
		t.Fatalf("evicted %v; the idle session kept %v, the busy one %v", evicted, idleKept, busyKept)
	}
	<-idle.proc.exited // its server is stopped
	c.mu.Lock()
	again := c.evictIdle()
	c.mu.Unlock()
	if again {
		t.Error("a session waiting for an answer was ended")
	}
}

// A DELETE without a session id is refused and leaves the shared
// session be: its server is still stopped when the proxy ends.
func TestProxyListenDeleteWithoutSessionKeepsTheShared(t *testing.T) {
	opts := Options{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{"cat"}},
		Wire: mcpclient.NewWireLog(0, nil), MaxMessageSize: 1 << 20, ErrOut: io.Discard}
	c := &cmdLink{opts: opts, sessions: map[string]*cmdSession{}}
	c.mu.Lock()
	shared, err := c.start(false)
	c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	c.delete(w, httptest.NewRequest(http.MethodDelete, "/mcp", nil))
	c.mu.Lock()
	kept := c.sessions[""] == shared
	c.mu.Unlock()
	if w.Code != http.StatusNotFound || !kept {
		t.Errorf("DELETE without a session: %d, the shared session kept %v", w.Code, kept)
	}
	c.stopAll(0)
	select {
	case <-shared.proc.exited:
	case <-time.After(5 * time.Second):
		t.Error("the shared session's server was not stopped")
	}
}

// A server that fails to start leaves the recording to the next
// session's.
func TestProxyListenRecordsAfterAFailedStart(t *testing.T) {
	opts := Options{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{"/nonexistent/mcpeek-test-server"}},
		Wire: mcpclient.NewWireLog(0, nil), MaxMessageSize: 1 << 20, ErrOut: io.Discard, Record: record.NewWriter(io.Discard)}
	c := &cmdLink{opts: opts, sessions: map[string]*cmdSession{}}
	defer c.stopAll(0)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.start(true); err == nil {
		t.Fatal("a missing command started")
	}
	c.opts.Target.Command = []string{"cat"}
	sess, err := c.start(true)
	if err != nil {
		t.Fatal(err)
	}
	if sess.track.hs == nil {
		t.Error("the first session whose server started does not write the recording")
	}
}

// A GET stream opened after the server spoke gets the messages kept for
// it first, then what the server says next: in the order the server
// sent them.
func TestProxyListenStreamKeepsTheServersOrder(t *testing.T) {
	t.Parallel()
	s := &cmdSession{waiting: map[string]*reply{}, pending: [][]byte{[]byte(`{"n":1}`), []byte(`{"n":2}`)}}
	rep, kept, ok := s.listen()
	if !ok {
		t.Fatal("no stream")
	}
	if !rep.deliver([]byte(`{"n":3}`)) { // the server's next message, as route hands it on
		t.Fatal("the stream took no message")
	}
	rep.finish()
	w := httptest.NewRecorder()
	(&cmdLink{}).streamReply(w, httptest.NewRequest(http.MethodGet, "/", nil), s, rep, kept...)
	got := regexp.MustCompile(`"n":(\d)`).FindAllStringSubmatch(w.Body.String(), -1)
	var order string
	for _, m := range got {
		order += m[1]
	}
	if order != "123" {
		t.Errorf("the stream wrote the messages in the order %q, want 123:\n%s", order, w.Body.String())
	}
}

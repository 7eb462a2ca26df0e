package record

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// entries makes recording entries from dir/message pairs.
func entries(t *testing.T, lines ...string) []Entry {
	t.Helper()
	var out []Entry
	for i := 0; i < len(lines); i += 2 {
		var m wire
		if err := json.Unmarshal([]byte(lines[i+1]), &m); err != nil {
			t.Fatalf("bad message %s: %v", lines[i+1], err)
		}
		out = append(out, Entry{WireEntry: mcpclient.WireEntry{Dir: mcpclient.Direction(lines[i]), Method: m.Method, ID: m.ID, Message: json.RawMessage(lines[i+1])}})
	}
	return out
}

// stdioClient talks to a Server over stdio pipes, a line at a time.
type stdioClient struct {
	t    *testing.T
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
}

func serveStdio(t *testing.T, s *Server) *stdioClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &stdioClient{t: t, in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		err := s.ServeStdio(context.Background(), inR, outW)
		_ = outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { _ = inW.Close(); <-c.done })
	return c
}

func (c *stdioClient) send(msg string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, msg+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

func (c *stdioClient) read() map[string]any {
	c.t.Helper()
	if !c.out.Scan() {
		c.t.Fatalf("the server wrote nothing more: %v", c.out.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(c.out.Bytes(), &m); err != nil {
		c.t.Fatalf("not JSON: %s", c.out.Bytes())
	}
	return m
}

// end closes the client's side and waits for the server to stop.
func (c *stdioClient) end() {
	_ = c.in.Close()
	for c.out.Scan() {
	}
	if err := <-c.done; err != nil {
		c.t.Errorf("ServeStdio: %v", err)
	}
	c.done <- nil
}

func newServer(t *testing.T, protocol string, lines ...string) *Server {
	t.Helper()
	s, err := NewServer(Header{Recording: 1, Protocol: protocol}, entries(t, lines...), 1<<10)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var toolsRecording = []string{
	"send", `{"jsonrpc":"2.0","id":"mcpeek-side-1","method":"tools/list","params":{}}`,
	"recv", `{"jsonrpc":"2.0","id":"mcpeek-side-1","result":{"tools":[]}}`,
	"send", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"progressToken":"p-1"},"name":"count","arguments":{"n":2}}}`,
	"recv", `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p-1","progress":1}}`,
	"recv", `{"jsonrpc":"2.0","id":7,"method":"elicitation/create","params":{"message":"Sure?"}}`,
	"send", `{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"sure":true}}}`,
	"recv", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"counted"}]}}`,
}

// A request matches by method and params, whatever its id and _meta; the
// recorded progress is sent with the live token, the recorded question
// is asked, and the recorded response comes with the live id.
func TestServeMatchesIgnoringIDsAndMeta(t *testing.T) {
	s := newServer(t, legacyRevision, toolsRecording...)
	c := serveStdio(t, s)
	c.send(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"_meta":{"progressToken":42},"name":"count","arguments":{"n":2}}}`)
	if p := c.read(); p["method"] != "notifications/progress" || p["params"].(map[string]any)["progressToken"] != float64(42) {
		t.Fatalf("want the progress with the live token, got %v", p)
	}
	q := c.read()
	if q["method"] != "elicitation/create" || q["params"].(map[string]any)["message"] != "Sure?" {
		t.Fatalf("want the recorded question, got %v", q)
	}
	c.send(`{"jsonrpc":"2.0","id":` + asJSON(q["id"]) + `,"result":{"action":"accept","content":{"sure":false}}}`)
	if r := c.read(); r["id"] != "x" || r["result"] == nil {
		t.Fatalf("want the recorded result with the live id, got %v", r)
	}
	c.end()
	sum := s.Summary()
	if sum.OK() || len(sum.Problems) != 1 || !strings.Contains(sum.Problems[0], `at /content/sure recorded true, got false`) {
		t.Errorf("problems = %q, want the answer that differs", sum.Problems)
	}
}

// Without a progress token the client asked for no progress: none is sent.
func TestServeSendsNoProgressUnasked(t *testing.T) {
	s := newServer(t, legacyRevision, toolsRecording...)
	c := serveStdio(t, s)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"n":2}}}`)
	q := c.read()
	if q["method"] != "elicitation/create" {
		t.Fatalf("want the question first, got %v", q)
	}
	c.send(`{"jsonrpc":"2.0","id":` + asJSON(q["id"]) + `,"result":{"action":"accept","content":{"sure":true}}}`)
	c.read()
	c.end()
	if sum := s.Summary(); !sum.OK() || sum.Served != 1 || len(sum.NotAsked) != 0 {
		t.Errorf("summary = %+v, want everything matched (mcpeek's own tools/list is not owed)", sum)
	}
}

// An unmatched request gets an error naming the closest recorded one: of
// the same method the one with most params in common, else the nearest
// method name.
func TestServeUnmatchedNamesClosest(t *testing.T) {
	s := newServer(t, legacyRevision, toolsRecording...)
	c := serveStdio(t, s)
	for _, tc := range []struct{ req, wantCode, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"n":3}}}`, "-32602", `the closest recorded is tools/call {"arguments":{"n":2},"name":"count"}`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/lists","params":{}}`, "-32601", `the closest recorded is tools/list {}`},
	} {
		c.send(tc.req)
		r := c.read()
		e, _ := r["error"].(map[string]any)
		if e == nil || asJSON(e["code"]) != tc.wantCode || !strings.Contains(e["message"].(string), tc.want) {
			t.Errorf("%s: got %v, want code %s and %q", tc.req, r, tc.wantCode, tc.want)
		}
	}
	c.end()
	if sum := s.Summary(); sum.OK() || len(sum.Problems) != 2 || !strings.HasPrefix(sum.Problems[0], "unmatched: tools/call") {
		t.Errorf("problems = %q", sum.Problems)
	}
}

// In 2026-07-28 the retried request is matched by its requestState, and
// its inputResponses are compared with the recorded ones.
func TestServeModernRounds(t *testing.T) {
	s := newServer(t, modernRevision,
		"send", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"pick","arguments":{}}}`,
		"recv", `{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"s1","inputRequests":{"choice":{"method":"elicitation/create","params":{"message":"Pick"}}}}}`,
		"send", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"pick","arguments":{},"requestState":"s1","inputResponses":{"choice":{"action":"accept","content":{"c":"a"}}}}}`,
		"recv", `{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[]}}`,
	)
	c := serveStdio(t, s)
	c.send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	first := c.read()
	if first["result"].(map[string]any)["requestState"] != "s1" {
		t.Fatalf("want the recorded input_required result, got %v", first)
	}
	c.send(`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"pick","arguments":{},"requestState":"s1","inputResponses":{"choice":{"action":"accept","content":{"c":"b"}}}}}`)
	if second := c.read(); second["result"].(map[string]any)["resultType"] != "complete" || second["id"] != float64(11) {
		t.Fatalf("want the recorded final result, got %v", second)
	}
	c.send(`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"pick","arguments":{},"requestState":"forged"}}`)
	if third := c.read(); third["error"] == nil {
		t.Fatalf("a requestState the recording never gave matched: %v", third)
	}
	c.end()
	sum := s.Summary()
	if len(sum.Problems) != 2 || !strings.Contains(sum.Problems[0], `answer differs: "choice" during tools/call pick: at /content/c recorded "a", got "b"`) {
		t.Errorf("problems = %q", sum.Problems)
	}
}

// A line longer than the bound is refused, reported, and the connection
// goes on.
func TestServeRefusesLongLines(t *testing.T) {
	s := newServer(t, legacyRevision, toolsRecording...)
	c := serveStdio(t, s)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", 2<<10) + `"}}`)
	if r := c.read(); r["error"] == nil {
		t.Fatalf("want an error for the long line, got %v", r)
	}
	c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`)
	if r := c.read(); r["result"] == nil {
		t.Fatalf("the connection did not go on: %v", r)
	}
	c.end()
	if sum := s.Summary(); len(sum.Problems) != 1 || !strings.Contains(sum.Problems[0], "longer than 1024 bytes") {
		t.Errorf("problems = %q", sum.Problems)
	}
}

// Over HTTP, a loopback server refuses foreign Host and Origin names, a
// 2025-11-25 request must name its session, and a body over the bound is
// refused.
func TestServeHTTPRefusals(t *testing.T) {
	s := newServer(t, legacyRevision, append([]string{
		"send", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
	}, toolsRecording...)...)
	srv := httptest.NewServer(s.HTTPHandler(true))
	defer srv.Close()
	post := func(body string, header ...string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		for i := 0; i < len(header); i += 2 {
			if header[i] == "Host" {
				req.Host = header[i+1]
			} else {
				req.Header.Set(header[i], header[i+1])
			}
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`
	for _, tc := range []struct {
		name   string
		resp   *http.Response
		status int
	}{
		{"foreign host", post(list, "Host", "evil.example:80"), http.StatusForbidden},
		{"foreign origin", post(list, "Origin", "https://evil.example"), http.StatusForbidden},
		{"no session", post(list), http.StatusBadRequest},
		{"unknown session", post(list, sessionHeader, "nope"), http.StatusNotFound},
		{"too large", post(`{"pad":"` + strings.Repeat("x", 2<<10) + `"}`), http.StatusRequestEntityTooLarge},
	} {
		if tc.resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, tc.resp.StatusCode, tc.status)
		}
	}
	init := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	id := init.Header.Get(sessionHeader)
	if init.StatusCode != http.StatusOK || id == "" {
		t.Fatalf("initialize: status %d, session %q", init.StatusCode, id)
	}
	if r := post(list, sessionHeader, id); r.StatusCode != http.StatusOK {
		t.Errorf("a request of the session: status %d", r.StatusCode)
	}
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// initHTTP posts a 2025-11-25 initialize and returns the session it
// opened ("" when refused) and the status.
func initHTTP(t *testing.T, srv *httptest.Server) (string, int) {
	t.Helper()
	resp, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.Header.Get(sessionHeader), resp.StatusCode
}

// Sessions no client ends (no DELETE) do not use the server up: when the
// table is full, an initialize ends the least recently used idle session,
// and a session with a stream open is not idle.
func TestServeHTTPSessionsWithoutDelete(t *testing.T) {
	s := newServer(t, legacyRevision, append([]string{
		"send", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25"}}`,
	}, toolsRecording...)...)
	srv := httptest.NewServer(s.HTTPHandler(true))
	defer srv.Close()
	busy, status := initHTTP(t, srv)
	if status != http.StatusOK {
		t.Fatalf("initialize: status %d", status)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	req.Header.Set(sessionHeader, busy)
	stream, err := srv.Client().Do(req)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("GET stream: %v %v", err, stream)
	}
	defer stream.Body.Close()
	var first string
	for i := range 100 {
		id, status := initHTTP(t, srv)
		if status != http.StatusOK || id == "" {
			t.Fatalf("initialize %d without DELETE: status %d", i+2, status)
		}
		if i == 0 {
			first = id
		}
	}
	use := func(id string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}`))
		req.Header.Set(sessionHeader, id)
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return resp.StatusCode
	}
	if got := use(busy); got != http.StatusOK {
		t.Errorf("the session with a stream open: status %d, want it kept", got)
	}
	if got := use(first); got != http.StatusNotFound {
		t.Errorf("the least recently used idle session: status %d, want it ended", got)
	}
}

// A request ending removes its own entry only: a later request with the
// same id stays in flight and can still be cancelled.
func TestInflightDoneRemovesItsOwnEntry(t *testing.T) {
	f := newInflight()
	id := json.RawMessage(`1`)
	older, doneOlder, _ := f.start(context.Background(), id)
	newer, doneNewer, _ := f.start(context.Background(), id)
	if older.Err() == nil {
		t.Error("the older request with a reused id goes on")
	}
	doneOlder()
	if newer.Err() != nil {
		t.Fatal("the older request's end cancelled the newer one")
	}
	f.cancel(id)
	if newer.Err() == nil {
		t.Error("notifications/cancelled did not reach the newer request")
	}
	doneNewer()
	f.wait()
}

// In 2026-07-28 each POST stands alone: another client's request with the
// same id, or its notifications/cancelled, does not end this one.
func TestServeModernHTTPClientsApart(t *testing.T) {
	s := newServer(t, modernRevision,
		"send", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`,
		"send", `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{}}`,
	)
	h := s.HTTPHandler(true).(*httpServer)
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{}}`))
	held, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Body.Close()
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
	} {
		resp, err := srv.Client().Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body) // its end: the request's entry is gone
		_ = resp.Body.Close()
	}
	h.posts.mu.Lock()
	defer h.posts.mu.Unlock()
	if len(h.posts.live) != 1 {
		t.Fatalf("%d requests in flight, want the held one", len(h.posts.live))
	}
	for _, r := range h.posts.live {
		if r.ctx.Err() != nil {
			t.Error("another client's request or cancellation ended the held one")
		}
	}
}

// A recorded request whose response the recording does not hold is
// answered with an error saying so, not held forever; a subscription
// stays held.
func TestServeMissingResponseIsAnError(t *testing.T) {
	s := newServer(t, legacyRevision,
		"send", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`,
	)
	c := serveStdio(t, s)
	c.send(`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"clientInfo":{"name":"other"}}}`)
	r := c.read()
	e, _ := r["error"].(map[string]any)
	if e == nil || !strings.Contains(asJSON(e["message"]), "holds no response") || r["id"] != float64(5) {
		t.Fatalf("got %v, want an error saying the recording holds no response", r)
	}
	c.end()
}

// The summary cleans what came from the recording: a tool name with an
// escape sequence does not reach the terminal raw.
func TestServeSummaryCleansRecordedText(t *testing.T) {
	s := newServer(t, legacyRevision,
		"send", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"evil\u001b[2J","arguments":{}}}`,
		"recv", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
	)
	var b strings.Builder
	if _, err := s.Summary().WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "\x1b") || !strings.Contains(b.String(), "evil␛[2J") {
		t.Errorf("summary = %q, want the escape shown, not sent", b.String())
	}
}

// A session's upkeep the recording holds none of is answered with the
// spec's empty result and said apart in the summary: ping always,
// logging/setLevel in 2025-11-25 when the recorded server offered logging
// (an unknown level refused as invalid params). Where the server offered
// no logging, or in 2026-07-28 (the level travels in _meta), setLevel is
// a request the recording does not hold; a recorded ping is answered from
// the recording.
func TestServeAnswersUpkeep(t *testing.T) {
	t.Parallel()
	initialize := func(caps string) []string {
		return []string{
			"send", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
			"recv", `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"serverInfo":{"name":"s","version":"1"}}}`,
		}
	}
	logging := append(initialize(`{"logging":{},"tools":{}}`), toolsRecording...)
	tests := []struct {
		name     string
		protocol string
		lines    []string
		req      string
		wantCode string // "" for the empty result
		upkeep   map[string]int
	}{
		{"ping", legacyRevision, toolsRecording, `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "", map[string]int{"ping": 1}},
		{"ping in 2026-07-28", modernRevision, toolsRecording, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}`, "", map[string]int{"ping": 1}},
		{"setLevel where logging was offered", legacyRevision, logging, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`, "", map[string]int{"logging/setLevel": 1}},
		{"an unknown level", legacyRevision, logging, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"loud"}}`, "-32602", nil},
		{"setLevel where logging was not offered", legacyRevision, append(initialize(`{"tools":{}}`), toolsRecording...), `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`, "-32601", nil},
		{"setLevel in 2026-07-28", modernRevision, logging, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"debug"}}`, "-32601", nil},
		{"a recorded ping", legacyRevision, append([]string{
			"send", `{"jsonrpc":"2.0","id":9,"method":"ping"}`,
			"recv", `{"jsonrpc":"2.0","id":9,"result":{}}`,
		}, toolsRecording...), `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, tt.protocol, tt.lines...)
			c := serveStdio(t, s)
			c.send(tt.req)
			r := c.read()
			if tt.wantCode == "" {
				if asJSON(r["result"]) != `{}` || r["id"] != float64(1) {
					t.Errorf("got %v, want the empty result", r)
				}
			} else if e, _ := r["error"].(map[string]any); e == nil || asJSON(e["code"]) != tt.wantCode {
				t.Errorf("got %v, want the error %s", r, tt.wantCode)
			}
			c.end()
			sum := s.Summary()
			if !reflect.DeepEqual(sum.Upkeep, tt.upkeep) {
				t.Errorf("Upkeep = %v, want %v", sum.Upkeep, tt.upkeep)
			}
			if ok := tt.wantCode == ""; sum.OK() != ok {
				t.Errorf("OK = %v, want %v: %q", sum.OK(), ok, sum.Problems)
			}
			var out strings.Builder
			_, _ = sum.WriteTo(&out)
			if said := strings.Contains(out.String(), "not from the recording"); said != (tt.upkeep != nil) {
				t.Errorf("the summary says the upkeep: %v, want %v:\n%s", said, tt.upkeep != nil, out.String())
			}
		})
	}
	// The header's capabilities are the recorded server's too.
	h := Header{Recording: 1, Protocol: legacyRevision, ServerCapabilities: json.RawMessage(`{"logging":{}}`)}
	s, err := NewServer(h, entries(t, toolsRecording...), 1<<10)
	if err != nil || !s.upkeeps[methodSetLevel] {
		t.Errorf("a header offering logging: setLevel answered = %v (%v)", s != nil && s.upkeeps[methodSetLevel], err)
	}
}

// A client that sends no params, or the optional members empty, gets the
// recorded response to the request the recording holds with them
// (the Inspector lists tools with no params at all).
func TestServeTakesOptionalParamsAsLeftOut(t *testing.T) {
	t.Parallel()
	s := newServer(t, legacyRevision,
		"send", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}}`,
		"send", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","arguments":{}}}`,
		"recv", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`,
		"send", `{"jsonrpc":"2.0","id":3,"method":"prompts/list"}`,
		"recv", `{"jsonrpc":"2.0","id":3,"result":{"prompts":[]}}`,
	)
	c := serveStdio(t, s)
	for _, req := range []string{
		`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"a","_meta":{}}}`,
		`{"jsonrpc":"2.0","id":"p","method":"prompts/list","params":{"cursor":null,"_meta":{}}}`,
	} {
		c.send(req)
		if r := c.read(); r["result"] == nil {
			t.Errorf("%s: got %v, want the recorded result", req, r)
		}
	}
	c.end()
	if sum := s.Summary(); !sum.OK() || sum.Served != 3 || len(sum.NotAsked) != 0 {
		t.Errorf("summary = %+v, want all three answered from the recording", sum)
	}
}

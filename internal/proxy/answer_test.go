package proxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// scriptEnv names the script the test binary plays as a server.
const scriptEnv = "MCPEEK_PROXY_TEST_SCRIPT"

func TestMain(m *testing.M) {
	if script := os.Getenv(scriptEnv); script != "" {
		runScript(script, os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// rpc is a message of the scripted servers' and hosts'.
type rpc struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

// runScript is a scripted server. legacy: initialize, then a tools/call
// asks the client one elicitation/create and answers with what it got.
// modern: a tools/call asks for input twice (round a, then round b,
// each with its request state) and answers with both answers; a call of
// the tool "sample" asks for a sampling request instead. app: as
// legacy, but the question names the app the call's arguments' "app"
// says, and resources/read answers while the question waits
// (appResource).
func runScript(script string, in io.Reader, out io.Writer) {
	sc := bufio.NewScanner(in)
	sc.Buffer(nil, 1<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(out, "%s\n", b)
	}
	reply := func(id json.RawMessage, result string) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "result": json.RawMessage(result)})
	}
	ask := `{"message":"Pick one","requestedSchema":{"type":"object","properties":{"choice":{"type":"string","enum":["a","b"]}},"required":["choice"]}}`
	var call rpc // app's
	for sc.Scan() {
		var m rpc
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch {
		case script == "app" && m.Method == "tools/call":
			call = m
			named := strings.TrimSuffix(ask, "}") + `,"_meta":{"ui":{"resourceUri":` + string(getPath(m.Params, "arguments", "app")) + `}}}`
			send(map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": json.RawMessage(named)})
		case script == "app" && m.Method == "resources/read":
			appResource(m, send)
		case script == "app" && string(m.ID) == `"q1"`:
			text, _ := json.Marshal(string(m.Result) + string(m.Error))
			reply(call.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
		case m.Method == "initialize":
			caps, _ := json.Marshal(string(getPath(m.Params, "capabilities")))
			reply(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"script","version":"1"},"instructions":`+string(caps)+`}`)
		case m.Method == "tools/call" && script == "cancelling":
			send(map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": json.RawMessage(ask)})
			send(map[string]any{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": map[string]any{"requestId": "q1"}})
			reply(m.ID, `{"content":[{"type":"text","text":"gave up asking"}]}`)
		case m.Method == "tools/call" && script == "legacy":
			send(map[string]any{"jsonrpc": "2.0", "id": "q1", "method": "elicitation/create", "params": json.RawMessage(ask)})
			var answer rpc
			for sc.Scan() {
				if json.Unmarshal(sc.Bytes(), &answer) == nil && string(answer.ID) == `"q1"` {
					break
				}
			}
			text, _ := json.Marshal(string(answer.Result) + string(answer.Error))
			reply(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
		case m.Method == "tools/call":
			modernRound(m, ask, reply)
			// A message right behind the result: the proxy must have
			// kept the result, not the reader's buffer.
			send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "info", "data": strings.Repeat("z", 2000)}})
		}
	}
}

// modernRound answers one 2026-07-28 tools/call of the modern script.
func modernRound(m rpc, ask string, reply func(json.RawMessage, string)) {
	if !hasMember(getPath(m.Params, "_meta", capsMetaKey), "elicitation") {
		reply(m.ID, `{"isError":true,"content":[{"type":"text","text":"no elicitation advertised"}]}`)
		return
	}
	state := string(getPath(m.Params, "requestState"))
	responses := getPath(m.Params, "inputResponses")
	switch {
	case string(getPath(m.Params, "name")) == `"sample"`:
		reply(m.ID, `{"resultType":"input_required","inputRequests":{"s":{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":5}}}}`)
	case state == "":
		reply(m.ID, `{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":`+ask+`}},"requestState":"one"}`)
	case state == `"one"`:
		first, _ := json.Marshal(string(getPath(responses, "a")))
		reply(m.ID, `{"resultType":"input_required","inputRequests":{"b":{"method":"elicitation/create","params":`+ask+`}},"requestState":`+string(first)+`}`)
	default:
		var first string
		_ = json.Unmarshal([]byte(state), &first)
		text, _ := json.Marshal("first " + first + " then " + string(getPath(responses, "b")))
		reply(m.ID, `{"content":[{"type":"text","text":`+string(text)+`}]}`)
	}
}

// host is the host's side of a proxy run in the test.
type host struct {
	t   *testing.T
	in  *io.PipeWriter
	out *bufio.Reader
	// errOut and wire are what the proxy said and logged: read them
	// once it ended (end).
	errOut, wire *bytes.Buffer
	done         chan error
	ended        bool
	rest         string
}

// startProxy runs a stdio proxy in front of the script, answering as
// opts says.
func startProxy(t *testing.T, script string, opts Options) *host {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &host{t: t, in: inW, out: bufio.NewReader(outR), errOut: &bytes.Buffer{}, wire: &bytes.Buffer{}, done: make(chan error, 1)}
	opts.Target = mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{os.Args[0]}, Env: []string{scriptEnv + "=" + script}}
	opts.In, opts.Out, opts.ErrOut = inR, outW, h.errOut
	opts.Wire = mcpclient.NewWireLog(0, h.wire)
	go func() {
		h.done <- Run(context.Background(), opts)
		_ = outW.Close()
	}()
	t.Cleanup(func() { h.end() })
	return h
}

// end closes the host's side, waits for the proxy to end and returns
// what the host got that it did not read.
func (h *host) end() string {
	if h.ended {
		return h.rest
	}
	h.ended = true
	_ = h.in.Close()
	read := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(h.out) // until the proxy ends: it closes the host's stdout then
		read <- b
	}()
	select {
	case b := <-read:
		h.rest = string(b)
		<-h.done
	case <-time.After(10 * time.Second):
		h.t.Error("the proxy did not end after the host left")
	}
	return h.rest
}

// send writes a message as the host.
func (h *host) send(msg string) {
	h.t.Helper()
	if _, err := io.WriteString(h.in, msg+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// next reads the next message the host gets, notifications aside.
func (h *host) next() rpc {
	h.t.Helper()
	for {
		line, err := h.out.ReadString('\n')
		if err != nil {
			h.t.Fatalf("reading the proxy's stdout: %v", err)
		}
		var m rpc
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			h.t.Fatalf("the host got %q: %v", line, err)
		}
		if m.ID != nil {
			return m
		}
	}
}

// initialize is a 2025-11-25 host's handshake, advertising caps.
func (h *host) initialize(caps string) rpc {
	h.t.Helper()
	h.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":` + caps + `,"clientInfo":{"name":"host","version":"1"}}}`)
	res := h.next()
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

// choiceAsker answers every question with choice.
func choiceAsker(choice string) Asker {
	return func(context.Context, json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"action":"accept","content":{"choice":"` + choice + `"}}`), nil
	}
}

// nobody is an asker with nobody to ask.
func nobody(context.Context, json.RawMessage) (json.RawMessage, error) {
	return nil, fmt.Errorf("no watcher: %w", ErrNobody)
}

// A 2025-11-25 host without elicitation: the server is told it has it,
// its question is answered by the proxy (the host never sees it), and
// the host gets the call's result.
func TestAnswerLegacyQuestionForAHostWithoutElicitation(t *testing.T) {
	t.Parallel()
	h := startProxy(t, "legacy", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the watcher", nobody}, {"the test", choiceAsker("b")}}})
	init := h.initialize(`{"roots":{}}`)
	if got := string(getPath(init.Result, "instructions")); got != `"{\"elicitation\":{\"form\":{},\"url\":{}},\"roots\":{}}"` {
		t.Errorf("the server was told the host advertises %s", got)
	}
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	res := h.next()
	if string(res.ID) != "1" || !strings.Contains(string(res.Result), `\"choice\":\"b\"`) {
		t.Errorf("the host got %s %s, want the call's result with the proxy's answer", res.ID, res.Result)
	}
	h.end()
	if !strings.Contains(h.errOut.String(), "answered the server's elicitation/create \"q1\" \"Pick one\" itself (by the test): accept") {
		t.Errorf("stderr does not say who answered:\n%s", h.errOut.String())
	}
	if w := h.wire.String(); !strings.Contains(w, "its initialize now advertises form and URL elicitation") || strings.Contains(w, "which the host did not ask") {
		t.Errorf("the wire log:\n%s", w)
	}
}

// A host that advertises elicitation is asked as usual; with
// --answer=always the proxy answers all the same.
func TestAnswerLegacyHostThatElicitsIsAsked(t *testing.T) {
	t.Parallel()
	h := startProxy(t, "legacy", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the test", choiceAsker("b")}}})
	h.initialize(`{"elicitation":{}}`)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	if q := h.next(); q.Method != "elicitation/create" || string(q.ID) != `"q1"` {
		t.Fatalf("the host got %+v, want the server's question", q)
	}
	h.send(`{"jsonrpc":"2.0","id":"q1","result":{"action":"decline"}}`)
	if res := h.next(); !strings.Contains(string(res.Result), "decline") {
		t.Errorf("the host's answer did not reach the server: %s", res.Result)
	}

	always := startProxy(t, "legacy", Options{Answer: AnswerAlways, Askers: []NamedAsker{{"the test", choiceAsker("a")}}})
	if init := always.initialize(`{"elicitation":{}}`); string(getPath(init.Result, "instructions")) != `"{\"elicitation\":{}}"` {
		t.Errorf("the host's own capabilities were changed: %s", init.Result)
	}
	always.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	if res := always.next(); !strings.Contains(string(res.Result), `\"choice\":\"a\"`) {
		t.Errorf("--answer=always: the host got %s", res.Result)
	}
}

// With nobody to ask, the --on-elicit policy answers, and stderr says so.
func TestAnswerPolicyWhenNobodyAnswers(t *testing.T) {
	t.Parallel()
	h := startProxy(t, "legacy", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the watcher", nobody}}, OnElicit: mcpclient.PolicyDecline})
	h.initialize(`{}`)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	if res := h.next(); !strings.Contains(string(res.Result), `\"action\":\"decline\"`) {
		t.Errorf("the host got %s", res.Result)
	}
	h.end()
	if !strings.Contains(h.errOut.String(), "nobody answered the server's elicitation/create \"q1\" \"Pick one\" (asked the watcher)") ||
		!strings.Contains(h.errOut.String(), "--on-elicit decline: decline") {
		t.Errorf("stderr:\n%s", h.errOut.String())
	}
}

// A question the server cancels stops being asked, is never answered,
// and its cancellation does not reach the host, which never saw it.
func TestAnswerQuestionTheServerCancels(t *testing.T) {
	t.Parallel()
	stopped := make(chan struct{})
	waits := func(ctx context.Context, _ json.RawMessage) (json.RawMessage, error) {
		<-ctx.Done()
		close(stopped)
		return nil, ctx.Err()
	}
	h := startProxy(t, "cancelling", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the watcher", waits}}})
	h.initialize(`{}`)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	if res := h.next(); !strings.Contains(string(res.Result), "gave up asking") {
		t.Errorf("the host got %s", res.Result)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the asker was not stopped")
	}
	rest := h.end()
	if strings.Contains(rest, "notifications/cancelled") || !strings.Contains(h.wire.String(), "the server cancelled its elicitation/create") ||
		strings.Contains(h.wire.String(), `"dir":"send","id":"q1"`) {
		t.Errorf("the host got %q after the result; the wire log:\n%s", rest, h.wire.String())
	}
}

// modernCall is a 2026-07-28 host's tools/call of tool, advertising caps.
func modernCall(id, tool, caps string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{},"_meta":{"` + capsMetaKey + `":` + caps + `,"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
}

// A 2026-07-28 host without elicitation: the proxy answers each round's
// input and retries under ids of its own; the host gets the final result
// under its id, and nothing of the rounds.
func TestAnswerModernRoundsForAHostWithoutElicitation(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	choices := []string{"a", "b"}
	turns := func(context.Context, json.RawMessage) (json.RawMessage, error) {
		mu.Lock()
		defer mu.Unlock()
		if len(choices) == 0 {
			return nil, errors.New("asked a third time")
		}
		c := choices[0]
		choices = choices[1:]
		return json.RawMessage(`{"action":"accept","content":{"choice":"` + c + `"}}`), nil
	}
	h := startProxy(t, "modern", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the test", turns}}})
	h.send(modernCall(`"h-1"`, "pick", `{}`))
	res := h.next()
	if string(res.ID) != `"h-1"` || res.Error != nil {
		t.Fatalf("the host got %s %s %s", res.ID, res.Result, res.Error)
	}
	var text struct {
		Content []struct{ Text string } `json:"content"`
	}
	_ = json.Unmarshal(res.Result, &text)
	if len(text.Content) != 1 || text.Content[0].Text != `first {"action":"accept","content":{"choice":"a"}} then {"action":"accept","content":{"choice":"b"}}` {
		t.Errorf("the final result: %s", res.Result)
	}
	h.end()
	w := h.wire.String()
	if strings.Count(w, `mcpeek-proxy-`) < 4 || strings.Contains(w, "which the host did not ask") || strings.Contains(w, "which the proxy did not ask") {
		t.Errorf("the wire log does not pair the proxy's retries:\n%s", w)
	}
}

// Input the proxy cannot give goes to a host that advertised it, as it
// is, and fails clearly for one that did not.
func TestAnswerModernInputTheProxyCannotGive(t *testing.T) {
	t.Parallel()
	h := startProxy(t, "modern", Options{Answer: AnswerMissing, Askers: []NamedAsker{{"the test", choiceAsker("a")}}})
	h.send(modernCall("7", "sample", `{}`))
	res := h.next()
	if string(res.ID) != "7" || !strings.Contains(string(res.Error), "the server asks for sampling/createMessage, which the proxy cannot give and the host did not advertise") {
		t.Errorf("the host got %s %s", res.Result, res.Error)
	}
	always := startProxy(t, "modern", Options{Answer: AnswerAlways, Askers: []NamedAsker{{"the test", choiceAsker("a")}}})
	always.send(modernCall("8", "sample", `{"elicitation":{},"sampling":{}}`))
	if res := always.next(); string(res.ID) != "8" || !strings.Contains(string(res.Result), "sampling/createMessage") {
		t.Errorf("the host that samples got %s %s", res.Result, res.Error)
	}
}

// The answers file answers what it matches, once per entry, and leaves
// the rest to the next asker.
func TestAnswersAskerMatchesOrPassesOn(t *testing.T) {
	t.Parallel()
	answers, err := mcpclient.ParseAnswers([]byte(`[{"match":{"message":"Pick"},"action":"accept","content":{"choice":"b"}},{"match":{"message":"Pick"},"action":"accept","content":{"choice":"zzz"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	ask := AnswersAsker(answers, &errOut)
	params := json.RawMessage(`{"message":"Pick one","requestedSchema":{"type":"object","properties":{"choice":{"type":"string","enum":["a","b"]}}}}`)
	if res, err := ask(context.Background(), params); err != nil || string(res) != `{"action":"accept","content":{"choice":"b"}}` {
		t.Errorf("first: %s %v", res, err)
	}
	if res, err := ask(context.Background(), params); err != nil || action(res) != "cancel" || !strings.Contains(errOut.String(), "does not fit") {
		t.Errorf("content that does not fit: %s %v %s", res, err, errOut.String())
	}
	if _, err := ask(context.Background(), params); !errors.Is(err, ErrNobody) {
		t.Errorf("no entry left: %v, want ErrNobody", err)
	}
}

// Setting a member changes its bytes only, or adds it first.
func TestSetMemberKeepsTheOtherBytes(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		path []string
		want string
	}{
		{`{"a": 1, "id" : 2.50, "z":"é"}` + "\n", []string{"id"}, `{"a": 1, "id" : "x", "z":"é"}` + "\n"},
		{`{"params":{"capabilities":{ }}}`, []string{"params", "capabilities", "id"}, `{"params":{"capabilities":{"id":"x" }}}`},
		{`{"params":{"capabilities":{"roots":{}}}}`, []string{"params", "capabilities", "id"}, `{"params":{"capabilities":{"id":"x","roots":{}}}}`},
	} {
		got, err := setPath([]byte(c.in), c.path, []byte(`"x"`))
		if err != nil || string(got) != c.want {
			t.Errorf("setPath(%s, %v) = %s %v, want %s", c.in, c.path, got, err, c.want)
		}
	}
	if _, err := setPath([]byte(`{"params":{}}`), []string{"params", "_meta", "k"}, []byte(`1`)); err == nil {
		t.Error("a member is set in an object that is not there")
	}
}

// --answer reads as a boolean, and takes always.
func TestParseAnswerMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]AnswerMode{"true": AnswerMissing, "always": AnswerAlways, "false": AnswerNever} {
		if got, err := ParseAnswerMode(in); err != nil || got != want {
			t.Errorf("%s: %v %v", in, got, err)
		}
	}
	if _, err := ParseAnswerMode("sometimes"); err == nil {
		t.Error("sometimes is accepted")
	}
}

// The filter hands on each event as it came but those the proxy takes,
// whatever the chunks the stream arrives in; an event over the limit
// goes on unread.
func TestSSEFilterTakesEventsOut(t *testing.T) {
	t.Parallel()
	keep1 := "event: message\ndata: {\"id\":1}\n\n"
	taken := "id: 7\r\ndata: {\"id\":\"q\",\r\ndata: \"method\":\"elicitation/create\"}\r\n\r\n"
	big := "data: " + strings.Repeat("z", 100) + "\n\n"
	keep2 := ": comment\ndata: {\"id\":3}\n\n"
	var tracked, took []string
	f := &sseFilter{ReadCloser: io.NopCloser(iotest.OneByteReader(strings.NewReader(keep1 + taken + big + keep2))), max: 64,
		take: func(d []byte) bool {
			took = append(took, string(d))
			return strings.Contains(string(d), "elicitation/create")
		},
		track: func(d []byte) { tracked = append(tracked, string(d)) }, note: func(string) {}}
	got, err := io.ReadAll(f)
	if err != nil || string(got) != keep1+big+keep2 {
		t.Errorf("the host got %q (%v)", got, err)
	}
	if strings.Join(tracked, "|") != `{"id":1}|{"id":3}` || len(took) != 3 {
		t.Errorf("tracked %q, offered %q", tracked, took)
	}
}

// A 2026-07-28 request the proxy watches for input is forgotten when the
// host cancels it, and when the proxy answers it for a server it could
// not reach: neither will have a result to take it.
func TestAnswerForgetsWatchedRequestsLeftUnanswered(t *testing.T) {
	t.Parallel()
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	opts := Options{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: down.URL + "/mcp"}, Answer: AnswerMissing,
		Wire: mcpclient.NewWireLog(0, nil), MaxMessageSize: 1 << 20, Out: io.Discard, ErrOut: io.Discard}
	l := &urlLink{opts: opts, track: newTracker(opts.Wire, nil, "http"), client: &http.Client{},
		posts: make(chan struct{}, maxPosts), ctx: context.Background()}
	l.ans = newAnswerer(l.ctx, opts, l.track, l.toServer, l.write)
	call := func(id string) []byte {
		msg := l.ans.fromHost([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"pick","_meta":{"` + capsMetaKey + `":{}}}}`))
		l.track.fromHost(msg)
		return msg
	}
	watched := func() int {
		l.ans.mu.Lock()
		defer l.ans.mu.Unlock()
		return len(l.ans.watched)
	}
	call("1")
	l.ans.fromHost([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`))
	if n := watched(); n != 0 {
		t.Errorf("after the host's cancellation %d requests are watched", n)
	}
	l.exchange(call("2"), make(chan struct{}))
	if n := watched(); n != 0 {
		t.Errorf("after the server could not be reached %d requests are watched", n)
	}
}

// chunks reads its string a few bytes at a time, the sizes cycling.
type chunks struct {
	s string
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.s == "" {
		return 0, io.EOF
	}
	c.n = c.n%5 + 1
	n := copy(p[:min(len(p), c.n)], c.s)
	c.s = c.s[n:]
	return n, nil
}

// An event's end is found however the reads split it and its
// separator, a large event's too.
func TestSSEFilterFindsEndsAcrossReads(t *testing.T) {
	t.Parallel()
	large := "data: {\"id\":2,\"v\":\"" + strings.Repeat("y", 20000) + "\"}\r\n\r\n"
	keep := "data: {\"id\":1}\n\n" + large + "data: {\"id\":3}\n\r\n"
	taken := "data: {\"id\":\"q\",\"method\":\"elicitation/create\"}\r\n\r\n"
	var tracked []string
	f := &sseFilter{ReadCloser: io.NopCloser(&chunks{s: taken + keep + taken}), max: 1 << 20,
		take:  func(d []byte) bool { return strings.Contains(string(d), "elicitation/create") },
		track: func(d []byte) { tracked = append(tracked, string(d)[:8]) }, note: func(string) {}}
	got, err := io.ReadAll(f)
	if err != nil || string(got) != keep {
		t.Errorf("the host got %d bytes, want %d (%v)", len(got), len(keep), err)
	}
	if strings.Join(tracked, "|") != `{"id":1}|{"id":2,|{"id":3}` {
		t.Errorf("tracked %q", tracked)
	}
}

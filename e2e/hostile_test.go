package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpeek/mcpeek/internal/cli"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// hostileEsc is what a hostile server hides in every string: a window
// title, a clipboard write (OSC 52), a screen clear, a cursor report
// request (which makes the terminal type into mcpeek's input), a DCS
// query, a bell and a C1 CSI.
const hostileEsc = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[6n\x1bP+q544e\x1b\\\a\u009b31m"

// badUTF8 stands for bytes that are not UTF-8; the server writes them raw.
const badUTF8 = "@BAD-UTF8@"

// escapes are the sequences that must never reach a terminal raw.
var escapes = []string{"\x1b]", "\x1b[2J", "\x1b[6n", "\x1bP", "\a", "\u009b"}

// hostileServer speaks 2025-11-25 by hand, so that it can send what no SDK
// would: invalid UTF-8, malformed schemas, 10 MB and 20 MB messages, a
// resource read that never answers, thousands of tools, and escape
// sequences in every string it provides.
func hostileServer() int {
	nTools, _ := strconv.Atoi(os.Getenv("MCPEEK_TEST_TOOLS"))
	s := &hostile{out: bufio.NewWriter(os.Stdout), tools: hostileTools(nTools), pending: map[string]json.RawMessage{}}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var msg hostileMsg
		if json.Unmarshal(line, &msg) != nil {
			continue
		}
		if code, exit := s.handle(&msg); exit {
			return code
		}
	}
}

// hostile is the hostile server's state.
type hostile struct {
	out   *bufio.Writer
	tools []map[string]any
	// pending maps the id of each question to the call that asked it.
	pending map[string]json.RawMessage
	asked   int
}

// hostileMsg is what the hostile server reads of a message.
type hostileMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name      string `json:"name"`
		Cursor    string `json:"cursor"`
		Arguments struct {
			Variant int `json:"variant"`
			MB      int `json:"mb"`
		} `json:"arguments"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// shout is s with every escape sequence and invalid UTF-8 after it.
func shout(s string) string { return s + hostileEsc + badUTF8 }

func textResult(s string) map[string]any {
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": s}}}
}

// hostileTools are the special tools and n more.
func hostileTools(n int) []map[string]any {
	obj := map[string]any{"type": "object"}
	tools := []map[string]any{
		{"name": "echo", "title": shout("Echo"), "description": shout("Answers with escapes."), "inputSchema": obj},
		{"name": "big", "description": shout("Answers 10 MB."), "inputSchema": obj},
		{"name": "huge", "description": shout("Answers 20 MB, more than a message may be."), "inputSchema": obj},
		{"name": "rpc_error", "description": shout("Fails with a JSON-RPC error."), "inputSchema": obj},
		{"name": "bad_schema", "description": shout("Asks with a malformed schema."), "inputSchema": obj},
		{"name": "url", "description": shout("Asks to open a URL."), "inputSchema": obj},
		{"name": "sample", "description": shout("Asks for a malformed or huge sampling request."), "inputSchema": obj},
		{"name": "die", "description": shout("Writes to stderr and exits."), "inputSchema": obj},
		{"name": "weird_input", "description": shout("Has a malformed input schema."), "inputSchema": map[string]any{"type": "object", "properties": []any{1, 2}}},
		{"name": shout("named"), "description": shout("Its name carries escapes."), "inputSchema": obj},
	}
	for i := range n {
		tools = append(tools, map[string]any{"name": fmt.Sprintf("tool_%04d", i), "description": shout("Tool."), "inputSchema": obj})
	}
	return tools
}

// badSamples are the sampling requests sample asks with, by variant: an
// unknown content type, no messages, a 2 MB message with escapes.
var badSamples = []map[string]any{
	{"maxTokens": 10, "messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "hologram", "data": "?"}}}},
	{"maxTokens": 10, "messages": []any{}},
	{"maxTokens": 10, "messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": shout(strings.Repeat("words ", 2<<20/6))}}}},
}

// badSchemas are the malformed requested schemas bad_schema asks with, by
// its argument variant.
var badSchemas = []any{
	map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "nonsense"}}},
	map[string]any{"type": "object", "properties": []any{1, 2, 3}},
	map[string]any{"type": "array"},
	map[string]any{"type": "object", "required": "x", "properties": map[string]any{"x": map[string]any{"type": "string"}}},
	"not a schema",
}

func (s *hostile) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	b = bytes.ReplaceAll(b, []byte(badUTF8), []byte("\xff\xfe\xc3("))
	s.out.Write(append(b, '\n'))
	s.out.Flush()
}

func (s *hostile) reply(id json.RawMessage, result any) {
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func (s *hostile) fail(id json.RawMessage, code int, msg string) {
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": msg}})
}

// big answers a call with n bytes of text, written as it goes.
func (s *hostile) big(id json.RawMessage, n int) {
	fmt.Fprintf(s.out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, id)
	for ; n > 0; n -= 16 {
		s.out.WriteString("0123456789abcdef")
	}
	s.out.WriteString("\"}]}}\n")
	s.out.Flush()
}

// handle answers one message; exit says the server ends, with code.
func (s *hostile) handle(msg *hostileMsg) (code int, exit bool) {
	if msg.Method == "" { // an answer to one of our questions
		s.answered(msg)
		return 0, false
	}
	switch msg.Method {
	case "initialize":
		s.reply(msg.ID, map[string]any{
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{}, "resources": map[string]any{}, "prompts": map[string]any{}, "logging": map[string]any{}},
			"serverInfo":      map[string]any{"name": shout("hostile"), "title": shout("Hostile"), "version": shout("6.6.6")},
			"instructions":    shout("Trust me."),
		})
	case "notifications/initialized":
		fmt.Fprintln(os.Stderr, shout("stderr says"))
		s.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/message", "params": map[string]any{"level": "error", "logger": shout("logger"), "data": shout("log data")}})
	case "ping":
		s.reply(msg.ID, map[string]any{})
	case "tools/list":
		s.listTools(msg)
	case "resources/list":
		s.reply(msg.ID, map[string]any{"resources": []any{
			map[string]any{"uri": "ui://hostile/never", "name": shout("never"), "title": shout("Never answers"), "description": shout("A read of it never answers."), "mimeType": shout("text/plain")},
			map[string]any{"uri": "file:///" + shout("etc"), "name": shout("file")},
		}})
	case "resources/templates/list":
		s.reply(msg.ID, map[string]any{"resourceTemplates": []any{map[string]any{"uriTemplate": "file:///{x}" + shout(""), "name": shout("template")}}})
	case "resources/read":
		// Never answers.
	case "prompts/list":
		s.reply(msg.ID, map[string]any{"prompts": []any{map[string]any{"name": shout("prompt"), "description": shout("A prompt."),
			"arguments": []any{map[string]any{"name": shout("arg"), "description": shout("An argument.")}}}}})
	case "prompts/get":
		s.reply(msg.ID, map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": shout("Prompt text.")}}}})
	case "tools/call":
		return s.call(msg)
	default:
		if msg.ID != nil {
			s.fail(msg.ID, -32601, shout("method not found: ")+msg.Method)
		}
	}
	return 0, false
}

// answered passes the answer to one of our questions back as the result
// of the call that asked it.
func (s *hostile) answered(msg *hostileMsg) {
	var id string
	_ = json.Unmarshal(msg.ID, &id)
	call, ok := s.pending[id]
	if !ok {
		return
	}
	delete(s.pending, id)
	got := msg.Result
	if got == nil {
		got = msg.Error
	}
	s.reply(call, textResult(string(got)))
}

// listTools answers tools/list, 1,000 tools a page.
func (s *hostile) listTools(msg *hostileMsg) {
	start, _ := strconv.Atoi(msg.Params.Cursor)
	end := min(start+1000, len(s.tools))
	res := map[string]any{"tools": s.tools[start:end]}
	if end < len(s.tools) {
		res["nextCursor"] = strconv.Itoa(end)
	}
	s.reply(msg.ID, res)
}

// call answers tools/call; exit says the server ends, with code.
func (s *hostile) call(msg *hostileMsg) (code int, exit bool) {
	switch msg.Params.Name {
	case "echo":
		res := textResult(shout("Echo text.\r\nSecond line."))
		res["structuredContent"] = map[string]any{shout("key"): shout("value")}
		s.reply(msg.ID, res)
	case "big":
		mb := msg.Params.Arguments.MB
		if mb == 0 {
			mb = 10
		}
		s.big(msg.ID, mb<<20)
	case "huge":
		s.big(msg.ID, 20<<20)
	case "rpc_error":
		s.fail(msg.ID, -32000, shout("it broke"))
	case "bad_schema", "url", "sample":
		s.ask(msg)
	case "die":
		if msg.Params.Arguments.Variant == 1 { // not UTF-8, but no control character
			fmt.Fprintln(os.Stderr, "fatal: the end \xff\xfe\xc3(")
		} else {
			fmt.Fprintln(os.Stderr, shout("fatal: the end"))
		}
		return 3, true
	default:
		s.reply(msg.ID, textResult(shout("ok")))
	}
	return 0, false
}

// ask sends the question of bad_schema or url, whose answer will be the
// call's result.
func (s *hostile) ask(msg *hostileMsg) {
	s.asked++
	id := fmt.Sprintf("q-%d", s.asked)
	s.pending[id] = msg.ID
	params := map[string]any{"message": shout("Answer this."), "requestedSchema": badSchemas[msg.Params.Arguments.Variant%len(badSchemas)]}
	method := "elicitation/create"
	switch msg.Params.Name {
	case "url":
		params = map[string]any{"mode": "url", "message": shout("Open this."), "url": "https://example.com/" + shout("consent"), "elicitationId": "u1"}
	case "sample":
		method, params = "sampling/createMessage", badSamples[msg.Params.Arguments.Variant%len(badSamples)]
	}
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

// hostileArgs are the words that start the hostile server with n tools
// besides its special ones.
func hostileArgs(n int) []string {
	return []string{"-e", "MCPEEK_TEST_SERVER=hostile", "-e", "MCPEEK_TEST_TOOLS=" + strconv.Itoa(n), "--", testBinary}
}

// noRawEscapes checks that text meant for a terminal carries no escape
// sequence and is valid UTF-8.
func noRawEscapes(t *testing.T, what, text string) {
	t.Helper()
	for _, e := range escapes {
		if strings.Contains(text, e) {
			t.Errorf("%s carries the raw escape %q: %q", what, e, text[:min(len(text), 600)])
			return
		}
	}
	if !utf8.ValidString(text) {
		t.Errorf("%s is not valid UTF-8: %q", what, text[:min(len(text), 600)])
	}
}

// memWatch samples the heap while a run goes on: its peak, and what stays
// after it.
type memWatch struct {
	before uint64
	peak   atomic.Uint64
	stop   chan struct{}
	done   sync.WaitGroup
}

func heapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func watchMemory() *memWatch {
	w := &memWatch{before: heapNow(), stop: make(chan struct{})}
	w.done.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > w.peak.Load() {
				w.peak.Store(m.HeapAlloc)
			}
			select {
			case <-tick.C:
			case <-w.stop:
				return
			}
		}
	})
	return w
}

// end stops sampling and returns the peak growth and what is retained,
// in MB, after the caller dropped what it holds. A run's goroutines may
// still be letting go of its buffers as it returns (a reader ending after
// the server's pipe closes), so what is retained is read until it is at
// most settleMB, for up to five seconds: memory that is never released
// still shows.
func (w *memWatch) end(settleMB float64) (peakMB, retainedMB float64) {
	close(w.stop)
	w.done.Wait()
	mb := func(b uint64, base uint64) float64 {
		if b < base {
			return 0
		}
		return float64(b-base) / (1 << 20)
	}
	retainedMB = mb(heapNow(), w.before)
	for deadline := time.Now().Add(5 * time.Second); retainedMB > settleMB && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // a poll interval while the heap settles, not a wait for an event
		retainedMB = mb(heapNow(), w.before)
	}
	return mb(w.peak.Load(), w.before), retainedMB
}

// memReport is what a measured run of mcpeek reports about its heap, in
// MB above where it started.
type memReport struct {
	PeakMB     float64 `json:"peakMB"`
	RetainedMB float64 `json:"retainedMB"`
}

// mcpeekMeasured runs mcpeek in a process of its own (this test binary,
// see measuredRun), so that nothing else the tests or the machine run
// counts in its heap: its peak, and what the run left on it after a
// forced GC.
func mcpeekMeasured(t *testing.T, args ...string) (result, memReport) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "heap.json")
	cmd := exec.Command(testBinary, args...)
	cmd.Env = append(os.Environ(), "MCPEEK_E2E_MEASURE="+report)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("run mcpeek: %v", err)
	}
	var m memReport
	data, err := os.ReadFile(report)
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil {
		t.Fatalf("the measured run reported no heap (exit %d, stderr %q): %v", r.code, r.stderr, err)
	}
	return r, m
}

// measuredRun is the child of mcpeekMeasured: mcpeek with args, its output
// straight to this process's (so the run's result is not held here), and
// then the heap's peak and what stays after the run, written to report.
func measuredRun(report string, args []string) int {
	w := watchMemory()
	code := cli.Run(context.Background(), args, os.Stdout, os.Stderr)
	peak, retained := w.end(16)
	data, _ := json.Marshal(memReport{PeakMB: peak, RetainedMB: retained})
	if err := os.WriteFile(report, data, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 99
	}
	return code
}

// TestHostileServerHeadless runs the headless commands against a server
// that lies, shouts and stalls: every answer is a clear result or a clear
// one-line error, nothing mcpeek prints carries a raw escape sequence or
// invalid UTF-8, and memory stays within generous bounds. Each run is a
// process of its own, measured there.
func TestHostileServerHeadless(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		tools    int
		wantCode int
		wantOut  string // in stdout
		wantErr  string // in stderr
		maxPeak  float64
	}{
		{name: "list 5,000 tools", args: []string{"list", "tools"}, tools: 5000, wantOut: `"name": "tool_4999"`, maxPeak: 150},
		{name: "caps", args: []string{"caps"}, wantOut: `\u001b]0;pwned`},
		{name: "escapes in a result", args: []string{"call", "echo"}, wantOut: `\u001b]0;pwned`},
		{name: "a 10 MB result", args: []string{"call", "big"}, wantOut: "0123456789abcdef", maxPeak: 256},
		{name: "a 20 MB message", args: []string{"call", "huge"}, wantCode: exitConnection, wantErr: "exceeded", maxPeak: 256},
		{name: "escapes in a JSON-RPC error", args: []string{"call", "rpc_error"}, wantCode: exitConnection, wantErr: "it broke"},
		{name: "escapes in the server's last words", args: []string{"call", "die"}, wantCode: exitConnection, wantErr: "fatal: the end"},
		{name: "invalid UTF-8 in the server's last words", args: []string{"call", "die", "--args", `{"variant":1}`}, wantCode: exitConnection, wantErr: "fatal: the end"},
		{name: "escapes in a URL to consent to", args: []string{"call", "url", "--on-elicit", "accept-defaults"}, wantOut: `accept`, wantErr: "consented to open https://example.com/consent"},
		{name: "a sampling request with an unknown content type", args: []string{"call", "sample"}, wantOut: `hologram`},
		{name: "a sampling request without messages", args: []string{"call", "sample", "--args", `{"variant":1}`}, wantOut: `no messages`},
		{name: "a 2 MB sampling message", args: []string{"call", "sample", "--args", `{"variant":2}`}, wantOut: `-1`, wantErr: "sampling request rejected", maxPeak: 256},
		{name: "the summary", args: []string{}, wantOut: "tools (10):"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			r, mem := mcpeekMeasured(t, append(tc.args, hostileArgs(tc.tools)...)...)
			took := time.Since(start)
			stdout, stderr := len(r.stdout), r.stderr
			if r.code != tc.wantCode {
				t.Errorf("exit %d, want %d; stderr %q", r.code, tc.wantCode, stderr)
			}
			if !strings.Contains(r.stdout, tc.wantOut) {
				t.Errorf("stdout lacks %q: %.600q", tc.wantOut, r.stdout)
			}
			if !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr, tc.wantErr)
			}
			if tc.wantCode == exitConnection {
				if lines := strings.Count(strings.TrimSpace(stderr), "\n") + 1; lines != 1 {
					t.Errorf("stderr has %d lines, want one: %q", lines, stderr)
				}
			}
			noRawEscapes(t, "stdout", r.stdout)
			noRawEscapes(t, "stderr", stderr)
			peak, retained := mem.PeakMB, mem.RetainedMB
			t.Logf("%s: exit %d in %s, stdout %d bytes; heap peak +%.0f MB, retained +%.1f MB", tc.name, tc.wantCode, took.Round(time.Millisecond), stdout, peak, retained)
			if tc.maxPeak > 0 && peak > tc.maxPeak {
				t.Errorf("heap peaked %.0f MB above its start, want at most %.0f MB", peak, tc.maxPeak)
			}
			if retained > 16 {
				t.Errorf("the run left %.1f MB on the heap, want at most 16 MB", retained)
			}
		})
	}
}

// TestMalformedSchemasGetClearErrors: questions whose requested schema is
// malformed are refused with an invalid-params error that says what is
// wrong (mcpeek checks the schema itself, go-sdk never sees it:
// mcpclient/ownschema.go): never a crash, a hang or an answer.
func TestMalformedSchemasGetClearErrors(t *testing.T) {
	for variant, want := range []string{"nonsense", "properties", "object", "required", "must be a json object"} {
		t.Run(strconv.Itoa(variant), func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "elicit.jsonl")
			r := mcpeek(t, append([]string{"call", "bad_schema", "--args", fmt.Sprintf(`{"variant":%d}`, variant),
				"--on-elicit", "accept-defaults", "--elicit-log", log}, hostileArgs(0)...)...)
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			noRawEscapes(t, "stderr", r.stderr)
			var res struct {
				Content []struct{ Text string } `json:"content"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || len(res.Content) != 1 {
				t.Fatalf("stdout %s: %v", r.stdout, err)
			}
			// What the server received in answer to its question.
			var answer struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
				Action  string `json:"action"`
			}
			if err := json.Unmarshal([]byte(res.Content[0].Text), &answer); err != nil {
				t.Fatalf("the server got %q: %v", res.Content[0].Text, err)
			}
			if answer.Action != "" || answer.Code != -32602 || !strings.Contains(strings.ToLower(answer.Message), want) {
				t.Errorf("the server got %s, want an invalid-params error about %q", res.Content[0].Text, want)
			}
			if n := strings.Count(answer.Message, "requested schema"); n > 1 {
				t.Errorf("the error says \"requested schema\" %d times: %s", n, answer.Message)
			}
			t.Logf("variant %d: the server was told %s", variant, res.Content[0].Text)
			if data, err := os.ReadFile(log); err == nil && len(data) > 0 {
				recs := readRecords(t, log)
				if len(recs) != 1 || recs[0]["error"] == "" || recs[0]["action"] != "" {
					t.Errorf("records = %v, want one refusal with its error", recs)
				}
			}
		})
	}
}

// TestWireLogMemoryIsBounded: a server that keeps sending large messages
// does not make a long-lived connection (the inspector's) keep them all.
func TestWireLogMemoryIsBounded(t *testing.T) {
	wire := mcpclient.NewWireLog(0, nil)
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
		Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{testBinary},
			Env: []string{"MCPEEK_TEST_SERVER=hostile"}},
		Protocol: "legacy", Wire: wire,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var took []time.Duration
	call := func() {
		start := time.Now()
		res, err := conn.Call(context.Background(), "big", json.RawMessage(`{"mb":1}`))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Content) != 1 {
			t.Fatalf("content = %v", res.Content)
		}
		took = append(took, time.Since(start).Round(time.Millisecond))
	}
	// Two calls grow the buffers a 1 MB message needs; six more must not
	// grow the heap by what they carried (6 MB).
	call()
	call()
	before := heapNow()
	for range 6 {
		call()
	}
	grew := (float64(heapNow()) - float64(before)) / (1 << 20)
	t.Logf("6 more results of 1 MB (calls took %v): the heap grew by %.1f MB; the wire log holds %d entries", took, grew, len(wire.Entries()))
	if grew > 2 {
		t.Errorf("the connection kept %.1f MB more after 6 more results of 1 MB, want at most 2 MB", grew)
	}
}

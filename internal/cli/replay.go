//lint:file-ignore SA1019 a replay answers sampling and roots as recorded: servers still ask them (docs/architecture.md, "Sampling, roots and notifications").

package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errReplayDiffers is a replay in which a response differed from the
// recorded one: the report said where.
var errReplayDiffers = errors.New("a response differs from the recording")

// replayOptions are `mcpeek replay`'s.
type replayOptions struct {
	conn        connFlags
	allowWrites bool
	redact      listFlag

	// serve plays the server from the recording instead (replay --serve),
	// on stdio or, with httpAddr, streamable HTTP: runServe.
	serve    bool
	httpAddr string

	// Set by parse.
	file       string
	header     record.Header
	session    record.Session
	redactions []*suite.Redaction
}

func newReplayOptions(fs *flagSet) options {
	o := &replayOptions{}
	o.conn.register(fs, true)
	fs.Lookup("protocol").Usage = "the recording's revision (the default); another is refused"
	fs.BoolVar(&o.allowWrites, "allow-writes", false, "also call the tools not annotated read-only (without it the replay stops before the first)")
	fs.Var(&o.redact, "redact", "compare the responses without what this `JSONPATH` selects, as a suite's redact: (repeatable)")
	defineServe(fs, &o.serve, &o.httpAddr)
	return o
}

func (o *replayOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || dashBefore(args, rest) {
		return usagef("replay: name the recording (a file --record wrote)")
	}
	o.file = rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	header, entries, err := record.ReadFile(o.file)
	if err != nil {
		return usagef("replay: %v", err)
	}
	o.header, o.session = header, record.Pair(entries)
	if o.redactions, err = suite.ParseRedactions(o.redact); err != nil {
		return usagef("--redact: %v", err)
	}
	if o.serve || o.httpAddr != "" {
		return checkServe(o.serve, o.httpAddr, rest)
	}
	if o.conn.Protocol == "auto" {
		o.conn.Protocol = o.header.Protocol
	}
	if err := mcpclient.CheckProtocol(o.conn.Protocol); err != nil {
		return usagef("--protocol: %v", err)
	}
	if want := revisionOf(o.conn.Protocol); want != o.header.Protocol {
		return usagef("replay: %s was recorded in %s, and --protocol asks for %s: a replay speaks the recording's revision", o.file, o.header.Protocol, want)
	}
	if err := o.conn.parseTarget(rest); err != nil {
		return err
	}
	o.conn.Roots = append(o.conn.Roots, recordedRoots(o.session)...)
	return nil
}

// revisionOf is the revision a --protocol value names.
func revisionOf(p string) string {
	switch p {
	case "legacy":
		return "2025-11-25"
	case "modern":
		return "2026-07-28"
	}
	return p
}

// recordedRoots are the roots the recording's first roots/list answer
// gave, offered again.
func recordedRoots(s record.Session) []*mcp.Root {
	for _, q := range allQuestions(s) {
		if q.Method != "roots/list" || q.Answer == nil {
			continue
		}
		var r mcp.ListRootsResult
		if json.Unmarshal(q.Answer, &r) == nil {
			return r.Roots
		}
	}
	return nil
}

func allQuestions(s record.Session) []record.Question {
	qs := append([]record.Question(nil), s.Stray...)
	for _, x := range s.Exchanges {
		qs = append(qs, x.Questions...)
	}
	return qs
}

func (o *replayOptions) run(ctx context.Context, s streams) error {
	if o.serve {
		return o.runServe(ctx, s)
	}
	asker := newReplayAsker(o.session)
	return o.conn.headless(ctx, s, asker, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		live := &liveLog{}
		defer conn.Wire().Tap(live)()
		r := replayer{o: o, conn: conn, live: live, asker: asker, out: s.out}
		return r.replay(ctx)
	})
}

// replayer re-sends a recording's requests on one connection.
type replayer struct {
	o     *replayOptions
	conn  *mcpclient.Conn
	live  *liveLog
	asker *replayAsker
	out   io.Writer
	// sent and differ count the requests sent and those whose response
	// differed.
	sent, differ int
}

// errNotReadOnly stops a replay before a tool not annotated read-only.
type errNotReadOnly struct{ tool string }

func (e errNotReadOnly) Error() string {
	return fmt.Sprintf("the replay stopped before tools/call %s: the tool is not annotated read-only, and --allow-writes calls it", e.tool)
}

func (r *replayer) replay(ctx context.Context) error {
	var stopped error
	for _, x := range r.o.session.Exchanges {
		if x.Side || !replayable(x) {
			continue
		}
		if err := r.one(ctx, x); err != nil {
			if errors.As(err, new(errNotReadOnly)) {
				stopped = err
				break
			}
			return err
		}
	}
	for _, q := range r.asker.unmatched() {
		r.differ++
		fmt.Fprintf(r.out, "the server asked what the recording has no answer for: %s %s\n", clean(q.method), clean(q.params))
	}
	fmt.Fprintf(r.out, "replayed %d requests of %s: %d differ\n", r.sent, r.o.file, r.differ)
	switch {
	case stopped != nil:
		return usagef("%v", stopped)
	case r.differ > 0:
		return errReplayDiffers
	}
	return nil
}

// replayable reports whether the replay sends the exchange's request: a
// request the person made, not the handshake or what a call does on its
// own (a task's polling).
func replayable(x record.Exchange) bool {
	switch x.Method {
	case "tools/call", "resources/read", "prompts/get",
		"tools/list", "prompts/list", "resources/list", "resources/templates/list":
		return x.Response != nil
	}
	return false
}

// listed is what Conn.List lists to send each list request (resources
// sends resources/templates/list too).
var listed = map[string]string{
	"tools/list": "tools", "prompts/list": "prompts",
	"resources/list": "resources", "resources/templates/list": "resources",
}

// one sends the request of x and compares the response with the recorded
// one.
func (r *replayer) one(ctx context.Context, x record.Exchange) error {
	var p struct {
		Name      string          `json:"name"`
		URI       string          `json:"uri"`
		Arguments json.RawMessage `json:"arguments"`
		Cursor    *string         `json:"cursor"`
		Task      json.RawMessage `json:"task"`
	}
	_ = json.Unmarshal(x.Params, &p)
	what := x.Method
	if p.Name != "" || p.URI != "" {
		what += " " + p.Name + p.URI
	}
	if p.Cursor != nil || p.Task != nil {
		fmt.Fprintf(r.out, "%s: skipped (a page after the first, or a task: replay sends the requests a call makes itself)\n", clean(what))
		return nil
	}
	mark := r.live.len()
	var err error
	switch x.Method {
	case "tools/call":
		if err := r.mayCall(ctx, p.Name); err != nil {
			return err
		}
		_, err = r.conn.Call(ctx, p.Name, p.Arguments)
	case "resources/read":
		_, err = r.conn.Read(ctx, p.URI)
	case "prompts/get":
		args := map[string]string{}
		_ = json.Unmarshal(p.Arguments, &args)
		_, err = r.conn.GetPrompt(ctx, p.Name, args)
	default:
		_, err = r.conn.List(ctx, listed[x.Method])
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.sent++
	got := r.live.exchange(mark, x.Method)
	if got == nil || got.Response == nil {
		r.differ++
		fmt.Fprintf(r.out, "%s: no response (%s)\n", clean(what), clean(fmt.Sprint(err)))
		return nil
	}
	if d := r.compare(x, *got); d != "" {
		r.differ++
		fmt.Fprintf(r.out, "%s: %s\n", clean(what), d)
	}
	return nil
}

// mayCall checks that the tool may be called: annotated read-only by the
// server now, or --allow-writes.
func (r *replayer) mayCall(ctx context.Context, name string) error {
	if r.o.allowWrites {
		return nil
	}
	t, err := r.conn.Tool(ctx, name)
	if err == nil && t != nil && t.Annotations != nil && t.Annotations.ReadOnlyHint {
		return nil
	}
	return errNotReadOnly{tool: name}
}

// compare compares a live response with the recorded one, without ids
// and _meta, with the --redact paths replaced in both; it says the first
// difference, or "".
func (r *replayer) compare(want, got record.Exchange) string {
	wantDoc, gotDoc := responseDoc(want), responseDoc(got)
	d := suite.CompareResults(wantDoc, gotDoc, r.o.redactions)
	if d == nil {
		return ""
	}
	pointer := d.Pointer
	if pointer == "" {
		pointer = "/"
	}
	return fmt.Sprintf("differs at %s: recorded %s, got %s", pointer, clean(showJSON(d.Want)), clean(showJSON(d.Got)))
}

// responseDoc is an exchange's response as decoded JSON without _meta:
// {"result": ...} or {"error": ...}, so that a result and an error
// differ at their root.
func responseDoc(x record.Exchange) any {
	key, raw := "result", x.Result
	if x.Error != nil {
		key, raw = "error", x.Error
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		v = string(raw)
	}
	if key == "error" {
		// An error's message is the server's prose; its code and data
		// say what happened.
		if m, ok := v.(map[string]any); ok {
			delete(m, "message")
		}
		return map[string]any{"error": stripMeta(v)}
	}
	return stripMeta(v)
}

// stripMeta removes every _meta member, at any depth.
func stripMeta(v any) any {
	switch t := v.(type) {
	case map[string]any:
		delete(t, "_meta")
		for k, e := range t {
			t[k] = stripMeta(e)
		}
	case []any:
		for i, e := range t {
			t[i] = stripMeta(e)
		}
	}
	return v
}

func showJSON(v any) string {
	if v == nil {
		return "nothing"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const most = 200
	if len(b) > most {
		return string(b[:most]) + "…"
	}
	return string(b)
}

// clean is server text made safe for a terminal, on one line.
func clean(s string) string {
	return strings.NewReplacer("\n", " ", "\t", " ").Replace(formschema.Clean(s))
}

// liveLog keeps the live connection's wire traffic, whole, to pair each
// request sent with its response as the recording's are paired.
type liveLog struct {
	mu      sync.Mutex
	entries []record.Entry
}

// Write takes the wire log's JSON lines (a tap).
func (l *liveLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for line := range bytes.Lines(p) {
		var e record.Entry
		if json.Unmarshal(line, &e) == nil {
			l.entries = append(l.entries, e)
		}
	}
	return len(p), nil
}

func (l *liveLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.entries)
}

// exchange is the last request of the method (mcpeek's own left out)
// among the entries from mark on, paired.
func (l *liveLog) exchange(mark int, method string) *record.Exchange {
	l.mu.Lock()
	since := append([]record.Entry(nil), l.entries[mark:]...)
	l.mu.Unlock()
	xs := record.Exchanges(since)
	for i := len(xs) - 1; i >= 0; i-- {
		if xs[i].Method == method && !xs[i].Side {
			return &xs[i]
		}
	}
	return nil
}

// replayAsker answers the server's questions from the recording: the
// recorded answer to the same question (method and params, _meta aside),
// each used once, in order.
type replayAsker struct {
	mu      sync.Mutex
	answers map[string][]record.Question
	order   []keyed // the questions' keys, in the recording's order
	missed  []askedQuestion
}

type keyed struct{ Method, key string }

type askedQuestion struct{ method, params string }

func questionKey(method string, params json.RawMessage) string {
	var v any
	if json.Unmarshal(params, &v) != nil {
		return method + " " + string(params)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "_meta")
	}
	b, _ := json.Marshal(v)
	return method + " " + string(b)
}

func newReplayAsker(s record.Session) *replayAsker {
	a := &replayAsker{answers: map[string][]record.Question{}}
	for _, q := range allQuestions(s) {
		if q.Answer == nil && q.AnswerError == nil {
			continue
		}
		k := questionKey(q.Method, q.Params)
		a.answers[k] = append(a.answers[k], q)
		a.order = append(a.order, keyed{q.Method, k})
	}
	return a
}

// take is the recorded answer to the question, or false. anyParams takes
// the first answer left to a question of the method when none has the
// same params (a sampling request, whose params the SDK decoded).
func (a *replayAsker) take(method string, params json.RawMessage, anyParams bool) (record.Question, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	k := questionKey(method, params)
	qs := a.answers[k]
	if len(qs) == 0 && anyParams {
		for _, q := range a.order {
			if q.Method == method && len(a.answers[q.key]) > 0 {
				k, qs = q.key, a.answers[q.key]
				break
			}
		}
	}
	if len(qs) == 0 {
		a.missed = append(a.missed, askedQuestion{method, string(params)})
		return record.Question{}, false
	}
	a.answers[k] = qs[1:]
	return qs[0], true
}

func (a *replayAsker) unmatched() []askedQuestion {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]askedQuestion(nil), a.missed...)
}

// Ask implements mcpclient.NativeAsker.
func (a *replayAsker) Ask(_ context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	q, ok := a.take("elicitation/create", req.RawParams, false)
	if !ok {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if q.AnswerError != nil {
		return nil, fmt.Errorf("recorded error: %s", q.AnswerError)
	}
	var res mcp.ElicitResult
	if err := json.Unmarshal(q.Answer, &res); err != nil {
		return nil, fmt.Errorf("the recorded answer: %v", err)
	}
	return &res, nil
}

// Sample implements mcpclient.Sampler.
func (a *replayAsker) Sample(_ context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	params, _ := json.Marshal(req.Params)
	q, ok := a.take("sampling/createMessage", params, true)
	if !ok {
		return nil, mcpclient.ErrSampleRejected
	}
	if q.AnswerError != nil {
		return nil, mcpclient.ErrSampleRejected
	}
	var res mcp.CreateMessageWithToolsResult
	if err := json.Unmarshal(q.Answer, &res); err != nil {
		return nil, fmt.Errorf("the recorded answer: %v", err)
	}
	return &res, nil
}

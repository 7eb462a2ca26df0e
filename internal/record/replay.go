//lint:file-ignore SA1019 a replay answers sampling and roots as recorded: servers still ask them (docs/architecture.md, "Sampling, roots and notifications").

package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/theory/jsonpath"
)

// ErrDiffers is a replay in which a response differed from the recorded
// one: the report said where.
var ErrDiffers = errors.New("a response differs from the recording")

// NotReadOnlyError stops a replay before a tool not annotated read-only.
type NotReadOnlyError struct{ Tool string }

func (e NotReadOnlyError) Error() string {
	return fmt.Sprintf("the replay stopped before tools/call %s: the tool is not annotated read-only, and --allow-writes calls it", e.Tool)
}

// A Replay sends a recording's requests again on one connection (mcpeek
// replay) and compares each response with the recorded one. See
// docs/architecture.md, "Recordings".
type Replay struct {
	// File names the recording in the report.
	File string
	// Session is the recording, paired ([Pair]).
	Session Session
	// AllowWrites also calls the tools not annotated read-only; without it
	// the replay stops before the first ([NotReadOnlyError]).
	AllowWrites bool
	// Redactions are left out of both responses when they are compared,
	// as a suite's redact: leaves them out of a snapshot.
	Redactions []*suite.Redaction
	// Asker answers the server's questions from the recording: the
	// connection's asker and sampler ([NewReplayAsker] of Session).
	Asker *ReplayAsker
	// Out gets the report: a line per request skipped, differing or left
	// without a response, per question the recording has no answer to,
	// then the count.
	Out io.Writer
}

// replayer is one run of a Replay.
type replayer struct {
	*Replay
	conn *mcpclient.Conn
	live *liveLog
	// sent and differ count the requests sent and those whose response
	// differed.
	sent, differ int
}

// Run replays the recording on conn, which Asker answers the questions
// of. It returns [ErrDiffers] when something differed, a
// [NotReadOnlyError] when it stopped before a tool, and the context's
// error when ctx ended.
func (rp *Replay) Run(ctx context.Context, conn *mcpclient.Conn) error {
	r := &replayer{Replay: rp, conn: conn, live: &liveLog{}}
	defer conn.Wire().Tap(r.live)()
	var stopped error
	for _, x := range rp.Session.Exchanges {
		if x.Side || !replayable(x) {
			continue
		}
		if err := r.one(ctx, x); err != nil {
			if errors.As(err, new(NotReadOnlyError)) {
				stopped = err
				break
			}
			return err
		}
	}
	for _, q := range rp.Asker.unmatched() {
		r.differ++
		fmt.Fprintf(rp.Out, "the server asked what the recording has no answer for: %s %s\n", textclean.OneLine(q.method), textclean.OneLine(q.params))
	}
	fmt.Fprintf(rp.Out, "replayed %d requests of %s: %d differ\n", r.sent, rp.File, r.differ)
	switch {
	case stopped != nil:
		return stopped
	case r.differ > 0:
		return ErrDiffers
	}
	return nil
}

// replayable reports whether the replay sends the exchange's request: a
// request the person made (one a suite step sends), not the handshake or
// what a call does on its own (a task's polling).
func replayable(x Exchange) bool {
	kind, _ := suite.ReplayStep(x.Method, "", "")
	return kind != nil && x.Response != nil
}

// one sends the request of x and compares the response with the recorded
// one.
func (r *replayer) one(ctx context.Context, x Exchange) error {
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
		fmt.Fprintf(r.Out, "%s: skipped (a page after the first, or a task: replay sends the requests a call makes itself)\n", textclean.OneLine(what))
		return nil
	}
	mark := r.live.len()
	kind, target := suite.ReplayStep(x.Method, p.Name, p.URI)
	if kind.Writes {
		if err := r.mayCall(ctx, target); err != nil {
			return err
		}
	}
	_, _, err := kind.Do(ctx, r.conn, suite.Request{Target: target, Args: p.Arguments})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	r.sent++
	got := r.live.exchange(mark, x.Method)
	if got == nil || got.Response == nil {
		r.differ++
		fmt.Fprintf(r.Out, "%s: no response (%s)\n", textclean.OneLine(what), textclean.OneLine(fmt.Sprint(err)))
		return nil
	}
	if d := r.compare(x, *got); d != "" {
		r.differ++
		fmt.Fprintf(r.Out, "%s: %s\n", textclean.OneLine(what), d)
	}
	return nil
}

// mayCall checks that the tool may be called: annotated read-only by the
// server now, or AllowWrites.
func (r *replayer) mayCall(ctx context.Context, name string) error {
	if r.AllowWrites {
		return nil
	}
	t, err := r.conn.Tool(ctx, name)
	if err == nil && t != nil && t.Annotations != nil && t.Annotations.ReadOnlyHint {
		return nil
	}
	return NotReadOnlyError{Tool: name}
}

// compare compares a live response with the recorded one, without ids
// and _meta, with the redactions replaced in both; it says the first
// difference, or "". A difference in a list is named by the item
// ([listItem]).
func (r *replayer) compare(want, got Exchange) string {
	a, b := responseDoc(want), responseDoc(got)
	d, differs := suite.CompareResults(a, b, r.Redactions)
	if !differs {
		return ""
	}
	d = listItem(d, a, b, r.Redactions)
	return fmt.Sprintf("differs at %s: recorded %s, got %s", where(d.Path), textclean.OneLine(showJSON(d.A)), textclean.OneLine(showJSON(d.B)))
}

// listKeys are the lists of a list result, each by the member its items
// are named by.
var listKeys = map[string]string{"tools": "name", "prompts": "name", "resources": "uri", "resourceTemplates": "uriTemplate"}

// listItem names a difference in a list result by the item it is in
// (/tools/read_file/description) or the item one side lacks
// (/tools/read_file), rather than by index, or at the whole list when
// its length differs: the list's items are compared again by their key
// ([jsondoc.Options.KeyBy]). A difference elsewhere, or one keying does
// not find (the same items in another order), is d as it was.
func listItem(d jsondoc.Diff, want, got any, redactions []*suite.Redaction) jsondoc.Diff {
	if len(d.Path) == 0 {
		return d
	}
	list, isMember := d.Path[0].Name()
	key := listKeys[list]
	if !isMember || key == "" {
		return d
	}
	var paths []*jsonpath.Path
	for _, r := range redactions {
		paths = append(paths, r.Path)
	}
	items := func(doc any) any {
		m, _ := jsondoc.Redact(jsondoc.Copy(doc), paths).(map[string]any)
		return m[list]
	}
	keyed, differs := jsondoc.FirstDiff(items(want), items(got), jsondoc.Options{KeyBy: map[string]string{"": key}})
	if !differs {
		return d
	}
	keyed.Path = append(jsondoc.Path{jsondoc.Member(list)}, keyed.Path...)
	return keyed
}

// responseDoc is an exchange's response as decoded JSON without _meta:
// {"result": ...} or {"error": ...}, so that a result and an error
// differ at their root.
func responseDoc(x Exchange) any {
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
		return map[string]any{"error": jsondoc.StripMeta(v)}
	}
	return jsondoc.StripMeta(v)
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

// liveLog keeps the live connection's wire traffic, whole, to pair each
// request sent with its response as the recording's are paired.
type liveLog struct {
	mu      sync.Mutex
	entries []Entry
}

// Write takes the wire log's JSON lines (a tap).
func (l *liveLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for line := range bytes.Lines(p) {
		var e Entry
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
func (l *liveLog) exchange(mark int, method string) *Exchange {
	l.mu.Lock()
	since := append([]Entry(nil), l.entries[mark:]...)
	l.mu.Unlock()
	xs := Exchanges(since)
	for i := len(xs) - 1; i >= 0; i-- {
		if xs[i].Method == method && !xs[i].Side {
			return &xs[i]
		}
	}
	return nil
}

// Questions are the session's questions, those asked outside any
// exchange first, then each exchange's in order.
func (s Session) Questions() []Question {
	qs := append([]Question(nil), s.Stray...)
	for _, x := range s.Exchanges {
		qs = append(qs, x.Questions...)
	}
	return qs
}

// RecordedRoots are the roots the recording's first roots/list answer
// gave (nil: none), for a replay to offer again.
func RecordedRoots(s Session) []*mcp.Root {
	for _, q := range s.Questions() {
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

// ReplayAsker answers the server's questions from a recording: the
// recorded answer to the same question (as its [Matcher] says), each
// used once, in the recording's order. It is an [mcpclient.NativeAsker]
// and an [mcpclient.Sampler].
type ReplayAsker struct {
	matcher *Matcher
	mu      sync.Mutex
	// recorded are the answered questions, in the recording's order.
	recorded []recordedQuestion
	missed   []askedQuestion
}

type recordedQuestion struct {
	key  Key
	q    Question
	used bool
}

type askedQuestion struct{ method, params string }

// NewReplayAsker is the asker of the session's answered questions. A
// sampling request takes the first recorded one left when none has the
// same params: go-sdk decodes its params, and mcpeek encodes them again.
func NewReplayAsker(s Session) *ReplayAsker {
	a := &ReplayAsker{matcher: NewMatcher(MatchLoosely(mcpclient.MethodSample))}
	for _, q := range s.Questions() {
		if q.Answer == nil && q.AnswerError == nil {
			continue
		}
		a.recorded = append(a.recorded, recordedQuestion{key: a.matcher.Key(q.Method, q.Params), q: q})
	}
	return a
}

// take is the recorded answer to the question, or false.
func (a *ReplayAsker) take(method string, params json.RawMessage) (Question, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	live := a.matcher.Key(method, params)
	pick := -1
	for i, r := range a.recorded {
		if !r.used && a.matcher.Match(live, r.key) {
			pick = i
			break
		}
	}
	if pick < 0 && a.matcher.Loose(method) {
		for i, r := range a.recorded {
			if !r.used && r.key.Method == method {
				pick = i
				break
			}
		}
	}
	if pick < 0 {
		a.missed = append(a.missed, askedQuestion{method, string(params)})
		return Question{}, false
	}
	a.recorded[pick].used = true
	return a.recorded[pick].q, true
}

func (a *ReplayAsker) unmatched() []askedQuestion {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]askedQuestion(nil), a.missed...)
}

// Ask implements mcpclient.NativeAsker.
func (a *ReplayAsker) Ask(_ context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	q, ok := a.take(mcpclient.MethodElicit, req.RawParams)
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
func (a *ReplayAsker) Sample(_ context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	params, _ := json.Marshal(req.Params)
	q, ok := a.take(mcpclient.MethodSample, params)
	if !ok || q.AnswerError != nil {
		return nil, mcpclient.ErrSampleRejected
	}
	var res mcp.CreateMessageWithToolsResult
	if err := json.Unmarshal(q.Answer, &res); err != nil {
		return nil, fmt.Errorf("the recorded answer: %v", err)
	}
	return &res, nil
}

package record

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// A Server plays the server of a recording (mcpeek replay --serve): it
// answers the requests the recording holds with the recorded responses,
// asks the recorded questions at the same points and compares the
// client's answers with the recorded ones, and sends the recorded
// notifications. What did not match is kept for [Server.Summary].
// See docs/architecture.md, "Serving a recording".
//
// It serves over stdio ([Server.ServeStdio]) or streamable HTTP
// ([Server.Handler]); its methods are safe for concurrent use.
type Server struct {
	header Header
	modern bool
	// script is the recording's client requests, in the order sent.
	script []*scripted
	// free are the notifications the server sent while no request was
	// open, by the index of the scripted request they followed (-1:
	// before any).
	free map[int][]json.RawMessage
	// maxMessage bounds a client's message (a line, a POST body).
	maxMessage int64
	// matcher says which recorded request a live one is.
	matcher *Matcher
	// upkeeps are the methods answered when the recording holds none
	// that match ([upkeepMethods]).
	upkeeps map[string]bool

	mu       sync.Mutex
	requests int // requests received
	served   int // answered from the recording
	// kept counts, by method, the requests answered by upkeep.
	kept     map[string]int
	problems []string
	dropped  int // problems not kept (beyond maxProblems)
}

// maxProblems is how many problems the summary names; the rest are
// counted.
const maxProblems = 50

// scripted is one recorded client request and what the server did while
// it was open, in order: what a live request matching it is given.
type scripted struct {
	index  int
	method string
	// params are the request's params as sent; key what it is matched by
	// (its requestState among it, for 2026-07-28 retries).
	params json.RawMessage
	key    Key
	// inputs are the inputResponses it carried (2026-07-28 retries).
	inputs map[string]json.RawMessage
	// id is its recorded id (a subscription's notifications name it);
	// token its progressToken.
	id    json.RawMessage
	token json.RawMessage
	// steps are what the server sent while it was open, in order.
	steps []step
	// response is the recorded response message; nil when the recording
	// ended first (a subscription is then held open, anything else
	// answered with an error saying so).
	response json.RawMessage
	used     int
}

// step is one thing the server sent during a request: a notification, or
// a question (a 2025-11-25 server request) with the client's recorded
// answer.
type step struct {
	note json.RawMessage
	ask  *asked
}

type asked struct {
	method string
	params json.RawMessage
	// answer is the client's recorded response message (nil: none
	// recorded).
	answer json.RawMessage
}

// wire is the part of a JSON-RPC message the server reads.
type wire struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
}

func (m wire) hasID() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

// NewServer builds the server of a recording from its header and entries
// ([Read]). maxMessage bounds each message a client sends (0: the
// largest message mcpeek takes, [mcpclient.DefaultMaxMessageSize]).
func NewServer(h Header, entries []Entry, maxMessage int64) (*Server, error) {
	if maxMessage <= 0 {
		maxMessage = mcpclient.DefaultMaxMessageSize
	}
	s := &Server{header: h, modern: h.Protocol == modernRevision, free: map[int][]json.RawMessage{}, maxMessage: maxMessage,
		matcher: NewMatcher(MatchByMethod(mcpclient.MethodInitialize, mcpclient.MethodDiscover))}
	switch h.Protocol {
	case modernRevision, legacyRevision:
	default:
		return nil, fmt.Errorf("the recording's protocol is %q; a recording can be served in %s or %s", h.Protocol, legacyRevision, modernRevision)
	}
	s.script = script(entries, s.free, s.matcher)
	if len(s.script) == 0 {
		return nil, errors.New("the recording holds no client request to answer")
	}
	s.upkeeps, s.kept = upkeepMethods(h, s.script), map[string]int{}
	return s, nil
}

// The protocol revisions a recording is made in.
const (
	legacyRevision = "2025-11-25"
	modernRevision = "2026-07-28"
)

// script reads the recorded requests and what the server did during
// each; free gets the notifications sent while none was open.
func script(entries []Entry, free map[int][]json.RawMessage, matcher *Matcher) []*scripted {
	var out []*scripted
	open := map[string]*scripted{}
	var order []*scripted // open requests, oldest first
	questions := map[string]*asked{}
	current := func() *scripted {
		for k := len(order) - 1; k >= 0; k-- {
			if order[k].method != methodListen {
				return order[k]
			}
		}
		return nil
	}
	for _, e := range entries {
		var m wire
		if len(e.Message) == 0 || json.Unmarshal(e.Message, &m) != nil {
			continue
		}
		switch {
		case e.Dir == mcpclient.DirSend && m.Method != "" && m.hasID():
			sc := newScripted(len(out), m, matcher)
			out = append(out, sc)
			open[idKey(m.ID)] = sc
			order = append(order, sc)
		case e.Dir == mcpclient.DirSend && m.Method == "" && m.hasID():
			if q := questions[idKey(m.ID)]; q != nil {
				q.answer = e.Message
				delete(questions, idKey(m.ID))
			}
		case e.Dir == mcpclient.DirRecv && m.Method == "" && m.hasID():
			if sc := open[idKey(m.ID)]; sc != nil {
				sc.response = e.Message
				delete(open, idKey(m.ID))
				order = slices.DeleteFunc(order, func(o *scripted) bool { return o == sc })
			}
		case e.Dir == mcpclient.DirRecv && m.Method != "" && m.hasID():
			if sc := current(); sc != nil {
				q := &asked{method: m.Method, params: m.Params}
				sc.steps = append(sc.steps, step{ask: q})
				questions[idKey(m.ID)] = q
			}
		case e.Dir == mcpclient.DirRecv && m.Method != "":
			if sc := notified(m, order, current()); sc != nil {
				sc.steps = append(sc.steps, step{note: e.Message})
			} else {
				free[len(out)-1] = append(free[len(out)-1], e.Message)
			}
		}
	}
	return out
}

// notified is the open request a notification belongs to: the one whose
// progress it reports, the subscription it names, else the latest.
func notified(m wire, order []*scripted, current *scripted) *scripted {
	var p struct {
		Token json.RawMessage            `json:"progressToken"`
		Meta  map[string]json.RawMessage `json:"_meta"`
	}
	_ = json.Unmarshal(m.Params, &p)
	for _, sc := range order {
		switch {
		case m.Method == notificationProgress && len(p.Token) > 0 && idKey(p.Token) == idKey(sc.token):
			return sc
		case p.Meta[subscriptionMeta] != nil && sc.method == methodListen && idKey(p.Meta[subscriptionMeta]) == idKey(sc.id):
			return sc
		}
	}
	return current
}

// noResponseCode is the error code of a recorded request whose response
// the recording does not hold.
const noResponseCode = -32603

// Methods the server treats apart.
const (
	methodPing            = "ping"
	methodListen          = "subscriptions/listen"
	notificationProgress  = "notifications/progress"
	notificationCancelled = "notifications/cancelled"
)

// subscriptionMeta names, in a 2026-07-28 notification's _meta, the
// subscriptions/listen request it is sent for.
const subscriptionMeta = "io.modelcontextprotocol/subscriptionId"

func newScripted(index int, m wire, matcher *Matcher) *scripted {
	sc := &scripted{index: index, method: m.Method, params: m.Params, id: m.ID, key: matcher.Key(m.Method, m.Params)}
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
		Inputs map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(m.Params, &p)
	sc.token = p.Meta.Token
	sc.inputs = p.Inputs
	return sc
}

// peer is where a request's traffic goes: a stdio connection, or an HTTP
// POST's event stream.
type peer interface {
	// send writes a message on the request's channel.
	send(msg []byte) error
	// ask sends a server request and waits for the client's response.
	ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error)
	// outside sends a message that belongs to no request.
	outside(msg []byte)
}

// handle answers one live client request on p. It returns when the
// response is sent, or when ctx ends (the client cancelled, went away).
func (s *Server) handle(ctx context.Context, m wire, p peer) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	key := s.matcher.Key(m.Method, m.Params)
	sc := s.match(key)
	if sc == nil {
		if s.upkeep(m, p) {
			return
		}
		msg, data := s.unmatched(key)
		s.problem("unmatched: %s %s: %s", m.Method, cut(key.Params), msg)
		errObj, _ := json.Marshal(map[string]any{"code": unmatchedCode(m.Method, s.script), "message": "mcpeek replay: " + msg, "data": data})
		_ = p.send(response(m.ID, nil, errObj))
		return
	}
	s.count()
	if s.modern && key.State != "" {
		s.compareInputs(sc, m)
	}
	live := liveRequest{id: m.ID, token: progressToken(m.Params)}
	for _, st := range sc.steps {
		if st.note != nil {
			if msg := live.rewrite(st.note, sc); msg != nil {
				_ = p.send(msg)
			}
			continue
		}
		got, err := p.ask(ctx, st.ask.method, st.ask.params)
		if err != nil {
			if ctx.Err() == nil {
				s.problem("%s during %s: not answered: %v", st.ask.method, describe(sc), err)
			}
			return
		}
		s.compareAnswer(sc, st.ask, got)
	}
	if sc.response == nil {
		if sc.method == methodListen {
			<-ctx.Done() // held open, as it was when the recording ended
			return
		}
		s.problem("no response recorded: %s (the recording ended, or was started, before it came)", describe(sc))
		errObj, _ := json.Marshal(map[string]any{"code": noResponseCode, "message": "mcpeek replay: the recording holds no response to " + sc.method})
		_ = p.send(response(m.ID, nil, errObj))
		return
	}
	if err := p.send(withID(sc.response, m.ID)); err != nil {
		return
	}
	for _, n := range s.free[sc.index] {
		p.outside(n)
	}
}

// count counts a request answered from the recording.
func (s *Server) count() {
	s.mu.Lock()
	s.served++
	s.mu.Unlock()
}

// problem keeps one mismatch for the summary.
func (s *Server) problem(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.problems) >= maxProblems {
		s.dropped++
		return
	}
	s.problems = append(s.problems, formschema.Clean(fmt.Sprintf(format, args...)))
}

// match finds the recorded request a live one is answered by, as the
// server's matcher says (the same method, params and requestState;
// initialize and server/discover by method alone): the first not yet
// used, else the last (asked again).
func (s *Server) match(key Key) *scripted {
	s.mu.Lock()
	defer s.mu.Unlock()
	var last *scripted
	for _, sc := range s.script {
		if !s.matcher.Match(key, sc.key) {
			continue
		}
		if sc.used == 0 {
			sc.used++
			return sc
		}
		last = sc
	}
	if last != nil {
		last.used++
	}
	return last
}

// unmatchedCode is the error code of an unmatched request: method not
// found when the recording never saw the method, invalid params when it
// did with other params.
func unmatchedCode(method string, script []*scripted) int {
	for _, sc := range script {
		if sc.method == method {
			return -32602
		}
	}
	return -32601
}

// unmatched says which recorded request is closest to an unmatched one:
// of the same method, the one with the most params in common; else the
// one of the nearest method name.
func (s *Server) unmatched(key Key) (string, map[string]any) {
	var live any
	_ = json.Unmarshal([]byte(key.Params), &live)
	best, bestScore := (*scripted)(nil), 0
	for _, sc := range s.script {
		if sc.method != key.Method {
			continue
		}
		var rec any
		_ = json.Unmarshal([]byte(sc.key.Params), &rec)
		if score := common(live, rec); best == nil || score > bestScore {
			best, bestScore = sc, score
		}
	}
	if best == nil {
		for _, sc := range s.script {
			if best == nil || distance(sc.method, key.Method) < distance(best.method, key.Method) {
				best = sc
			}
		}
	}
	what := "no recorded request matches"
	if best.method == key.Method && best.key.State != "" {
		what = "no recorded request matches (params or requestState)"
	}
	closest := map[string]any{"method": best.method, "params": json.RawMessage(best.key.Params)}
	return fmt.Sprintf("%s; the closest recorded is %s %s", what, best.method, cut(best.key.Params)), map[string]any{"closest": closest}
}

// common scores how alike two JSON values are: the leaves they share.
func common(a, b any) int {
	switch at := a.(type) {
	case map[string]any:
		bt, ok := b.(map[string]any)
		if !ok {
			return 0
		}
		n := 0
		for k, v := range at {
			if w, ok := bt[k]; ok {
				n += 1 + common(v, w)
			}
		}
		return n
	case []any:
		bt, ok := b.([]any)
		if !ok {
			return 0
		}
		n := 0
		for i := range min(len(at), len(bt)) {
			n += common(at[i], bt[i])
		}
		return n
	}
	if fmt.Sprint(a) == fmt.Sprint(b) {
		return 2
	}
	return 0
}

// distance is the edit distance of two method names.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// compareInputs checks a 2026-07-28 retry's inputResponses against the
// recorded ones.
func (s *Server) compareInputs(sc *scripted, m wire) {
	var p struct {
		Inputs map[string]json.RawMessage `json:"inputResponses"`
	}
	_ = json.Unmarshal(m.Params, &p)
	for _, k := range slices.Sorted(maps.Keys(sc.inputs)) {
		got, ok := p.Inputs[k]
		if !ok {
			s.problem("answer differs: %q during %s: not answered (recorded %s)", k, describe(sc), cut(string(sc.inputs[k])))
			continue
		}
		if where, rec, live, differs := firstDiff(sc.inputs[k], got); differs {
			s.problem("answer differs: %q during %s: at %s recorded %s, got %s", k, describe(sc), where, rec, live)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(p.Inputs)) {
		if _, ok := sc.inputs[k]; !ok {
			s.problem("answer differs: %q during %s: answered, not in the recording", k, describe(sc))
		}
	}
}

// compareAnswer checks the client's response to a 2025-11-25 question
// against the recorded one (results, or errors by code).
func (s *Server) compareAnswer(sc *scripted, q *asked, got json.RawMessage) {
	var live, rec wire
	_ = json.Unmarshal(got, &live)
	if q.answer == nil {
		return // the recording has no answer to hold it to
	}
	_ = json.Unmarshal(q.answer, &rec)
	switch {
	case rec.Error != nil || live.Error != nil:
		var a, b struct {
			Code *int64 `json:"code"`
		}
		_ = json.Unmarshal(rec.Error, &a)
		_ = json.Unmarshal(live.Error, &b)
		if a.Code == nil || b.Code == nil || *a.Code != *b.Code {
			s.problem("answer differs: %s during %s: recorded %s, got %s", q.method, describe(sc), outcome(rec), outcome(live))
		}
	default:
		if where, a, b, differs := firstDiff(rec.Result, live.Result); differs {
			s.problem("answer differs: %s during %s: at %s recorded %s, got %s", q.method, describe(sc), where, a, b)
		}
	}
}

func outcome(m wire) string {
	if m.Error != nil {
		return "the error " + cut(string(m.Error))
	}
	return "the result " + cut(string(m.Result))
}

// describe names a recorded request for the summary: its method, and the
// tool, prompt or resource it names.
func describe(sc *scripted) string {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	_ = json.Unmarshal(sc.params, &p)
	switch {
	case p.Name != "":
		return sc.method + " " + p.Name
	case p.URI != "":
		return sc.method + " " + p.URI
	}
	return sc.method
}

// firstDiff finds the first place (a JSON pointer, "/" for the whole)
// where two JSON texts differ, _meta members aside, and the two values
// there, cut for a line.
func firstDiff(a, b json.RawMessage) (string, string, string, bool) {
	var x, y any
	errA, errB := json.Unmarshal(a, &x), json.Unmarshal(b, &y)
	if errA != nil || errB != nil {
		if bytes.Equal(a, b) {
			return "", "", "", false
		}
		return "/", cut(string(a)), cut(string(b)), true
	}
	d, differs := jsondoc.FirstDiff(x, y, jsondoc.Options{IgnoreMeta: true})
	if !differs {
		return "", "", "", false
	}
	pj, _ := json.Marshal(d.A)
	qj, _ := json.Marshal(d.B)
	return where(d.Path), cut(string(pj)), cut(string(qj)), true
}

// where names a place in a message for a line: its JSON pointer, "/"
// for the whole.
func where(p jsondoc.Path) string {
	if ptr := p.Pointer(); ptr != "" {
		return ptr
	}
	return "/"
}

// cut shortens JSON for a one-line message, to 160 bytes.
func cut(s string) string { return textclean.Cut(s, 160, textclean.InBytes()) }

// liveRequest is what a recorded notification is rewritten for: the live
// request's id and progress token.
type liveRequest struct {
	id, token json.RawMessage
}

// rewrite makes a recorded notification the live request's: progress
// carries the live token (and is not sent when the client asked for
// none), a subscription's notifications name the live subscription.
func (l liveRequest) rewrite(note json.RawMessage, sc *scripted) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(note, &m) != nil {
		return nil
	}
	var method string
	_ = json.Unmarshal(m["method"], &method)
	var params map[string]json.RawMessage
	_ = json.Unmarshal(m["params"], &params)
	if method == notificationProgress && params != nil && params["progressToken"] != nil {
		if len(l.token) == 0 {
			return nil
		}
		params["progressToken"] = l.token
	}
	if sc.method == methodListen && params != nil && params["_meta"] != nil {
		var meta map[string]json.RawMessage
		if json.Unmarshal(params["_meta"], &meta) == nil && meta[subscriptionMeta] != nil {
			meta[subscriptionMeta] = l.id
			params["_meta"], _ = json.Marshal(meta)
		}
	}
	if params != nil {
		m["params"], _ = json.Marshal(params)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return out
}

func progressToken(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta struct {
			Token json.RawMessage `json:"progressToken"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(params, &p)
	return p.Meta.Token
}

// withID is a recorded response with the live request's id.
func withID(msg, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg
	}
	m["id"] = id
	out, err := json.Marshal(m)
	if err != nil {
		return msg
	}
	return out
}

func response(id, result, errObj json.RawMessage) []byte {
	m := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": id}
	if errObj != nil {
		m["error"] = errObj
	} else {
		m["result"] = result
	}
	out, _ := json.Marshal(m)
	return out
}

// Summary is what a served recording saw: requests received and
// answered from the recording, and what did not match.
type Summary struct {
	// Protocol is the recording's protocol revision.
	Protocol string
	// Requests counts the client's requests; Served those answered from
	// the recording.
	Requests, Served int
	// Problems are the mismatches (unmatched requests, answers that
	// differ), one line each; Dropped counts those beyond the first 50.
	Problems []string
	Dropped  int
	// NotAsked are the recorded requests no client asked for (reported,
	// not a mismatch: another client need not do all the recorded one
	// did).
	NotAsked []string
	// Upkeep counts, by method, the requests of the session's upkeep the
	// recording held none of, answered with the spec's empty result
	// (ping; logging/setLevel where the recorded server offered logging).
	// Not a mismatch: another client keeps its session its own way.
	Upkeep map[string]int
}

// OK reports whether everything matched.
func (s Summary) OK() bool { return len(s.Problems) == 0 && s.Dropped == 0 }

// Summary says what the server saw so far.
func (s *Server) Summary() Summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Summary{Protocol: s.header.Protocol, Requests: s.requests, Served: s.served, Problems: slices.Clone(s.problems), Dropped: s.dropped}
	if len(s.kept) > 0 {
		out.Upkeep = maps.Clone(s.kept)
	}
	for _, sc := range s.script {
		if sc.used == 0 && sc.method != methodListen && !isSide(sc.id) {
			out.NotAsked = append(out.NotAsked, formschema.Clean(describe(sc)))
		}
	}
	return out
}

func isSide(id json.RawMessage) bool { return strings.HasPrefix(string(id), sideID) }

// WriteTo writes the summary as lines: a count, then each problem; what
// came from the recording is cleaned for a terminal.
func (s Summary) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	verdict := "everything matched"
	if !s.OK() {
		verdict = fmt.Sprintf("%d mismatch(es)", len(s.Problems)+s.Dropped)
	}
	fmt.Fprintf(&b, "mcpeek replay: %d request(s), %d answered from the recording (%s): %s\n", s.Requests, s.Served, formschema.Clean(s.Protocol), verdict)
	for _, p := range s.Problems {
		fmt.Fprintf(&b, "  %s\n", formschema.Clean(p))
	}
	if s.Dropped > 0 {
		fmt.Fprintf(&b, "  … and %d more\n", s.Dropped)
	}
	if len(s.NotAsked) > 0 {
		fmt.Fprintf(&b, "  not asked (recorded, not a mismatch): %s\n", formschema.Clean(strings.Join(s.NotAsked, ", ")))
	}
	writeUpkeep(&b, s.Upkeep)
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

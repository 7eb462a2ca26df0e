// The runner: sessions with the server in each revision, the steps of each
// test through the same connection, answers and router as every other
// command, and the checks of what came back.

//lint:file-ignore SA1019 sampling and roots are deprecated from 2026-07-28 on, but servers still use them and suites test them (docs/architecture.md, "Sampling, roots and notifications").

package suite

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Dial is what a session needs to connect: the suite's server in one
// revision, with the asker answering its questions and the recorder
// keeping one record per question.
type Dial struct {
	Suite    *Suite
	Revision string
	Asker    *Asker
	Records  *mcpclient.Recorder
}

// Dialer connects a session; the function it returns ends what it started
// beside the connection (a wire log file, say) once the connection is
// closed.
type Dialer func(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error)

// Options are a run's settings.
type Options struct {
	Dial Dialer
	// Revisions, when set, replace the suites' own.
	Revisions []string
	// Filter keeps the tests whose names match.
	Filter *regexp.Regexp
	// Update writes snapshots instead of comparing them.
	Update bool
	// StrictAnswers fails a step whose answers entries were not all used.
	StrictAnswers bool
	// Parallel is how many sessions run at once (0 or 1: one).
	Parallel int
	// Secrets are the run's (the credentials its servers were given):
	// redacted from results before snapshots and era parity, as from
	// everything else the run writes.
	Secrets *mcpclient.Secrets
}

// UnreachableError is a server that could not be reached before any
// test ran (exit 3).
type UnreachableError struct{ Err error }

func (e *UnreachableError) Error() string { return e.Err.Error() }
func (e *UnreachableError) Unwrap() error { return e.Err }

// Test statuses.
const (
	StatusPassed  = "passed"
	StatusFailed  = "failed"
	StatusSkipped = "skipped"
)

// TestResult is one test in one revision, or one test's era parity.
type TestResult struct {
	Name     string        `json:"name"`
	File     string        `json:"file"`
	Line     int           `json:"line"`
	Revision string        `json:"revision"`
	Status   string        `json:"status"`
	Duration time.Duration `json:"-"`
	Millis   int64         `json:"durationMs"`
	Failures []Failure     `json:"failures,omitempty"`
	// Skipped is why a skipped test is, when its skip: says so.
	Skipped string `json:"skipped,omitempty"`
	// Explored are the branches explore: ran, each step's in order: a
	// passing test says so too.
	Explored []Branch `json:"explored,omitempty"`
	// Wire is the traffic of the step that failed, for the JUnit report.
	Wire string `json:"-"`
	// docs are what era parity keeps of each step's result.
	docs []parityDoc
	// anyRevision: the test runs in this revision only if the server
	// speaks it (no protocol: names it); unspoken says it does not.
	anyRevision bool
	unspoken    string
}

// Branch is one policy explore: answered every question of a step with,
// and how the step ended then.
type Branch struct {
	Step   int    `json:"step"`
	Policy string `json:"policy"`
	// Ended is "a result", or the error the branch ended in.
	Ended string `json:"ended"`
}

// SuiteResult is one suite file in one revision (or its era parity:
// Revision "parity").
type SuiteResult struct {
	File     string        `json:"file"`
	Revision string        `json:"revision"`
	Tests    []*TestResult `json:"tests"`
	// Skipped says why the suite did not run in this revision at all
	// (the server does not speak it, and the suite names no protocol:);
	// its tests are not listed. It counts as one skipped test.
	Skipped string `json:"skipped,omitempty"`
}

// ParityRevision names the results of era parity.
const ParityRevision = "parity"

// Report is a whole run.
type Report struct {
	Suites []*SuiteResult
}

// Counts are how many tests passed, failed and were skipped.
func (r *Report) Counts() (passed, failed, skipped int) {
	for _, s := range r.Suites {
		if s.Skipped != "" {
			skipped++
		}
		for _, t := range s.Tests {
			switch t.Status {
			case StatusPassed:
				passed++
			case StatusFailed:
				failed++
			case StatusSkipped:
				skipped++
			}
		}
	}
	return
}

// Asker answers a session's questions with the current step's answers;
// one no entry matches fails the step (it is recorded, and the server is
// told no with an error).
type Asker struct {
	mu         sync.Mutex
	cur        *mcpclient.HeadlessAsker
	unexpected []string
}

func (a *Asker) use(h *mcpclient.HeadlessAsker) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cur, a.unexpected = h, nil
}

func (a *Asker) current() *mcpclient.HeadlessAsker {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cur == nil {
		a.cur = &mcpclient.HeadlessAsker{Strict: true}
	}
	return a.cur
}

func (a *Asker) note(err error) {
	var ue *mcpclient.UnexpectedError
	if errors.As(err, &ue) {
		a.mu.Lock()
		a.unexpected = append(a.unexpected, ue.Error())
		a.mu.Unlock()
	}
}

// Unexpected are the questions of the current step no entry matched.
func (a *Asker) Unexpected() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.unexpected...)
}

// Ask implements [mcpclient.NativeAsker].
func (a *Asker) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	res, err := a.current().Ask(ctx, req)
	a.note(err)
	return res, err
}

// Sample implements [mcpclient.Sampler].
func (a *Asker) Sample(ctx context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	res, err := a.current().Sample(ctx, req)
	a.note(err)
	return res, err
}

// runner is one run of suites.
type runner struct {
	opts      Options
	completed atomic.Int64
	cancel    context.CancelFunc
	mu        sync.Mutex
	reachErr  error
	// unspoken are the revisions a suite's server was found not to speak.
	unspoken eraSkips
}

// unit is what one session runs: a test (per-test sessions) or every
// selected test of a suite in a revision (shared).
type unit struct {
	suite    *Suite
	revision string
	tests    []*Test
	results  []*TestResult
	snaps    *snapshots
}

// Run runs the suites and reports every test; the error is an
// [*UnreachableError] when the server could not be reached before any
// test ran, or the run's context's.
func Run(ctx context.Context, suites []*Suite, opts Options) (*Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &runner{opts: opts, cancel: cancel}
	report := &Report{}
	var units []*unit
	var perSuite [][]*SuiteResult
	snaps := make([]*snapshots, len(suites))
	for i, s := range suites {
		snaps[i] = loadSnapshots(s)
		var results []*SuiteResult
		for _, rev := range r.revisions(s) {
			sr := &SuiteResult{File: s.File, Revision: rev}
			results = append(results, sr)
			units = append(units, r.plan(s, rev, sr, snaps[i])...)
		}
		perSuite = append(perSuite, results)
	}
	r.runUnits(ctx, units)
	for i, results := range perSuite {
		for _, sr := range results {
			settleUnspoken(sr)
		}
		noEraSpoken(suites[i], results)
	}
	if r.reachErr != nil {
		return nil, &UnreachableError{Err: r.reachErr}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, s := range suites {
		report.Suites = append(report.Suites, perSuite[i]...)
		if parity := r.parity(s, perSuite[i]); parity != nil {
			report.Suites = append(report.Suites, parity)
		}
		if opts.Update {
			if err := snaps[i].write(); err != nil {
				return nil, err
			}
		}
	}
	return report, nil
}

func (r *runner) revisions(s *Suite) []string {
	if r.opts.Revisions != nil {
		return r.opts.Revisions
	}
	return s.Revisions
}

// plan makes the units of a suite in a revision, their results already
// in sr in the suite's order.
func (r *runner) plan(s *Suite, rev string, sr *SuiteResult, snaps *snapshots) []*unit {
	var shared *unit
	var units []*unit
	for _, t := range s.Tests {
		if r.opts.Filter != nil && !r.opts.Filter.MatchString(t.Name) {
			continue
		}
		if t.Revisions != nil && !slices.Contains(t.Revisions, rev) {
			continue
		}
		res := &TestResult{Name: t.Name, File: s.File, Line: t.Line, Revision: rev,
			anyRevision: r.opts.Revisions == nil && s.AnyRevision && t.Revisions == nil}
		sr.Tests = append(sr.Tests, res)
		if t.Skip {
			res.Status, res.Skipped = StatusSkipped, t.SkipReason
			continue
		}
		if s.Session == SessionShared {
			if shared == nil {
				shared = &unit{suite: s, revision: rev, snaps: snaps}
				units = append(units, shared)
			}
			shared.tests, shared.results = append(shared.tests, t), append(shared.results, res)
			continue
		}
		units = append(units, &unit{suite: s, revision: rev, tests: []*Test{t}, results: []*TestResult{res}, snaps: snaps})
	}
	return units
}

func (r *runner) runUnits(ctx context.Context, units []*unit) {
	if len(units) == 0 {
		return
	}
	// The first session alone: whether the server was reached before any
	// test ran (exit 3) is decided there, as with one session at a time,
	// not by whichever of several sessions' connects fails first.
	r.runUnit(ctx, units[0])
	n := max(r.opts.Parallel, 1)
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for _, u := range units[1:] {
		sem <- struct{}{}
		if ctx.Err() != nil {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r.runUnit(ctx, u)
		}()
	}
	wg.Wait()
}

// session is one connection and what answers on it.
type session struct {
	conn  *mcpclient.Conn
	asker *Asker
	dead  error
}

func (r *runner) runUnit(ctx context.Context, u *unit) {
	if r.unspoken.skip(u) {
		return
	}
	asker := &Asker{}
	records := mcpclient.NewRecorder(nil)
	conn, done, err := r.opts.Dial(ctx, Dial{Suite: u.suite, Revision: u.revision, Asker: asker, Records: records})
	if err != nil {
		if r.unspoken.found(u, err) {
			return
		}
		if r.completed.Load() == 0 && ctx.Err() == nil {
			r.mu.Lock()
			if r.reachErr == nil {
				r.reachErr = err
			}
			r.mu.Unlock()
			r.cancel()
			return
		}
		for _, res := range u.results {
			res.Status = StatusFailed
			res.Failures = []Failure{{Line: res.Line, What: "connect", Message: err.Error()}}
		}
		return
	}
	defer func() {
		_ = conn.Close()
		if done != nil {
			done()
		}
	}()
	sess := &session{conn: conn, asker: asker}
	for i, t := range u.tests {
		r.runTest(ctx, u, sess, t, u.results[i])
		r.completed.Add(1)
	}
}

func (r *runner) runTest(ctx context.Context, u *unit, sess *session, t *Test, res *TestResult) {
	start := time.Now()
	defer func() {
		res.Duration = time.Since(start)
		res.Millis = res.Duration.Milliseconds()
		res.Status = StatusPassed
		if len(res.Failures) > 0 {
			res.Status = StatusFailed
		}
	}()
	if sess.dead == nil && sess.conn.Context().Err() != nil {
		sess.dead = errors.New("the connection closed")
	}
	if sess.dead != nil {
		res.Failures = []Failure{{Line: t.Line, What: "session", Message: "the session ended in an earlier test: " + sess.dead.Error()}}
		return
	}
	vs := vars{"suite_dir": u.suite.Dir}
	if u.suite.tmp != "" {
		vs["tmp"] = u.suite.tmp
	}
	for i, st := range t.Steps {
		out := r.runStep(ctx, u, sess, st, vs)
		res.docs = append(res.docs, keepForParity(out.redacted))
		for _, b := range out.explored {
			b.Step = i + 1
			res.Explored = append(res.Explored, b)
		}
		for _, f := range out.failures {
			f.Step = i + 1
			res.Failures = append(res.Failures, f)
		}
		if len(out.failures) > 0 {
			res.Wire = wireExcerpt(sess.conn.Wire(), out.start)
			return // later steps depend on this one's result
		}
	}
}

// outcome is what one step did.
type outcome struct {
	doc      any // the result (or {"error":…}) as JSON
	redacted any
	err      error
	isError  bool
	latency  time.Duration
	asked    []mcpclient.Record
	rounds   int
	failures []Failure
	explored []Branch
	start    time.Time
}

func (r *runner) runStep(ctx context.Context, u *unit, sess *session, st *Step, vs vars) *outcome {
	timeout := st.Timeout
	if timeout == 0 {
		timeout = u.suite.Timeout
	}
	h := &mcpclient.HeadlessAsker{Answers: st.Answers, Strict: true}
	sess.asker.use(h)
	conn := sess.conn
	before := len(conn.Records())
	start := time.Now()
	out := &outcome{start: start}
	args, err := vs.expandValue(st.Args)
	if err == nil {
		out.doc, out.isError, out.err = r.do(ctx, conn, st, args, vs, timeout)
	} else {
		out.failures = append(out.failures, Failure{Line: st.Line, What: "args", Message: err.Error()})
		return out
	}
	out.latency = time.Since(start)
	out.asked = stepRecords(conn.Records(), before)
	out.rounds = countRounds(conn, start, out.asked)
	if conn.Context().Err() != nil && out.err != nil {
		sess.dead = out.err
	}
	unexpected := sess.asker.Unexpected()
	for _, q := range unexpected {
		out.failures = append(out.failures, Failure{Line: st.Line, What: "answers", Message: q})
	}
	if r.opts.StrictAnswers {
		for _, i := range h.Unused() {
			line := st.Line
			if i < len(st.AnswersLines) && st.AnswersLines[i] > 0 {
				line = st.AnswersLines[i]
			}
			out.failures = append(out.failures, Failure{Line: line, What: "answers", Message: fmt.Sprintf("entry %d was never used (--strict-answers)", i+1)})
		}
	}
	if len(unexpected) > 0 {
		// The conversation left the script: what came of it says no more.
		return out
	}
	out.failures = append(out.failures, r.check(ctx, u, conn, st, out, vs)...)
	if len(out.failures) == 0 {
		out.failures = append(out.failures, r.capture(st, out, vs)...)
	}
	if len(st.Explore) > 0 && sess.dead == nil {
		fails, branches := r.explore(ctx, sess, st, args, vs, timeout)
		out.failures, out.explored = append(out.failures, fails...), branches
	}
	return out
}

// stepRecords are the records settled since before, in the order the
// server asked.
func stepRecords(all []mcpclient.Record, before int) []mcpclient.Record {
	if before > len(all) {
		before = len(all)
	}
	recs := append([]mcpclient.Record(nil), all[before:]...)
	sort.SliceStable(recs, func(i, j int) bool { return recs[i].ReceivedAt.Before(recs[j].ReceivedAt) })
	return recs
}

// countRounds is a step's input rounds: in 2026-07-28 the input_required
// results the server sent (however long: the wire log reads how a message
// ended before it cuts it), before it every request it sent.
func countRounds(conn *mcpclient.Conn, since time.Time, asked []mcpclient.Record) int {
	if conn.ProtocolVersion() < mcpclient.ProtocolModern {
		return len(asked)
	}
	n := 0
	for _, e := range conn.Wire().Entries() {
		if e.Dir != mcpclient.DirRecv || e.Time.Before(since) {
			continue
		}
		if e.Outcome().Kind == mcpclient.OutcomeInputRequired {
			n++
		}
	}
	return n
}

// do runs a step's request within timeout and returns its result as JSON.
func (r *runner) do(ctx context.Context, conn *mcpclient.Conn, st *Step, args any, vs vars, timeout time.Duration) (any, bool, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("no answer within %s (the step's timeout)", timeout))
	defer cancel()
	target, err := vs.expandValue(st.Target)
	if err != nil {
		return nil, false, err
	}
	kind := StepKindOf(st.Kind)
	if kind == nil {
		return nil, false, fmt.Errorf("unknown step kind %q", st.Kind)
	}
	res, isError, err := kind.do(ctx, conn, Request{Target: target.(string), Args: args, Complete: st.Complete})
	if err != nil {
		if cause := context.Cause(ctx); ctx.Err() != nil && cause != nil {
			err = cause
		}
		return errorDoc(err), false, err
	}
	doc, err := jsonValue(res)
	return doc, isError, err
}

// errorDoc is a protocol error as JSON: {"error":{"code":…,"message":…}}.
func errorDoc(err error) any {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return map[string]any{"error": map[string]any{"code": float64(rpc.Code), "message": rpc.Message}}
	}
	return map[string]any{"error": map[string]any{"message": err.Error()}}
}

// capture keeps the values a step's captures select.
func (r *runner) capture(st *Step, out *outcome, vs vars) []Failure {
	var fails []Failure
	for _, c := range st.Capture {
		nodes := c.Path.Select(out.doc)
		if len(nodes) == 0 {
			fails = append(fails, Failure{Line: c.Line, What: "capture " + c.Name, Message: fmt.Sprintf("%s matched nothing", c.Path)})
			continue
		}
		vs[c.Name] = nodes[0]
	}
	return fails
}

// explore runs the step again for each policy: every branch must end in
// a result (an isError result is fine), not a protocol error or a hang.
// The branches are what it ran, for the report.
func (r *runner) explore(ctx context.Context, sess *session, st *Step, args any, vs vars, timeout time.Duration) ([]Failure, []Branch) {
	var fails []Failure
	var branches []Branch
	for _, p := range st.Explore {
		sess.asker.use(&mcpclient.HeadlessAsker{Policy: p})
		_, _, err := r.do(ctx, sess.conn, st, args, vs, timeout)
		if err == nil || mcpclient.IsSampleRejected(err) {
			branches = append(branches, Branch{Policy: string(p), Ended: "a result"})
			continue
		}
		branches = append(branches, Branch{Policy: string(p), Ended: describeErr(err)})
		fails = append(fails, Failure{Line: st.Line, What: "explore " + string(p),
			Message: "answering every question " + string(p) + " ended in " + describeErr(err)})
		if sess.conn.Context().Err() != nil {
			sess.dead = err
			break
		}
	}
	return fails, branches
}

func describeErr(err error) string {
	var rpc *jsonrpc.Error
	if errors.As(err, &rpc) {
		return fmt.Sprintf("a protocol error %d: %s", rpc.Code, rpc.Message)
	}
	return "an error: " + err.Error()
}

// wireExcerpt is the traffic since start, one message a line, each cut.
func wireExcerpt(w *mcpclient.WireLog, since time.Time) string {
	const most, width = 60, 2000
	var lines []string
	for _, e := range w.Entries() {
		if e.Time.Before(since) {
			continue
		}
		var line string
		switch e.Dir {
		case mcpclient.DirSend:
			line = "→ " + string(e.Message)
		case mcpclient.DirRecv:
			line = "← " + string(e.Message)
		default:
			line = string(e.Dir) + ": " + e.Text
		}
		lines = append(lines, textclean.Cut(line, width, textclean.InBytes()))
	}
	if len(lines) > most {
		lines = append(lines[:most], fmt.Sprintf("… %d more", len(lines)-most))
	}
	return strings.Join(lines, "\n")
}

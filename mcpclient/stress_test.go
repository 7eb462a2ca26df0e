package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// stressCalls is how many tool calls, each asking one question, the stress
// test makes over one connection in each era.
const stressCalls = 1000

// stressWorkers is how many of those calls are in flight at once.
const stressWorkers = 16

// cancelPoint is where, if anywhere, a stress call's context is cancelled.
type cancelPoint int

const (
	// cancelNever: the question is answered and the call completes.
	cancelNever cancelPoint = iota
	// cancelPending: the call is cancelled while its question waits for the
	// person, who never answers; the question must settle on its own.
	cancelPending
	// cancelAnswering: the call is cancelled just as the person answers,
	// so the answer and the cancellation race.
	cancelAnswering
	// cancelAnyTime: the call is cancelled after a random delay from its
	// start, which may fall before the question is asked, while it is
	// pending, or after it is answered; a question that arrives is never
	// answered.
	cancelAnyTime
)

func (p cancelPoint) String() string {
	names := [...]string{"never", "pending", "answering", "any-time"}
	if p < 0 || int(p) >= len(names) {
		return "cancelPoint(" + strconv.Itoa(int(p)) + ")"
	}
	return names[p]
}

// stressStep is the plan for one call, drawn from the seeded source.
type stressStep struct {
	action string // accept, decline or cancel
	choice string // the accepted choice
	cancel cancelPoint
	delay  time.Duration // cancelAnyTime: when the call is cancelled
}

func (s stressStep) reply() string {
	if s.action == "accept" {
		return s.action + "/" + s.choice
	}
	return s.action
}

// stressServer has one tool, "ask", that asks one question whose message
// names the call ("q-17") and reports the answer it got ("q-17:accept/option-a").
// In the legacy era it sends elicitation/create itself; in the modern era
// it returns the question as an input request (MRTR) and reads the answer
// from the retry.
func stressServer(era string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "stress", Version: "1"}, nil)
		question := func(args json.RawMessage) (*mcp.ElicitParams, error) {
			var a struct {
				I *int `json:"i"`
			}
			if err := json.Unmarshal(args, &a); err != nil || a.I == nil {
				return nil, fmt.Errorf("bad arguments %s", args)
			}
			return &mcp.ElicitParams{Message: fmt.Sprintf("q-%d", *a.I), RequestedSchema: choiceSchema}, nil
		}
		report := func(msg string, r *mcp.ElicitResult) *mcp.CallToolResult {
			text := msg + ":" + r.Action
			if r.Action == "accept" {
				text += "/" + fmt.Sprint(r.Content["choice"])
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
		}
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				q, err := question(req.Params.Arguments)
				if err != nil {
					return nil, err
				}
				if era == "legacy" {
					r, err := req.Session.Elicit(ctx, q)
					if err != nil {
						return nil, err
					}
					return report(q.Message, r), nil
				}
				if len(req.Params.InputResponses) == 0 {
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": q}, RequestState: q.Message}, nil
				}
				r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
				if r == nil || req.Params.RequestState != q.Message {
					return nil, fmt.Errorf("%s: retry without its answer or state (%q)", q.Message, req.Params.RequestState)
				}
				return report(q.Message, r), nil
			})
		return s
	}
}

// stressAsker plays the person: it answers each question as the plan for
// its call says, and notes what it did.
type stressAsker struct {
	t       *testing.T
	plan    []stressStep
	cancels []atomic.Pointer[context.CancelFunc] // each call's, set before the call

	active atomic.Int32 // asks not yet returned

	mu   sync.Mutex
	seen map[int][]askOutcome
}

// askOutcome is what the asker returned for one question.
type askOutcome struct {
	action string // "" when it returned an error
	err    error
}

func (a *stressAsker) Ask(ctx context.Context, req *NativeRequest) (*mcp.ElicitResult, error) {
	a.active.Add(1)
	defer a.active.Add(-1)
	i, err := strconv.Atoi(strings.TrimPrefix(req.Params.Message, "q-"))
	if err != nil || i < 0 || i >= len(a.plan) {
		a.t.Errorf("a question no call asked: %q", req.Params.Message)
		return nil, errors.New("unknown question")
	}
	step := a.plan[i]
	var out askOutcome
	var res *mcp.ElicitResult
	switch step.cancel {
	case cancelNever, cancelAnswering:
		if step.cancel == cancelAnswering {
			(*a.cancels[i].Load())()
		}
		res = &mcp.ElicitResult{Action: step.action}
		if step.action == "accept" {
			res.Content = map[string]any{"choice": step.choice}
		}
		out.action = step.action
	case cancelPending, cancelAnyTime:
		if step.cancel == cancelPending {
			(*a.cancels[i].Load())()
		}
		// Never answer: only the request's end may release the question.
		select {
		case <-ctx.Done():
			out.err = ctx.Err()
		case <-time.After(20 * time.Second):
			a.t.Errorf("q-%d: the call was cancelled but its question never ended", i)
			out.err = errors.New("stuck")
		}
	}
	a.mu.Lock()
	a.seen[i] = append(a.seen[i], out)
	a.mu.Unlock()
	return res, out.err
}

func stressSeed(t *testing.T) int64 {
	seed := time.Now().UnixNano()
	if s := os.Getenv("MCPEEK_STRESS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatalf("MCPEEK_STRESS_SEED=%q: %v", s, err)
		}
	}
	t.Logf("seed %d (rerun with MCPEEK_STRESS_SEED=%d)", seed, seed)
	return seed
}

func stressPlan(rng *rand.Rand, n int) []stressStep {
	actions := []string{"accept", "decline", "cancel"}
	choices := []string{"option-a", "option-b"}
	plan := make([]stressStep, n)
	for i := range plan {
		s := stressStep{action: actions[rng.Intn(3)], choice: choices[rng.Intn(2)]}
		switch r := rng.Intn(10); {
		case r < 6:
			s.cancel = cancelNever
		case r < 8:
			s.cancel = cancelPending
		case r < 9:
			s.cancel = cancelAnswering
		default:
			s.cancel = cancelAnyTime
			s.delay = time.Duration(rng.Intn(3000)) * time.Microsecond
		}
		plan[i] = s
	}
	return plan
}

// stressResult is what one call returned: the tool's text, or an error.
type stressResult struct {
	text string
	err  error
}

// TestStressElicitations makes 1,000 calls over one connection in each era,
// each asking one question, answered accept, decline or cancel at random,
// a third of them with the call cancelled at a random point. Every question
// settles, the records match what was answered one to one, nothing crosses
// wires, and no goroutine outlives the work or the connection.
func TestStressElicitations(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
			seed := stressSeed(t)
			rng := rand.New(rand.NewSource(seed))
			plan := stressPlan(rng, stressCalls)
			asker := &stressAsker{t: t, plan: plan, cancels: make([]atomic.Pointer[context.CancelFunc], len(plan)), seen: map[int][]askOutcome{}}
			records := NewRecorder(nil)
			conn := connectStress(t, era, asker, records)
			closed := false
			defer func() {
				if !closed {
					conn.Close()
				}
			}()
			baseline := runtime.NumGoroutine()

			start := time.Now()
			results := runStressCalls(conn, asker, plan)
			took := time.Since(start)

			waitStressSettled(t, conn, asker, records)
			checkStress(t, plan, results, asker.seen, records.Records())

			// No goroutine per question is left behind while the
			// connection lives on (a little slack for the SDK's
			// asynchronous cancel notifications, which end on their own).
			waitGoroutines(t, baseline+2, baseline)
			if err := conn.Close(); err != nil {
				t.Logf("close: %v", err)
			}
			closed = true

			t.Logf("%s: %d calls, %d questions asked and recorded, in %s (%v)", era, len(plan), len(records.Records()), took.Round(time.Millisecond), stressCounts(plan))
		})
	}
}

// connectStress connects to stressServer in the era, checks the version it
// negotiated, and warms the connection up with a call that asks nothing, so
// that a goroutine count taken afterwards is the connection's own.
func connectStress(t *testing.T, era string, asker *stressAsker, records *Recorder) *Conn {
	t.Helper()
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: stressServer(era)},
		Protocol:     era,
		Capabilities: CapabilityOptions{FormElicitation: true},
		Asker:        asker,
		Records:      records,
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"legacy": ProtocolLegacy, "modern": ProtocolModern}[era]; conn.ProtocolVersion() != want {
		conn.Close()
		t.Fatalf("negotiated %s, want %s", conn.ProtocolVersion(), want)
	}
	if _, err := conn.Call(context.Background(), "ask", json.RawMessage(`{}`)); err == nil {
		conn.Close()
		t.Fatal("a call without arguments succeeded")
	}
	return conn
}

// runStressCalls makes every call in the plan, stressWorkers at a time,
// and returns what each returned.
func runStressCalls(conn *Conn, asker *stressAsker, plan []stressStep) []stressResult {
	results := make([]stressResult, len(plan))
	next := make(chan int)
	var wg sync.WaitGroup
	for range stressWorkers {
		wg.Go(func() {
			for i := range next {
				results[i] = stressCall(conn, asker, plan[i], i)
			}
		})
	}
	for i := range plan {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// stressCall makes call i, cancelling it where its step says, and reads
// the tool's one text, a tool error counting as an error.
func stressCall(conn *Conn, asker *stressAsker, step stressStep, i int) stressResult {
	ctx, cancel := context.WithCancel(context.Background())
	asker.cancels[i].Store(&cancel)
	var timer *time.Timer
	if step.cancel == cancelAnyTime {
		timer = time.AfterFunc(step.delay, cancel)
	}
	callCtx, bound := context.WithTimeout(ctx, 30*time.Second)
	res, err := conn.Call(callCtx, "ask", json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)))
	bound()
	if timer != nil {
		timer.Stop()
	}
	cancel()
	if err != nil {
		return stressResult{err: err}
	}
	var out stressResult
	if len(res.Content) == 1 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			out.text = tc.Text
		}
	}
	if res.IsError {
		out.err = fmt.Errorf("tool error: %s", out.text)
	}
	return out
}

// waitStressSettled waits for every question to settle: no ask is still
// running, nothing is pending, and there is a record for each question
// asked.
func waitStressSettled(t *testing.T, conn *Conn, asker *stressAsker, records *Recorder) {
	t.Helper()
	settled := func() bool {
		asker.mu.Lock()
		asked := 0
		for _, outs := range asker.seen {
			asked += len(outs)
		}
		asker.mu.Unlock()
		return asker.active.Load() == 0 && len(conn.Pending()) == 0 && len(records.Records()) == asked
	}
	deadline := time.Now().Add(10 * time.Second)
	for !settled() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if !settled() {
		t.Fatalf("not settled: %d asks running, %d pending, %d records", asker.active.Load(), len(conn.Pending()), len(records.Records()))
	}
}

// waitGoroutines waits up to ten seconds for the goroutine count to fall
// to limit, and fails if it does not.
func waitGoroutines(t *testing.T, limit, baseline int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > limit && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > limit {
		t.Errorf("%d goroutines after the calls, %d before them", n, baseline)
	}
}

// stressCounts tallies the plan's actions and cancel points, for the log.
func stressCounts(plan []stressStep) map[string]int {
	counts := map[string]int{}
	for _, s := range plan {
		counts[s.action]++
		counts["cancel point "+s.cancel.String()]++
	}
	return counts
}

// failCap reports the first max failures and counts the rest, so that a
// run that goes wrong everywhere stays readable.
type failCap struct {
	t     *testing.T
	max   int
	count int
}

func (f *failCap) fail(format string, args ...any) {
	f.t.Helper()
	if f.count++; f.count <= f.max {
		f.t.Errorf(format, args...)
	}
}

// summary reports how many failures went unreported.
func (f *failCap) summary() {
	f.t.Helper()
	if f.count > f.max {
		f.t.Errorf("… and %d more", f.count-f.max)
	}
}

// checkStress compares what the calls returned, what the asker answered and
// what the router recorded.
func checkStress(t *testing.T, plan []stressStep, results []stressResult, seen map[int][]askOutcome, recs []Record) {
	t.Helper()
	byQuestion := stressRecords(t, recs)
	f := &failCap{t: t, max: 20}
	for i, step := range plan {
		rec, recorded := byQuestion[i]
		checkStressQuestion(f, i, step, results[i], seen[i], rec, recorded)
	}
	f.summary()
}

// stressRecords indexes the records by question, failing on a record for
// no question, two records for one question, or a key used twice.
func stressRecords(t *testing.T, recs []Record) map[int]Record {
	t.Helper()
	byQuestion := map[int]Record{}
	keys := map[string]bool{}
	for _, r := range recs {
		i, err := strconv.Atoi(strings.TrimPrefix(r.Message, "q-"))
		if err != nil {
			t.Errorf("record %s for an unknown question %q", r.Key, r.Message)
			continue
		}
		if _, dup := byQuestion[i]; dup {
			t.Errorf("q-%d has two records", i)
		}
		if keys[r.Key] {
			t.Errorf("key %s is used twice", r.Key)
		}
		keys[r.Key] = true
		byQuestion[i] = r
	}
	return byQuestion
}

// checkStressQuestion compares, for question i, what the call returned,
// what the asker did (outs) and the record, if there is one.
func checkStressQuestion(f *failCap, i int, step stressStep, res stressResult, outs []askOutcome, rec Record, recorded bool) {
	f.t.Helper()
	if len(outs) > 1 {
		f.fail("q-%d was asked %d times", i, len(outs))
		return
	}
	if recorded != (len(outs) == 1) {
		f.fail("q-%d: asked %d times but recorded=%v", i, len(outs), recorded)
		return
	}
	if recorded {
		checkStressRecord(f, i, outs[0], rec)
	}
	want := fmt.Sprintf("q-%d:%s", i, step.reply())
	if ok, wanted := stressCallOK(step.cancel, res, outs, want); !ok {
		f.fail("q-%d (%s): call = %q, %v; asked %v; want %s", i, step.cancel, res.text, res.err, outs, wanted)
	}
	// Whatever completed reached the server exactly as recorded.
	if res.err == nil && recorded && res.text != fmt.Sprintf("q-%d:%s", i, recordedReply(rec)) {
		f.fail("q-%d: the server got %q but the record says %s", i, res.text, rec.Response)
	}
}

// checkStressRecord holds the record of question i to what the person
// did, one to one.
func checkStressRecord(f *failCap, i int, out askOutcome, rec Record) {
	f.t.Helper()
	switch {
	case out.err != nil && (rec.Action != "cancel" || rec.Error == ""):
		f.fail("q-%d: the question ended with %v, recorded %q error %q", i, out.err, rec.Action, rec.Error)
	case out.err == nil && (rec.Action != out.action || rec.Error != ""):
		f.fail("q-%d: answered %s, recorded %q error %q", i, out.action, rec.Action, rec.Error)
	}
	if rec.Path != PathNative || rec.Mode != "form" {
		f.fail("q-%d: record path %s mode %s", i, rec.Path, rec.Mode)
	}
}

// stressCallOK says whether a call cancelled at the point came out as it
// must, given what the asker did (outs) and the text an answered call
// returns (want); wanted describes that outcome for a failure.
func stressCallOK(point cancelPoint, res stressResult, outs []askOutcome, want string) (ok bool, wanted string) {
	switch point {
	case cancelNever:
		return res.err == nil && res.text == want && len(outs) == 1 && outs[0].err == nil, fmt.Sprintf("%q", want)
	case cancelPending:
		return errors.Is(res.err, context.Canceled) && len(outs) == 1 && outs[0].err != nil,
			"the call cancelled and its question ended"
	case cancelAnswering:
		return (res.err != nil || res.text == want) && (res.err == nil || errors.Is(res.err, context.Canceled)) && len(outs) == 1,
			fmt.Sprintf("%q or cancelled", want)
	case cancelAnyTime:
		return errors.Is(res.err, context.Canceled) && (len(outs) != 1 || outs[0].err != nil),
			"the call cancelled and any question ended"
	}
	return false, "a known cancel point"
}

// recordedReply is the answer a record says was sent, as stressServer
// reports it.
func recordedReply(r Record) string {
	var res mcp.ElicitResult
	if err := json.Unmarshal(r.Response, &res); err != nil {
		return "unreadable response " + string(r.Response)
	}
	if res.Action == "accept" {
		return res.Action + "/" + fmt.Sprint(res.Content["choice"])
	}
	return res.Action
}

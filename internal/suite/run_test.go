//lint:file-ignore SA1019 sampling and roots are deprecated from 2026-07-28 on, but servers still use them and suites test them (docs/architecture.md, "Sampling, roots and notifications").

package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dialer connects to an in-memory server that newServer makes for each
// session.
func dialer(newServer func() *mcp.Server) Dialer {
	return func(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error) {
		var roots []*mcp.Root
		for _, r := range d.Suite.Roots {
			uri, err := mcpclient.RootURI(r)
			if err != nil {
				return nil, nil, err
			}
			roots = append(roots, &mcp.Root{URI: uri})
		}
		conn, err := mcpclient.Connect(ctx, mcpclient.Config{
			Target:         mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: newServer},
			Protocol:       d.Revision,
			ConnectTimeout: 5 * time.Second,
			Capabilities:   mcpclient.CapabilityOptions{FormElicitation: true},
			Asker:          d.Asker,
			Sampler:        d.Asker,
			Records:        d.Records,
			Wire:           mcpclient.NewWireLog(0, nil),
			Roots:          roots,
		})
		return conn, nil, err
	}
}

var dialFixture = dialer(func() *mcp.Server { return fixture.New(fixture.Options{}) })

// runSuite writes text as a suite in a fresh folder and runs it.
func runSuite(t *testing.T, text string, opts Options) (*Report, *Suite) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Cleanup)
	if opts.Dial == nil {
		opts.Dial = dialFixture
	}
	rep, err := Run(t.Context(), []*Suite{s}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep, s
}

// failures are a report's failures, one line each, prefixed by the
// test's revision.
func failures(rep *Report) []string {
	var out []string
	for _, s := range rep.Suites {
		for _, tr := range s.Tests {
			for _, f := range tr.Failures {
				out = append(out, s.Revision+" "+f.String())
			}
		}
	}
	return out
}

func TestRepositorySuite(t *testing.T) {
	t.Parallel()
	files, err := Files(".", []string{filepath.Join("..", "..", "testdata", "suites")})
	if err != nil {
		t.Fatal(err)
	}
	var suites []*Suite
	tests := 0
	for _, f := range files {
		s, err := Load(f, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		suites = append(suites, s)
		tests += len(s.Tests)
	}
	rep, err := Run(t.Context(), suites, Options{Dial: dialFixture, Parallel: 4})
	if err != nil {
		t.Fatal(err)
	}
	passed, failed, _ := rep.Counts()
	if failed > 0 || len(suites) < 2 || passed < 2*tests {
		var b bytes.Buffer
		WriteText(&b, rep)
		t.Fatalf("the repository's suite: %d passed, %d failed\n%s", passed, failed, b.String())
	}
}

func TestUnexpectedQuestionFailsTheStep(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
session: shared
tests:
  - name: no answer for the question
    steps:
      - call: choose_option
        expect: {isError: false}
  - name: no answer for the sampling request
    steps:
      - call: ask_model
  - name: an answer for another question
    steps:
      - call: multi_round
        answers: [{match: {message: "name"}, action: accept, content: {name: Ada}}]
  - name: the session goes on
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
        expect: {isError: false}
`, Options{})
	got := strings.Join(failures(rep), "\n")
	for _, rev := range defaultRevisions {
		for _, want := range []string{
			rev + ` step 1: answers: unexpected elicitation: "Choose option A or B." with schema {`,
			rev + ` step 1: answers: unexpected sampling request: `,
			rev + ` step 1: answers: unexpected elicitation: "Confirm, Ada?"`,
		} {
			if !strings.Contains(got, want) {
				t.Errorf("no failure %q in\n%s", want, got)
			}
		}
	}
	// Each failure is the question alone, not also what came of refusing it.
	if n := len(failures(rep)); n != 6 {
		t.Errorf("%d failures, want 6:\n%s", n, got)
	}
	// A refused question leaves the connection up.
	if passed, failed, _ := rep.Counts(); failed != 6 || passed != 3 {
		t.Errorf("%d passed, %d failed; want 3 (the last test in each era, and its parity) and 6", passed, failed)
	}
}

func TestStrictAnswers(t *testing.T) {
	t.Parallel()
	text := `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: one entry too many
    steps:
      - call: choose_option
        answers:
          - {match: {message: "Choose"}, action: decline}
          - {match: {message: "never asked"}, action: decline}
`
	rep, _ := runSuite(t, text, Options{})
	if got := failures(rep); len(got) != 0 {
		t.Fatalf("without --strict-answers an unused entry is fine: %v", got)
	}
	rep, _ = runSuite(t, text, Options{StrictAnswers: true})
	got := failures(rep)
	if len(got) != 1 || !strings.Contains(got[0], "entry 2 was never used") {
		t.Fatalf("failures %v, want entry 2 never used", got)
	}
	if line := rep.Suites[0].Tests[0].Failures[0].Line; line != 11 {
		t.Errorf("the failure is on line %d, want 11 (the entry's)", line)
	}
}

// stallServer asks a question in its tool (2025-11-25), and never answers
// the call when the question is declined, as a server with a bug would.
func stallServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stall", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "stall", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Go on?", RequestedSchema: map[string]any{
			"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean", "default": true}}}})
		if err != nil {
			return nil, err
		}
		if res.Action == "decline" {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "era", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		era := "modern"
		if p := req.Session.InitializeParams(); p != nil && p.ProtocolVersion < mcpclient.ProtocolModern {
			era = "legacy"
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: era}}, StructuredContent: map[string]any{"era": era, "at": time.Now().String()}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "big_era", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		era := "modern"
		if p := req.Session.InitializeParams(); p != nil && p.ProtocolVersion < mcpclient.ProtocolModern {
			era = "legacy"
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: era + strings.Repeat("0123456789", parityKeep/10)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "big", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("0123456789", largeResult/10)}}}, nil
	})
	return s
}

// crashyServer is a stdio server (2025-11-25) that lists no tools and
// exits when a tool is called.
const crashyServer = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in
    *'"initialize"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"crashy","version":"1"}}}\n' "$id";;
    *'"tools/list"'*) printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[]}}\n' "$id";;
    *'"tools/call"'*) exit 3;;
  esac
done`

// TestServerCrashMidSuite: the rest of the session's tests fail saying
// so, and the next session starts fresh.
func TestServerCrashMidSuite(t *testing.T) {
	t.Parallel()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	dial := func(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error) {
		conn, err := mcpclient.Connect(ctx, mcpclient.Config{
			Target:   mcpclient.Target{Kind: mcpclient.TargetStdio, Command: []string{sh, "-c", crashyServer}},
			Protocol: d.Revision, ConnectTimeout: 10 * time.Second, Asker: d.Asker, Records: d.Records, Wire: mcpclient.NewWireLog(0, nil),
		})
		return conn, nil, err
	}
	dir := t.TempDir()
	var suites []*Suite
	for i, text := range []string{`
version: 1
server: fixture
protocol: [2025-11-25]
session: shared
tests:
  - {name: crashes, steps: [{call: anything}]}
  - {name: after the crash, steps: [{list: tools}]}
`, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - {name: a fresh session, steps: [{list: tools, expect: {jsonpath: {"$.tools": {length: 0}}}}]}
`} {
		path := filepath.Join(dir, fmt.Sprintf("%d.mcpeek.yaml", i))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(path, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		suites = append(suites, s)
	}
	rep, err := Run(t.Context(), suites, Options{Dial: dial})
	if err != nil {
		t.Fatal(err)
	}
	crashed, fresh := rep.Suites[0].Tests, rep.Suites[1].Tests
	if crashed[0].Status != StatusFailed || !strings.Contains(crashed[0].Failures[0].String(), "protocol error") {
		t.Errorf("the crash: %+v", crashed[0].Failures)
	}
	if crashed[1].Status != StatusFailed || !strings.Contains(crashed[1].Failures[0].String(), "the session ended in an earlier test") {
		t.Errorf("after the crash: %+v", crashed[1].Failures)
	}
	if fresh[0].Status != StatusPassed {
		t.Errorf("the next session: %+v", fresh[0].Failures)
	}
}

// largeResult is the size of the big tool's text: 10 MB, 1 MB under the
// race detector.
var largeResult = map[bool]int{false: 10_000_000, true: 1_000_000}[raceEnabled]

// TestLargeResultSnapshot: a 10 MB result is checked and its snapshot
// written whole.
func TestLargeResultSnapshot(t *testing.T) {
	t.Parallel()
	text := fmt.Sprintf(`
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: big
    steps:
      - call: big
        timeout: 2m
        expect: {snapshot: big, text: {length: %d}}
`, largeResult)
	rep, s := runSuite(t, text, Options{Dial: dialer(stallServer), Update: true})
	if got := failures(rep); len(got) != 0 {
		t.Fatalf("writing the large snapshot: %v", got)
	}
	st, err := os.Stat(SnapshotPath(s.File))
	if err != nil || st.Size() < int64(largeResult) {
		t.Fatalf("snapshot: %v, %v", st, err)
	}
}

func TestExploreBranches(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
tests:
  - name: every branch of the fixture ends in a result
    steps:
      - call: multi_round
        answers:
          - {match: {message: "name"}, action: accept, content: {name: Ada}}
          - {match: {message: "Confirm"}, action: accept, content: {confirm: true}}
        explore: [decline, cancel, accept-defaults]
`, Options{})
	if got := failures(rep); len(got) != 0 {
		t.Fatalf("explore failed on the fixture: %v", got)
	}
	// A passing explore: leaves a trace of the branches it ran, in the
	// text report and --json.
	var text, js bytes.Buffer
	WriteText(&text, rep)
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"step 1: explore decline: a result\n", "step 1: explore accept-defaults: a result\n"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("no %q in the report:\n%s", want, text.String())
		}
	}
	var doc struct {
		Suites []struct {
			Tests []struct {
				Explored []Branch `json:"explored"`
			} `json:"tests"`
		} `json:"suites"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || len(doc.Suites) == 0 || len(doc.Suites[0].Tests) == 0 ||
		!slices.Equal(doc.Suites[0].Tests[0].Explored, []Branch{{1, "decline", "a result"}, {1, "cancel", "a result"}, {1, "accept-defaults", "a result"}}) {
		t.Errorf("--json says nothing of explore:\n%s", js.String())
	}
	rep, _ = runSuite(t, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: a decline the server never answers
    steps:
      - call: stall
        timeout: 300ms
        answers: [{match: {message: "Go on"}, action: accept}]
        expect: {text: accept}
        explore: [cancel, decline]
`, Options{Dial: dialer(stallServer)})
	got := failures(rep)
	if len(got) != 1 || !strings.Contains(got[0], "explore decline: answering every question decline ended in") ||
		!strings.Contains(got[0], "no answer within 300ms") {
		t.Fatalf("failures %v, want the decline branch to time out (and the cancel branch to pass)", got)
	}
}

func TestStepTimeout(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: a server that hangs
    steps:
      - call: stall
        timeout: 200ms
        answers: [{match: {message: "Go on"}, action: decline}]
  - name: the next test runs
    steps:
      - call: stall
        answers: [{match: {message: "Go on"}, action: accept}]
        expect: {text: accept}
`, Options{Dial: dialer(stallServer)})
	got := failures(rep)
	if len(got) != 1 || !strings.Contains(got[0], "no answer within 200ms (the step's timeout)") {
		t.Fatalf("failures %v, want one timeout", got)
	}
}

func TestSnapshots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "snap.mcpeek.yaml")
	write := func(text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(update bool) []string {
		s, err := Load(path, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: dialer(stallServer), Update: update})
		if err != nil {
			t.Fatal(err)
		}
		return failures(rep)
	}
	suite := `
version: 1
server: fixture
protocol: [2026-07-28]
defaults: {redact: ["$.structuredContent.at"]}
tests:
  - name: era
    steps:
      - call: era
        expect: {snapshot: era-result}
`
	write(suite)
	if got := run(false); len(got) != 1 || !strings.Contains(got[0], `no snapshot "era-result"`) || !strings.Contains(got[0], "mcpeek test -u") {
		t.Fatalf("a missing snapshot: %v, want a failure saying to run -u", got)
	}
	if _, err := os.Stat(SnapshotPath(path)); err == nil {
		t.Fatal("a run without -u wrote the snapshot")
	}
	if got := run(true); len(got) != 0 {
		t.Fatalf("-u failed: %v", got)
	}
	data, err := os.ReadFile(SnapshotPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "at: '[redacted]'") || !strings.Contains(string(data), "era: modern") {
		t.Fatalf("the snapshot keeps the time or lacks the result:\n%s", data)
	}
	if strings.Contains(string(data), "resultType") || strings.Contains(string(data), "serverInfo") {
		t.Fatalf("the snapshot keeps the era's envelope:\n%s", data)
	}
	// The time changes on every call: redacted, it compares equal.
	if got := run(false); len(got) != 0 {
		t.Fatalf("comparing with the snapshot: %v", got)
	}
	// Another revision answers otherwise: the failure names the path.
	write(strings.Replace(suite, "2026-07-28", "2025-11-25", 1))
	got := run(false)
	if len(got) != 1 || !strings.Contains(got[0], "snapshot era-result at $.content[0].text: expected \"modern\", got \"legacy\"") {
		t.Fatalf("a changed result: %v", got)
	}
	if got := run(true); len(got) != 0 {
		t.Fatalf("-u over a changed result: %v", got)
	}
	if got := run(false); len(got) != 0 {
		t.Fatalf("after -u: %v", got)
	}
}

func TestEraParity(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
defaults: {redact: ["$.structuredContent.at"]}
tests:
  - name: answers differently in each era
    steps:
      - call: era
  - name: the same in each era once redacted
    steps:
      - call: era
    parity: false
  - name: the same in each era
    steps:
      - list: tools
`, Options{Dial: dialer(stallServer)})
	var parity *SuiteResult
	for _, s := range rep.Suites {
		if s.Revision == ParityRevision {
			parity = s
		}
	}
	if parity == nil || len(parity.Tests) != 2 {
		t.Fatalf("parity results %+v, want two (a test with parity: false has none)", parity)
	}
	first, second := parity.Tests[0], parity.Tests[1]
	if first.Status != StatusFailed || !strings.Contains(first.Failures[0].String(), "2025-11-25 vs 2026-07-28 at $.content[0].text") {
		t.Errorf("differing eras: %s %v", first.Status, first.Failures)
	}
	if second.Status != StatusPassed || second.Name != "the same in each era (era parity)" {
		t.Errorf("equal eras: %s %s %v", second.Name, second.Status, second.Failures)
	}
}

func TestCaptureThatMatchesNothing(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
protocol: [modern]
tests:
  - name: capture
    steps:
      - call: touch_counter
        capture: {n: "$.structuredContent.nothing"}
      - read: fixture://counter
`, Options{})
	got := failures(rep)
	if len(got) != 1 || !strings.Contains(got[0], `step 1: capture n: $["structuredContent"]["nothing"] matched nothing`) {
		t.Fatalf("failures %v", got)
	}
}

func TestExpectationsFailing(t *testing.T) { // alone: it times a call
	rep, _ := runSuite(t, `
version: 1
server: fixture
protocol: [2026-07-28]
tests:
  - name: every expectation wrong
    steps:
      - call: multi_round
        answers:
          - {match: {message: "name"}, action: accept, content: {name: Ada}}
          - {match: {message: "Confirm"}, action: accept, content: {confirm: false}}
        expect:
          isError: true
          text: {contains: "Grace"}
          asked:
            - {kind: sampling}
          rounds: 1
          jsonpath:
            "$.structuredContent.name": Grace
            "$.content": {length: 5}
          latency: {lt: 0ms, gte: 1h}
          schema: output
  - name: an error where a result was expected, and the other way round
    steps:
      - call: no_such_tool
        expect: {isError: false}
  - name: a result where an error was expected
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
        expect: {error: {code: -32602}}
  - name: the wrong error code
    steps:
      - call: no_such_tool
        expect: {error: {code: -32042}}
`, Options{})
	got := strings.Join(failures(rep), "\n")
	for _, want := range []string{
		"step 1: isError: expected true, got false",
		`step 1: text: expected a text block that contains "Grace", got ["name: Ada, confirm: false, rounds: 2"]`,
		"step 1: asked[1]: expected a sampling question, got elicitation (form) \"What is your name?\"",
		"step 1: asked: expected 1 questions, got 2, also elicitation (form) \"Confirm, Ada?\"",
		"step 1: rounds: expected 1, got 2",
		`step 1: $.structuredContent.name: expected equals "Grace", got "Ada"`,
		`step 1: $.content: expected length equals 5, got length 1`,
		"step 1: latency: expected < \"0ms\"",
		`step 1: schema output: the tool "multi_round" declares no outputSchema`,
		"step 1: result: protocol error: ",
		"step 1: error: expected a protocol error, got a result: ",
		"step 1: error.code: expected -32042, got ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no failure %q in\n%s", want, got)
		}
	}
}

func TestJUnit(t *testing.T) {
	t.Parallel()
	rep, s := runSuite(t, `
version: 1
server: fixture
tests:
  - name: passes
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
  - name: fails
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose"}, action: decline}]
        expect: {text: accept}
  - name: skipped
    skip: true
    steps:
      - list: tools
`, Options{})
	var b bytes.Buffer
	if err := WriteJUnit(&b, rep); err != nil {
		t.Fatal(err)
	}
	type testsuite struct {
		Name     *string         `xml:"name,attr"`
		Tests    *int            `xml:"tests,attr"`
		Failures *int            `xml:"failures,attr"`
		Errors   *int            `xml:"errors,attr"`
		Time     *string         `xml:"time,attr"`
		Cases    []junitTestcase `xml:"testcase"`
	}
	var doc struct {
		XMLName  xml.Name
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	if doc.XMLName.Local != "testsuites" || len(doc.Suites) != 3 || doc.Tests != 7 || doc.Failures != 2 {
		t.Fatalf("root %s with %d suites, %d tests, %d failures; want testsuites, 3 (2 revisions and parity), 7, 2:\n%s",
			doc.XMLName.Local, len(doc.Suites), doc.Tests, doc.Failures, b.String())
	}
	for _, ts := range doc.Suites[:2] {
		checkJUnitSuite(t, ts.Name != nil && ts.Tests != nil && *ts.Tests == 3 && ts.Failures != nil && *ts.Failures == 1 && ts.Errors != nil && ts.Time != nil, s.File, ts.Cases)
	}
}

// checkJUnitSuite checks a testsuite of TestJUnit: its attributes (ok),
// then its cases.
func checkJUnitSuite(t *testing.T, ok bool, file string, cases []junitTestcase) {
	t.Helper()
	if !ok {
		t.Fatal("a testsuite lacks a required attribute")
	}
	for i, tc := range cases {
		if tc.Name == nil || tc.Classname == nil || tc.File != file || len(tc.Other) > 0 {
			t.Fatalf("testcase %d: %+v", i, tc)
		}
	}
	fails := cases[1]
	if *fails.Name != "fails" || fails.Line != 9 || fails.Failure == nil || fails.Failure.Message == nil ||
		!strings.Contains(fails.Failure.Body, "t.mcpeek.yaml:13: step 1: text: expected a text block that equals \"accept\"") {
		t.Fatalf("the failing case: %+v", fails)
	}
	if fails.SystemOut == nil || !strings.Contains(*fails.SystemOut, `"method":"tools/call"`) {
		t.Fatalf("the failing case has no wire excerpt: %+v", fails)
	}
	if cases[2].Skipped == nil || cases[0].Failure != nil {
		t.Fatalf("passed and skipped cases: %+v", cases)
	}
}

// The shape the common JUnit XSD (and CI servers) read: testsuites >
// testsuite[name,tests,failures,errors,time] > testcase[name,classname] >
// failure[message] | skipped, system-out.
type junitResult struct {
	Message *string `xml:"message,attr"`
	Body    string  `xml:",chardata"`
}

type junitTestcase struct {
	Name      *string      `xml:"name,attr"`
	Classname *string      `xml:"classname,attr"`
	File      string       `xml:"file,attr"`
	Line      int          `xml:"line,attr"`
	Failure   *junitResult `xml:"failure"`
	Skipped   *junitResult `xml:"skipped"`
	SystemOut *string      `xml:"system-out"`
	Other     []string     `xml:",any"`
}

func TestGitHubAnnotations(t *testing.T) {
	t.Parallel()
	rep, s := runSuite(t, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: "fails, twice"
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose"}, action: decline}]
        expect:
          text: accept
          rounds: 2
`, Options{})
	var b bytes.Buffer
	WriteGitHub(&b, rep)
	want := "::error file=" + s.File + ",line=11,title=fails%2C twice [2025-11-25]::step 1: text: expected a text block that equals \"accept\", got [\"decline\"]\n" +
		"::error file=" + s.File + ",line=12,title=fails%2C twice [2025-11-25]::step 1: rounds: expected 2, got 1\n"
	if b.String() != want {
		t.Fatalf("annotations:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	WriteGitHubSummary(&b, rep)
	// Every failure of the test, not only the first.
	if !regexp.MustCompile(`(?m)^\| ❌ \| fails, twice \| 2025-11-25 \| .*t\.mcpeek\.yaml:6 \| step 1: text: .*<br>step 1: rounds: expected 2, got 1 \|$`).MatchString(b.String()) {
		t.Fatalf("summary:\n%s", b.String())
	}
}

// TestServerTextIsCleaned: what a server wrote, quoted in a failure,
// reaches the person's terminal (and the Actions log) without its escape
// sequences, which could clear the screen or restyle the report.
func TestServerTextIsCleaned(t *testing.T) {
	t.Parallel()
	shout := erringTool("shout", "\x1b[2J\x1b[31mred\nline")
	rep, _ := runSuite(t, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: an isError result's text
    steps:
      - call: shout
        expect: {isError: false}
  - name: a protocol error naming what was asked
    steps:
      - call: "\e[2Jgone"
`, Options{Dial: dialer(shout)})
	if got := failures(rep); len(got) != 2 {
		t.Fatalf("failures %v, want two", got)
	}
	var text, gh, summary bytes.Buffer
	WriteText(&text, rep)
	WriteGitHub(&gh, rep)
	WriteGitHubSummary(&summary, rep)
	for name, out := range map[string]string{"text": text.String(), "github": gh.String(), "summary": summary.String()} {
		if strings.ContainsRune(out, 0x1b) {
			t.Errorf("the %s report holds an escape sequence:\n%q", name, out)
		}
	}
	// JUnit keeps the text, as XML a CI server can read: a control
	// character, even in CDATA, makes the whole file unreadable.
	var junit bytes.Buffer
	if err := WriteJUnit(&junit, rep); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(junit.Bytes(), new(struct{})); err != nil {
		t.Fatalf("the JUnit report is not XML: %v", err)
	}
	if !strings.Contains(text.String(), "␛[2J␛[31mred line") {
		t.Errorf("the text report does not show the server's text, cleaned, on one line:\n%s", text.String())
	}
}

// TestCIReportsKeepServerMarkupAsText: a server's markup and control
// characters, quoted in a failure, stay text in every CI report: the step
// summary shows its HTML (an unclosed <details open> would fold away the
// rows after it) and its links and images as written, the JSON report
// writes DEL and C1 as \u escapes, and JUnit holds neither raw.
func TestCIReportsKeepServerMarkupAsText(t *testing.T) {
	t.Parallel()
	const hostile = "<details open><summary>ok</summary> <img src=x> [click](https://evil.example) ![i](https://evil.example/p.png) a&b \\[x](y) del\x7f csi\u009b nel\u0085"
	markup := erringTool("markup", hostile)
	rep, _ := runSuite(t, `
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: "<details open> [named](https://evil.example)"
    steps:
      - call: markup
        expect: {isError: false}
  - name: the row after it
    steps:
      - call: markup
        expect: {isError: false}
`, Options{Dial: dialer(markup)})
	var summary bytes.Buffer
	WriteGitHubSummary(&summary, rep)
	md := summary.String()
	for _, raw := range []string{"<details", "<img", "<summary", "[click]", "![i]", "[named]", "a&b", "\x7f", "\u009b"} {
		if strings.Contains(md, raw) {
			t.Errorf("the step summary holds %q as the server wrote it:\n%s", raw, md)
		}
	}
	for _, shown := range []string{"&lt;details open&gt;&lt;summary&gt;ok&lt;/summary&gt; &lt;img src=x&gt;", `\[click\](https://evil.example)`, `!\[i\](https://evil.example/p.png)`, "a&amp;b", `\\\[x\](y)`, `| &lt;details open&gt; \[named\](https://evil.example) |`, "| the row after it |"} {
		if !strings.Contains(md, shown) {
			t.Errorf("the step summary lacks %q:\n%s", shown, md)
		}
	}

	var js bytes.Buffer
	if err := WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(js.String(), "\x7f\u009b\u0085") || !strings.Contains(js.String(), `del\u007f csi\u009b nel\u0085`) {
		t.Errorf("the JSON report writes DEL or C1 raw:\n%q", js.String())
	}
	var back struct {
		Suites []*SuiteResult `json:"suites"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back.Suites) != 1 || !strings.Contains(back.Suites[0].Tests[0].Failures[0].String(), "del\x7f csi\u009b") {
		t.Errorf("the JSON report does not read back as the server's text: %v", err)
	}

	var junit bytes.Buffer
	if err := WriteJUnit(&junit, rep); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(junit.String(), "\x7f\u009b\u0085") {
		t.Errorf("the JUnit report holds DEL or C1:\n%q", junit.String())
	}
	if err := xml.Unmarshal(junit.Bytes(), new(struct{})); err != nil {
		t.Fatalf("the JUnit report is not XML: %v", err)
	}
}

// erringTool is a server of one tool, named name, whose every call is an
// isError result with text.
func erringTool(name, text string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: name, Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
		return s
	}
}

// TestParityKeepsLargeResultsSmall: era parity keeps a digest of a large
// result, not the result, so a suite of large results does not hold every
// one of them until the run ends; the eras still compare.
func TestParityKeepsLargeResultsSmall(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `
version: 1
server: fixture
defaults: {redact: ["$.structuredContent.at"]}
tests:
  - name: big in both eras
    steps:
      - {call: big, timeout: 2m}
  - name: era in both eras
    steps:
      - {call: era}
  - name: a large result that names its era
    steps:
      - {call: big_era}
`, Options{Dial: dialer(stallServer)})
	kept := 0
	for _, s := range rep.Suites {
		for _, tr := range s.Tests {
			for _, d := range tr.docs {
				kept += size(d)
			}
		}
	}
	if kept > 2*parityKeep {
		t.Errorf("era parity keeps %d bytes of results after the run, want at most %d", kept, 2*parityKeep)
	}
	if got := failures(rep); len(got) != 2 || !strings.Contains(got[1], "2025-11-25 vs 2026-07-28: the results differ (") {
		t.Fatalf("failures %v, want the era's result and the large one differing", got)
	}
	var parity []*TestResult
	for _, s := range rep.Suites {
		if s.Revision == ParityRevision {
			parity = s.Tests
		}
	}
	if len(parity) != 3 || parity[0].Status != StatusPassed || parity[1].Status != StatusFailed ||
		!strings.Contains(parity[1].Failures[0].String(), "at $.content[0].text") {
		t.Fatalf("parity %v, want the big results equal and the era's differing where they do", failures(rep))
	}
}

// size is how many bytes a kept parity result holds, roughly: its JSON.
func size(d parityDoc) int {
	data, _ := jsonMarshal(d.doc)
	return len(data)
}

// TestSnapshotsHideTheRunsSecrets: a snapshot is committed, so a secret
// of the run (a credential the server was given) that the server echoes
// is written redacted, as everything else the run prints is, and the
// snapshot still compares equal.
func TestSnapshotsHideTheRunsSecrets(t *testing.T) {
	t.Parallel()
	const token = "sk-live-0123456789abcdef"
	echo := func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "signed in with " + token}}}, nil
		})
		return s
	}
	secrets := &mcpclient.Secrets{}
	secrets.AddCredential(token)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(`
version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - {name: whoami, steps: [{call: whoami, expect: {snapshot: whoami}}]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, update := range []bool{true, false} {
		s, err := Load(path, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: dialer(echo), Update: update, Secrets: secrets})
		if err != nil {
			t.Fatal(err)
		}
		if got := failures(rep); len(got) != 0 {
			t.Fatalf("update %t: %v", update, got)
		}
	}
	data, err := os.ReadFile(SnapshotPath(path))
	if err != nil || strings.Contains(string(data), token) || !strings.Contains(string(data), "signed in with "+mcpclient.Redacted) {
		t.Fatalf("snapshot: %v\n%s", err, data)
	}
}

// TestParallelReachability: whether the server was reached before any
// test ran does not depend on --parallel. A server that speaks only
// 2025-11-25 is reached in the suite's first session; its 2026-07-28
// sessions fail their tests (exit 1) however the sessions interleave,
// rather than the run ending as "no test ran" (exit 3) when a failing
// connect happened to come first.
func TestParallelReachability(t *testing.T) {
	t.Parallel()
	legacyOnly := func(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error) {
		if d.Revision == mcpclient.ProtocolModern {
			return nil, nil, errors.New("the server does not speak protocol revision 2026-07-28")
		}
		return dialFixture(ctx, d)
	}
	path := filepath.Join(t.TempDir(), "t.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(`
version: 1
server: fixture
tests:
  - {name: tools, steps: [{list: tools}]}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The sessions race; a few runs see the interleavings.
	for range 20 {
		s, err := Load(path, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: legacyOnly, Parallel: 2})
		if err != nil {
			t.Fatalf("run: %v, want the 2025-11-25 test passed and the 2026-07-28 one failed", err)
		}
		if passed, failed, _ := rep.Counts(); passed != 1 || failed != 1 {
			t.Fatalf("%d passed, %d failed; want 1 and 1", passed, failed)
		}
	}
}

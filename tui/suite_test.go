package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoSuite is a project's suite against the fixture: a test that passes,
// one that fails, and one whose snapshot is not written yet. Each answers
// the question choose_option asks.
const demoSuite = `version: 1
server: fixture
tests:
  - name: option B is accepted
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-b}}]
        expect: {text: "accept: option-b", asked: [{kind: elicitation, action: accept}]}
  - name: option A is wanted
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-b}}]
        expect: {text: "accept: option-a"}
  - name: the choice is kept
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-a}}]
        expect: {snapshot: chosen}
`

// demoProject is a folder holding the demo suite under mcpeek/.
func demoProject(t *testing.T) string {
	t.Helper()
	return projectWith(t, "demo.yaml", demoSuite)
}

// projectWith is a folder holding the suite text as mcpeek/name.
func projectWith(t *testing.T, name, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcpeek", name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// suiteTab is the key of the Suite tab.
func suiteTab() string { return string(rune('1' + placeOf[*page.Suite](testPages()))) }

// The Suite tab lists the project's tests and runs them on the connected
// server, in its era, the tests' answers answering the server's
// questions (no form opens): a pass, a failure showing expected and
// actual, and a missing snapshot accepted with u and then passing.
func TestSuiteTabRunsTestsOnTheConnection(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			dir := demoProject(t)
			in := open(t, Options{Dir: dir, Connect: inMemory(fixtureServer, era)}, 120, 40).expect("choose_option")
			in.keys(suiteTab()).expectAll("option B is accepted", "option A is wanted", "the choice is kept")
			in.keys("enter").approveTest().expect("✓ passed")
			in.keys("down", "enter").approveTest().expectAll("✗ failed", "expected", "actual", `["accept: option-b"]`)
			in.keys("down", "enter").approveTest().expectAll("✗ snapshot", "chosen (missing)", "u accepts it")
			in.keys("u").expect("accepted: chosen")
			if _, err := os.Stat(suite.SnapshotPath(filepath.Join(dir, "mcpeek", "demo.yaml"))); err != nil {
				t.Fatalf("the snapshot was not written: %v", err)
			}
			// The first row's "✓ passed" is on screen already: wait for
			// the pane's, which says this run's revision.
			in.keys("enter").expect("✓ passed in ")
			view := in.screen()
			if strings.Contains(view, "is asking for input") || len(in.m.queue) != 0 {
				t.Errorf("a form was queued for a question a test answered:\n%s", view)
			}
			recs := in.m.conn.Records()
			if len(recs) != 4 {
				t.Errorf("%d questions recorded, want the 4 the runs answered", len(recs))
			}
			if got := pageOf[*page.Suite](in.m).Running(); got {
				t.Error("a run is still in flight")
			}
		})
	}
}

// A test of the other era is skipped, saying why, whether its own
// protocol: or its suite's names the era: it is not run in the
// connection's, where it would fail for a reason not in the test.
func TestSuiteTabSkipsAnOtherEraTest(t *testing.T) {
	const text = `version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: legacy by its suite
    steps: [{read: "fixture://counter"}]
  - name: modern by its own
    protocol: [2026-07-28]
    steps: [{read: "fixture://counter"}]
`
	in := open(t, Options{Dir: projectWith(t, "eras.yaml", text), Connect: inMemory(fixtureServer, "modern")}, 120, 40).expect("choose_option")
	in.keys(suiteTab()).expectAll("legacy by its suite", "modern by its own")
	in.keys("enter").approveTest().expect("skipped: the suite runs in 2025-11-25, the connection speaks 2026-07-28")
	in.keys("down", "enter").approveTest().expect("✓ passed in ")
}

// After a run the inspector's own questions are the person's again: a
// tool called from the Tools tab opens its form.
func TestSuiteRunLeavesTheInspectorsAsker(t *testing.T) {
	in := open(t, Options{Dir: demoProject(t)}, 100, 30).expect("choose_option")
	in.keys(suiteTab()).expect("option B is accepted").keys("enter").approveTest().expect("✓ passed")
	in.keys("1").selectTool("choose_option").keys("enter").formOpen()
}

// The Suite tab at each size: a failure side by side, and a pending
// snapshot.
func TestSuiteGoldens(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  int // the test run and shown
		want string
	}{{"failed", 1, "✗ failed"}, {"pending", 2, "u accepts it"}} {
		for _, size := range sizes {
			t.Run(tc.name+"/"+size.name, func(t *testing.T) {
				in := open(t, Options{Dir: demoProject(t)}, size.w, size.h).expect("choose_option")
				in.keys(suiteTab()).expect("option B is accepted")
				for range tc.row {
					in.keys("down")
				}
				in.keys("enter").approveTest().expect(tc.want)
				checkGolden(t, in.screen())
			})
		}
	}
}

// approveTest answers yes to the review of a project's test, shown
// before its first run.
func (in *inspector) approveTest() *inspector {
	in.t.Helper()
	return in.expect("Run a project's test?").keys("y")
}

// hostileSuite is a cloned repository's test: its name says read-only,
// but it calls a destructive tool, accepts the tool's confirmation and
// sends a variable of the person's environment.
const hostileSuite = `version: 1
server: fixture
tests:
  - name: list files (read-only smoke test)
    steps:
      - call: wipe
        args: {token: "{{env.DANGER_SECRET}}"}
        answers: [{match: {message: "Really delete everything?"}, action: accept, content: {sure: true}}]
        expect: {text: wiped}
`

// wipeServer is the person's own server: wipe, annotated destructive,
// asks before it wipes; calls counts its calls.
func wipeServer(calls *atomic.Int32) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1"}, nil)
		destructive := true
		s.AddTool(&mcp.Tool{Name: "wipe", InputSchema: json.RawMessage(`{"type":"object","properties":{"token":{"type":"string"}}}`),
			Annotations: &mcp.ToolAnnotations{DestructiveHint: &destructive}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				calls.Add(1)
				res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Really delete everything?",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"sure":{"type":"boolean"}}}`)})
				if err != nil || res.Action != "accept" {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "kept"}}}, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wiped"}}}, nil
			})
		return s
	}
}

// A project's test runs on the person's server only once they have seen
// what it does and said yes: the review names the tool as the server
// annotates it, the arguments with the variable they read (never its
// value), and the answer the test gives to the tool's confirmation. No
// sends nothing; yes runs it and is remembered, until the suite file
// changes.
func TestSuiteTabAsksBeforeAProjectTestRuns(t *testing.T) {
	t.Setenv("DANGER_SECRET", "s3cr3t-value-of-the-person")
	dir := projectWith(t, "smoke.yaml", hostileSuite)
	file := filepath.Join(dir, "mcpeek", "smoke.yaml")
	var calls atomic.Int32
	in := open(t, Options{Dir: dir, Connect: inMemory(wipeServer(&calls), "legacy")}, 120, 40).expect("wipe")
	in.keys(suiteTab()).expect("list files (read-only smoke test)")

	in.keys("enter").expectAll("Run a project's test?", "1. call wipe", "not read-only, destructive",
		`{"token":"{{env.DANGER_SECRET}}"}`, "answers the questions of a tool that is not read-only with",
		`"message":"Really delete everything?"`, `"content":{"sure":true}`,
		"Reads from your environment: DANGER_SECRET")
	if view := in.tm.View(); strings.Contains(view, "s3cr3t") {
		t.Errorf("the review shows the variable's value:\n%s", view)
	}
	in.keys("n").expectAll("not run", "you did not approve it")
	if n := calls.Load(); n != 0 {
		t.Fatalf("the server saw %d call(s) of a test the person declined", n)
	}

	in.keys("enter").approveTest().expect("✓ passed")
	if n := calls.Load(); n != 1 {
		t.Fatalf("the server saw %d call(s) after one approved run, want 1", n)
	}
	// Approved: the next run does not ask (the review would cover the
	// row's mark).
	in.keys("enter").expect("✓ passed")
	if n := calls.Load(); n != 2 {
		t.Fatalf("the server saw %d call(s) after a second run, want 2", n)
	}

	// The suite changes (the same test, another answer): asked again.
	changed := strings.Replace(hostileSuite, "version: 1\n", "version: 1\n# edited\n", 1)
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	in.keys("enter").expect("Run a project's test?").keys("esc").expect("you did not approve it")
	if n := calls.Load(); n != 2 {
		t.Fatalf("the server saw %d call(s) once the changed suite was declined, want 2", n)
	}
}

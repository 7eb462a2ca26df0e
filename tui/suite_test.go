package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/tui/page"
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
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mcpeek", "demo.yaml"), []byte(demoSuite), 0o644); err != nil {
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
			in.keys("enter").expect("✓ passed")
			in.keys("down", "enter").expectAll("✗ failed", "expected", "actual", `["accept: option-b"]`)
			in.keys("down", "enter").expectAll("✗ snapshot", "chosen (missing)", "u accepts it")
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

// After a run the inspector's own questions are the person's again: a
// tool called from the Tools tab opens its form.
func TestSuiteRunLeavesTheInspectorsAsker(t *testing.T) {
	in := open(t, Options{Dir: demoProject(t)}, 100, 30).expect("choose_option")
	in.keys(suiteTab()).expect("option B is accepted").keys("enter").expect("✓ passed")
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
				in.keys("enter").expect(tc.want)
				checkGolden(t, in.screen())
			})
		}
	}
}

package page

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

const twoTests = `version: 1
server: fixture
tests:
  - name: first
    steps: [{call: choose_option, expect: {snapshot: chosen}}]
  - name: second
    steps: [{call: choose_option}]
`

// newSuitePage is the Suite tab over a folder holding files (name →
// text), shown in w × h.
func newSuitePage(t *testing.T, files map[string]string, w, h int) (*Suite, string) {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info", "Suite"))
	p := NewSuite(&c, dir)
	p.Update(tea.WindowSizeMsg{Width: w, Height: h})
	p.Focus(true)
	return p, dir
}

func suiteView(p *Suite, w, h int) string { return ansi.Strip(p.View(w, h)) }

// The tab lists the tests mcpeek test finds (mcpeek/ and *.mcpeek.yaml),
// a file it cannot read as a row saying so, and says how to start when
// there is none; files written meanwhile show when the tab shows again.
func TestSuiteListsWhatMcpeekTestFinds(t *testing.T) {
	p, dir := newSuitePage(t, nil, 100, 20)
	if v := suiteView(p, 100, 20); !strings.Contains(v, "no suite here") {
		t.Errorf("an empty folder:\n%s", v)
	}
	for name, text := range map[string]string{"mcpeek/a.yaml": twoTests, "b.mcpeek.yaml": "version: 2\n", "notes.yaml": twoTests} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p.Focus(true)
	var names []string
	for _, st := range p.tests {
		names = append(names, st.File+"|"+st.Name)
	}
	want := []string{"b.mcpeek.yaml|", filepath.Join("mcpeek", "a.yaml") + "|first", filepath.Join("mcpeek", "a.yaml") + "|second"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("rows %v, want %v", names, want)
	}
	v := suiteView(p, 100, 20)
	for _, s := range []string{"b.mcpeek.yaml", "error", "a: first", "a: second"} {
		if !strings.Contains(v, s) {
			t.Errorf("the list lacks %q:\n%s", s, v)
		}
	}
	if a, ok := p.Update(keyMsg("enter")).(Note); !ok || !a.Err {
		t.Errorf("enter on a file that cannot be read: %#v, want a note", a)
	}
}

// enter asks for a run within a context esc cancels; while it runs a
// second enter is refused; the run's outcome shows inline and in the
// pane; an outcome for a run the page did not start is dropped.
func TestSuiteRunAndCancel(t *testing.T) {
	p, dir := newSuitePage(t, map[string]string{"t.mcpeek.yaml": twoTests}, 100, 24)
	run, ok := p.Update(keyMsg("enter")).(RunTest)
	if !ok || run.Name != "first" || run.File != filepath.Join(dir, "t.mcpeek.yaml") || run.Ctx == nil {
		t.Fatalf("enter: %#v, want a run of first", run)
	}
	if a, ok := p.Update(keyMsg("enter")).(Note); !ok || !a.Err {
		t.Errorf("enter while a run runs: %#v, want a note", a)
	}
	if v := suiteView(p, 100, 24); !strings.Contains(v, "running") || !strings.Contains(v, "esc cancels") {
		t.Errorf("while running:\n%s", v)
	}
	if a := p.Update(keyMsg("esc")); a != nil {
		t.Errorf("esc while running: %#v", a)
	}
	select {
	case <-run.Ctx.Done():
	default:
		t.Fatal("esc did not cancel the run's context")
	}
	p.Update(TestRan{ID: run.ID + 100, Err: errors.New("stale")}) // another page's
	if !p.Running() {
		t.Fatal("an outcome of another run ended this one")
	}
	p.Update(TestRan{ID: run.ID, Cancelled: true, Result: &suite.TestResult{Status: suite.StatusFailed}})
	if p.Running() {
		t.Fatal("the run's outcome did not settle it")
	}
	if v := suiteView(p, 100, 24); !strings.Contains(v, "cancelled") {
		t.Errorf("after a cancelled run:\n%s", v)
	}
	if a := p.Update(keyMsg("esc")); a != (layer.Pass{}) {
		t.Errorf("esc with nothing running: %#v, want Pass", a)
	}
	run2, _ := p.Update(keyMsg("enter")).(RunTest)
	p.Update(TestRan{ID: run2.ID, Err: errors.New("not connected to a server")})
	if v := suiteView(p, 100, 24); !strings.Contains(v, "not run") || !strings.Contains(v, "not connected") {
		t.Errorf("a run that could not start:\n%s", v)
	}
}

// A failure shows expected and actual side by side, in the pane's width
// at 80 and 120 columns; a pending snapshot is accepted with u, written
// as mcpeek test -u writes it, and u then has nothing to accept.
func TestSuiteFailureAndAccept(t *testing.T) {
	for _, w := range []int{80, 120} {
		p, dir := newSuitePage(t, map[string]string{"t.mcpeek.yaml": twoTests}, w, 24)
		run := p.Update(keyMsg("enter")).(RunTest)
		res := &suite.TestResult{Name: "first", Status: suite.StatusFailed, Revision: "2026-07-28", Failures: []suite.Failure{
			{Step: 1, Line: 5, What: "snapshot chosen at $.content[0].text", Expected: `"accept: option-a"`, Actual: `"accept: option-b"`}}}
		p.Update(TestRan{ID: run.ID, Result: res, Pending: []suite.Pending{{Name: "chosen", Value: map[string]any{"x": "option-b"}, Stored: true}}})
		v := suiteView(p, w, 24)
		for _, line := range strings.Split(v, "\n") {
			if ansi.StringWidth(line) > w {
				t.Errorf("%d columns: a line of %d cells: %q", w, ansi.StringWidth(line), line)
			}
		}
		var side string
		for _, line := range strings.Split(v, "\n") {
			if strings.Contains(line, "expected") {
				side = line
			}
		}
		if !strings.Contains(side, "actual") {
			t.Errorf("%d columns: expected and actual are not side by side:\n%s", w, v)
		}
		if !strings.Contains(v, "✗ snapshot") || !strings.Contains(v, "chosen (changed)") || !strings.Contains(v, "u accepts it") {
			t.Errorf("%d columns: the pending snapshot is not offered:\n%s", w, v)
		}
		if a := p.Update(keyMsg("u")); a != nil {
			t.Errorf("u: %#v", a)
		}
		data, err := os.ReadFile(suite.SnapshotPath(filepath.Join(dir, "t.mcpeek.yaml")))
		if err != nil || !strings.Contains(string(data), "chosen:") || !strings.Contains(string(data), "option-b") {
			t.Errorf("the snapshot file: %q, %v", data, err)
		}
		if v := suiteView(p, w, 24); !strings.Contains(v, "accepted: chosen") {
			t.Errorf("after u:\n%s", v)
		}
		if a, ok := p.Update(keyMsg("u")).(Note); !ok || !a.Err {
			t.Errorf("u with nothing pending: %#v, want a note", a)
		}
	}
}

// Server text in a failure is cleaned before it reaches the terminal.
func TestSuiteFailureIsCleaned(t *testing.T) {
	p, _ := newSuitePage(t, map[string]string{"t.mcpeek.yaml": twoTests}, 100, 24)
	run := p.Update(keyMsg("enter")).(RunTest)
	p.Update(TestRan{ID: run.ID, Result: &suite.TestResult{Status: suite.StatusFailed, Failures: []suite.Failure{
		{What: "text", Expected: "a", Actual: "b\x1b]52;c;ZXZpbA==\x07\x1b[2J"}}}})
	if v := p.View(100, 24); strings.Contains(v, "\x1b]52") || strings.Contains(v, "\x1b[2J") {
		t.Errorf("an escape from the server reached the screen: %q", v)
	}
}

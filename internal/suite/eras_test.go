package suite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// oneEra dials a fixture that speaks one era, as every TypeScript-SDK 1.x
// server (legacy) does.
func oneEra(era string) Dialer {
	return dialer(func() *mcp.Server { return fixture.New(fixture.Options{Era: era}) })
}

const twoTests = `
tests:
  - name: count
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
        expect: {isError: false}
  - name: counter
    steps:
      - read: fixture://counter
  - name: not yet
    skip: true
    steps:
      - read: fixture://counter
`

// With protocol: left out, a suite runs in the eras the server speaks and
// reports the other once, as skipped with the reason, whichever era the
// server speaks.
func TestUnspokenEraSkippedOnce(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ era, spoken, unspoken string }{
		{"legacy", "2025-11-25", "2026-07-28"},
		{"modern", "2026-07-28", "2025-11-25"},
	} {
		rep, _ := runSuite(t, "version: 1\nserver: fixture\n"+twoTests, Options{Dial: oneEra(c.era)})
		if got := failures(rep); len(got) != 0 {
			t.Errorf("%s server: %v", c.era, got)
		}
		passed, failed, skipped := rep.Counts()
		if passed != 2 || failed != 0 || skipped != 2 {
			t.Errorf("%s server: %d passed, %d failed, %d skipped; want 2, 0 and 2 (the skip: true test, the era once)", c.era, passed, failed, skipped)
		}
		var text bytes.Buffer
		WriteText(&text, rep)
		if n := strings.Count(text.String(), "skip "+c.unspoken); n != 1 ||
			!strings.Contains(text.String(), "does not speak protocol revision "+c.unspoken) {
			t.Errorf("%s server: the report says the unspoken era %d times, want once with the reason:\n%s", c.era, n, &text)
		}
		for _, s := range rep.Suites {
			if s.Revision == c.unspoken && len(s.Tests) != 0 {
				t.Errorf("%s server: the unspoken era lists its tests: %+v", c.era, s.Tests)
			}
		}
	}
}

// An era the suite or a test names is required: a server that does not
// speak it fails the tests in it, as before.
func TestNamedUnspokenEraFails(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, "version: 1\nserver: fixture\nprotocol: [2025-11-25, 2026-07-28]\n"+twoTests, Options{Dial: oneEra("legacy")})
	if passed, failed, skipped := rep.Counts(); passed != 2 || failed != 2 || skipped != 2 {
		t.Errorf("suite-level protocol: %d passed, %d failed, %d skipped; want 2, 2 and 2 (skip: true in each era): %v", passed, failed, skipped, failures(rep))
	}
	rep, _ = runSuite(t, `
version: 1
server: fixture
tests:
  - name: anywhere
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
  - name: modern only
    protocol: 2026-07-28
    steps:
      - read: fixture://counter
`, Options{Dial: oneEra("legacy")})
	got := failures(rep)
	if len(got) != 1 || !strings.Contains(got[0], "2026-07-28") || !strings.Contains(got[0], "does not speak") {
		t.Errorf("a test naming the era the server does not speak: %v, want it failed", got)
	}
	if passed, _, skipped := rep.Counts(); passed != 1 || skipped != 1 {
		t.Errorf("%d passed, %d skipped; want 1 (anywhere, legacy) and 1 (the modern era, once)", passed, skipped)
	}
}

// A test saved from a session names the revision the session negotiated
// when the server is known to speak it alone, both when it is known to
// speak both, and none when that is not known: saved from a server of
// one era, it passes against it at once.
func TestSavedTestRunsInTheSessionsEra(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		eras []string
		want string
	}{
		{nil, "name: count\nsteps:"},
		{[]string{"2025-11-25"}, `protocol: ["2025-11-25"]`},
		{[]string{"2025-11-25", "2026-07-28"}, `protocol: ["2025-11-25", "2026-07-28"]`},
	} {
		d, err := BuildTest("count", SessionStep{Kind: StepCall, Target: "count_down", Args: map[string]any{"steps": 1, "delayMs": 0},
			Era: "2025-11-25", Eras: c.eras, Result: map[string]any{"content": []any{}}, NoSnapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		text, err := encodeYAML(d.Node())
		if err != nil || !strings.Contains(string(text), c.want) {
			t.Errorf("eras %v: wrote\n%s(%v), want %s", c.eras, text, err, c.want)
		}
	}
	d, err := BuildTest("count", SessionStep{Kind: StepCall, Target: "count_down", Args: map[string]any{"steps": 1, "delayMs": 0}, Era: "2025-11-25", NoSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "saved.mcpeek.yaml")
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := Load(file, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Cleanup()
	rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: oneEra("legacy")})
	if err != nil {
		t.Fatal(err)
	}
	if passed, failed, _ := rep.Counts(); passed != 1 || failed != 0 {
		t.Errorf("%d passed, %d failed against the server it was saved from: %v", passed, failed, failures(rep))
	}
}

// A server that speaks none of mcpeek's eras does not pass a suite that
// names no protocol: silently: the skips become one failure that says so.
func TestNoEraSpokenFails(t *testing.T) {
	t.Parallel()
	none := func(_ context.Context, d Dial) (*mcpclient.Conn, func(), error) {
		return nil, nil, &mcpclient.RevisionError{Want: d.Revision, Got: "2024-11-05"}
	}
	rep, _ := runSuite(t, "version: 1\nserver: fixture\n"+twoTests, Options{Dial: none})
	passed, failed, _ := rep.Counts()
	var text bytes.Buffer
	WriteText(&text, rep)
	if passed != 0 || failed != 1 || !strings.Contains(text.String(), "the server speaks none of the revisions the suite runs in (2025-11-25, 2026-07-28), so no test ran") {
		t.Errorf("%d passed, %d failed; want one failure saying no era is spoken:\n%s", passed, failed, &text)
	}
}

// skip: takes the reason a test is skipped, which the report prints; a
// value that is neither is the suite's mistake.
func TestSkipReasonIsPrinted(t *testing.T) {
	t.Parallel()
	rep, _ := runSuite(t, `version: 1
server: fixture
protocol: [2025-11-25]
tests:
  - name: wipes
    skip: "deletes every note: run it against a scratch server"
    steps: [{call: reset_notes}]
  - name: kept
    skip: false
    steps: [{read: fixture://counter}]
`, Options{})
	var text, junit bytes.Buffer
	WriteText(&text, rep)
	if err := WriteJUnit(&junit, rep); err != nil {
		t.Fatal(err)
	}
	if p, _, s := rep.Counts(); p != 1 || s != 1 || !strings.Contains(text.String(), "wipes: deletes every note: run it against a scratch server\n") ||
		!strings.Contains(junit.String(), `message="deletes every note`) {
		t.Errorf("%d passed, %d skipped:\n%s\n%s", p, s, &text, &junit)
	}
	if _, err := Parse("t.mcpeek.yaml", []byte("version: 1\nserver: fixture\ntests:\n  - name: x\n    skip: [1]\n    steps: [{read: fixture://counter}]\n"), os.LookupEnv); err == nil ||
		!strings.Contains(err.Error(), "skip: is true, false or the reason") {
		t.Errorf("skip: [1]: %v", err)
	}
}

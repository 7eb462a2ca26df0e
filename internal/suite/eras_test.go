package suite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
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
		if passed != 2 || failed != 0 || skipped != 1 {
			t.Errorf("%s server: %d passed, %d failed, %d skipped; want 2, 0 and 1 (the era, once)", c.era, passed, failed, skipped)
		}
		var text bytes.Buffer
		WriteText(&text, rep)
		if n := strings.Count(text.String(), "skip "); n != 1 || !strings.Contains(text.String(), "skip "+c.unspoken) ||
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
	if passed, failed, skipped := rep.Counts(); passed != 2 || failed != 2 || skipped != 0 {
		t.Errorf("suite-level protocol: %d passed, %d failed, %d skipped; want 2, 2 and 0: %v", passed, failed, skipped, failures(rep))
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

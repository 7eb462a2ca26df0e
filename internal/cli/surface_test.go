package cli

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/surface/surfacetest"
)

// The two versions of the test server, and what a diff of them must find:
// v2 makes one change per ERR rule, and keeps serverInfo.version's major.
const (
	surfaceV1 = "../../testdata/surface/v1.json"
	surfaceV2 = "../../testdata/surface/v2.json"
)

var v1ToV2 = []string{
	"annotation-destructive-added", "annotation-readonly-dropped", "capability-removed", "extension-removed",
	"input-constraint-tightened", "input-enum-value-removed", "input-property-removed", "input-required-added",
	"input-type-narrowed", "output-property-removed", "output-required-removed", "output-schema-removed",
	"prompt-removed", "prompt-required-arg-added", "protocol-revision-dropped", "resource-removed",
	"task-support-required", "template-removed", "tool-removed", "version-not-bumped",
}

// diffReport is the part of diff's JSON report the tests read.
type diffReport struct {
	Version  int    `json:"version"`
	Failed   bool   `json:"failed"`
	FailOn   string `json:"failOn"`
	Findings []struct {
		ID       string          `json:"id"`
		Level    string          `json:"level"`
		Tool     string          `json:"tool"`
		Accepted json.RawMessage `json:"accepted"`
		Expired  json.RawMessage `json:"expired"`
	} `json:"findings"`
}

func runDiff(t *testing.T, args ...string) (int, diffReport, string) {
	t.Helper()
	code, stdout, stderr := run(append([]string{"diff", "--format", "json"}, args...)...)
	var r diffReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("diff %v: exit %d, not a JSON report (%v): %q, stderr %q", args, code, err, stdout, stderr)
	}
	return code, r, stderr
}

func (r diffReport) ids() []string {
	out := []string{}
	for _, f := range r.Findings {
		out = append(out, f.ID)
	}
	slices.Sort(out)
	return out
}

// TestDiffOfTheTwoTestServers: the live surfaces of v1 and v2, each a
// server reached by its URL, differ by exactly one finding per ERR rule,
// as their files do; the gate fails (exit 1).
func TestDiffOfTheTwoTestServers(t *testing.T) {
	v1, v2 := surfacetest.Serve(t, surfaceV1), surfacetest.Serve(t, surfaceV2)
	for name, sides := range map[string][2]string{
		"live":       {v1, v2},
		"files":      {surfaceV1, surfaceV2},
		"file, live": {surfaceV1, v2},
	} {
		t.Run(name, func(t *testing.T) {
			code, r, stderr := runDiff(t, sides[0], sides[1])
			if code != exitToolError || !r.Failed || r.Version != 1 {
				t.Errorf("exit %d, failed %t, version %d; stderr %q", code, r.Failed, r.Version, stderr)
			}
			if got := r.ids(); !slices.Equal(got, v1ToV2) {
				t.Errorf("findings\n%v\nwant\n%v", got, v1ToV2)
			}
			for _, f := range r.Findings {
				if f.Level != "ERR" {
					t.Errorf("%s is %s, want ERR", f.ID, f.Level)
				}
			}
		})
	}
	// On 2025-11-25, initialize names one revision, the one agreed; the
	// revision v2 dropped is found all the same, each revision being
	// probed on a connection of its own.
	t.Run("legacy", func(t *testing.T) {
		_, r, stderr := runDiff(t, "--protocol", "legacy", v1, v2)
		if got := r.ids(); !slices.Equal(got, v1ToV2) {
			t.Errorf("findings\n%v\nwant\n%v; stderr %q", got, v1ToV2, stderr)
		}
	})
}

// TestDiffOfIdenticalServers: a server compared with itself, or with the
// file it serves, reports nothing and passes.
func TestDiffOfIdenticalServers(t *testing.T) {
	v1 := surfacetest.Serve(t, surfaceV1)
	for name, sides := range map[string][2]string{
		"live":       {v1, surfacetest.Serve(t, surfaceV1)},
		"file, live": {surfaceV1, v1},
	} {
		t.Run(name, func(t *testing.T) {
			code, r, stderr := runDiff(t, sides[0], sides[1])
			if code != exitOK || r.Failed || len(r.Findings) != 0 {
				t.Errorf("exit %d, findings %v; stderr %q", code, r.ids(), stderr)
			}
		})
	}
	code, stdout, _ := run("diff", surfaceV1, v1)
	if code != exitOK || !strings.HasSuffix(stdout, ": no differences\n") {
		t.Errorf("text: exit %d, %q", code, stdout)
	}
}

// TestSurfaceFileIsWhatServesIt: the surface of the server a surface file
// describes is that file, byte for byte (canonical JSON).
func TestSurfaceFileIsWhatServesIt(t *testing.T) {
	want, err := os.ReadFile(surfaceV2)
	if err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run("surface", surfacetest.Serve(t, surfaceV2))
	if code != exitOK || stdout != string(want) {
		t.Errorf("exit %d, stderr %q, surface\n%s\nwant\n%s", code, stderr, stdout, want)
	}
}

// TestFixtureSurface: the fixture's surface is the same bytes run after
// run, and nothing in it breaks a client of the committed lock
// (testdata/fixture.surface.json, which .ci/run checks against the fixture
// over stdio).
func TestFixtureSurface(t *testing.T) {
	_, first, _ := run("surface")
	if !strings.Contains(first, `"name": "mcpeek-fixture"`) {
		t.Fatalf("surface %q", first)
	}
	for i := 1; i < 20; i++ {
		if code, again, stderr := run("surface"); code != exitOK || again != first {
			t.Fatalf("run %d: exit %d, stderr %q, a surface other than the first", i+1, code, stderr)
		}
	}
	live := filepath.Join(t.TempDir(), "fixture.json")
	if err := os.WriteFile(live, []byte(first), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := run("diff", "../../testdata/fixture.surface.json", live)
	if code != exitOK {
		t.Errorf("the fixture breaks its lock (update testdata/fixture.surface.json with `mcpeek surface -- mcpeek fixture` if it must): exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestDiffExitCodes: 0 nothing at or above --fail-on, 1 something, 2 bad
// input, 3 a live side not reached.
func TestDiffExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"tools": []}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	for _, c := range []struct {
		args []string
		code int
		say  string
	}{
		{[]string{surfaceV1, surfaceV2, "--fail-on", "never"}, exitOK, ""},
		{[]string{surfaceV2, surfaceV1, "--fail-on", "ERR"}, exitOK, ""}, // v2 → v1 only adds
		{[]string{surfaceV2, surfaceV1, "--fail-on", "INFO"}, exitToolError, ""},
		{[]string{surfaceV1, bad}, exitUsage, "no \"mcpeekSurface\" key"},
		{[]string{surfaceV1, filepath.Join(dir, "missing.json")}, exitUsage, "no such file"},
		{[]string{surfaceV1}, exitUsage, "want OLD and NEW"},
		{[]string{surfaceV1, surfaceV2, surfaceV2}, exitUsage, "want OLD and NEW"},
		{[]string{surfaceV1, surfaceV2, "--format", "xml"}, exitUsage, "--format"},
		{[]string{surfaceV1, surfaceV2, "--fail-on", "sometimes"}, exitUsage, "--fail-on"},
		{[]string{surfaceV1, surfaceV2, "--config", filepath.Join(dir, "none.yaml")}, exitUsage, "--config"},
		{[]string{surfaceV1, closed, "--connect-timeout", "5s"}, exitConnection, "connect to"},
		{[]string{surfaceV1, "--", filepath.Join(dir, "no such server")}, exitConnection, "connect to"},
	} {
		code, stdout, stderr := run(append([]string{"diff"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.say) {
			t.Errorf("diff %v: exit %d, stderr %q; want exit %d saying %q (stdout %q)", c.args, code, stderr, c.code, c.say, stdout)
		}
	}
}

// TestDiffSides: a side is a file, a URL, or a command from -- to the next
// -- or the end; flags go before, between or after them.
func TestDiffSides(t *testing.T) {
	for _, c := range []struct {
		args  []string
		files []string
		cmds  [][]string
	}{
		{[]string{"a.json", "b.json"}, []string{"a.json", "b.json"}, nil},
		{[]string{"--fail-on", "WARN", "a.json", "--format", "json", "b.json"}, []string{"a.json", "b.json"}, nil},
		{[]string{"a.json", "--", "srv", "--flag"}, []string{"a.json"}, [][]string{{"srv", "--flag"}}},
		{[]string{"a.json", "--format", "json", "--", "srv", "-x"}, []string{"a.json"}, [][]string{{"srv", "-x"}}},
		{[]string{"--", "one", "-a", "--", "two", "-b"}, nil, [][]string{{"one", "-a"}, {"two", "-b"}}},
		{[]string{"http://127.0.0.1:1/mcp", "b.json"}, []string{"b.json"}, [][]string{{"http://127.0.0.1:1/mcp"}}},
	} {
		fs := find("diff").flagSet(nil)
		o := find("diff").options(fs).(*diffOptions)
		if err := o.parse(fs, c.args); err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		var files []string
		var cmds [][]string
		for _, s := range o.sides {
			if s.file != "" {
				files = append(files, s.file)
			} else {
				cmds = append(cmds, s.words)
			}
		}
		if !slices.Equal(files, c.files) || !slices.EqualFunc(cmds, c.cmds, slices.Equal) {
			t.Errorf("%v: files %q, commands %q; want %q, %q", c.args, files, cmds, c.files, c.cmds)
		}
	}
}

// TestDiffConfig: a config's level overrides and acceptances apply; an
// expired acceptance fails again, and says so.
func TestDiffConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "diff.yaml")
	if err := os.WriteFile(cfg, []byte(`levels:
  version-not-bumped: WARN
accept:
  - {id: tool-removed, tool: legacy_search, reason: "replaced by search", until: 2999-03-01}
  - {id: prompt-removed, reason: "nobody used it", until: 2020-01-01}
  - {id: tool-removed, tool: never_there, reason: "old news", until: 2999-01-01}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, r, stderr := runDiff(t, surfaceV1, surfaceV2, "--config", cfg)
	if code != exitToolError {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	seen := map[string]bool{}
	for _, f := range r.Findings {
		seen[f.ID] = true
		switch f.ID {
		case "tool-removed":
			if f.Accepted == nil {
				t.Errorf("tool-removed not accepted")
			}
		case "prompt-removed":
			if f.Accepted != nil || f.Expired == nil || f.Level != "ERR" {
				t.Errorf("prompt-removed: level %s, accepted %s, expired %s; want its expired acceptance ignored", f.Level, f.Accepted, f.Expired)
			}
		case "version-not-bumped":
			if f.Level != "WARN" {
				t.Errorf("version-not-bumped at %s, want the config's WARN", f.Level)
			}
		}
	}
	if len(seen) != len(v1ToV2) {
		t.Errorf("findings %v", r.ids())
	}
	if want := "mcpeek: diff config: the acceptance of tool-removed (old news) matches no finding; remove it?\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
}

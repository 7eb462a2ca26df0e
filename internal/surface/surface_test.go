package surface

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCanonical: the surface file does not depend on the order a server
// lists things in, nor on volatile _meta; what a client relies on stays.
func TestCanonical(t *testing.T) {
	a := `{"mcpeekSurface":1,"supportedVersions":["2025-11-25","2026-07-28"],
	  "tools":[{"name":"b","inputSchema":{"type":"object","required":["y","x"]},"_meta":{"progressToken":7,"ui":{"resourceUri":"ui://b"}}},
	           {"name":"a","inputSchema":{"type":["string","object"]},"_meta":{"requestedAt":"2026-01-01T00:00:00Z"}}]}`
	b := `{"mcpeekSurface":1,"supportedVersions":["2026-07-28","2025-11-25"],
	  "tools":[{"name":"a","inputSchema":{"type":["object","string"]}},
	           {"_meta":{"ui":{"resourceUri":"ui://b"}},"inputSchema":{"required":["x","y"],"type":"object"},"name":"b"}]}`
	sa, err := Parse([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	sb, err := Parse([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	ma, _ := sa.Marshal()
	mb, _ := sb.Marshal()
	if !bytes.Equal(ma, mb) {
		t.Errorf("two listings of one surface give\n%s\nand\n%s", ma, mb)
	}
	if bytes.Contains(ma, []byte("progressToken")) || bytes.Contains(ma, []byte("requestedAt")) || !bytes.Contains(ma, []byte(`"resourceUri": "ui://b"`)) {
		t.Errorf("_meta: want only ui kept:\n%s", ma)
	}
	if !bytes.HasPrefix(ma, []byte("{\n  \"mcpeekSurface\": 1,\n")) || !bytes.HasSuffix(ma, []byte("}\n")) {
		t.Errorf("not the file's layout:\n%s", ma)
	}
	again, err := Parse(ma)
	if err != nil {
		t.Fatal(err)
	}
	if m, _ := again.Marshal(); !bytes.Equal(m, ma) {
		t.Errorf("a surface file read and written again changed")
	}
}

// TestParseRefuses: what is not a surface file of this format says so.
func TestParseRefuses(t *testing.T) {
	for in, want := range map[string]string{
		`{"tools":[]}`:        `no "mcpeekSurface" key`,
		`{"mcpeekSurface":2}`: "format 2",
		`[1]`:                 "not a surface file",
		`{"mcpeekSurface":1,"tools":[{"title":"x"}]}`: "tools[0] has no name",
		`{"mcpeekSurface":1} {}`:                      "not a surface file",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", in, err, want)
		}
	}
}

// TestConfig: levels override rules, acceptances hold until the end of
// their day and match only where they say, and a config that does not
// say what it means is refused.
func TestConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
levels:
  tool-description-changed: err
accept:
  - id: tool-removed
    tool: legacy
    reason: replaced by search
    until: 2027-03-01
`))
	if err != nil {
		t.Fatal(err)
	}
	fs := []Finding{
		{ID: "tool-removed", Level: ERR, Tool: "legacy"},
		{ID: "tool-removed", Level: ERR, Tool: "other"},
		{ID: "tool-description-changed", Level: WARN, Tool: "x"},
	}
	lastDay := time.Date(2027, 3, 1, 23, 59, 0, 0, time.UTC)
	cfg.apply(fs, lastDay)
	if fs[0].Accepted == nil || fs[1].Accepted != nil || fs[2].Level != ERR {
		t.Errorf("on its last day: %+v", fs)
	}
	fs[0].Accepted = nil
	cfg.apply(fs, lastDay.Add(2*time.Minute))
	if fs[0].Accepted != nil || fs[0].Expired == nil || len(Failing(fs, ERR)) != 3 {
		t.Errorf("the day after: %+v", fs)
	}
	for in, want := range map[string]string{
		"levels: {tool-removed: SEVERE}":                            "unknown level",
		"accept: [{id: tool-removed, until: 2027-01-01}]":           "no reason",
		"accept: [{id: tool-removed, reason: x}]":                   "no until date",
		"accept: [{id: tool-removed, reason: x, until: soon}]":      "not a date",
		"accept: [{reason: x, until: 2027-01-01}]":                  "no id",
		"accept: [{id: x, reason: x, until: 2027-01-01, to: 3}]":    `line 1: unknown key "to"`,
		"ignore: [tool-removed]":                                    `line 1: unknown key "ignore"`,
		"levels: {tool-remove: WARN}":                               `levels: tool-remove: no rule of mcpeek diff has this id`,
		"accept: [{id: tool-remove, reason: x, until: 2027-01-01}]": `accept entry 1: tool-remove: no rule of mcpeek diff has this id`,
	} {
		if _, err := ParseConfig([]byte(in)); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "surface.") {
			t.Errorf("%s: %v, want an error saying %q (in the config's words, not Go's)", in, err, want)
		}
	}
}

func loadPair(t *testing.T) (*Surface, *Surface, []byte) {
	t.Helper()
	var s [2]*Surface
	var first []byte
	for i, p := range []string{"v1.json", "v2.json"} {
		data, err := os.ReadFile(filepath.Join("../../testdata/surface", p))
		if err != nil {
			t.Fatal(err)
		}
		if s[i], err = Parse(data); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = data
		}
	}
	return s[0], s[1], first
}

// TestGitHubActions: one workflow command per finding, at its line in the
// committed surface file: the removed tool's own line, a changed bound's.
func TestGitHubActions(t *testing.T) {
	v1, v2, data := loadPair(t)
	r := &Report{Old: Side{Label: "lock.json", File: "lock.json", Data: data}, New: Side{Label: "live"}, FailOn: ERR,
		Findings: Diff(v1, v2, nil, time.Now())}
	var b bytes.Buffer
	if err := r.Write(&b, "githubactions"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	cmd := regexp.MustCompile(`^::error file=lock\.json,line=(\d+),title=([^:]+)::(.+)$`)
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		m := cmd.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n++
		at, _ := strconv.Atoi(m[1])
		src := lines[at-1]
		switch {
		case strings.HasPrefix(m[2], "tool-removed "):
			if strings.TrimSpace(src) != `"name": "legacy_search"` {
				t.Errorf("tool-removed at line %d: %q", at, src)
			}
		case strings.HasPrefix(m[2], "input-constraint-tightened "):
			if strings.TrimSpace(src) != `"maximum": 100,` {
				t.Errorf("input-constraint-tightened at line %d: %q", at, src)
			}
		}
	}
	if n != 20 {
		t.Errorf("%d error commands, want 20:\n%s", n, b.String())
	}
}

// TestReportFormats: the JSON report is versioned; JUnit has a failing
// testcase per finding at or above --fail-on; Markdown is a table; text
// groups by level with counts.
func TestReportFormats(t *testing.T) {
	v1, v2, _ := loadPair(t)
	fs := Diff(v2, v1, nil, time.Now()) // only additions: INFO
	fs = append(fs, Diff(v1, v2, nil, time.Now())[:2]...)
	r := &Report{Old: Side{Label: "old"}, New: Side{Label: "new"}, FailOn: ERR, Findings: fs}
	out := func(format string) string {
		var b bytes.Buffer
		if err := r.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	var j struct {
		Version  int    `json:"version"`
		Failed   bool   `json:"failed"`
		Counts   Counts `json:"counts"`
		Findings []Finding
	}
	if err := json.Unmarshal([]byte(out("json")), &j); err != nil || j.Version != ReportVersion || !j.Failed || j.Counts.ERR != 2 || len(j.Findings) != len(fs) {
		t.Errorf("json: %v %+v", err, j)
	}
	var x struct {
		Suites []struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out("junit")), &x); err != nil || len(x.Suites) != 1 || x.Suites[0].Tests != 2 || x.Suites[0].Failures != 2 {
		t.Errorf("junit: %v %+v", err, x)
	}
	if md := out("markdown"); !strings.Contains(md, "| level | rule | where | what a client notices |") || !strings.Contains(md, "the gate fails") {
		t.Errorf("markdown:\n%s", md)
	}
	text := out("text")
	c := Count(fs)
	if !strings.HasPrefix(text, "old → new: "+c.Summary()+"\n") || !strings.Contains(text, "\nERR (2)\n") ||
		!strings.Contains(text, "\nINFO ("+strconv.Itoa(c.INFO)+")\n") || !strings.HasSuffix(text, "failed: findings at or above ERR\n") {
		t.Errorf("text:\n%s", text)
	}
}

// TestReportQuotesSafely: a server's words (a tool's name) reach a
// terminal or a CI log as text, never as escape sequences or extra lines.
func TestReportQuotesSafely(t *testing.T) {
	r := &Report{Old: Side{Label: "a"}, New: Side{Label: "b"}, FailOn: ERR,
		Findings: []Finding{{ID: "tool-removed", Level: ERR, Tool: "x\x1b[2J\n::error::forged", Message: "tool x\x1b[2J\n::error::forged is gone"}}}
	for _, format := range []string{"text", "markdown", "githubactions"} {
		var b bytes.Buffer
		if err := r.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "\x1b") || strings.Contains(b.String(), "\n::error::forged") {
			t.Errorf("%s: %q", format, b.String())
		}
	}
	// JUnit keeps the words, but as XML a CI server can read: a control
	// character, even in CDATA, makes the whole file unreadable.
	var b bytes.Buffer
	if err := r.Write(&b, "junit"); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil || !strings.Contains(b.String(), "::error::forged") {
		t.Errorf("junit: %v\n%q", err, b.String())
	}
}

// TestCheckLock: what the inspector calls with its working directory: no
// lock, nothing to say; a lock the server no longer matches, the counts
// in its header; the project's diff config applies.
func TestCheckLock(t *testing.T) {
	v1, v2, data := loadPair(t)
	dir := t.TempDir()
	if st, err := CheckLock(dir, v2, time.Now()); st != nil || err != nil || st.Header() != "" {
		t.Errorf("no lock: %+v, %v", st, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, LockFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := CheckLock(dir, v1, time.Now())
	if err != nil || st.Header() != "" || len(st.Findings) != 0 {
		t.Errorf("the server of its lock: %+v, %v", st, err)
	}
	st, err = CheckLock(dir, v2, time.Now())
	if err != nil || st.Header() != "20 ERR since the lock" {
		t.Fatalf("v2: %q, %v", st.Header(), err)
	}
	if err := os.WriteFile(filepath.Join(dir, DefaultConfig), []byte("levels: {tool-removed: WARN, prompt-removed: INFO}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err = CheckLock(dir, v2, time.Now())
	if err != nil || st.Header() != "18 ERR, 1 WARN, 1 INFO since the lock" {
		t.Errorf("with the project's config: %q, %v", st.Header(), err)
	}
	var b bytes.Buffer
	if err := st.Report().Write(&b, "text"); err != nil || !strings.Contains(b.String(), "\nWARN (1)\n  tool-removed") {
		t.Errorf("its report: %v\n%s", err, b.String())
	}
	// The inspector's live surface, unprobed and taken by a discovery that
	// lists only 2026-07-28, says nothing of the revisions the lock's
	// probes accepted.
	live := *v1
	live.ProbedRevisions, live.SupportedVersions = nil, []string{"2026-07-28"}
	if st, err = CheckLock(dir, &live, time.Now()); err != nil || st.Header() != "" {
		t.Errorf("an unprobed live surface: %q, %v", st.Header(), err)
	}
}

// TestReportKeepsServerMarkupAsText: a server's markup stays text in the
// Markdown report (an unclosed <details open> would fold away the rows
// after it; a link or image would render), and its DEL and C1 characters
// reach neither the JSON report raw nor JUnit.
func TestReportKeepsServerMarkupAsText(t *testing.T) {
	hostile := "<details open> [x](https://evil.example) ![i](https://evil.example/p.png) <img src=y> del\x7f nel\u0085"
	r := &Report{Old: Side{Label: "a`<details open>"}, New: Side{Label: "b <img>"}, FailOn: ERR,
		Findings: []Finding{{ID: "tool-removed", Level: ERR, Tool: hostile, Message: "tool " + hostile + " is gone"}}}
	out := func(format string) string {
		var b bytes.Buffer
		if err := r.Write(&b, format); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	md := out("markdown")
	for _, raw := range []string{"<details", "<img src", "a`<", "[x]", "![i]", "\x7f", "\u0085"} {
		if strings.Contains(md, raw) {
			t.Errorf("markdown holds %q as the server wrote it:\n%s", raw, md)
		}
	}
	if !strings.Contains(md, "&lt;details open&gt; \\[x\\](https://evil.example)") || !strings.Contains(md, "a\\`&lt;details open&gt; → `b <img>`") {
		t.Errorf("markdown does not show the server's text:\n%s", md)
	}
	if js := out("json"); strings.ContainsAny(js, "\x7f\u0085") || !strings.Contains(js, `del\u007f nel\u0085`) {
		t.Errorf("json writes DEL or C1 raw:\n%q", js)
	}
	if junit := out("junit"); strings.ContainsAny(junit, "\x7f\u0085") {
		t.Errorf("junit holds DEL or C1:\n%q", junit)
	}
}

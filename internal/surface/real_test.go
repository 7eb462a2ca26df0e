package surface

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// realUpgrades are upgrades of released servers, each side's surface
// captured with mcpeek surface into testdata/surface/real (the interop
// script takes them live and compares them with the same goldens).
var realUpgrades = []struct{ old, new string }{
	{"server-filesystem-2026.8.31", "server-filesystem-2.3.0"},
	{"server-everything-2025.9.25", "server-everything-2026.8.31"},
}

// TestDiffOfRealUpgrades: the classified report of each real upgrade is
// its golden (-update rewrites them). server-filesystem 2.3.0 still
// accepts 2025-11-25, though its discovery lists only 2026-07-28: no
// revision is dropped, and zod's integer bound is none. server-everything
// 2026.8.31 renamed its tools and prompts (hinted), dropped the template
// of its hundred resources (one finding) and changed its name.
func TestDiffOfRealUpgrades(t *testing.T) {
	const dir = "../../testdata/surface/real"
	for _, u := range realUpgrades {
		t.Run(u.new, func(t *testing.T) {
			report := realReport(t, filepath.Join(dir, u.old+".json"), filepath.Join(dir, u.new+".json"))
			golden := filepath.Join(dir, u.old+"-to-"+u.new+".txt")
			if *update {
				if err := os.WriteFile(golden, report, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(report, want) {
				t.Errorf("the report is not %s (go test ./internal/surface -run TestDiffOfRealUpgrades -update rewrites it):\n%s", golden, report)
			}
		})
	}
}

// realReport is the text report of a diff of two surface files, labelled
// by their names.
func realReport(t *testing.T, oldPath, newPath string) []byte {
	t.Helper()
	sides := [2]*Surface{}
	for i, p := range []string{oldPath, newPath} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if sides[i], err = Parse(data); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	r := &Report{Old: Side{Label: filepath.Base(oldPath)}, New: Side{Label: filepath.Base(newPath)}, FailOn: ERR,
		Findings: Diff(sides[0], sides[1], nil, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))}
	var b bytes.Buffer
	if err := r.Write(&b, "text"); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRealUpgradesSayWhatTheIssueAsks: the goldens hold what a reader of
// the reports relies on, so that -update cannot quietly lose it.
func TestRealUpgradesSayWhatTheIssueAsks(t *testing.T) {
	const dir = "../../testdata/surface/real"
	fs := string(realReport(t, filepath.Join(dir, "server-filesystem-2026.8.31.json"), filepath.Join(dir, "server-filesystem-2.3.0.json")))
	if strings.Contains(fs, "protocol-revision-dropped") || strings.Contains(fs, "9007199254740991") {
		t.Errorf("server-filesystem 2026.8.31 → 2.3.0: a revision dropped, or zod's integer bound judged:\n%s", fs)
	}
	ev := string(realReport(t, filepath.Join(dir, "server-everything-2025.9.25.json"), filepath.Join(dir, "server-everything-2026.8.31.json")))
	for _, want := range []string{
		"tool add was removed and get-sum added", "tool getTinyImage was removed and get-tiny-image added",
		"tool printEnv was removed and get-env added", "prompt simple_prompt was removed and simple-prompt added",
		"the 100 resources of the removed template are gone", `serverInfo.name "example-servers/everything" → "mcp-servers/everything"`,
	} {
		if !strings.Contains(ev, want) {
			t.Errorf("server-everything 2025.9.25 → 2026.8.31: no %q in\n%s", want, ev)
		}
	}
	if n := strings.Count(ev, "  resource-removed "); n != 1 {
		t.Errorf("server-everything 2025.9.25 → 2026.8.31: %d resource-removed findings, want the one of the template", n)
	}
}

// TestGroupedRemovalsKeepAcceptances: the removals of a removed template's
// resources are one finding that lists them, in their numbers' order; one
// an acceptance holds stays its own and accepted, and an acceptance naming
// the template accepts the group.
func TestGroupedRemovalsKeepAcceptances(t *testing.T) {
	old := surf(t, `"resources":[{"uri":"test://r/10","name":"10"},{"uri":"test://r/2","name":"2"},{"uri":"test://r/1","name":"1"}],`+
		`"resourceTemplates":[{"uriTemplate":"test://r/{id}","name":"r"}]`)
	new := surf(t, `"serverInfo":{"name":"s","version":"2.0.0"}`)
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	byID := func(fs []Finding, id string) []Finding {
		var out []Finding
		for _, f := range fs {
			if f.ID == id {
				out = append(out, f)
			}
		}
		return out
	}
	removed := byID(Diff(old, new, nil, now), "resource-removed")
	if len(removed) != 1 || removed[0].Template != "test://r/{id}" || removed[0].Resource != "" ||
		!strings.HasSuffix(removed[0].Message, ": test://r/1, test://r/2, test://r/10") {
		t.Fatalf("grouped: %+v", removed)
	}
	cfg, err := ParseConfig([]byte("accept:\n  - id: resource-removed\n    resource: test://r/2\n    reason: moved\n    until: 2027-01-01\n"))
	if err != nil {
		t.Fatal(err)
	}
	removed = byID(Diff(old, new, cfg, now), "resource-removed")
	slices.SortFunc(removed, func(a, b Finding) int { return strings.Compare(a.Resource, b.Resource) })
	if len(removed) != 2 || removed[0].Accepted != nil || !strings.HasSuffix(removed[0].Message, ": test://r/1, test://r/10") ||
		removed[1].Resource != "test://r/2" || removed[1].Accepted == nil {
		t.Errorf("one accepted: %+v", removed)
	}
	cfg, err = ParseConfig([]byte("accept:\n  - id: resource-removed\n    template: test://r/{id}\n    reason: gone\n    until: 2027-01-01\n"))
	if err != nil {
		t.Fatal(err)
	}
	removed = byID(Diff(old, new, cfg, now), "resource-removed")
	if len(removed) != 1 || removed[0].Accepted == nil || len(cfg.Unused(removed)) != 0 {
		t.Errorf("the group accepted: %+v", removed)
	}
}

// TestTemplateRegexp: a URI template matches the URIs it expands to.
func TestTemplateRegexp(t *testing.T) {
	for _, c := range []struct {
		template, uri string
		match         bool
	}{
		{"test://static/resource/{id}", "test://static/resource/42", true},
		{"test://static/resource/{id}", "test://static/resource/4/2", false},
		{"file://{+path}", "file:///etc/hosts", true},
		{"search://q{?query,limit}", "search://q?query=a&limit=2", true},
		{"search://q{?query,limit}", "search://q", true},
		{"a.b://x/{id}", "aXb://x/1", false},
	} {
		re, err := templateRegexp(c.template)
		if err != nil {
			t.Fatal(err)
		}
		if got := re.MatchString(c.uri); got != c.match {
			t.Errorf("%s matches %s: %t, want %t", c.template, c.uri, got, c.match)
		}
	}
}

// TestNameWords: names alike whatever their case and separators, a
// generic verb aside, and the stem of a word.
func TestNameWords(t *testing.T) {
	for _, c := range []struct {
		name string
		want string
	}{
		{"getTinyImage", "tiny imag"}, {"get-tiny-image", "tiny imag"}, {"GET_TINY_IMAGE", "tiny imag"},
		{"structuredContent", "structur content"}, {"HTTPServerName", "http server nam"},
		{"sampleLLM", "sampl llm"}, {"trigger-sampling-request", "sampl request"},
	} {
		if got := strings.Join(nameWords(c.name), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

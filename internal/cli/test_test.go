package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
)

// writeSuite writes a suite file in a fresh folder and returns its path.
func writeSuite(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const passingSuite = `version: 1
server: fixture
tests:
  - name: choose
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose"}, action: accept, content: {choice: option-a}}]
        expect: {jsonpath: {"$.structuredContent.choice": option-a}}
`

// TestTestExitCodes: 0 all passed, 1 a test failed, 2 a bad suite (with
// its file and line), 3 a server not reached before any test ran, 124
// the run's --timeout, 130 interrupted.
func TestTestExitCodes(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	failing := strings.Replace(passingSuite, "choice\": option-a}", "choice\": option-b}", 1)
	bad := strings.Replace(passingSuite, "expect:", "expext:", 1)
	unreachable := strings.Replace(passingSuite, "server: fixture", "server: [/nonexistent/mcpeek-test-server]", 1)
	silent := strings.Replace(passingSuite, "server: fixture", "server: [sleep, \"30\"]", 1)
	slow := strings.Replace(passingSuite, "call: choose_option", "call: count_down\n        args: {steps: 1000, delayMs: 10000}\n        timeout: 1h", 1)
	for _, tc := range []struct {
		name       string
		suite      string
		args       []string
		want       int
		wantOut    string
		wantStderr string
	}{
		{"passed", passingSuite, nil, exitOK, "3 passed, 0 failed", ""},
		{"failed", failing, nil, exitToolError, `expected equals "option-b", got "option-a"`, ""},
		{"bad suite", bad, nil, exitUsage, "", `t.mcpeek.yaml:8: unknown key "expext"`},
		{"unreachable", unreachable, nil, exitConnection, "", "mcpeek: no test ran: connect to /nonexistent/mcpeek-test-server"},
		{"a server that never answers", silent, []string{"--connect-timeout", "300ms"}, exitConnection, "", "mcpeek: no test ran: connect to sleep 30: no answer within 300ms"},
		{"timeout", slow, []string{"--timeout", "300ms", "--protocol", "modern"}, exitTimeout, "", "deadline exceeded"},
		{"both revisions named", passingSuite, []string{"--protocol", "2025-11-25,modern"}, exitOK, "3 passed, 0 failed", ""},
		{"bad flag", passingSuite, []string{"--protocol", "2024-01-01"}, exitUsage, "", "unknown protocol revision"},
		{"bad filter", passingSuite, []string{"--filter", "("}, exitUsage, "", "--filter"},
		{"the command line's server", unreachable, []string{"--", "fixture"}, exitOK, "3 passed", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeSuite(t, tc.suite)
			args := append([]string{"test", path}, tc.args...)
			code, stdout, stderr := run(args...)
			if code != tc.want || !strings.Contains(stdout, tc.wantOut) || !strings.Contains(stderr, tc.wantStderr) {
				t.Fatalf("exit %d (want %d)\nstdout %s\nstderr %s", code, tc.want, stdout, stderr)
			}
		})
	}
	t.Run("a mistyped suite", func(t *testing.T) {
		// Not taken for the server's command, which would run every suite
		// found here against it.
		missing := filepath.Join(t.TempDir(), "missing.mcpeek.yaml")
		code, _, stderr := run("test", missing)
		if code != exitUsage || !strings.Contains(stderr, missing+": no such suite file") {
			t.Fatalf("exit %d (want %d), stderr %s", code, exitUsage, stderr)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var out, errb bytes.Buffer
		if code := Run(ctx, []string{"test", writeSuite(t, passingSuite)}, &out, &errb); code != exitInterrupted {
			t.Fatalf("exit %d, want %d: %s", code, exitInterrupted, errb.String())
		}
	})
}

// TestTestReports: --junit, --json and --github write their reports, and
// GitHub's step summary, beside the lines for a person.
func TestTestReports(t *testing.T) {
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	failing := strings.Replace(passingSuite, "choice\": option-a}", "choice\": option-b}", 1)
	path := writeSuite(t, failing)
	junitPath, jsonPath := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.json")
	code, stdout, stderr := run("test", path, "--protocol", "legacy", "--junit", junitPath, "--json", jsonPath)
	if code != exitToolError {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "::error file="+path+",line=8,title=choose [2025-11-25]::step 1: $.structuredContent.choice: expected equals") {
		t.Errorf("no annotation (GITHUB_ACTIONS=true) in %s", stdout)
	}
	junit, err := os.ReadFile(junitPath)
	if err != nil || !strings.Contains(string(junit), `<testcase name="choose"`) || !strings.Contains(string(junit), `line="4"`) {
		t.Errorf("junit: %v %s", err, junit)
	}
	var report struct {
		Version int `json:"version"`
		Failed  int `json:"failed"`
		Suites  []struct {
			Revision string `json:"revision"`
			Tests    []struct {
				Status   string          `json:"status"`
				Failures []suite.Failure `json:"failures"`
			} `json:"tests"`
		} `json:"suites"`
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil || json.Unmarshal(data, &report) != nil || report.Version != 1 || report.Failed != 1 ||
		report.Suites[0].Revision != "2025-11-25" || report.Suites[0].Tests[0].Failures[0].Line != 8 {
		t.Errorf("json report: %v %s", err, data)
	}
	md, err := os.ReadFile(summary)
	if err != nil || !strings.Contains(string(md), "0 passed, 1 failed") {
		t.Errorf("step summary: %v %s", err, md)
	}
}

// TestTestInit: a starter suite with a test per tool, which mcpeek test
// reads.
func TestTestInit(t *testing.T) {
	out := filepath.Join(t.TempDir(), "starter.mcpeek.yaml")
	code, stdout, stderr := run("test", "init", "--out", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	s, err := suite.Load(out, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tt := range s.Tests {
		names[tt.Name] = true
	}
	if len(s.Tests) < 20 || !names["count_down"] || !names["choose_option"] || s.Server != nil {
		t.Fatalf("starter suite: %d tests, server %v", len(s.Tests), s.Server)
	}
	if code, _, stderr := run("test", "init", "--out", out); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Fatalf("init over an existing file: exit %d, %s", code, stderr)
	}
}

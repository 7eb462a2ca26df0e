package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// run runs mcpeek in-process.
func run(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestHelp: the usage text and each command's help, generated from the
// command table, read as they are documented (-update rewrites the files).
func TestHelp(t *testing.T) {
	t.Setenv("TERM", "xterm") // --plain's default follows TERM
	for _, tc := range []struct {
		golden string
		args   [][]string // each prints the golden text
	}{
		// The usage text documents the inspector's flags; inspect names it.
		{"usage", [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "inspect"}, {"inspect", "--help"}}},
		{"call", [][]string{{"help", "call"}, {"call", "-h"}, {"call", "choose_option", "-h"}}},
		{"list", [][]string{{"help", "list"}, {"list", "-h"}}},
		{"read", [][]string{{"help", "read"}, {"read", "-h"}, {"read", "fixture://counter", "-h"}}},
		{"prompt", [][]string{{"help", "prompt"}, {"prompt", "-h"}, {"prompt", "greet", "-h"}}},
		{"complete", [][]string{{"help", "complete"}, {"complete", "-h"}}},
		{"test", [][]string{{"help", "test"}, {"test", "-h"}}},
		{"caps", [][]string{{"help", "caps"}, {"caps", "--help"}}},
		{"fixture", [][]string{{"help", "fixture"}, {"fixture", "-h"}}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			for _, args := range tc.args {
				code, stdout, stderr := run(args...)
				if code != exitOK || stderr != "" {
					t.Fatalf("%q: exit %d, stderr %q", args, code, stderr)
				}
				golden.RequireEqual(t, []byte(stdout))
			}
		})
	}
}

// TestEveryCommandIsDocumented: each command of the table has its line in
// the usage text and a help of its own, and runs when named.
func TestEveryCommandIsDocumented(t *testing.T) {
	_, usage, _ := run("help")
	for i := range commands {
		c := &commands[i]
		if !strings.Contains(usage, "\n  "+c.usage) {
			t.Errorf("the usage text lacks %q:\n%s", c.usage, usage)
		}
		if c.name == "" {
			continue
		}
		if find(c.name) != c {
			t.Errorf("%q does not select its own command", c.name)
		}
		code, stdout, stderr := run("help", c.name)
		if code != exitOK || !strings.HasPrefix(stdout, "usage: mcpeek "+c.name) {
			t.Errorf("help %s: exit %d, stdout %q, stderr %q", c.name, code, stdout, stderr)
		}
	}
}

func TestHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		if code, stdout, _ := run(args...); code != 0 || !strings.HasPrefix(stdout, "mcpeek ") {
			t.Errorf("%v: exit %d, stdout %q", args, code, stdout)
		}
	}
	for _, args := range [][]string{{"help"}, {"-h"}, {"call", "-h"}, {"list", "-h"}, {"caps", "-h"}, {"fixture", "-h"}, {"help", "call"}} {
		code, stdout, stderr := run(args...)
		if code != 0 || !strings.Contains(stdout, "usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	for _, args := range [][]string{{"help", "frobnicate"}, {"help", ""}} {
		if code, stdout, stderr := run(args...); code != exitUsage || stdout != "" || !strings.Contains(stderr, "help: unknown command") {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
}

// TestExitCodeOfEachError: the one mapping from errors to exit codes, and
// which errors are printed.
func TestExitCodeOfEachError(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(live)
	cancel()
	tests := []struct {
		name     string
		ctx      context.Context
		err      error
		wantCode int
		wantSay  bool
	}{
		{"success", live, nil, exitOK, false},
		{"-h", live, flag.ErrHelp, exitOK, false},
		{"the tool returned isError", live, errToolError, exitToolError, false},
		{"answers rejected", live, errAnswersRejected, exitUsage, false},
		{"usage", live, usagef("call: name the tool to call"), exitUsage, true},
		{"usage, once interrupted", done, usagef("bad"), exitUsage, true},
		{"a form's Ctrl+C", live, errInterrupted, exitInterrupted, true},
		{"the fixture cannot serve", done, serveError{errors.New("fixture: address in use")}, exitConnection, true},
		{"a failure after an interrupt", done, errors.New("connect to x: broken pipe"), exitInterrupted, true},
		{"--timeout", live, fmt.Errorf("call x: %w", context.DeadlineExceeded), exitTimeout, true},
		{"connection", live, errors.New("connect to x: refused"), exitConnection, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, say := exitCode(tc.ctx, tc.err)
			if code != tc.wantCode || say != tc.wantSay {
				t.Errorf("exitCode(%v) = %d, %v; want %d, %v", tc.err, code, say, tc.wantCode, tc.wantSay)
			}
		})
	}
}

// TestReportIsOneLine: whatever an error says, even quoting a server, it
// reaches stderr as one line without escape sequences.
func TestReportIsOneLine(t *testing.T) {
	var stderr bytes.Buffer
	code := report(context.Background(), errors.New("call x: it broke\r\n\x1b[2Jfake: line"), &stderr)
	if code != exitConnection {
		t.Errorf("exit %d, want %d", code, exitConnection)
	}
	got := stderr.String()
	if strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "mcpeek: call x: it broke") || strings.Contains(got, "\x1b") {
		t.Errorf("stderr = %q, want one clean line", got)
	}
}

// TestFlagsBeforeTheCommand: connection flags may come before the
// command's name ("mcpeek -e K=V call …"), which then reads them as its
// own, rather than running a server command named after the command; a --
// before the word keeps it a server command.
func TestFlagsBeforeTheCommand(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		wantName string // "" for the inspector
		wantRest []string
	}{
		{[]string{"--protocol", "legacy", "call", "echo"}, "call", []string{"--protocol", "legacy", "echo"}},
		{[]string{"-e", "K=V", "call", "echo", "./server"}, "call", []string{"-e", "K=V", "echo", "./server"}},
		{[]string{"--app-host", "-H", "X: 1", "list", "tools"}, "list", []string{"--app-host", "-H", "X: 1", "tools"}},
		{[]string{"-e", "K=V", "inspect", "./server"}, "", []string{"-e", "K=V", "./server"}},
		{[]string{"-e", "K=V", "--", "call"}, "", []string{"-e", "K=V", "--", "call"}},
		{[]string{"--protocol", "legacy", "./server", "call"}, "", []string{"--protocol", "legacy", "./server", "call"}},
		{[]string{"-e", "call"}, "", []string{"-e", "call"}}, // call is -e's value
		{[]string{"--json", "doctor", "./server"}, "doctor", []string{"--json", "./server"}},
		{[]string{"--config", "mcp.json", "servers"}, "servers", []string{"--config", "mcp.json"}},
		{[]string{"--protocol", "legacy", "node", "server.js", "list"}, "", []string{"--protocol", "legacy", "node", "server.js", "list"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			c, rest, err := lookup(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if c.name != tc.wantName || strings.Join(rest, "|") != strings.Join(tc.wantRest, "|") {
				t.Errorf("lookup = %q %q, want %q %q", c.name, rest, tc.wantName, tc.wantRest)
			}
		})
	}
	// Run through, the command does its work with the flag given first.
	code, stdout, stderr := run("--protocol", "legacy", "caps")
	if code != exitOK || !strings.Contains(stdout, `"protocolVersion": "2025-11-25"`) {
		t.Errorf("mcpeek --protocol legacy caps: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, _, stderr = run("--json", "--protocol", "legacy", "caps")
	if code != exitUsage || !strings.Contains(stderr, "flag provided but not defined: -json") {
		t.Errorf("a flag no command before it takes: exit %d, stderr %q", code, stderr)
	}
}

// TestInteractiveAnswersPipedIn: with standard input not a terminal,
// call --interactive asks with the plain prompts, so that answers piped in
// answer the form instead of a full-screen form waiting out its timeout.
func TestInteractiveAnswersPipedIn(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString("a\n1\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	code, stdout, stderr := run("call", "choose_option", "--interactive", "--timeout", "30s")
	if code != 0 || !strings.Contains(stdout, `"option-a"`) {
		t.Errorf("exit %d, stdout %s, stderr %s", code, stdout, stderr)
	}
}

//go:build unix

package cli

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// screen is what a terminal shows after out: each line as the carriage
// returns and erasures (ESC [K) in it leave it.
func screen(out string) []string {
	var lines []string
	for _, raw := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		var line []rune
		col := 0
		for i := 0; i < len(raw); {
			switch {
			case raw[i] == '\r':
				col, i = 0, i+1
			case strings.HasPrefix(raw[i:], "\x1b[K"):
				line, i = line[:col], i+3
			default:
				r := []rune(raw[i:])[0]
				if col < len(line) {
					line[col] = r
				} else {
					line = append(line, r)
				}
				col, i = col+1, i+len(string(r))
			}
		}
		lines = append(lines, string(line))
	}
	return lines
}

// TestProgressOnATerminal: with stderr a terminal, a call's progress is
// drawn on one line, and the last of it stays in view once the run is
// done, on a line of its own: neither erased nor run into the result,
// when stdout is the same terminal. (Whether the server's last progress
// reaches mcpeek before or after the result is the SDK's to decide.)
func TestProgressOnATerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() { defer close(read); _, _ = io.Copy(&shown, ptmx) }()
	code := Run(context.Background(), []string{"call", "count_down", "--args", `{"steps":3,"delayMs":0}`}, tty, tty)
	tty.Close()
	<-read // the terminal's side reads to the end once the run's is closed
	lines := screen(shown.String())
	if code != exitOK || !slices.Contains(lines, "mcpeek: progress 3/3 (100%) step 3 of 3") || !slices.Contains(lines, "{") {
		t.Errorf("exit %d; the terminal shows %q, want the last progress on a line of its own, and the result", code, lines)
	}
}

// TestProgressFlag: --progress prints the call's progress on stderr that
// is no terminal (a CI log), a line per update, nothing rewritten.
func TestProgressFlag(t *testing.T) {
	code, stdout, stderr := run("call", "count_down", "--progress", "--args", `{"steps":3,"delayMs":0}`)
	want := "mcpeek: progress 1/3 (33%) step 1 of 3\nmcpeek: progress 2/3 (66%) step 2 of 3\nmcpeek: progress 3/3 (100%) step 3 of 3\n"
	if code != exitOK || !strings.Contains(stdout, "counted down 3 steps") || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want stderr %q", code, stdout, stderr, want)
	}
	// Without it, a log has no progress.
	if code, _, stderr := run("call", "count_down", "--args", `{"steps":3,"delayMs":0}`); code != exitOK || stderr != "" {
		t.Errorf("without --progress: exit %d, stderr %q", code, stderr)
	}
}

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// terminalInspector is the mcpeek binary's inspector on a pseudo-terminal,
// as a person runs it: the whole command line (flags, the app host), keys
// typed on the terminal, the screen drawn on it.
type terminalInspector struct {
	t      *testing.T
	cmd    *exec.Cmd
	ptmx   *os.File
	out    *screenBuffer
	exited chan struct{}
	read   chan struct{} // closed once the terminal has nothing more to read
}

// startTerminalInspector runs `mcpeek ARGS...` in dir on a terminal of 120
// columns and 40 rows, and ends it when the test ends.
func startTerminalInspector(t *testing.T, dir string, args ...string) *terminalInspector {
	t.Helper()
	return startTerminalInspectorWith(t, dir, nil, args...)
}

// startTerminalInspectorWith is startTerminalInspector with env
// ("NAME=value") added to the environment.
func startTerminalInspectorWith(t *testing.T, dir string, env []string, args ...string) *terminalInspector {
	t.Helper()
	cmd := exec.Command(mcpeekBin, args...)
	cmd.Dir = dir
	// Every choice marked without colour (● ○), so that the screen says
	// which is picked in plain text.
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1"), env...)
	ptmx, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		t.Fatalf("start the inspector on a terminal: %v", err)
	}
	in := &terminalInspector{t: t, cmd: cmd, ptmx: ptmx, out: &screenBuffer{}, exited: make(chan struct{}), read: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(in.exited)
	}()
	go in.terminal()
	t.Cleanup(func() {
		_, _ = ptmx.Write([]byte{0x03}) // ctrl+c: nothing is pending, so it quits
		select {
		case <-in.exited:
		case <-time.After(10 * time.Second):
			t.Errorf("the inspector did not end on ctrl+c; last output:\n%q", in.out.tail(1500))
			_ = cmd.Process.Kill()
			<-in.exited
		}
		_ = ptmx.Close()
		<-in.read
	})
	return in
}

// terminal keeps what the inspector draws, and answers its cursor position
// queries as every terminal does (the terminal's background is asked that
// way before the screen is drawn).
func (in *terminalInspector) terminal() {
	defer close(in.read)
	const query = "\x1b[6n"
	buf := make([]byte, 32<<10)
	var carry []byte
	for {
		n, err := in.ptmx.Read(buf)
		if n > 0 {
			_, _ = in.out.Write(buf[:n])
			seen := append(carry, buf[:n]...)
			for range bytes.Count(seen, []byte(query)) {
				_, _ = in.ptmx.Write([]byte("\x1b[1;1R"))
			}
			// Shorter than a query: none is counted twice.
			carry = append([]byte(nil), seen[max(len(seen)-len(query)+1, 0):]...)
		}
		if err != nil {
			return
		}
	}
}

// expect waits for all the texts to be drawn, in any order.
func (in *terminalInspector) expect(texts ...string) *terminalInspector {
	in.t.Helper()
	if !in.out.wait(time.Now().Add(20*time.Second), texts...) {
		in.t.Fatalf("the inspector never drew %q; last output:\n%q", texts, in.out.tail(3000))
	}
	return in
}

// keys types keys, each its own write, as a person's typing is.
func (in *terminalInspector) keys(keys ...string) *terminalInspector {
	in.t.Helper()
	for _, k := range keys {
		b, ok := keyBytes[k]
		if !ok {
			b = k
		}
		if _, err := in.ptmx.Write([]byte(b)); err != nil {
			in.t.Fatalf("type %q: %v", k, err)
		}
	}
	return in
}

// keyUntil types k until the screen shows all the texts: a form ignores
// keys for a moment after it appears.
func (in *terminalInspector) keyUntil(k string, texts ...string) *terminalInspector {
	in.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		in.keys(k)
		// A few frames' time for this k to show, before the next.
		if in.out.wait(time.Now().Add(100*time.Millisecond), texts...) {
			return in
		}
		if time.Now().After(deadline) {
			in.t.Fatalf("%q never brought %q on screen; last output:\n%q", k, texts, in.out.tail(3000))
		}
	}
}

// call picks a tool by name on the Tools tab and calls it.
func (in *terminalInspector) call(tool string) *terminalInspector {
	in.t.Helper()
	return in.keys("1", "/", tool, "enter", "enter")
}

// ranAgain and notRunAgain are what a review says of a call of a tool
// marked read-only, run again at once, and of another's.
const ranAgain, notRunAgain = "ran it again: no value changed", "not run again"

// saveTest presses + on the result shown, waits for the review to say
// rerun (whether it ran the call again: at once for a tool marked
// read-only, else only when asked), and saves it under its default name in
// mcpeek/session.yaml, which it returns.
func (in *terminalInspector) saveTest(dir, what, rerun string) string {
	in.t.Helper()
	in.keys("+").expect("Save as a test: "+what, rerun).keys("enter").expect("saved the test")
	return filepath.Join(dir, "mcpeek", "session.yaml")
}

// testPasses runs `mcpeek test FILE`, the command, and fails unless it
// passes the suite's one test in both eras and their parity.
func testPasses(t *testing.T, file string) {
	t.Helper()
	r := mcpeek(t, "test", file)
	if r.code != exitOK {
		suite, _ := os.ReadFile(file)
		t.Fatalf("mcpeek test: exit %d\nstdout:\n%s\nstderr:\n%s\nthe suite:\n%s", r.code, r.stdout, r.stderr, suite)
	}
	for _, want := range []string{"ok   2025-11-25", "ok   2026-07-28", "ok   parity", "3 passed, 0 failed"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mcpeek test printed no %q:\n%s", want, r.stdout)
		}
	}
}

// The inspector, run as a person runs it: choose_option is answered in its
// native form by keys, + saves the call as a test, and `mcpeek test`
// passes it in both eras, whichever era it was saved in.
func TestInspectorSavedTestPasses(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := startTerminalInspector(t, dir, "--protocol", era.flag).expect("choose_option")
			in.call("choose_option").expect("is asking for input")
			// The last option: a down typed before the screen showed the
			// one before it stays there.
			in.keyUntil("down", "● option-b").keys("ctrl+s").expect("accept: option-b")
			testPasses(t, in.saveTest(dir, "call choose_option", ranAgain))
		})
	}
}

// The same with --app-host: the fixture's app renders choose_option's
// question in Chromium and answers it; + saves the call with the app's
// answer, and `mcpeek test`, which renders no app, passes it in both eras.
func TestBrowserInspectorSavedAppAnswerPasses(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			o := newOpener(t)
			in := startTerminalInspector(t, dir, "--protocol", era.flag, "--app-host", "--open-with", o.flag(),
				"--app-init-timeout", "20s").expect("choose_option")
			in.call("choose_option")
			page := tab(t, browser, o.next(t))
			bridgeText(t, page, "Answer in the app")
			click(t, page, "option-a")
			in.expect("accept: option-a")
			testPasses(t, in.saveTest(dir, "call choose_option", ranAgain))
		})
	}
}

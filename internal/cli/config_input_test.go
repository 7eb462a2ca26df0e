//go:build unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/session"
	"go.uber.org/goleak"
	"golang.org/x/term"
)

// terminal opens a pseudo-terminal whose answers are typed in advance:
// it returns the terminal mcpeek reads.
func terminal(t *testing.T, typed string) *os.File {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { ptmx.Close(); tty.Close() })
	go func() { _, _ = io.Copy(io.Discard, ptmx) }() // the echo
	if _, err := ptmx.WriteString(typed); err != nil {
		t.Fatal(err)
	}
	return tty
}

// TestAskInput: on a terminal, a pick takes a number or a value, an empty
// answer the default, and a password is read without echo.
func TestAskInput(t *testing.T) {
	tty := terminal(t, "2\n\ns3cret\n")
	var prompts strings.Builder
	region := mcpconfig.Input{ID: "region", Description: "Region", Options: []string{"eu", "us"}, Default: "eu"}
	if v, err := session.AskInput(t.Context(), region, tty, &prompts); err != nil || v != "us" {
		t.Errorf("pick by number: %q, %v", v, err)
	}
	if v, err := session.AskInput(t.Context(), region, tty, &prompts); err != nil || v != "eu" {
		t.Errorf("the default: %q, %v", v, err)
	}
	if v, err := session.AskInput(t.Context(), mcpconfig.Input{ID: "key", Description: "API key", Password: true}, tty, &prompts); err != nil || v != "s3cret" {
		t.Errorf("password: %q, %v", v, err)
	}
	if want := "  1) eu\n  2) us\nRegion [eu]: "; !strings.Contains(prompts.String(), want) || !strings.Contains(prompts.String(), "API key: ") {
		t.Errorf("prompts %q", prompts.String())
	}
}

// TestInputsAskedOnceWhenTheRunStarts: a VS Code server whose header needs
// a password input is asked for it once, on the terminal, as the run
// starts; the answer is sent and never written to the wire log.
func TestInputsAskedOnceWhenTheRunStarts(t *testing.T) {
	_, project := home(t)
	var got []string
	fix := fixture.HTTPHandler(fixture.Options{}, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization")+" "+r.Header.Get("X-Key"))
		fix.ServeHTTP(w, r)
	}))
	defer srv.Close()
	writeFile(t, filepath.Join(project, ".vscode", "mcp.json"), fmt.Sprintf(`{
		"inputs": [{"type": "promptString", "id": "key", "description": "Key", "password": true}],
		"servers": {"fix": {"type": "http", "url": %q, "headers": {"Authorization": "Bearer ${input:key}", "X-Key": "${input:key}"}}}
	}`, srv.URL))
	stdin := os.Stdin
	os.Stdin = terminal(t, "typed-key-123\n")
	defer func() { os.Stdin = stdin }()
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	code, _, stderr := runIn(t, project, "caps", "--trust-project", "--wire-log", wire, "@fix")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if len(got) == 0 || got[0] != "Bearer typed-key-123 typed-key-123" {
		t.Errorf("headers sent: %q", got)
	}
	log, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(log), "typed-key-123") {
		t.Error("the wire log holds the password input")
	}
}

// TestApprovalPrompt: on a terminal, the prompt shows the file, the
// server, its URL as written (no variable expanded), its headers by name
// and the environment variables it reads, with the file's escape
// sequences made harmless; only y or yes approves.
func TestApprovalPrompt(t *testing.T) {
	project, _, _ := clone(t)
	writeFile(t, filepath.Join(project, ".mcp.json"), `{"mcpServers": {"git\u001b]0;pwned\u0007hub": {"command": "npx",
		"args": ["-y", "evil\u001b[2J", "--token", "${env:GITHUB_TOKEN}"], "env": {"AWS": "${AWS_SECRET_ACCESS_KEY}"}}}}`)
	t.Chdir(project)
	found, err := mcpconfig.Discover(mcpconfig.Places{Dir: project, Home: filepath.Dir(filepath.Dir(project))})
	if err != nil {
		t.Fatal(err)
	}
	s := found.Servers()[0]
	var prompt strings.Builder
	tty := terminal(t, "y\n\nYes\nno\n")
	for i, want := range []bool{true, false, true, false} {
		if ok, err := session.AskApproval(t.Context(), s, "Claude Code project", tty, &prompt); err != nil || ok != want {
			t.Errorf("answer %d: %v, %v; want %v", i, ok, err, want)
		}
	}
	text := prompt.String()
	for _, want := range []string{
		"names server \"git␛]0;pwned�hub\"", "file     ./.mcp.json (Claude Code project)",
		"command  npx -y 'evil␛[2J' --token '${env:GITHUB_TOKEN}'", "env      AWS",
		"reads    AWS_SECRET_ACCESS_KEY, GITHUB_TOKEN from your environment", "It runs as you", "[y/N]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, text)
		}
	}
	if strings.ContainsAny(text, "\x1b\x07") || strings.Contains(text, "ghp-secret-123") || strings.Contains(text, "aws-secret-456") {
		t.Errorf("the prompt holds an escape or a secret:\n%q", text)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	if _, err := session.AskApproval(t.Context(), s, "", devnull, &prompt); err != session.ErrNoTerminal {
		t.Errorf("without a terminal: %v", err)
	}
}

// shownWriter is stderr that says when a prompt has been shown: closes
// shown once what was written holds prompt.
type shownWriter struct {
	mu     sync.Mutex
	text   strings.Builder
	prompt string
	shown  chan struct{}
}

func newShownWriter(prompt string) *shownWriter {
	return &shownWriter{prompt: prompt, shown: make(chan struct{})}
}

func (w *shownWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	had := strings.Contains(w.text.String(), w.prompt)
	w.text.Write(p)
	if !had && strings.Contains(w.text.String(), w.prompt) {
		close(w.shown)
	}
	return len(p), nil
}

func (w *shownWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.text.String()
}

// within waits for ch, failing the test after a while.
func within(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("still waiting for %s after 10 s", what)
	}
}

// TestCtrlCAtTheApprovalPrompt: Ctrl+C while the approval prompt waits on
// a terminal whose person never answers ends the run at once with exit
// 130 (interrupted), not at the next Enter with exit 2; nothing is run
// and nothing is left reading the terminal.
func TestCtrlCAtTheApprovalPrompt(t *testing.T) {
	project, theirs, _ := clone(t)
	tty := terminal(t, "") // never answers
	stdin := os.Stdin
	os.Stdin = tty
	defer func() { os.Stdin = stdin }()
	t.Chdir(filepath.Join(project, "cmd"))
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	ctx, cancel := context.WithCancel(context.Background()) // main's, which SIGINT cancels
	defer cancel()
	stderr := newShownWriter("[y/N]")
	done := make(chan int, 1)
	go func() { done <- Run(ctx, []string{"list", "tools", "--timeout", "1h", "@github"}, io.Discard, stderr) }()
	within(t, stderr.shown, "the approval prompt")
	cancel() // Ctrl+C
	select {
	case code := <-done:
		if code != exitInterrupted || !strings.Contains(stderr.String(), "mcpeek: interrupted") {
			t.Errorf("after Ctrl+C: exit %d, stderr %q; want 130, interrupted", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the approval prompt still waits after Ctrl+C")
	}
	if got := theirs.requests(); len(got) != 0 {
		t.Errorf("the server was reached: %q", got)
	}
}

// TestCtrlCAtAnInputPrompt: Ctrl+C while a VS Code input is asked on a
// terminal whose person never answers stops the wait at once; a password
// prompt gives the terminal its echo back.
func TestCtrlCAtAnInputPrompt(t *testing.T) {
	for _, in := range []mcpconfig.Input{
		{ID: "region", Description: "Region", Options: []string{"eu", "us"}},
		{ID: "key", Description: "API key", Password: true},
	} {
		t.Run(in.ID, func(t *testing.T) {
			tty := terminal(t, "")
			before, err := term.GetState(int(tty.Fd()))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			prompt := newShownWriter(in.Description + ": ")
			type result struct {
				v   string
				err error
			}
			done := make(chan result, 1)
			go func() {
				v, err := session.AskInput(ctx, in, tty, prompt)
				done <- result{v, err}
			}()
			within(t, prompt.shown, "the prompt")
			cancel()
			select {
			case r := <-done:
				if !errors.Is(r.err, errInterrupted) {
					t.Errorf("after Ctrl+C: %q, %v; want interrupted", r.v, r.err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the prompt still waits after Ctrl+C")
			}
			if after, err := term.GetState(int(tty.Fd())); err != nil || !reflect.DeepEqual(after, before) {
				t.Errorf("the terminal's settings were not given back (%v)", err)
			}
		})
	}
}

// TestApprovalAskedBeforeTheTimeoutCounts: the person's time at the
// approval prompt does not count against --timeout, which is the
// server's: the prompt is asked under the run's context, before the
// deadline is set.
func TestApprovalAskedBeforeTheTimeoutCounts(t *testing.T) {
	project, _, _ := clone(t)
	for _, args := range [][]string{{"list", "tools", "--timeout", "1h", "@github"}, {"doctor", "--timeout", "1h", "@github"}} {
		code, stderr, asked := runApprovingWith(t, project, func(ctx context.Context, _ *mcpconfig.Server, _ string) (bool, error) {
			if deadline, ok := ctx.Deadline(); ok {
				t.Errorf("%q: asked with --timeout counting (deadline %v)", args, deadline)
			}
			return false, nil
		}, args...)
		if code != exitUsage || asked != 1 {
			t.Errorf("%q: exit %d, asked %d, stderr %q", args, code, asked, stderr)
		}
	}
}

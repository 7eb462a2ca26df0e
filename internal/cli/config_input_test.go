//go:build unix

package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
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
	if v, err := askInput(region, tty, &prompts); err != nil || v != "us" {
		t.Errorf("pick by number: %q, %v", v, err)
	}
	if v, err := askInput(region, tty, &prompts); err != nil || v != "eu" {
		t.Errorf("the default: %q, %v", v, err)
	}
	if v, err := askInput(mcpconfig.Input{ID: "key", Description: "API key", Password: true}, tty, &prompts); err != nil || v != "s3cret" {
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
		if ok, err := askApproval(s, "Claude Code project", tty, &prompt); err != nil || ok != want {
			t.Errorf("answer %d: %v, %v; want %v", i, ok, err, want)
		}
	}
	text := prompt.String()
	for _, want := range []string{
		"names server \"git␛]0;pwned�hub\"", "file     ./.mcp.json (Claude Code project)",
		"command  npx -y evil␛[2J --token ${env:GITHUB_TOKEN}", "env      AWS",
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
	if _, err := askApproval(s, "", devnull, &prompt); err != errNoTerminal {
		t.Errorf("without a terminal: %v", err)
	}
}

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
	code, _, stderr := runIn(t, project, "caps", "--wire-log", wire, "@fix")
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

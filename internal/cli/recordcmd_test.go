package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/record/recordtest"
)

// writeRecording writes a 2025-11-25 recording of the given messages,
// each sent ("send") or read ("recv").
func writeRecording(t *testing.T, lines ...string) string {
	t.Helper()
	return recordtest.Write(t, t.TempDir(), lines...)
}

func recordedCall(id, name string) []string {
	return []string{
		"send", `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":` + name + `,"arguments":{}}}`,
		"recv", `{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[{"type":"text","text":"ok"}]}}`,
	}
}

// A test that cannot be written leaves the suite as it was: none of the
// recording's tests is written.
func TestRecordToSuiteAllOrNothing(t *testing.T) {
	out := filepath.Join(t.TempDir(), "saved.mcpeek.yaml")
	if code, _, stderr := run("record", writeRecording(t, recordedCall("1", `"b"`)...), "--to-suite", out); code != exitOK {
		t.Fatalf("record --to-suite: exit %d, %s", code, stderr)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	both := writeRecording(t, append(recordedCall("1", `"a"`), recordedCall("2", `"b"`)...)...)
	code, _, stderr := run("record", both, "--to-suite", out)
	if code == exitOK || !strings.Contains(stderr, `already has a test named "b"`) || !strings.Contains(stderr, "no test was written") {
		t.Errorf("record --to-suite: exit %d, %s; want the duplicate refused", code, stderr)
	}
	after, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the suite changed:\n%s\nwas:\n%s", after, before)
	}
}

// A malformed recording is refused saying what is wrong with it: a call
// whose name is not a string, an error that is not an error object.
func TestRecordToSuiteRefusesMalformedCalls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lines []string
		want  string
	}{
		{"name not a string", recordedCall("3", `42`), "its tools/call (id 3) names no tool"},
		{"error a string", []string{
			"send", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"a","arguments":{}}}`,
			"recv", `{"jsonrpc":"2.0","id":4,"error":"boom"}`,
		}, "is not a JSON-RPC error object with a code"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "saved.mcpeek.yaml")
			code, _, stderr := run("record", writeRecording(t, tc.lines...), "--to-suite", out)
			if code == exitOK || !strings.Contains(stderr, "is malformed") || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, %s; want %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a suite was written: %v", err)
			}
		})
	}
}

// The done-when of the one secret rule: a recorded call's secret
// arguments (api_key by its name, password by its name) reach neither the
// suite nor its snapshot; they are written as the {{env.X}} templates +
// writes, and the suite passes with those variables set.
func TestRecordToSuiteKeepsNoSecret(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "session.jsonl")
	args := `{"api_key":"sk-live-123","password":"hunter2","steps":1,"delayMs":0}`
	if code, _, stderr := run("call", "count_down", "--protocol", "legacy", "--args", args, "--record", rec); code != exitOK {
		t.Fatalf("call: exit %d, %s", code, stderr)
	}
	out := filepath.Join(dir, "saved.mcpeek.yaml")
	code, _, stderr := run("record", rec, "--to-suite", out)
	if code != exitOK {
		t.Fatalf("record --to-suite: exit %d, %s", code, stderr)
	}
	for _, name := range []string{"MCPEEK_SECRET_API_KEY", "MCPEEK_SECRET_PASSWORD"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("record --to-suite does not say to set %s: %s", name, stderr)
		}
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := os.ReadFile(filepath.Join(dir, "__snapshots__", "saved.snap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for file, b := range map[string][]byte{"the suite": text, "the snapshot": snap} {
		for _, secret := range []string{"sk-live-123", "hunter2"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("%s holds %q:\n%s", file, secret, b)
			}
		}
	}
	for _, want := range []string{"api_key: '{{env.MCPEEK_SECRET_API_KEY}}'", "password: '{{env.MCPEEK_SECRET_PASSWORD}}'"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the suite lacks %s:\n%s", want, text)
		}
	}
	t.Setenv("MCPEEK_SECRET_API_KEY", "sk-live-123")
	t.Setenv("MCPEEK_SECRET_PASSWORD", "hunter2")
	if code, stdout, stderr := run("test", out, "--protocol", "legacy"); code != exitOK || !strings.Contains(stdout, "1 passed, 0 failed") {
		t.Errorf("test: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

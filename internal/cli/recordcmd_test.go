package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// writeRecording writes a 2025-11-25 recording of the given messages,
// each sent ("send") or read ("recv").
func writeRecording(t *testing.T, lines ...string) string {
	t.Helper()
	var b bytes.Buffer
	w := record.NewWriter(&b)
	if err := w.Start(record.Header{Protocol: "2025-11-25", Transport: "stdio"}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(lines); i += 2 {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.Unmarshal([]byte(lines[i+1]), &m); err != nil {
			t.Fatal(err)
		}
		line, err := mcpclient.WireEntry{Dir: mcpclient.Direction(lines[i]), Method: m.Method, ID: m.ID, Message: json.RawMessage(lines[i+1])}.Line()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	return tempFile(t, "session.jsonl", b.String())
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

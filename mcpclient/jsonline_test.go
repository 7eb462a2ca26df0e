package mcpclient

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
	"unicode/utf8"
)

// noRawControls fails when a log line holds what a terminal could obey
// beyond C0 (which encoding/json escapes): DEL, a C1 control, or a byte
// that is not UTF-8.
func noRawControls(t *testing.T, line []byte) {
	t.Helper()
	if !utf8.Valid(line) {
		t.Errorf("the log line is not UTF-8:\n%q", line)
	}
	for i, r := range string(line) {
		if r >= 0x7f && r <= 0x9f {
			t.Errorf("byte %d of the log line is %U:\n%q", i, r, line)
		}
	}
}

// A server's C1 controls (U+009B is CSI) reach the elicit log escaped, and
// the line still says what the server sent.
func TestElicitLogEscapesC1Controls(t *testing.T) {
	t.Parallel()
	var sink bytes.Buffer
	r := NewRecorder(&sink)
	hostile := "\u009b31mred\u009b0m \u0085next\u2028line\x7f"
	r.settle(Record{Key: "e-1", Kind: KindElicitation, Server: "srv\u009d0;title\u009c", Error: hostile, ReceivedAt: time.Now()})
	line := sink.Bytes()
	noRawControls(t, line)
	var back Record
	if err := json.Unmarshal(line, &back); err != nil || back.Error != hostile || back.Server != "srv\u009d0;title\u009c" {
		t.Errorf("the line %q reads back as %+v (%v)", line, back, err)
	}
}

// The wire log's file gets a server's raw message and stderr lines with
// C1 controls escaped and bytes that are not UTF-8 replaced; the JSON
// still means what the server sent.
func TestWireLogEscapesC1Controls(t *testing.T) {
	t.Parallel()
	var sink bytes.Buffer
	w := NewWireLog(0, &sink)
	w.add(WireEntry{Time: time.Now(), Dir: DirRecv, Method: "notifications/message",
		Message: json.RawMessage("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"\u009b2J\xff\x9b\"}}")})
	_, _ = w.StderrWriter().Write([]byte("boom \u009b31m\n"))
	lines := bytes.Split(bytes.TrimSpace(sink.Bytes()), []byte("\n"))
	if len(lines) != 2 {
		t.Fatalf("%d lines:\n%s", len(lines), sink.Bytes())
	}
	for _, line := range lines {
		noRawControls(t, line)
	}
	var recv struct {
		Message struct {
			Params struct{ Data string }
		}
	}
	var stderr WireEntry
	if err := json.Unmarshal(lines[0], &recv); err != nil || recv.Message.Params.Data != "\u009b2J\ufffd\ufffd" {
		t.Errorf("the message reads back as %q (%v)", recv.Message.Params.Data, err)
	}
	if err := json.Unmarshal(lines[1], &stderr); err != nil || stderr.Text != "boom \u009b31m" {
		t.Errorf("the stderr line reads back as %q (%v)", stderr.Text, err)
	}
}

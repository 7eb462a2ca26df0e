package mcpclient

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Raw's caller may reuse its buffer at once: the log keeps copies, the
// handshake's whole, a huge message's start.
func TestWireLogRawKeepsCopies(t *testing.T) {
	var sink bytes.Buffer
	w := NewWireLog(0, &sink)
	initialize := []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)
	huge := []byte(`{"jsonrpc":"2.0","id":2,"result":{"text":"` + strings.Repeat("a", 40<<10) + `"}}`)
	w.Raw(DirSend, initialize, "initialize", json.RawMessage("1"))
	w.Raw(DirRecv, huge, "", json.RawMessage("2"))
	for _, b := range [][]byte{initialize, huge} {
		for i := range b {
			b[i] = 'X'
		}
	}
	entries := w.Entries()
	if len(entries) != 2 || !strings.Contains(string(entries[0].Message), "initialize") || !strings.HasPrefix(entries[1].Text, `{"jsonrpc":"2.0","id":2`) {
		t.Fatalf("the kept entries changed with the caller's buffer: %+v", entries)
	}
	if hs := w.Handshake(); len(hs) != 1 || !strings.Contains(string(hs[0].Message), "initialize") {
		t.Errorf("the handshake changed with the caller's buffer: %+v", hs)
	}
	if !strings.Contains(sink.String(), strings.Repeat("a", 40<<10)) {
		t.Error("the sink did not get the huge message whole")
	}
	w.NotJSON(DirRecv, []byte("oops\n"))
	if e := w.Entries()[2]; e.Dir != DirNote || e.Text != "not a JSON message (recv): oops" {
		t.Errorf("not-JSON note: %+v", e)
	}
}

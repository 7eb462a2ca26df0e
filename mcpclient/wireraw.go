package mcpclient

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
)

// Raw logs one JSON-RPC message as it went over the wire, its bytes as
// given, with the method and id its sender read in it (a proxy's, which
// forwards bytes it never decodes into the SDK's types): dir is DirSend
// for what the client sent and DirRecv for what the server did. data is
// not kept: the log copies what it keeps of it.
func (w *WireLog) Raw(dir Direction, data []byte, method string, id json.RawMessage) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return
	}
	e := WireEntry{Time: time.Now(), Dir: dir, Method: method, Message: json.RawMessage(data), borrowed: true}
	if len(id) > 0 && string(id) != "null" {
		e.ID = id
	}
	w.add(e)
}

// NotJSON notes a line that went over the wire and is not JSON, quoting
// its start.
func (w *WireLog) NotJSON(dir Direction, data []byte) {
	w.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "not a JSON message (" + string(dir) + "): " + textclean.Cut(string(bytes.TrimSpace(data)), 2048, textclean.InBytes())})
}

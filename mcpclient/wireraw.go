package mcpclient

import (
	"bytes"
	"encoding/json"
	"time"
)

// Raw logs one message as it went over the wire, its bytes as given (a
// proxy's, which forwards bytes it never decodes into the SDK's types):
// dir is DirSend for what the client sent and DirRecv for what the server
// did. A message that is not JSON is logged as a note quoting its start;
// it reports whether data was JSON.
func (w *WireLog) Raw(dir Direction, data []byte) bool {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return true
	}
	var head struct {
		Method string          `json:"method"`
		ID     json.RawMessage `json:"id"`
	}
	if !json.Valid(data) {
		w.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "not a JSON message (" + string(dir) + "): " + cutUTF8(string(data), 2048)})
		return false
	}
	if data[0] == '{' {
		_ = json.Unmarshal(data, &head)
	}
	e := WireEntry{Time: time.Now(), Dir: dir, Method: head.Method, Message: json.RawMessage(bytes.Clone(data))}
	if len(head.ID) > 0 && string(head.ID) != "null" {
		e.ID = head.ID
	}
	w.add(e)
	return true
}

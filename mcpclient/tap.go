package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tapTransport records every message into the wire log: an outgoing one
// before it is written, an incoming one as soon as it is read, so the log
// shows a request before its response.
type tapTransport struct {
	base mcp.Transport
	wire *WireLog
	seen func(data []byte) // each received message, after it is logged
	side *sideChannel      // takes the responses to its own requests
}

func (t *tapTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tc := &tapConn{Connection: conn, wire: t.wire, seen: t.seen, side: t.side}
	if t.side != nil {
		t.side.mu.Lock()
		t.side.write = tc.write // its answers are checked by answerOf
		t.side.mu.Unlock()
	}
	return tc, nil
}

type tapConn struct {
	mcp.Connection
	wire *WireLog
	seen func(data []byte)
	side *sideChannel
	// calls are the ids of the tools/call requests written and not yet
	// answered, whose answers are checked before the SDK takes them.
	mu    sync.Mutex
	calls map[string]bool
}

func (c *tapConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.Connection.Read(ctx)
		if err != nil {
			c.wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "read: " + err.Error()})
			if c.side != nil {
				c.side.closeAll(err)
			}
			return msg, err
		}
		if data := c.wire.message(DirRecv, msg); data != nil && c.seen != nil {
			c.seen(data)
		}
		fillMessage(msg) // after the log, which keeps what the server wrote
		c.mu.Lock()
		msg = refuseTaskStatus(msg, c.calls, c.wire)
		c.mu.Unlock()
		if resp, ok := msg.(*jsonrpc.Response); ok && c.side != nil && c.side.deliver(resp) {
			continue // the side channel's, not the SDK's
		}
		return msg, nil
	}
}

// Write writes a message of the SDK's, keeping the ids of its tools/call
// requests.
func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if ids := callIDs(msg); ids != nil {
		c.mu.Lock()
		if c.calls == nil {
			c.calls = map[string]bool{}
		}
		maps.Copy(c.calls, ids)
		c.mu.Unlock()
	}
	return c.write(ctx, msg)
}

// write logs and writes a message.
func (c *tapConn) write(ctx context.Context, msg jsonrpc.Message) error {
	c.wire.message(DirSend, msg)
	err := c.Connection.Write(ctx, msg)
	c.wire.open.answered(msg)
	if err != nil {
		c.wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "write: " + err.Error()})
	}
	return err
}

// callIDs are the ids of the tools/call requests among msgs, each as its
// JSON, whose answers refuseTaskStatus checks.
func callIDs(msgs ...jsonrpc.Message) map[string]bool {
	var ids map[string]bool
	for _, msg := range msgs {
		if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "tools/call" && req.ID.IsValid() {
			if ids == nil {
				ids = map[string]bool{}
			}
			ids[idKey(req.ID)] = true
		}
	}
	return ids
}

func idKey(id jsonrpc.ID) string {
	b, _ := json.Marshal(id.Raw())
	return string(b)
}

// refuseTaskStatus is msg, a message received, or, when it answers one of
// the tools/call requests calls with a task's status instead of a tool
// result (checkNotTask), an error response in its place, which the call
// returns: the SDK would take the status for an empty result, and report
// a call that did nothing as a success. The refusal is noted in wire. The
// id answered leaves calls.
func refuseTaskStatus(msg jsonrpc.Message, calls map[string]bool, wire *WireLog) jsonrpc.Message {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok || len(calls) == 0 || !resp.ID.IsValid() || !calls[idKey(resp.ID)] {
		return msg
	}
	delete(calls, idKey(resp.ID))
	var obj map[string]json.RawMessage
	if resp.Error != nil || json.Unmarshal(resp.Result, &obj) != nil {
		return msg
	}
	err := checkNotTask(obj)
	if err == nil {
		return msg
	}
	why := "the server's answer is malformed: " + err.Error()
	wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "tools/call: " + why})
	return &jsonrpc.Response{ID: resp.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: why}}
}

// refuseTaskStatusData is refuseTaskStatus for one encoded message: the
// error response encoded, or nil when the message stands.
func refuseTaskStatusData(data []byte, calls map[string]bool, wire *WireLog) []byte {
	if len(calls) == 0 || !bytes.Contains(data, []byte(`"taskId"`)) {
		return nil
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil
	}
	checked := refuseTaskStatus(msg, calls, wire)
	if checked == msg {
		return nil
	}
	out, err := jsonrpc.EncodeMessage(checked)
	if err != nil {
		return nil
	}
	return out
}

// message logs one JSON-RPC message and returns it encoded (nil if it
// cannot be).
func (w *WireLog) message(dir Direction, msg jsonrpc.Message) []byte {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		w.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "unencodable message: " + err.Error()})
		return nil
	}
	e := WireEntry{Time: time.Now(), Dir: dir, Message: json.RawMessage(data)}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		e.Method = m.Method
		if m.ID.IsValid() {
			e.ID, _ = json.Marshal(m.ID.Raw())
		}
	case *jsonrpc.Response:
		e.ID, _ = json.Marshal(m.ID.Raw())
	}
	if dir == DirRecv {
		w.params.note(data)
		w.open.asked(msg)
	}
	w.add(e)
	return data
}

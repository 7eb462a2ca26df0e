package mcpclient

import (
	"context"
	"encoding/json"
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
		t.side.write = tc.Write
		t.side.mu.Unlock()
	}
	return tc, nil
}

type tapConn struct {
	mcp.Connection
	wire *WireLog
	seen func(data []byte)
	side *sideChannel
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
		if resp, ok := msg.(*jsonrpc.Response); ok && c.side != nil && c.side.deliver(resp) {
			continue // the side channel's, not the SDK's
		}
		return msg, nil
	}
}

func (c *tapConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	c.wire.message(DirSend, msg)
	err := c.Connection.Write(ctx, msg)
	c.wire.open.answered(msg)
	if err != nil {
		c.wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "write: " + err.Error()})
	}
	return err
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

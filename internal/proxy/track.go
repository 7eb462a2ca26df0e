package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// present notes that a member is there without copying its value (a
// result may be megabytes).
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

// head is what the proxy reads of a message: enough to pair requests with
// responses. Its params are kept only for the handshake's (see
// handshake).
type head struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Result present         `json:"result"`
	Error  present         `json:"error"`
}

// request reports whether the message is a request (a notification has
// no id).
func (h head) request() bool { return h.Method != "" && h.hasID() }

// response reports whether the message is a response.
func (h head) response() bool { return h.Method == "" && (bool(h.Result) || bool(h.Error)) }

func (h head) hasID() bool { return len(h.ID) > 0 && string(h.ID) != "null" }

// readHeads reads the messages of data: one object, or each of a batch
// (then batch holds each message). ok is false when data is not JSON.
func readHeads(data []byte) (heads []head, batch []json.RawMessage, ok bool) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		if json.Unmarshal(data, &batch) != nil {
			return nil, nil, false
		}
		for _, m := range batch {
			h, _ := readHead(m)
			heads = append(heads, h)
		}
		return heads, batch, true
	}
	h, ok := readHead(data)
	if !ok {
		return nil, nil, false
	}
	return []head{h}, nil, true
}

// maxOpen bounds the requests a side may have in flight that the proxy
// keeps track of: beyond it, answers to the oldest are no longer paired
// (noted once), and memory stays bounded whatever the sides do.
const maxOpen = 1 << 16

// tracker pairs each side's requests with the other side's responses:
// the host's requests in flight are those the proxy answers when the
// server dies, and a response to an id nobody asked is noted.
type tracker struct {
	mu   sync.Mutex
	wire *mcpclient.WireLog
	// host are the ids of the host's requests in flight, server the
	// server's, in the order asked; own the proxy's own (--answer).
	host, server, own openIDs
	hs                *handshake
	// aside, while set, has messages logged and tracked aside
	// (logAside).
	aside *logQueue
}

// openIDs are the ids of one side's requests in flight, in the order
// asked.
type openIDs struct {
	ids  []string
	full bool // noted once
}

func (o *openIDs) add(id string, wire *mcpclient.WireLog, side string) {
	if len(o.ids) >= maxOpen {
		o.ids = o.ids[1:]
		if !o.full {
			o.full = true
			wire.Note(fmt.Sprintf("proxy: more than %d requests from the %s in flight; the oldest are no longer paired with their answers", maxOpen, side))
		}
	}
	o.ids = append(o.ids, id)
}

func (o *openIDs) remove(id string) bool {
	i := slices.Index(o.ids, id)
	if i < 0 {
		return false
	}
	o.ids = slices.Delete(o.ids, i, i+1)
	return true
}

func newTracker(wire *mcpclient.WireLog, rec *record.Writer, transport string) *tracker {
	t := &tracker{wire: wire}
	if rec != nil {
		t.hs = &handshake{rec: rec, transport: transport, wire: wire}
	}
	return t
}

// origin is who sent a message the tracker sees.
type origin int

const (
	byHost origin = iota
	byServer
	// byProxy: the proxy itself, to the server (--answer): its answer
	// to a server's question, or its retry of a host's request.
	byProxy
	// byServerHeld: the server's answer to a host's request that the
	// proxy holds back and answers for (an input_required result): the
	// host still waits for it.
	byServerHeld
)

// fromHost logs and tracks what the host sent (one message or a batch),
// before it is forwarded.
func (t *tracker) fromHost(data []byte) {
	t.see(byHost, data)
}

// fromServer logs and tracks what the server sent, before it is
// forwarded.
func (t *tracker) fromServer(data []byte) {
	t.see(byServer, data)
}

// see logs and tracks a message: aside when the tracker logs aside and
// has room (then once forwarded() says the message went), else now, once
// what is aside is done.
func (t *tracker) see(by origin, data []byte) {
	if t.aside.push(by, data) {
		return
	}
	t.aside.drain()
	t.pass(by, data)
}

// logAside has the messages logged and tracked aside (see logQueue) until
// stop is called, which waits until all are. Only what fromHost and
// fromServer see goes aside: the proxy's own messages (--answer), logged
// with notes of its own in between, are not sent aside.
func (t *tracker) logAside() (stop func()) {
	t.aside = newLogQueue(t.pass)
	return t.aside.close
}

// forwarded says that the message last seen was forwarded: what is aside
// is done now, unless another goroutine is doing it.
func (t *tracker) forwarded() {
	if t != nil {
		t.aside.work()
	}
}

// settle waits until what is aside is done.
func (t *tracker) settle() {
	if t != nil {
		t.aside.drain()
	}
}

// fromProxy logs and tracks what the proxy itself sends the server: its
// requests are its own, never the host's, and its answers pair with the
// server's requests as the host's would.
func (t *tracker) fromProxy(data []byte) {
	t.pass(byProxy, data)
}

// fromServerHeld logs what the server answered a host's request that the
// proxy answers for: the request stays in flight.
func (t *tracker) fromServerHeld(data []byte) {
	t.pass(byServerHeld, data)
}

func (t *tracker) pass(by origin, data []byte) {
	dir := mcpclient.DirSend
	if by == byServer || by == byServerHeld {
		dir = mcpclient.DirRecv
	}
	heads, batch, ok := readHeads(data)
	if !ok {
		t.wire.NotJSON(dir, data)
		return
	}
	if batch == nil {
		t.wire.Raw(dir, data, heads[0].Method, heads[0].ID)
	}
	for i, m := range batch { // a batch's messages each logged, as the wire log does a client's
		t.wire.Raw(dir, m, heads[i].Method, heads[i].ID)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	asker, answerer, side, other := t.sides(by)
	for _, h := range heads {
		switch {
		case h.request():
			asker.add(string(h.ID), t.wire, side)
		case by == byServerHeld:
		case h.response() && h.hasID():
			if !answerer.remove(string(h.ID)) && (by != byServer || !t.own.remove(string(h.ID))) {
				t.wire.Note(fmt.Sprintf("proxy: the %s answered id %s, which the %s did not ask (or no longer waits for); forwarded as it is", side, h.ID, other))
			}
		}
	}
	if t.hs != nil && batch == nil && by != byProxy {
		t.hs.see(dir, heads[0], data)
	}
}

// sides are, for a message by one side, the ids of its requests, those
// of the requests it answers, and the names of the two sides. The
// proxy's own requests are kept apart from the host's: the server's
// answers to them are never the host's.
func (t *tracker) sides(by origin) (asker, answerer *openIDs, side, other string) {
	switch by {
	case byServer, byServerHeld:
		return &t.server, &t.host, "server", "host"
	case byProxy:
		return &t.own, &t.server, "proxy", "server"
	case byHost:
	}
	return &t.host, &t.server, "host", "server"
}

// hostOpen takes the ids of the host's requests still in flight: the
// server will not answer them now.
func (t *tracker) hostOpen() []string {
	t.aside.drain()
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := t.host.ids
	t.host.ids = nil
	return ids
}

// answered forgets a host request the proxy answered itself.
func (t *tracker) answered(id string) {
	t.aside.drain()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.host.remove(id)
}

// errorResponse is a JSON-RPC error response to id (raw JSON), as one
// line.
func errorResponse(id string, code int, message string) []byte {
	msg, _ := json.Marshal(message)
	return []byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":` + fmt.Sprint(code) + `,"message":` + string(msg) + "}}\n")
}

// Error codes of the errors the proxy answers with itself.
const (
	// codeServerGone: the server ended before it answered.
	codeServerGone = -32000
	// codeTooLarge: the request was over --max-message-size.
	codeTooLarge = -32600
)

// isHostOpen reports whether the host waits for an answer to id.
func (t *tracker) isHostOpen(id string) bool {
	t.aside.drain()
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Contains(t.host.ids, id)
}

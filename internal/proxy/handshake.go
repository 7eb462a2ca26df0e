package proxy

import (
	"encoding/json"
	"sync"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// modernRevision is the revision a server/discover handshake speaks.
const modernRevision = "2026-07-28"

// handshake watches the host's handshake and writes the recording's
// header once it is done: what the header says (the revision, both
// sides' info and capabilities) is known only then. Until then the
// recording keeps what the wire log gave it.
type handshake struct {
	mu        sync.Mutex
	rec       *record.Writer
	wire      *mcpclient.WireLog
	transport string
	// id and method are the host's handshake request's; header is what
	// it and its response say.
	id, method string
	header     record.Header
	// answered: the server answered; initialized: the host said
	// notifications/initialized (a host may say it before the answer
	// comes).
	answered, initialized bool
}

// see looks at one message going by (after the wire log has it).
func (h *handshake) see(dir mcpclient.Direction, m head, data []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rec.Started() {
		return
	}
	switch {
	case dir == mcpclient.DirSend && m.request() && (m.Method == mcpclient.MethodInitialize || m.Method == mcpclient.MethodDiscover):
		h.id, h.method, h.answered, h.initialized = string(m.ID), m.Method, false, false
		h.header = h.fromRequest(m.Method, data)
	case dir == mcpclient.DirRecv && m.response() && h.id != "" && string(m.ID) == h.id:
		h.fromResponse(data)
		h.answered = true
		if h.method == mcpclient.MethodDiscover || h.initialized {
			h.start()
		}
	case dir == mcpclient.DirSend && m.Method == "notifications/initialized" && h.id != "":
		h.initialized = true
		if h.answered {
			h.start()
		}
	}
}

func (h *handshake) start() {
	// The header quotes the handshake, whose messages the wire log
	// redacts: so is the header.
	secrets := h.wire.Secrets()
	for _, field := range []*json.RawMessage{&h.header.ClientInfo, &h.header.ClientCapabilities, &h.header.ServerInfo, &h.header.ServerCapabilities} {
		redacted := secrets.Redact(string(*field))
		switch {
		case redacted == string(*field):
		case json.Valid([]byte(redacted)):
			*field = json.RawMessage(redacted)
		default:
			*field = nil
		}
	}
	if err := h.rec.Start(h.header); err != nil {
		h.wire.Note("--record: " + err.Error())
	}
}

// hello is what a handshake request's params or its answer's result
// say.
type hello struct {
	ProtocolVersion string                     `json:"protocolVersion"`
	ClientInfo      json.RawMessage            `json:"clientInfo"`
	ServerInfo      json.RawMessage            `json:"serverInfo"`
	Capabilities    json.RawMessage            `json:"capabilities"`
	Meta            map[string]json.RawMessage `json:"_meta"`
}

// readHello reads a handshake message: a request's params, a response's
// result.
func readHello(data []byte) (params, result hello) {
	var m struct {
		Params hello `json:"params"`
		Result hello `json:"result"`
	}
	_ = json.Unmarshal(data, &m)
	return m.Params, m.Result
}

// fromRequest is the header as the host's handshake request tells it.
func (h *handshake) fromRequest(method string, data []byte) record.Header {
	p, _ := readHello(data)
	hd := record.Header{Mcpeek: mcpclient.Version, Transport: h.transport, Protocol: p.ProtocolVersion,
		ClientInfo: p.ClientInfo, ClientCapabilities: p.Capabilities}
	if method == mcpclient.MethodDiscover {
		hd.Protocol = modernRevision
		hd.ClientInfo = p.Meta["io.modelcontextprotocol/clientInfo"]
		hd.ClientCapabilities = p.Meta["io.modelcontextprotocol/clientCapabilities"]
	}
	return hd
}

// fromResponse adds what the server's answer to the handshake tells.
func (h *handshake) fromResponse(data []byte) {
	_, r := readHello(data)
	h.header.ServerCapabilities = r.Capabilities
	h.header.ServerInfo = r.ServerInfo
	if h.method == mcpclient.MethodDiscover {
		if info := r.Meta["io.modelcontextprotocol/serverInfo"]; info != nil {
			h.header.ServerInfo = info
		}
		return
	}
	if r.ProtocolVersion != "" {
		h.header.Protocol = r.ProtocolVersion
	}
}

package mcpclient

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// paramsBook remembers the params of every elicitation/create seen on the
// wire, as the server wrote them. The SDK hands the elicitation handler a
// decoded ElicitParams, which has lost the property order of the requested
// schema, any top-level member it does not know and whether mode was
// omitted; the app path forwards the original bytes and the form shows the
// fields in the server's order, so the wire tap notes them, and the router
// takes each back by the content it decoded into.
type paramsBook struct {
	mu      sync.Mutex
	entries []paramsEntry // oldest first
	bytes   int           // of the params held
}

type paramsEntry struct {
	key [sha256.Size]byte // the identity of the params
	raw json.RawMessage
}

// The book is bounded: requests the SDK refuses before asking mcpeek are
// never taken back, and a server may send many, or large ones. The oldest
// go first; params too large to keep are re-encoded when asked for.
const (
	paramsBookEntries = 256
	paramsBookBytes   = 4 << 20
	paramsMaxBytes    = 1 << 20
)

// note scans a received message for elicitation requests: a legacy
// elicitation/create request, or the input requests of a modern result.
func (b *paramsBook) note(msg []byte) {
	if !bytes.Contains(msg, []byte(`"elicitation/create"`)) {
		return // the common case, without decoding the message
	}
	var m struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result struct {
			InputRequests map[string]struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return
	}
	if m.Method == "elicitation/create" {
		b.add(m.Params)
	}
	for _, ir := range m.Result.InputRequests {
		if ir.Method == "elicitation/create" {
			b.add(ir.Params)
		}
	}
}

func (b *paramsBook) add(params json.RawMessage) {
	if len(params) > paramsMaxBytes {
		return
	}
	key, ok := identity(params)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.entries = append(b.entries, paramsEntry{key: key, raw: append(json.RawMessage(nil), params...)})
	b.bytes += len(params)
	for len(b.entries) > paramsBookEntries || b.bytes > paramsBookBytes {
		b.bytes -= len(b.entries[0].raw)
		b.entries[0] = paramsEntry{}
		b.entries = b.entries[1:]
	}
}

// take returns the wire params of a decoded request, or nil when the tap
// did not see it, or saw several requests of that content written
// differently (then the caller encodes p itself rather than risk handing
// one request another's bytes).
func (b *paramsBook) take(p *mcp.ElicitParams) json.RawMessage {
	raw, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	key, ok := identity(raw)
	if !ok {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	first := -1
	ambiguous := false
	for i, e := range b.entries {
		if e.key != key {
			continue
		}
		if first < 0 {
			first = i
		} else if !bytes.Equal(e.raw, b.entries[first].raw) {
			ambiguous = true
		}
	}
	if first < 0 {
		return nil
	}
	found := b.entries[first].raw
	b.bytes -= len(found)
	b.entries = append(b.entries[:first], b.entries[first+1:]...)
	if ambiguous {
		return nil
	}
	return found
}

// identityMembers are the members of elicitation params that survive the
// SDK's decoding; two params with equal values of these are the same
// request as far as the handler can tell.
var identityMembers = []string{"_meta", "message", "requestedSchema", "url", "elicitationId"}

// identity is a digest of the canonical JSON of the members that survive
// decoding, with empty values dropped (so that an omitted member and the
// SDK's zero value for it compare equal) and mode normalised (omitted
// means form).
func identity(params []byte) ([sha256.Size]byte, bool) {
	var all map[string]any
	if json.Unmarshal(params, &all) != nil || all == nil {
		return [sha256.Size]byte{}, false
	}
	kept := map[string]any{}
	for _, k := range identityMembers {
		switch v := all[k].(type) {
		case nil:
		case string:
			if v != "" {
				kept[k] = v
			}
		case map[string]any:
			if len(v) > 0 {
				kept[k] = v
			}
		default:
			kept[k] = v
		}
	}
	mode, _ := all["mode"].(string)
	if mode == "" {
		mode = "form"
	}
	kept["mode"] = mode
	b, err := json.Marshal(kept)
	return sha256.Sum256(b), err == nil
}

// wireParams is a request's params as the server sent them, when the tap
// saw them; else p encoded, without the empty mode the SDK's encoding
// would add (an omitted mode means form). The tap sees them after
// decoding, so whitespace between tokens may be gone; every member, its
// order and its value are as the server wrote them.
func (w *WireLog) wireParams(p *mcp.ElicitParams) json.RawMessage {
	if w != nil {
		if raw := w.params.take(p); raw != nil {
			return raw
		}
	}
	q := *p
	if q.Mode == "" {
		type noMode struct {
			Meta            mcp.Meta `json:"_meta,omitempty"`
			Message         string   `json:"message"`
			RequestedSchema any      `json:"requestedSchema,omitempty"`
			URL             string   `json:"url,omitempty"`
			ElicitationID   string   `json:"elicitationId,omitempty"`
		}
		b, _ := json.Marshal(noMode{q.Meta, q.Message, q.RequestedSchema, q.URL, q.ElicitationID})
		return b
	}
	b, _ := json.Marshal(q)
	return b
}

// requestedSchema is the raw requestedSchema member of wire params, which
// keeps the server's property order, or nil.
func requestedSchema(params json.RawMessage) json.RawMessage {
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	return p.RequestedSchema
}

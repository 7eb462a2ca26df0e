package mcpclient

import (
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
	mu    sync.Mutex
	byKey map[string][]json.RawMessage // oldest first, per identity
	order []string                     // the identity of each entry, oldest first
}

const paramsBookSize = 256

// note scans a received message for elicitation requests: a legacy
// elicitation/create request, or the input requests of a modern result.
func (b *paramsBook) note(msg []byte) {
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
	key, ok := identity(params)
	if !ok {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.byKey == nil {
		b.byKey = map[string][]json.RawMessage{}
	}
	b.byKey[key] = append(b.byKey[key], append(json.RawMessage(nil), params...))
	b.order = append(b.order, key)
	for len(b.order) > paramsBookSize {
		// Requests the SDK refused before asking mcpeek are never taken:
		// forget the oldest.
		old := b.order[0]
		b.order = b.order[1:]
		if list := b.byKey[old]; len(list) > 1 {
			b.byKey[old] = list[1:]
		} else {
			delete(b.byKey, old)
		}
	}
}

// take returns the wire params of a decoded request, or nil when the tap did
// not see it (then the caller encodes p itself).
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
	list := b.byKey[key]
	if len(list) == 0 {
		return nil
	}
	if len(list) == 1 {
		delete(b.byKey, key)
	} else {
		b.byKey[key] = list[1:]
	}
	for i, k := range b.order {
		if k == key {
			b.order = append(b.order[:i], b.order[i+1:]...)
			break
		}
	}
	return list[0]
}

// identityMembers are the members of elicitation params that survive the
// SDK's decoding; two params with equal values of these are the same
// request as far as the handler can tell.
var identityMembers = []string{"_meta", "message", "requestedSchema", "url", "elicitationId"}

// identity is the canonical JSON of the members that survive decoding,
// with empty values dropped, so that an omitted member and the SDK's zero
// value for it compare equal.
func identity(params []byte) (string, bool) {
	var all map[string]any
	if json.Unmarshal(params, &all) != nil || all == nil {
		return "", false
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
	b, err := json.Marshal(kept)
	return string(b), err == nil
}

// wireParams is a request's params as the server sent them, when the tap
// saw them; else p encoded, without the empty mode the SDK's encoding
// would add (an omitted mode means form).
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

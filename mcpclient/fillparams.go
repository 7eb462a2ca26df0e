package mcpclient

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A server may leave out the params of what it asks mcpeek: they are
// optional for roots/list, and an elicitation/create or a
// sampling/createMessage without them is still a request to answer. go-sdk
// fails to decode an input request without params (the whole tool result
// with it: the call ends as if the connection had failed) and hands a
// legacy elicitation without params to its handler as nil. So the tap gives
// such a request an empty params object, {}, before the SDK reads it; the
// wire log keeps what the server wrote (docs/architecture.md, "Sampling,
// roots and notifications"). The same step keeps the requested schema of a
// form elicitation among input requests away from go-sdk
// (ownschema_modern.go).

// askMethods are the server→client requests whose absent params mcpeek
// reads as empty.
var askMethods = map[string]bool{"roots/list": true, MethodElicit: true, MethodSample: true}

// emptyParams reports whether raw params are absent or null.
func emptyParams(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}

// fillMessage gives a decoded message's ask without params an empty one:
// a server→client request, or the input requests of a result.
func fillMessage(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if askMethods[m.Method] && emptyParams(m.Params) {
			m.Params = json.RawMessage(`{}`)
		}
	case *jsonrpc.Response:
		if filled := fillInputRequests(m.Result); filled != nil {
			m.Result = filled
		}
	}
}

// fillWire is [fillMessage] for one encoded message or a batch, as an HTTP
// body or an event's data carries it; nil when nothing needs filling.
func fillWire(data []byte) []byte {
	if !mentionsAsk(data) {
		return nil // the common case, without decoding
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(trimmed, &batch) != nil {
			return nil
		}
		changed := false
		for i, raw := range batch {
			if filled := fillOne(raw); filled != nil {
				batch[i], changed = filled, true
			}
		}
		if !changed {
			return nil
		}
		return encode(batch)
	}
	return fillOne(trimmed)
}

// mentionsAsk reports whether data may hold an ask: it names one of the
// methods.
func mentionsAsk(data []byte) bool {
	for m := range askMethods {
		if bytes.Contains(data, []byte(`"`+m+`"`)) {
			return true
		}
	}
	return false
}

// fillOne fills one encoded message, re-encoding only what changes; nil
// when nothing does (or it is not a message at all, for the SDK to refuse).
func fillOne(data []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m == nil {
		return nil
	}
	if result, ok := m["result"]; ok {
		filled := fillInputRequests(result)
		if filled == nil {
			return nil
		}
		m["result"] = filled
	} else {
		var method string
		if json.Unmarshal(m["method"], &method) != nil || !askMethods[method] || m["id"] == nil || !emptyParams(m["params"]) {
			return nil
		}
		m["params"] = json.RawMessage(`{}`)
	}
	return encode(m)
}

// fillInputRequests is a result whose input requests without params have
// an empty one, and whose form elicitations carry their requested schema
// in _meta (see schemaInMeta), or nil when none needs either. Every other
// member, and the params of every other request, keep their bytes.
func fillInputRequests(result json.RawMessage) json.RawMessage {
	if !bytes.Contains(result, []byte(`"inputRequests"`)) || !mentionsAsk(result) {
		return nil
	}
	var r map[string]json.RawMessage
	if json.Unmarshal(result, &r) != nil || r == nil {
		return nil
	}
	var requests map[string]map[string]json.RawMessage
	if json.Unmarshal(r["inputRequests"], &requests) != nil {
		return nil
	}
	changed := false
	for _, ir := range requests {
		var method string
		if ir == nil || json.Unmarshal(ir["method"], &method) != nil || !askMethods[method] {
			continue
		}
		if emptyParams(ir["params"]) {
			ir["params"] = json.RawMessage(`{}`)
			changed = true
		} else if own := schemaInMeta(method, ir["params"]); own != nil {
			ir["params"] = own
			changed = true
		}
	}
	if !changed {
		return nil
	}
	if r["inputRequests"] = encode(requests); r["inputRequests"] == nil {
		return nil
	}
	return encode(r)
}

// encode is v as JSON, the server's strings as they were (no HTML
// escaping), or nil.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

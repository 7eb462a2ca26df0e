package mcpclient

import (
	"bytes"
	"encoding/json"
	"sync"
)

// orderBook remembers the property order of every requested schema seen on
// the wire. The SDK hands the elicitation handler a decoded map, which has
// lost the order the server wrote; the form shows fields in that order, so
// the wire tap notes it, keyed by the schema's canonical JSON.
type orderBook struct {
	mu     sync.Mutex
	orders map[string][]string
	keys   []string // insertion order, for a bounded size
}

const orderBookSize = 256

// note scans a received message for elicitation requests: a legacy
// elicitation/create request, or the input requests of a modern result.
func (o *orderBook) note(msg []byte) {
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
		o.noteParams(m.Params)
	}
	for _, ir := range m.Result.InputRequests {
		if ir.Method == "elicitation/create" {
			o.noteParams(ir.Params)
		}
	}
}

func (o *orderBook) noteParams(params json.RawMessage) {
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) != nil || p.RequestedSchema == nil {
		return
	}
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(p.RequestedSchema, &s) != nil || s.Properties == nil {
		return
	}
	order := objectKeys(s.Properties)
	key, ok := canonical(p.RequestedSchema)
	if !ok || len(order) == 0 {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.orders == nil {
		o.orders = map[string][]string{}
	}
	if _, seen := o.orders[key]; !seen {
		o.keys = append(o.keys, key)
		if len(o.keys) > orderBookSize {
			delete(o.orders, o.keys[0])
			o.keys = o.keys[1:]
		}
	}
	o.orders[key] = order
}

// lookup returns the wire order of a decoded schema's properties, or nil.
func (o *orderBook) lookup(schema any) []string {
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	key, ok := canonical(b)
	if !ok {
		return nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.orders[key]
}

// canonical re-encodes JSON with sorted keys and plain numbers.
func canonical(raw []byte) (string, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	b, err := json.Marshal(v)
	return string(b), err == nil
}

// objectKeys lists a JSON object's keys in the order written.
func objectKeys(raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := tok.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

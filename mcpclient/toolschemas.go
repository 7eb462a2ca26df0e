package mcpclient

import (
	"bytes"
	"encoding/json"
	"sync"
)

// toolSchemas keeps each tool's input schema as the server wrote it in
// its tools/list answer. go-sdk decodes a schema into a map, which loses
// the order of its properties; a form of the tool's arguments shows them
// in the server's order (docs/architecture.md, "The requested schema").
type toolSchemas struct {
	mu     sync.Mutex
	byName map[string]json.RawMessage
	bytes  int
}

// toolSchemasMax bounds the schemas kept, in bytes: a server lists as many
// tools as it likes, and a form of one without its order is still a form.
const toolSchemasMax = 8 << 20

// note takes the input schemas of a received tools/list answer.
func (t *toolSchemas) note(data []byte) {
	if !bytes.Contains(data, []byte(`"inputSchema"`)) {
		return // the common case, without decoding the message
	}
	var m struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tool := range m.Result.Tools {
		if tool.Name == "" || len(tool.InputSchema) == 0 {
			continue
		}
		// Valid UTF-8, as encoding/json writes decoded strings: `list`
		// prints the schema as it is kept.
		tool.InputSchema = bytes.ToValidUTF8(tool.InputSchema, []byte("\ufffd"))
		old := t.byName[tool.Name]
		if t.bytes-len(old)+len(tool.InputSchema) > toolSchemasMax {
			continue
		}
		if t.byName == nil {
			t.byName = map[string]json.RawMessage{}
		}
		t.bytes += len(tool.InputSchema) - len(old)
		t.byName[tool.Name] = tool.InputSchema
	}
}

// InputSchema is the input schema of the named tool as the server last
// listed it, its properties in the server's order; nil when mcpeek has
// not seen it listed.
func (c *Conn) InputSchema(name string) json.RawMessage {
	c.toolSchemas.mu.Lock()
	defer c.toolSchemas.mu.Unlock()
	return c.toolSchemas.byName[name]
}

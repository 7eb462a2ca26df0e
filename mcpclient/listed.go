package mcpclient

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listed keeps the tools, prompts, resources and resource templates of
// the server's list answers as the server wrote them: go-sdk decodes each
// into a struct (its keys in the struct's order) and its schemas into maps
// (their keys in alphabetical order), and `mcpeek list` prints them in the
// server's own order (docs/architecture.md, "Headless runs and exit
// codes").
type listed struct {
	mu    sync.Mutex
	byKey map[listedKey]json.RawMessage
	bytes int
}

// listedKey names one item: its kind ("tools", …) and its name, URI or URI
// template.
type listedKey struct{ kind, id string }

// listedMax bounds what is kept, in bytes: without an item as written,
// list prints go-sdk's decoding of it.
const listedMax = 8 << 20

// note takes the items of a received list answer.
func (l *listed) note(data []byte) {
	if !bytes.Contains(data, []byte(`"result"`)) || !bytes.Contains(data, []byte(`"tools"`)) &&
		!bytes.Contains(data, []byte(`"prompts"`)) && !bytes.Contains(data, []byte(`"resources"`)) &&
		!bytes.Contains(data, []byte(`"resourceTemplates"`)) {
		return // the common case, without decoding the message
	}
	var m struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil {
		return
	}
	for _, kind := range []string{"tools", "prompts", "resources", "resourceTemplates"} {
		var items []json.RawMessage
		if raw, ok := m.Result[kind]; !ok || json.Unmarshal(raw, &items) != nil {
			continue
		}
		for _, item := range items {
			l.keep(kind, item)
		}
	}
}

func (l *listed) keep(kind string, item json.RawMessage) {
	var id struct {
		Name        string `json:"name"`
		URI         string `json:"uri"`
		URITemplate string `json:"uriTemplate"`
	}
	if json.Unmarshal(item, &id) != nil {
		return
	}
	k := listedKey{kind, id.Name}
	switch kind {
	case "resources":
		k.id = id.URI
	case "resourceTemplates":
		k.id = id.URITemplate
	}
	if k.id == "" {
		return
	}
	// As valid UTF-8, as encoding/json would write the decoded strings:
	// the bytes are the server's, and invalid ones stand only in strings
	// of a message that decoded.
	item = bytes.ToValidUTF8(item, []byte("\ufffd"))
	l.mu.Lock()
	defer l.mu.Unlock()
	old := l.byKey[k]
	if l.bytes-len(old)+len(item) > listedMax {
		return
	}
	if l.byKey == nil {
		l.byKey = map[listedKey]json.RawMessage{}
	}
	l.bytes += len(item) - len(old)
	l.byKey[k] = item
}

// asListed is each item as the server last listed it, where mcpeek kept
// it, else as go-sdk decoded it; id names an item.
func asListed[T any](l *listed, kind string, items []*T, id func(*T) string) []any {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]any, 0, len(items))
	for _, item := range items {
		if raw, ok := l.byKey[listedKey{kind, id(item)}]; ok {
			out = append(out, raw)
			continue
		}
		out = append(out, item)
	}
	return out
}

// AsListed is out, a [Conn.List] answer, with each item as the server wrote
// it where mcpeek kept it: for printing, in the server's order of keys.
func (c *Conn) AsListed(out map[string]any) map[string]any {
	shown := make(map[string]any, len(out))
	for kind, v := range out {
		switch items := v.(type) {
		case []*mcp.Tool:
			shown[kind] = asListed(&c.listed, kind, items, func(t *mcp.Tool) string { return t.Name })
		case []*mcp.Prompt:
			shown[kind] = asListed(&c.listed, kind, items, func(p *mcp.Prompt) string { return p.Name })
		case []*mcp.Resource:
			shown[kind] = asListed(&c.listed, kind, items, func(r *mcp.Resource) string { return r.URI })
		case []*mcp.ResourceTemplate:
			shown[kind] = asListed(&c.listed, kind, items, func(r *mcp.ResourceTemplate) string { return r.URITemplate })
		default:
			shown[kind] = v
		}
	}
	return shown
}

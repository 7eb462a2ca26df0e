package mcpclient

import (
	"bytes"
	"encoding/json"
	"maps"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// In 2026-07-28 go-sdk answers the input requests of a result inside its
// own multi round-trip middleware, which ownSchema cannot come between, and
// there it would check the requested schema and add its defaults to the
// answer as it does for a legacy request. So the wire tap, which reads each
// result before go-sdk does, moves the requested schema of each form
// elicitation among the input requests into the params' _meta, under
// ownSchemaMeta: go-sdk sees a request without a schema, as ownSchema hands
// it a legacy one, and the router takes the schema back (ownParams). The
// wire log, the params book (and so the app path's bytes) keep the params
// as the server wrote them (docs/architecture.md, "The requested schema").

// ownSchemaMeta is the _meta key under which the tap keeps a requested
// schema away from go-sdk.
const ownSchemaMeta = "io.mcpeek/requestedSchema"

// schemaInMeta is the params of a form elicitation among input requests
// with its requested schema moved into _meta, or nil when there is none to
// move (another method, URL mode, no schema, params that are no object).
func schemaInMeta(method string, params json.RawMessage) json.RawMessage {
	if method != MethodElicit || !bytes.Contains(params, []byte(`"requestedSchema"`)) {
		return nil
	}
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p == nil || emptyParams(p["requestedSchema"]) {
		return nil
	}
	var mode string
	if m, ok := p["mode"]; ok && (json.Unmarshal(m, &mode) != nil || mode != "" && mode != "form") {
		return nil
	}
	meta := map[string]json.RawMessage{}
	if !emptyParams(p["_meta"]) && (json.Unmarshal(p["_meta"], &meta) != nil || meta == nil) {
		return nil // left for go-sdk to refuse
	}
	meta[ownSchemaMeta] = p["requestedSchema"]
	delete(p, "requestedSchema")
	if p["_meta"] = encode(meta); p["_meta"] == nil {
		return nil
	}
	return encode(p)
}

// ownParams is the elicitation's params with the requested schema the tap
// moved into _meta back in its place, or p when it moved none.
func ownParams(p *mcp.ElicitParams) *mcp.ElicitParams {
	schema, ok := p.Meta[ownSchemaMeta]
	if !ok || p.RequestedSchema != nil {
		return p
	}
	q := *p
	q.RequestedSchema = schema
	q.Meta = maps.Clone(p.Meta)
	delete(q.Meta, ownSchemaMeta)
	if len(q.Meta) == 0 {
		q.Meta = nil
	}
	return &q
}

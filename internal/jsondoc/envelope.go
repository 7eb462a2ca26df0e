package jsondoc

// The era envelope: what a protocol revision adds to every result it
// carries, which says how the answer travelled rather than what the
// server answered. A result compared across eras (a snapshot saved in
// one and checked in the other, era parity, a replay) is compared
// without it.
//
// From the 2026-07-28 revision (as the go-sdk implements it):
//   - resultType, on every result ("complete", "input_required", …);
//   - ttlMs and cacheScope, the cache hints on server/discover, the four
//     list results and resources/read;
//   - in _meta, the server's identity (io.modelcontextprotocol/serverInfo)
//     and the revision spoken (io.modelcontextprotocol/protocolVersion).
//
// 2025-11-25 adds nothing to a result that the later revision does not
// also carry.
var (
	// EnvelopeMembers are the members of a result's top level that belong
	// to the envelope.
	EnvelopeMembers = []string{"resultType", "ttlMs", "cacheScope"}
	// EnvelopeMeta are the members of a result's top-level _meta that
	// belong to the envelope.
	EnvelopeMeta = []string{"io.modelcontextprotocol/serverInfo", "io.modelcontextprotocol/protocolVersion"}
)

// StripEnvelope removes the era envelope from a result (a decoded JSON
// object), in place, and returns it: [EnvelopeMembers] at its top level,
// [EnvelopeMeta] from its _meta, and the _meta itself when nothing else
// is left in it. Anything else is returned as it is. Only the top level
// is touched: a tool's structured content, say, keeps a member of the
// same name.
func StripEnvelope(doc any) any {
	m, ok := doc.(map[string]any)
	if !ok {
		return doc
	}
	for _, k := range EnvelopeMembers {
		delete(m, k)
	}
	if meta, ok := m["_meta"].(map[string]any); ok {
		for _, k := range EnvelopeMeta {
			delete(meta, k)
		}
		if len(meta) == 0 {
			delete(m, "_meta")
		}
	}
	return m
}

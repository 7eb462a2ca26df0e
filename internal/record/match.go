package record

import (
	"bytes"
	"encoding/json"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// A Matcher decides when a live message is one a recording holds: a
// client request the served recording answers (replay --serve), or a
// server question the replay client answers (replay). Both use the one
// rule of [Matcher.Match]; what each side does with a match (take it
// once, ask it again) is its own. See docs/architecture.md, "Matching a
// request or a question".
type Matcher struct {
	byMethod map[string]bool
	loose    map[string]bool
}

// A MatchOption changes what a [Matcher] matches.
type MatchOption func(*Matcher)

// MatchByMethod matches messages of these methods by method alone: each
// client says other things of itself in initialize and server/discover.
func MatchByMethod(methods ...string) MatchOption {
	return func(m *Matcher) {
		for _, k := range methods {
			m.byMethod[k] = true
		}
	}
}

// MatchLoosely lets a message of these methods take a recorded one of
// the same method when none with the same params is left
// ([Matcher.Loose]): sampling requests, whose params go-sdk decodes and
// mcpeek encodes again.
func MatchLoosely(methods ...string) MatchOption {
	return func(m *Matcher) {
		for _, k := range methods {
			m.loose[k] = true
		}
	}
}

// NewMatcher is a matcher with the options.
func NewMatcher(opts ...MatchOption) *Matcher {
	m := &Matcher{byMethod: map[string]bool{}, loose: map[string]bool{}}
	for _, o := range opts {
		o(m)
	}
	return m
}

// Key is what a message is matched by.
type Key struct {
	// Method is the message's method.
	Method string
	// Params is the canonical JSON of its params without _meta,
	// requestState and inputResponses ({} for none); malformed params as
	// they are.
	Params string
	// State is the requestState a 2026-07-28 retry carries ("" for none).
	State string
	// bare is what [Matcher.Match] compares: Params without the members
	// that say what leaving them out says ([optionalParams]).
	bare string
}

// optionalParams are, by method, the members of a request's params the
// spec lets a sender leave out, and the value leaving it out means: a
// member with that value matches one left out. Besides these, any member
// that is null is as if left out (an optional cursor a client sends as
// null), and absent params are {}; _meta is never compared.
var optionalParams = map[string]map[string]string{
	mcpclient.MethodCallTool: {"arguments": `{}`},
	"prompts/get":            {"arguments": `{}`},
	mcpclient.MethodElicit:   {"mode": `"form"`},
}

// Key is the key of a message: its method and params.
func (m *Matcher) Key(method string, params json.RawMessage) Key {
	k := Key{Method: method}
	var p struct {
		State *string `json:"requestState"`
	}
	if json.Unmarshal(params, &p) == nil && p.State != nil {
		k.State = *p.State
	}
	canon, err := jsondoc.Canonical(StripRetry(params))
	switch {
	case len(bytes.TrimSpace(params)) == 0 || string(canon) == "null":
		k.Params = "{}"
	case err != nil:
		k.Params = string(params)
	default:
		k.Params = string(canon)
	}
	k.bare = bareParams(method, k.Params)
	return k
}

// bareParams is canonical params without their null members and those
// that have the value leaving them out means ([optionalParams]).
func bareParams(method, canon string) string {
	var m map[string]any
	if json.Unmarshal([]byte(canon), &m) != nil || m == nil {
		return canon
	}
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	for k, absent := range optionalParams[method] {
		if v, ok := m[k]; ok {
			if b, err := json.Marshal(v); err == nil && string(b) == absent {
				delete(m, k)
			}
		}
	}
	out, err := json.Marshal(m)
	if err != nil {
		return canon
	}
	return string(out)
}

// Match reports whether a live message is the recorded one: the same
// method; then, but for the methods matched by method alone, the same
// params without _meta (the protocol's envelope: ids, progress tokens,
// capabilities, which differ from run to run) and without what the spec
// makes optional when it says nothing (absent params are {}; a null
// member, an empty tools/call arguments, are left out), and the same
// requestState
// (a retry echoes the recorded server's). A retry's inputResponses are
// left out: they are the client's answers, which the served recording
// compares apart and reports, rather than refusing the request.
func (m *Matcher) Match(live, recorded Key) bool {
	if live.Method != recorded.Method {
		return false
	}
	if m.byMethod[live.Method] {
		return true
	}
	return live.bare == recorded.bare && live.State == recorded.State
}

// Loose reports whether a message of the method may take a recorded one
// of the same method when none matches ([MatchLoosely]).
func (m *Matcher) Loose(method string) bool { return m.loose[method] }

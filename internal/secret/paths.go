// The one rule: which values of a request's arguments or a question's
// answer hold a secret.

package secret

import (
	"encoding/json"
	"slices"
)

// Known are the values a session knows as secrets (an
// *mcpclient.Secrets: the credentials of -H headers and configs, the
// tokens it learned): Redact hides each of them in a text. A nil Known,
// or a nil set, knows none.
type Known interface {
	Redact(text string) string
}

// Paths are the fields of v (a JSON object, decoded or its encoding) that
// hold a secret, nested ones as a path (auth.token), sorted: those the
// schema (v's, nil: names alone tell) marks as a password or write-only,
// through its local references; those whose name says they hold a
// secret; and those holding a value known knows. Whatever mcpeek writes
// for a person to keep (+, record --to-suite, test init) writes these as
// {{env.X}} templates, never their values.
func Paths(schema, v any, known Known) []string {
	var obj map[string]any
	switch t := v.(type) {
	case json.RawMessage:
		_ = json.Unmarshal(t, &obj)
	case []byte:
		_ = json.Unmarshal(t, &obj)
	case map[string]any:
		obj = t
	default:
		if b, err := json.Marshal(v); err == nil {
			_ = json.Unmarshal(b, &obj)
		}
	}
	marked := Fields(schema)
	var out []string
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, x := range m {
			path := prefix + k
			switch {
			case slices.Contains(marked, path), Name(k), holdsKnown(x, known):
				out = append(out, path)
			default:
				if sub, ok := x.(map[string]any); ok {
					walk(path+".", sub)
				}
			}
		}
	}
	walk("", obj)
	slices.Sort(out)
	return out
}

// holdsKnown reports whether v, or a string of an array v, holds a value
// known knows.
func holdsKnown(v any, known Known) bool {
	if known == nil {
		return false
	}
	switch t := v.(type) {
	case string:
		return known.Redact(t) != t
	case []any:
		return slices.ContainsFunc(t, func(e any) bool { return holdsKnown(e, known) })
	}
	return false
}

// Hide is doc (decoded JSON, a copy the caller owns, changed in place)
// with what the rule holds secret in a result replaced by placeholder:
// the value of a field whose name says it holds a secret (a string, an
// object or an array; numbers, booleans and null say nothing), and each
// value known knows wherever a string holds it. A result has no input
// schema: its names and the session's values tell. Snapshots, which are
// committed, are written and compared through it.
func Hide(doc any, known Known, placeholder string) any {
	switch t := doc.(type) {
	case string:
		if known != nil {
			return known.Redact(t)
		}
	case map[string]any:
		for k, v := range t {
			switch v.(type) {
			case string, map[string]any, []any:
				if Name(k) {
					t[k] = placeholder
					continue
				}
			}
			t[k] = Hide(v, known, placeholder)
		}
	case []any:
		for i, v := range t {
			t[i] = Hide(v, known, placeholder)
		}
	}
	return doc
}

package suite

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/theory/jsonpath"
)

// Mismatch is where two results first differ (CompareResults).
type Mismatch struct {
	// Pointer is the place, as a JSON pointer (RFC 6901): "" for the
	// whole result, "/content/0/text" for a member in it.
	Pointer string
	// Want and Got are the values there.
	Want, Got any
}

// ParseRedactions reads JSONPath expressions, as a suite's redact: lists
// them.
func ParseRedactions(exprs []string) ([]*Redaction, error) {
	var out []*Redaction
	for _, e := range exprs {
		p, err := jsonpath.Parse(e)
		if err != nil {
			return nil, fmt.Errorf("%q is not a JSONPath: %v", e, err)
		}
		out = append(out, &Redaction{Path: p})
	}
	return out, nil
}

// CompareResults compares two results (decoded JSON) as a test compares
// a snapshot: without what their era's envelope adds, with what the
// redactions select replaced by the placeholder in both. It returns the
// first difference, keys in order, or nil. Neither argument is changed.
func CompareResults(want, got any, redactions []*Redaction) *Mismatch {
	w := redact(comparable(deepCopy(want)), redactions)
	g := redact(comparable(deepCopy(got)), redactions)
	at, x, y, differ := diffAt(w, g, nil)
	if !differ {
		return nil
	}
	var b strings.Builder
	for _, step := range at {
		b.WriteByte('/')
		switch s := step.(type) {
		case int:
			b.WriteString(strconv.Itoa(s))
		case string:
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1"))
		}
	}
	return &Mismatch{Pointer: b.String(), Want: x, Got: y}
}

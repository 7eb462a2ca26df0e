package suite

import (
	"fmt"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/theory/jsonpath"
)

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
// first difference, members in name order, and false when there is none.
// Neither argument is changed.
func CompareResults(want, got any, redactions []*Redaction) (jsondoc.Diff, bool) {
	return jsondoc.FirstDiff(comparable(want), comparable(got), jsondoc.Options{Redactions: selectors(redactions)})
}

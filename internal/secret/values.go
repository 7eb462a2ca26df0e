// The values the rule held secret and wrote as templates.

package secret

import (
	"encoding/json"
	"slices"
	"strings"
)

// Values are the values a saved test writes as {{env.MCPEEK_SECRET_…}}
// templates, which its snapshot hides (the writer, with the values it
// templated; the runner, with those it read for the variables). A
// session's set (mcpclient.Secrets) passes over values shorter than 8
// bytes or made of digits, not to cut into every answer it shows; these
// the rule already holds secret, and a snapshot is committed, so they are
// hidden from minValue bytes on (a password hunter2, a PIN 4815). A nil
// *Values hides none.
type Values struct {
	needles []string // longest first: a value inside another is hidden whole
}

// minValue is the shortest value a Values hides: shorter ones would cut
// into most words of a result.
const minValue = 4

// Add makes the set hide v, and v as a JSON string writes it.
func (s *Values) Add(v string) {
	if s == nil || len(v) < minValue {
		return
	}
	forms := []string{v}
	if b, err := json.Marshal(v); err == nil {
		if f := string(b[1 : len(b)-1]); f != v {
			forms = append(forms, f)
		}
	}
	for _, f := range forms {
		if !slices.Contains(s.needles, f) {
			s.needles = append(s.needles, f)
		}
	}
	slices.SortStableFunc(s.needles, func(a, b string) int { return len(b) - len(a) })
}

// Redact is text with each of the values replaced by [redacted].
func (s *Values) Redact(text string) string {
	if s == nil {
		return text
	}
	for _, n := range s.needles {
		text = strings.ReplaceAll(text, n, redacted)
	}
	return text
}

// redacted is what a value is replaced with, as a session's set does.
const redacted = "[redacted]"

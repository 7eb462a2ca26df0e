// Package termtext makes text from servers and files safe to show on a
// terminal line: escape sequences are shown, not obeyed, and line breaks
// cannot forge further lines.
package termtext

import (
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/formschema"
)

// OneLine makes s, which may quote a server, safe for one line of a
// terminal: cleaned, with its runs of white space (line breaks included)
// made one space.
func OneLine(s string) string {
	return strings.Join(strings.Fields(formschema.Clean(s)), " ")
}

// Cut cuts s to n runes, marking the cut with an ellipsis.
func Cut(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// Until words how long until t, as a token's expiry is shown: "in 59m0s",
// "expired", or "never" for no time.
func Until(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := time.Until(t).Round(time.Second)
	if d <= 0 {
		return "expired"
	}
	return "in " + d.String()
}

// Package cireport holds what the reports mcpeek writes for CI servers
// (mcpeek test's and mcpeek diff's) share: the escaping of GitHub Actions
// workflow commands, and JUnit text that stays XML whatever a server
// wrote.
package cireport

import (
	"strings"

	"github.com/mcpeek/mcpeek/formschema"
)

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// Escape escapes a workflow command's message (after the second ::), as
// the Actions toolkit does.
func Escape(s string) string { return dataEscaper.Replace(s) }

// EscapeProperty escapes a workflow command's property value (file=,
// title=), as the Actions toolkit does.
func EscapeProperty(s string) string { return propertyEscaper.Replace(s) }

// XMLText is s made text an XML 1.0 document can hold: encoding/xml
// writes CDATA (go-junit-report's failure and system-out bodies) as it
// is, and one control character a server wrote, an escape sequence say,
// would make the whole report unreadable to the CI server. Escape shows
// as ␛, other control characters and bytes that are not UTF-8 as U+FFFD
// (formschema.Clean); newlines and tabs stay.
func XMLText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 0xFFFE || r == 0xFFFF {
			return '\uFFFD'
		}
		return r
	}, formschema.Clean(s))
}

// Package cireport holds what the reports mcpeek writes for CI servers
// (mcpeek test's and mcpeek diff's) share: the escaping of GitHub Actions
// workflow commands, Markdown table cells that stay text, and JUnit text
// that stays XML whatever a server wrote.
package cireport

import (
	"strings"

	"github.com/mcpeek/mcpeek/internal/textclean"
)

var (
	// cellEscaper makes a server's text plain text in a GitHub Markdown
	// table cell: HTML is shown, not obeyed (an unclosed <details open>
	// would fold away the rows after it), the brackets of links and
	// images are escaped, and so are a backtick (which could pair with one
	// of mcpeek's own and make markup of the text between) and the
	// backslash that could undo the escaping.
	cellEscaper     = strings.NewReplacer(`\`, `\\`, "|", `\|`, "&", "&amp;", "<", "&lt;", ">", "&gt;", "[", `\[`, "]", `\]`, "`", "\\`")
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// MarkdownCell is text that may quote a server (a test's name, a
// failure) made one line of plain text in a cell of a GitHub Markdown
// table, as the step summary shows it: cleaned as textclean.OneLine, with
// no HTML, link or image of the server's rendered.
func MarkdownCell(s string) string { return cellEscaper.Replace(textclean.OneLine(s)) }

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
// as ␛, other control characters (DEL and C1 among them, which XML 1.0
// allows but a CI server's parser may not) and bytes that are not UTF-8
// as U+FFFD (textclean.Clean); newlines and tabs stay. Attributes are
// written through it as well as character data.
func XMLText(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 0xFFFE || r == 0xFFFF {
			return '\uFFFD'
		}
		return r
	}, textclean.Clean(s))
}

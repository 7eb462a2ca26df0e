// Package textclean makes text that a server or a repository wrote safe to
// show on a terminal or in a CI log, and cuts it to size: one rule for
// every place such text is printed, so that none of them lets an escape
// sequence, a forged line or an invisible character through.
//
// It imports nothing of mcpeek's and no UI package: formschema, mcpclient
// and the commands all use it.
package textclean

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Clean makes text from a server safe to draw on a terminal: escape
// becomes ␛ and other control characters (DEL and C1 among them) U+FFFD,
// newlines and tabs staying; bytes that are not UTF-8 become U+FFFD; and
// characters that reorder or hide text — the bidirectional controls and
// the zero-width characters — are shown as \uXXXX. Nothing a server sends
// can move the cursor, clear the screen, restyle mcpeek's own framing,
// make a command read backwards (U+202E) or make two different names
// look the same ("PATH\u200b").
func Clean(s string) string {
	if strings.IndexFunc(s, needsCleaning) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x1b:
			b.WriteString("␛")
		case isControl(r):
			b.WriteRune(utf8.RuneError)
		case Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// OneLine is Clean(s) on one line: runs of white space, line breaks among
// them, become one space, so that a server's text cannot forge further
// lines of mcpeek's output.
func OneLine(s string) string { return strings.Join(strings.Fields(Clean(s)), " ") }

func needsCleaning(r rune) bool { return isControl(r) || Invisible(r) }

// isControl reports the control characters Clean replaces: all but
// newline and tab, with DEL and the C1 range.
func isControl(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || r == 0x7f || (r >= 0x80 && r < 0xa0))
}

// Invisible reports the characters that change how text around them reads
// without showing themselves: the bidirectional embeddings, overrides,
// isolates and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
// U+061C) and the zero-width characters (U+200B–U+200D, U+2060, U+FEFF).
func Invisible(r rune) bool {
	switch {
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r >= 0x200b && r <= 0x200f:
		return true
	}
	return r == 0x061c || r == 0x2060 || r == 0xfeff
}

// Ellipsis is the marker Cut ends a cut text with unless told otherwise.
const Ellipsis = "…"

// CutOption changes how Cut counts or marks a cut.
type CutOption func(*cutter)

type cutter struct {
	bytes  bool
	marker func(rest int) string
}

// InBytes counts Cut's limit in bytes (still cutting on a rune boundary)
// instead of runes.
func InBytes() CutOption { return func(c *cutter) { c.bytes = true } }

// Marker ends a cut text with m instead of Ellipsis ("" for nothing).
func Marker(m string) CutOption {
	return func(c *cutter) { c.marker = func(int) string { return m } }
}

// SayRest ends a cut text with how many bytes were left out:
// "… (120 more bytes)".
func SayRest() CutOption {
	return func(c *cutter) { c.marker = func(rest int) string { return fmt.Sprintf("… (%d more bytes)", rest) } }
}

// Cut shortens s to at most n runes (InBytes: bytes), never inside a
// rune, and marks what it cut with Ellipsis or the Marker given; s fits
// as it is. n ≤ 0 sets no limit.
func Cut(s string, n int, opts ...CutOption) string {
	c := cutter{marker: func(int) string { return Ellipsis }}
	for _, o := range opts {
		o(&c)
	}
	i := c.end(s, n)
	if i == len(s) {
		return s
	}
	return s[:i] + c.marker(len(s)-i)
}

// end is the byte offset s is cut at: len(s) when it fits.
func (c cutter) end(s string, n int) int {
	if n <= 0 || len(s) <= n {
		return len(s)
	}
	if c.bytes {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return n
	}
	count := 0
	for i := range s {
		if count == n {
			return i
		}
		count++
	}
	return len(s)
}

// EscapeJSON writes DEL (U+007F) and the C1 controls (U+0080 to U+009F)
// in encoded JSON as \u escapes: encoding/json leaves them raw, some
// terminals obey them (U+009B is CSI), and a report's reader may not
// expect them. In JSON they can only occur inside strings, where the
// escape means the same character; in valid UTF-8 DEL is the byte 0x7F
// and each C1 control 0xC2 and a byte below 0xA0.
func EscapeJSON(b []byte) []byte {
	if bytes.IndexByte(b, 0xc2) < 0 && bytes.IndexByte(b, 0x7f) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == 0x7f:
			out = append(out, `\u007f`...)
		case b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0:
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
		default:
			out = append(out, b[i])
		}
	}
	return out
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

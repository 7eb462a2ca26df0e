package mcpclient

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// jsonLine is v as one line of a log file (--wire-log, --elicit-log),
// newline included. Beyond what encoding/json escapes (C0 controls, U+2028
// and U+2029), DEL and the C1 controls are escaped as \u007f…\u009f, and
// bytes that are not UTF-8 (a server's raw message may hold some) become
// \ufffd: a log read with cat or tail reaches a terminal, which may obey
// U+009B as it obeys ESC [. The JSON means what it meant.
func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(escapeControls(b), '\n'), nil
}

// escapeControls escapes DEL, the C1 controls and bytes that are not UTF-8
// in b, encoded JSON, where they can only be inside strings.
func escapeControls(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < 0x7f {
		i++
	}
	if i == len(b) {
		return b // ASCII without DEL: most lines
	}
	out := append(make([]byte, 0, len(b)+16), b[:i]...)
	for rest := b[i:]; len(rest) > 0; {
		r, n := utf8.DecodeRune(rest)
		switch {
		case r == utf8.RuneError && n == 1:
			out = append(out, `\ufffd`...)
		case r >= 0x7f && r <= 0x9f:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, rest[:n]...)
		}
		rest = rest[n:]
	}
	return out
}

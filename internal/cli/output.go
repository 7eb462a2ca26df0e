package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/termtext"
)

// writeJSON writes v as indented JSON, safe for a terminal.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode output: %w", err)
	}
	_, err = w.Write(append(escapeC1(b), '\n'))
	return err
}

// escapeC1 writes the C1 controls (U+0080 to U+009F) in JSON as \u escapes:
// encoding/json leaves them raw, and some terminals obey them (U+009B is
// CSI). In valid UTF-8 each is 0xC2 and a byte below 0xA0, and in JSON
// output they can only occur inside strings.
func escapeC1(b []byte) []byte {
	if bytes.IndexByte(b, 0xc2) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0 {
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}

// oneLine makes a message, which may quote the server, safe for one line of
// a terminal: escape sequences are shown, not obeyed, and line breaks
// cannot forge further lines.
func oneLine(s string) string { return termtext.OneLine(s) }

// createPrivate opens a log file (--elicit-log, --record) only its owner
// can read, by the file policy's rule for logs ([safefile.Log]).
func createPrivate(path string) (*os.File, error) { return safefile.Log(path) }

// cutLine cuts s to n runes.
func cutLine(s string, n int) string { return termtext.Cut(s, n) }

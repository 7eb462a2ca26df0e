package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// writeJSON writes v as indented JSON, safe for a terminal.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode output: %w", err)
	}
	_, err = w.Write(append(textclean.EscapeJSON(b), '\n'))
	return err
}

// createPrivate opens a log file (--elicit-log, --record) only its owner
// can read, by the file policy's rule for logs ([safefile.Log]).
func createPrivate(path string) (*os.File, error) { return safefile.Log(path) }

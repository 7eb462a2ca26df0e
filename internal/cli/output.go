package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mcpeek/mcpeek/internal/session"
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

// createPrivate opens a log file only its owner can read
// (session.CreatePrivate).
func createPrivate(path string) (*os.File, error) { return session.CreatePrivate(path) }

package tui

import (
	"os"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// createSaved opens the file w saves to by the file policy's rule for
// private files ([safefile.Private]): readable by its owner only, never
// through a link, never over another user's file.
func createSaved(path string) (*os.File, error) { return safefile.Private(path) }

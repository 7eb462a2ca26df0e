package cli

import (
	"os"

	"github.com/mcpeek/mcpeek/internal/safefile"
)

// createPrivate opens a log file (--wire-log, --elicit-log, --record) by
// the file policy's rule for logs ([safefile.Log]).
func createPrivate(path string) (*os.File, error) { return safefile.Log(path) }

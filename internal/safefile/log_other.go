//go:build !unix

package safefile

import (
	"fmt"
	"os"
)

// Log opens a log file (--wire-log, --elicit-log) only its owner can
// read: logs hold what servers and people sent, which may be secret. A
// symbolic link at the path is refused (log_unix.go says why); an existing
// file is truncated and its mode tightened to 0600 ([Private]).
func Log(path string) (*os.File, error) {
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link: give the log file's own path", path)
	}
	return Private(path)
}

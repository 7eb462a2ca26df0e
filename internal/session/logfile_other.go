//go:build !unix

package session

import (
	"fmt"
	"io/fs"
	"os"
)

// createPrivate opens a log file (--wire-log, --elicit-log) only its owner
// can read: logs hold what servers and people sent, which may be secret.
// A symbolic link at the path is refused (logfile_unix.go says why); an
// existing file is truncated and its mode tightened to 0600.
func createPrivate(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link: give the log file's own path", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

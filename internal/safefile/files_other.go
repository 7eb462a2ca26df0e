//go:build !unix

package safefile

import (
	"fmt"
	"os"
)

// Private opens a file to write that only its owner can read; a symbolic
// link at the path is refused (files_unix.go says why), an existing file
// truncated and its mode tightened to 0600.
func Private(path string) (*os.File, error) {
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not write through it; give the file's own path", path)
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

// Public opens a report to write (--junit, --json), created 0644 or
// truncated; a symbolic link at the path is refused.
func Public(path string) (*os.File, error) {
	return public(path, os.O_TRUNC)
}

// PublicAppend is [Public] for a file written at its end:
// $GITHUB_STEP_SUMMARY.
func PublicAppend(path string) (*os.File, error) {
	return public(path, os.O_APPEND)
}

func public(path string, flag int) (*os.File, error) {
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not write through it; give the file's own path", path)
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag, 0o644)
}

//go:build !unix

package tui

import (
	"fmt"
	"io/fs"
	"os"
)

// createSaved opens the file w saves to, readable by its owner only; a
// symbolic link at the path is refused (savefile_unix.go says why), an
// existing file truncated and its mode tightened to 0600.
func createSaved(path string) (*os.File, error) {
	if info, err := os.Lstat(path); err == nil && info.Mode()&fs.ModeSymlink != 0 {
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

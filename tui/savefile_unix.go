//go:build unix

package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// createSaved opens the file w saves to, readable by its owner only: what
// the inspector saves came from a server (a pane, a resource's bytes) and
// is the person's alone. A new file is created 0600. An existing regular
// file of the person's own, with no other name, is truncated and its mode
// tightened to 0600. A symbolic link at the path is never followed,
// created through or truncated (another local user could have planted it
// to have mcpeek overwrite a file of the person's), nor is another user's
// file, or anything but a regular file, overwritten.
func createSaved(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return f, err
	}
	if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not write through it; give the file's own path", path)
	}
	f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if err := ownSaved(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ownSaved checks an existing file opened without following a link, and
// makes it the person's private, empty file.
func ownSaved(f *os.File, path string) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s exists and is not a regular file", path)
	case !ok:
		return fmt.Errorf("%s: its owner cannot be read", path)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s belongs to another user (uid %d): mcpeek overwrites only a file of yours", path, st.Uid)
	case st.Nlink > 1:
		return fmt.Errorf("%s has other names (hard links): give a file of its own", path)
	}
	if info.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			return err
		}
	}
	return f.Truncate(0)
}

//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Private opens a file to write that only its owner can read: what the
// inspector saves came from a server (a pane, a resource's bytes) and is
// the person's alone. A new file is created 0600. An existing regular file
// of the person's own, with no other name, is truncated and its mode
// tightened to 0600. A symbolic link at the path is never followed,
// created through or truncated (another local user could have planted it
// to have mcpeek overwrite a file of the person's), nor is another user's
// file, or anything but a regular file, overwritten.
func Private(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return f, err
	}
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not write through it; give the file's own path", path)
	}
	f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if info, serr := f.Stat(); serr == nil && !info.Mode().IsRegular() {
		err = fmt.Errorf("%s exists and is not a regular file", path)
	} else {
		err = ownLog(f, path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Public opens a report to write (--junit, --json): created 0644 less the
// umask, or truncated. A symbolic link at the path is followed only when
// it and every link it leads through are the person's or the system's
// (root's, as /dev/stdout), and only to something there: another local
// user's link in a shared folder, or a link to nothing, could have mcpeek
// write, as the person, a file of the planter's choosing. A descriptor of
// mcpeek's own (/dev/stdout, /dev/fd/3) is written through a duplicate; a
// named pipe no one reads yet is waited for only when it is the person's.
func Public(path string) (*os.File, error) {
	return public(path, syscall.O_TRUNC)
}

// PublicAppend is [Public] for a file written at its end, neither
// truncated nor created through a link: $GITHUB_STEP_SUMMARY.
func PublicAppend(path string) (*os.File, error) {
	return public(path, syscall.O_APPEND)
}

func public(path string, flag int) (*os.File, error) {
	if fd, ok := descriptor(path); ok {
		return dupDescriptor(path, fd)
	}
	f, err := openNoWait(path, syscall.O_CREAT|syscall.O_NOFOLLOW|flag, 0o644)
	if err == nil || !isSymlink(path) {
		return f, err
	}
	// O_NOFOLLOW refused a link (ELOOP on Linux, other errors elsewhere).
	target, fd, info, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	if fd >= 0 {
		return dupDescriptor(path, fd)
	}
	f, err = openNoWait(target, syscall.O_NOFOLLOW|flag&syscall.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("%s is a symbolic link, to nothing mcpeek can write: %w", path, err)
	}
	opened, err := f.Stat()
	switch {
	case err != nil:
	case !os.SameFile(info, opened):
		err = fmt.Errorf("%s, a symbolic link to %s, changed as mcpeek opened it", path, target)
	case flag&syscall.O_TRUNC != 0 && opened.Mode().IsRegular():
		err = f.Truncate(0)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

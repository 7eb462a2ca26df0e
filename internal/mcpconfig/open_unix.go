//go:build unix

package mcpconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// openDir opens the folder at path, following links: what is checked is
// the folder opened.
func openDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_DIRECTORY, 0)
}

// openFile opens the file at path without waiting on it (a named pipe is
// opened, not read).
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openIn opens name in the open folder dir, without waiting on it: a
// folder when dir is true; a link there is followed only when follow is.
// What is opened is there when it is opened, whatever the name means by
// the time it is read.
func openIn(folder *os.File, name string, follow, dir bool) (*os.File, error) {
	flags := unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK
	if !follow {
		flags |= unix.O_NOFOLLOW
	}
	if dir {
		flags |= unix.O_DIRECTORY
	}
	path := filepath.Join(folder.Name(), name)
	for {
		fd, err := unix.Openat(int(folder.Fd()), name, flags, 0)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), path), nil
		case !errors.Is(err, unix.EINTR):
			return nil, &fs.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// absent reports whether an open failed as nothing is there.
func absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// isLink reports whether an open failed as it would have followed a
// link (Linux and macOS say ELOOP, the BSDs EMLINK).
func isLink(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

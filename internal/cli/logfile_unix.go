//go:build unix

package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// createPrivate opens a log file (--wire-log, --elicit-log) only its owner
// can read: logs hold what servers and people sent, which may be secret.
// A new file is created 0600. An existing file of the person's own is
// truncated and its mode tightened to 0600; one of another user's, or one
// with other names (hard links), is refused. A symbolic link at the path is
// never followed to a file, created through or truncated: another local
// user could have planted it to have mcpeek overwrite a file of the
// person's, or write the log where she can read it. A link of the
// person's (or the system's, as /dev/stderr) may lead to a terminal or a
// pipe, so that --wire-log /dev/stderr and >(jq) work.
func createPrivate(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return f, err
	}
	f, err = os.OpenFile(path, os.O_WRONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		// O_NOFOLLOW refuses a link with ELOOP on Linux, but with other
		// errors elsewhere: ask the path itself.
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return openThroughLink(path, info)
		}
		return nil, err
	}
	if err := ownLog(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ownLog checks an existing log file opened without following a link, and
// makes it the person's private, empty log: a regular file is hers alone
// (one owner, one name), tightened to 0600 and truncated; a terminal or a
// device is left as it is; a pipe or a socket must be hers.
func ownLog(f *os.File, path string) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case info.Mode()&fs.ModeCharDevice != 0:
		return nil
	case !ok:
		return fmt.Errorf("%s: its owner cannot be read", path)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("%s belongs to another user (uid %d): mcpeek writes its logs only to a file of yours", path, st.Uid)
	case !info.Mode().IsRegular():
		return nil
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

// openThroughLink opens the terminal or pipe a symbolic link of the
// person's or the system's leads to; anything else is refused. link is
// what Lstat said of the path. Nothing is created or truncated: the file
// opened is checked before it is used.
func openThroughLink(path string, link fs.FileInfo) (*os.File, error) {
	if st, ok := link.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() && st.Uid != 0 {
		return nil, fmt.Errorf("%s is a symbolic link of another user's: mcpeek does not write its logs through it", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("%s is a symbolic link, to nothing mcpeek can write: %w", path, err)
	}
	info, err := f.Stat()
	if err == nil {
		st, ok := info.Sys().(*syscall.Stat_t)
		switch {
		case info.Mode()&fs.ModeCharDevice != 0:
			return f, nil
		case ok && info.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0 && int(st.Uid) == os.Geteuid():
			return f, nil
		}
		err = fmt.Errorf("%s is a symbolic link: give the log file's own path (a link is followed only to a terminal or a pipe)", path)
	}
	f.Close()
	return nil, err
}

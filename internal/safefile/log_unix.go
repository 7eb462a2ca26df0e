//go:build unix

package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Log opens a log file (--wire-log, --elicit-log) only its owner
// can read: logs hold what servers and people sent, which may be secret.
// A new file is created 0600. An existing file of the person's own is
// truncated and its mode tightened to 0600; one of another user's, or one
// with other names (hard links), is refused, as is a named pipe of another
// user's, at once: nothing waits for its reader.
//
// A symbolic link at the path is followed only when it and every link it
// leads through are the person's or the system's (root's, as /dev/stderr):
// another local user could have planted one to have mcpeek write a file of
// the person's, or write the log where she can read it. It may lead to a
// terminal or a device, to a pipe or a socket of the person's, or to a
// regular file of hers with one name, written at its end and neither
// truncated nor chmodded: it is her own redirect, as in
// --wire-log /dev/stderr 2>run.log. A descriptor of mcpeek's own
// (/dev/stdout, /dev/fd/3, /proc/self/fd/3) is written through a duplicate,
// sharing the shell's offset, so the log and what mcpeek prints there
// follow each other rather than overwrite each other.
func Log(path string) (*os.File, error) {
	if fd, ok := descriptor(path); ok {
		return openDescriptor(path, fd)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return f, err
	}
	f, err = openNoWait(path, syscall.O_NOFOLLOW, 0)
	if err != nil {
		// O_NOFOLLOW refuses a link with ELOOP on Linux, but with other
		// errors elsewhere: ask the path itself.
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			return openThroughLink(path)
		}
		return nil, err
	}
	if err := ownLog(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// openNoWait opens path for writing, with flag added, without waiting for
// a named pipe's reader: a pipe no one reads yet is waited for only when
// it is the person's own (she will read it), and refused at once when it
// is another user's, who could keep mcpeek waiting as long as she likes.
func openNoWait(path string, flag int, perm uint32) (*os.File, error) {
	fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|flag, perm)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC|flag, perm)
	}
	switch {
	case err == syscall.ENXIO:
		return openPipeOfYours(path, flag, err)
	case err != nil:
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	// Writes wait as they would on any log: a pipe's reader may be slower.
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openPipeOfYours opens a named pipe no one reads yet (the open said
// ENXIO), waiting for its reader, if it is the person's own.
func openPipeOfYours(path string, flag int, nxio error) (*os.File, error) {
	stat := os.Stat
	if flag&syscall.O_NOFOLLOW != 0 {
		stat = os.Lstat
	}
	info, err := stat(path)
	if err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: nxio}
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return nil, fmt.Errorf("%s is a named pipe of another user's: mcpeek writes only to a file of yours", path)
	}
	return os.OpenFile(path, os.O_WRONLY|flag&^syscall.O_CREAT, 0)
}

// logFile is what checkLog found of an opened log file.
type logFile int

const (
	logOther   logFile = iota // a terminal, a device, a pipe or a socket
	logRegular                // a regular file of the person's, of one name
)

// checkLog checks the file a log was opened on: a terminal or a device
// will do; a pipe, a socket or a regular file must be the person's, and a
// regular file of one name. name is how errors call it.
func checkLog(f *os.File, name string) (logFile, error) {
	info, err := f.Stat()
	if err != nil {
		return logOther, err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case info.Mode()&fs.ModeCharDevice != 0:
		return logOther, nil
	case !ok:
		return logOther, fmt.Errorf("%s: its owner cannot be read", name)
	case int(st.Uid) != os.Geteuid():
		return logOther, fmt.Errorf("%s belongs to another user (uid %d): mcpeek writes only to a file of yours", name, st.Uid)
	case info.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) != 0:
		return logOther, nil
	case !info.Mode().IsRegular():
		return logOther, fmt.Errorf("%s is neither a file, a terminal nor a pipe", name)
	case st.Nlink > 1:
		return logOther, fmt.Errorf("%s has other names (hard links): give a file of its own", name)
	}
	return logRegular, nil
}

// ownLog checks an existing log file opened without following a link
// (checkLog), and makes a regular one the person's private, empty log:
// tightened to 0600 and truncated.
func ownLog(f *os.File, path string) error {
	kind, err := checkLog(f, path)
	if err != nil || kind != logRegular {
		return err
	}
	info, err := f.Stat()
	if err != nil {
		return err
	}
	if info.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			return err
		}
	}
	return f.Truncate(0)
}

// openThroughLink opens what the symbolic link at path leads to, through
// links of the person's or the system's only, as Log says.
// Nothing is created, truncated or chmodded, and the file opened is
// checked to be the one the links led to before it is used.
func openThroughLink(path string) (*os.File, error) {
	target, fd, info, err := followLinks(path)
	if err != nil {
		return nil, err
	}
	if fd >= 0 {
		return openDescriptor(path, fd)
	}
	f, err := openNoWait(target, syscall.O_APPEND|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, fmt.Errorf("%s is a symbolic link, to nothing mcpeek can write: %w", path, err)
	}
	name := path + ", a symbolic link to " + target + ","
	if _, err = checkLog(f, name); err == nil {
		if opened, serr := f.Stat(); serr != nil || !os.SameFile(info, opened) {
			err = fmt.Errorf("%s changed as mcpeek opened it", name)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// maxLinks bounds the symbolic links followed from a log's path.
const maxLinks = 40

// followLinks follows the symbolic links from path, each of which must be
// the person's or root's, to the first path that is not one (target, and
// what Lstat says of it), or to a descriptor of mcpeek's own (fd, else -1).
func followLinks(path string) (target string, fd int, info fs.FileInfo, err error) {
	p := path
	for range maxLinks {
		if fd, ok := descriptor(p); ok {
			return p, fd, nil, nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return "", -1, nil, fmt.Errorf("%s is a symbolic link, to nothing mcpeek can write: %w", path, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return p, -1, info, nil
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() && st.Uid != 0 {
			if p == path {
				return "", -1, nil, fmt.Errorf("%s is a symbolic link of another user's: mcpeek does not write through it", path)
			}
			return "", -1, nil, fmt.Errorf("%s leads through %s, a symbolic link of another user's: mcpeek does not write through it", path, p)
		}
		to, err := os.Readlink(p)
		if err != nil {
			return "", -1, nil, err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(p), to)
		}
		p = to
	}
	return "", -1, nil, fmt.Errorf("%s: too many symbolic links", path)
}

// descriptor is the descriptor of mcpeek's own a path names: /dev/stdin,
// /dev/stdout and /dev/stderr, /dev/fd/N, /proc/self/fd/N (and so by
// mcpeek's process id).
func descriptor(path string) (int, bool) {
	p := filepath.Clean(path)
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return -1, false
		}
		p = abs
	}
	if i := slices.Index([]string{"/dev/stdin", "/dev/stdout", "/dev/stderr"}, p); i >= 0 {
		return i, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if n, ok := strings.CutPrefix(p, dir); ok {
			fd, err := strconv.ParseUint(n, 10, 31)
			return int(fd), err == nil
		}
	}
	return -1, false
}

// openDescriptor opens a log on a duplicate of mcpeek's descriptor fd,
// which path names, if it leads to what a link may (checkLog).
func openDescriptor(path string, fd int) (*os.File, error) {
	f, err := dupDescriptor(path, fd)
	if err != nil {
		return nil, err
	}
	if _, err := checkLog(f, fmt.Sprintf("%s, descriptor %d,", path, fd)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// dupDescriptor is a duplicate of mcpeek's descriptor fd, which path
// names, closed on exec.
func dupDescriptor(path string, fd int) (*os.File, error) {
	syscall.ForkLock.RLock()
	dup, err := syscall.Dup(fd)
	if err == nil {
		syscall.CloseOnExec(dup)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, fmt.Errorf("%s: descriptor %d is not open: %w", path, fd, err)
	}
	return os.NewFile(uintptr(dup), path), nil
}

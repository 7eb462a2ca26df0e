// Package safefile is mcpeek's one file policy: every file mcpeek writes,
// and every file of a repository's it reads, goes through it, so that the
// rules below hold everywhere rather than at each call site.
//
//   - A private file (logs, saved panes, recordings, launch pages, the
//     token and approval stores) is the person's alone: created 0600,
//     never through a symbolic link another local user could plant, never
//     over another user's file or one with other names ([Private],
//     [Create], [WriteNew], [Log], [Lock]).
//   - A public file (reports: --junit, --json, the step summary; test init
//     --out, read --out) is created 0644 less the umask, never through
//     another user's link, nor through a link to nothing ([Public],
//     [PublicAppend], [WriteNew]).
//   - An atomic write goes to a temporary file, renamed over the file in
//     its real (resolved) folder: a reader sees the old text or the new,
//     and a link at the path is replaced, not written through ([Atomic]).
//   - A repository's files (suites, snapshots, surface locks, diff.yaml)
//     come from whoever made the repository. They are written only inside
//     the folder they belong to, never through a link ([WriteInside]), and
//     read only when they are regular files of at most [MaxRead] bytes,
//     opened without waiting ([Read], [ReadNoLink]): a link to /dev/zero or
//     a named pipe fails at once, naming the file and the cap.
//
// The package imports no UI: mcpclient, apphost and the commands use it
// alike.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxRead is the most bytes [Read] reads of a repository's file (16 MiB).
const MaxRead = 16 << 20

// readRule is what a refused read of a repository's file says it wanted.
const readRule = "mcpeek reads a repository's files only when they are regular files of at most 16 MiB"

// Read reads a repository's file at path (a link there is followed): a
// regular file of at most [MaxRead] bytes, opened without waiting on it.
// A file that is missing fails as [os.ReadFile] would (errors.Is
// fs.ErrNotExist); anything else there (a device, a named pipe, a folder)
// or a larger file fails at once with the path and the cap.
func Read(path string) ([]byte, error) {
	return read(path, false, MaxRead, readRule)
}

// ReadNoLink is [Read] for a file that must not be a symbolic link (a
// snapshot, which a repository could link to a file of the person's): a
// link at path is refused.
func ReadNoLink(path string) ([]byte, error) {
	return read(path, true, MaxRead, readRule)
}

// ReadAtMost reads the file at path (a link there is followed) when it is
// a regular file of at most max bytes, opened without waiting on it: a
// file a config names (an envFile). The errors are [Read]'s, without the
// words about a repository.
func ReadAtMost(path string, max int64) ([]byte, error) {
	return read(path, false, max, "")
}

// read reads path as [Read] says, rule saying why a file was refused
// ("" for nothing more than what was wrong).
func read(path string, noLink bool, max int64, rule string) ([]byte, error) {
	f, err := openRead(path, noLink)
	if err != nil {
		if noLink && isSymlink(path) {
			return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not read a repository's files through a link", path)
		}
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, refused(fmt.Sprintf("%s is %s, not a regular file", path, Kind(info.Mode())), rule)
	}
	var data []byte
	if info.Size() <= max { // else refused unread
		if data, err = io.ReadAll(io.LimitReader(f, max+1)); err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
	if info.Size() > max || int64(len(data)) > max { // or it grew as it was read
		size := strconv.FormatInt(max, 10) + " bytes"
		if max == MaxRead {
			size = "16 MiB"
		}
		return nil, refused(fmt.Sprintf("%s is larger than %s", path, size), rule)
	}
	return data, nil
}

// refused is an error saying what, and the rule that refused it.
func refused(what, rule string) error {
	if rule == "" {
		return errors.New(what)
	}
	return errors.New(what + ": " + rule)
}

// Kind names what a mode says a file is: "a symbolic link", "a folder",
// "a named pipe", "a device"; "not a regular file" for anything else.
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// isSymlink reports whether a symbolic link is at path.
func isSymlink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// Create creates a new file at path with perm (less the umask), for
// writing: nothing there may be replaced, a link to nowhere included
// (O_EXCL), and no link is followed. A recording, say, is created with
// Create(path, 0o600).
func Create(path string, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, perm)
}

// WriteNew writes data to a new file at path, as [Create] makes it; the
// file is removed again when the write fails. An existing name fails with
// an error errors.Is fs.ErrExist.
func WriteNew(path string, data []byte, perm fs.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
	}
	return err
}

// Atomic writes data over the file at path: to a new temporary file with
// perm (less the umask), beside the file in its folder as resolved, then
// renamed over it. A symbolic link at path is replaced, never written
// through.
func Atomic(path string, data []byte, perm fs.FileMode) error {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return err
	}
	return atomicIn(dir, filepath.Base(path), data, perm)
}

// WriteInside writes a repository's file at path, which belongs in the
// folder root (a snapshot in its suite's folder): atomically ([Atomic]),
// and only when path is not a symbolic link and its folder, resolved, is
// root's, resolved, or one inside it. A repository cannot have mcpeek
// write through a link it commits (__snapshots__/t.snap.yaml →
// ~/.bash_aliases) nor through a linked folder.
func WriteInside(root, path string, data []byte, perm fs.FileMode) error {
	if isSymlink(path) {
		return fmt.Errorf("%s is a symbolic link: mcpeek does not write a repository's files through a link", path)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(realRoot, dir); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s leads out of %s through a symbolic link (to %s): mcpeek does not write a repository's files there", path, root, dir)
	}
	return atomicIn(dir, filepath.Base(path), data, perm)
}

// atomicIn writes data to name in the folder dir (resolved) by a
// temporary file renamed over it.
func atomicIn(dir, name string, data []byte, perm fs.FileMode) error {
	target := filepath.Join(dir, name)
	f, err := createTemp(dir, name, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(tmp, target)
	}
	if err != nil {
		_ = os.Remove(tmp)
	}
	return err
}

// createTemp creates a new file in dir, named for name, with perm less
// the umask (os.CreateTemp's files are 0600 whatever the umask says).
func createTemp(dir, name string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		path := filepath.Join(dir, "."+name+"-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := Create(path, perm)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("%s: no temporary file could be created beside it", filepath.Join(dir, name))
}

package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Dir is the per-user directory of the proxies' sockets, created (0700)
// when missing: $XDG_RUNTIME_DIR/mcpeek when XDG_RUNTIME_DIR is a
// directory of the user's that nobody else can reach, else mcpeek-UID in
// the system's temporary directory. A directory there that is a link, not
// a directory, someone else's or open to others is refused ([CheckDir]).
func Dir() (string, error) {
	uid := os.Getuid()
	if rt := os.Getenv("XDG_RUNTIME_DIR"); rt != "" && filepath.IsAbs(rt) {
		if info, err := os.Lstat(rt); err == nil && info.IsDir() && ownedBy(info, uid) && info.Mode().Perm()&0o077 == 0 {
			return ensureDir(filepath.Join(rt, "mcpeek"), uid)
		}
	}
	return ensureDir(filepath.Join(os.TempDir(), "mcpeek-"+strconv.Itoa(uid)), uid)
}

// ensureDir creates dir (0700) when it is missing, then checks it.
func ensureDir(dir string, uid int) (string, error) {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", fmt.Errorf("the proxies' socket directory %s: %w", dir, err)
	}
	return dir, checkDir(dir, uid)
}

// CheckDir checks that dir is fit to hold the proxies' sockets: a
// directory, not a link, the current user's, and closed to everyone else.
func CheckDir(dir string) error { return checkDir(dir, os.Getuid()) }

func checkDir(dir string, uid int) error {
	info, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("the proxies' socket directory %s: %w", dir, err)
	case info.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("the proxies' socket directory %s is a symbolic link: mcpeek uses only a directory of its own (remove the link)", dir)
	case !info.IsDir():
		return fmt.Errorf("the proxies' socket directory %s is not a directory (remove it)", dir)
	case !ownedBy(info, uid):
		return fmt.Errorf("the proxies' socket directory %s belongs to another user: mcpeek uses only a directory of yours (remove it)", dir)
	case info.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("the proxies' socket directory %s is open to other users (mode %04o): mcpeek uses only a directory nobody else can reach (chmod 700 %s)", dir, info.Mode().Perm(), dir)
	}
	return nil
}

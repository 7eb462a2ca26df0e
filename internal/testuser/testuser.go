// Package testuser lets tests play another person on the machine: files
// and links given to another user id (which only root can do), in a
// shared folder like /tmp. Only tests import it.
package testuser

import (
	"os"
	"testing"
)

// Other is the user id tests give files and links to, standing for
// another person on the machine.
const Other = 4242

// NeedsRoot skips a test that plays another user unless it runs as root:
// only root can give files away.
func NeedsRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("playing another user needs root: files are given to another user id with chown")
	}
}

// SharedFolder is a new folder like /tmp: anyone may create files in it,
// and only a file's owner may rename or remove it.
func SharedFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteFile writes a file (0644) owned by uid (-1: this user).
func WriteFile(t testing.TB, path, text string, uid int) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, uid, -1); err != nil {
		t.Fatal(err)
	}
}

// Symlink plants a symbolic link at path to target, owned by uid (-1:
// this user).
func Symlink(t testing.TB, target, path string, uid int) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	if err := os.Lchown(path, uid, -1); err != nil {
		t.Fatal(err)
	}
}

//go:build unix

package safefile

import (
	"os"
	"syscall"
)

// noFollow makes an open fail on a symbolic link at the path's last
// component.
const noFollow = syscall.O_NOFOLLOW

// openRead opens path for reading without waiting on it (a named pipe is
// opened, not read); with noLink, a link there is not followed.
func openRead(path string, noLink bool) (*os.File, error) {
	flag := os.O_RDONLY | syscall.O_NONBLOCK
	if noLink {
		flag |= syscall.O_NOFOLLOW
	}
	return os.OpenFile(path, flag, 0)
}

// Lock opens (creating it 0600) the lock file of a store at path, never
// through a link, for lockfile.Lock.
func Lock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
}

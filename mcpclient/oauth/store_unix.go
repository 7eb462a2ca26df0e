//go:build unix && !aix && !solaris

package oauth

import (
	"io/fs"
	"os"
	"syscall"
)

// fileOwner is the user id that owns a file; ok is false where it is not
// known.
func fileOwner(info fs.FileInfo) (uid int, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// lockFile takes f's exclusive lock, which other processes' lockFile of
// the same file waits for; closing f releases it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

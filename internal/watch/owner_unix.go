//go:build unix

package watch

import (
	"errors"
	"io/fs"
	"syscall"
)

// ownedBy reports whether the file info describes belongs to uid.
func ownedBy(info fs.FileInfo, uid int) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// alive reports whether a process pid runs (a proxy whose socket is not
// stale).
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

//go:build unix && !aix && !solaris

package oauth

import (
	"io/fs"
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

//go:build !unix || aix || solaris

package oauth

import (
	"io/fs"
	"os"
)

// fileOwner does not know who owns a file here.
func fileOwner(fs.FileInfo) (uid int, ok bool) { return 0, false }

// lockFile locks nothing here: concurrent runs of mcpeek may lose an
// entry (one process's Store still serialises its own updates).
func lockFile(*os.File) error { return nil }

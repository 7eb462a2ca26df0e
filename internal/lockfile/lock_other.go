//go:build !unix || aix || solaris

package lockfile

import "os"

// Lock locks nothing here: concurrent runs of mcpeek may lose an update
// (each store still serialises its own process's updates where it can).
func Lock(*os.File) error { return nil }

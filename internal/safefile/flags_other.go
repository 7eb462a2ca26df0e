//go:build !unix

package safefile

import (
	"fmt"
	"os"
)

// noFollow is O_NOFOLLOW where there is one.
const noFollow = 0

// openRead opens path for reading; with noLink, a link there is refused.
func openRead(path string, noLink bool) (*os.File, error) {
	if noLink && isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link", path)
	}
	return os.Open(path)
}

// Lock opens (creating it 0600) the lock file of a store at path, for
// lockfile.Lock; a link there is refused.
func Lock(path string) (*os.File, error) {
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link: mcpeek does not write through it", path)
	}
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

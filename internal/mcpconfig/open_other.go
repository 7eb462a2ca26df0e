//go:build !unix

package mcpconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// openDir opens the folder at path.
func openDir(path string) (*os.File, error) { return os.Open(path) }

// openFile opens the file at path.
func openFile(path string) (*os.File, error) { return os.Open(path) }

// openIn opens name in the open folder; links are what the system makes
// of them here.
func openIn(folder *os.File, name string, _, _ bool) (*os.File, error) {
	return os.Open(filepath.Join(folder.Name(), name))
}

// absent reports whether an open failed as nothing is there.
func absent(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// isLink reports whether an open failed as it would have followed a link:
// never here.
func isLink(error) bool { return false }

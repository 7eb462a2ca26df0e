//go:build unix && !aix && !solaris

package lockfile

import (
	"os"
	"syscall"
)

// Lock takes f's exclusive lock (flock), waiting while another open file
// of the same path holds it, in this process or another; closing f
// releases it.
func Lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package session

import "golang.org/x/sys/unix"

// echoOff turns the terminal's echo off, keeping its line editing, and
// returns what gives the echo back. It is done before the read starts, so
// that a Ctrl+C at any moment of the prompt finds the echo off and gives
// it back (a read that turned it off itself could do so after the
// restore).
func echoOff(fd int) (restore func(), err error) {
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	old := *t
	t.Lflag &^= unix.ECHO
	t.Lflag |= unix.ICANON | unix.ISIG
	t.Iflag |= unix.ICRNL
	if err := unix.IoctlSetTermios(fd, setTermios, t); err != nil {
		return nil, err
	}
	return func() { _ = unix.IoctlSetTermios(fd, setTermios, &old) }, nil
}

//go:build linux || darwin

package watch

import "net"

// peerUID is the user id of the process at the other end of c, as the
// kernel tells it (credUID).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return 0, err
	}
	var uid int
	var cerr error
	if err := raw.Control(func(fd uintptr) { uid, cerr = credUID(int(fd)) }); err != nil {
		return 0, err
	}
	return uid, cerr
}

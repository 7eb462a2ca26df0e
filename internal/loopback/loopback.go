// Package loopback listens on this machine's loopback for a client that
// dials "localhost": on 127.0.0.1 and, where the machine has an IPv6
// loopback, on [::1] at the same port. Both are needed, because a client
// may resolve localhost to ::1 first, and a process of another user that
// held [::1]:PORT would then receive what the client sends (the app
// host's browser, a client of replay --serve --http).
package loopback

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"syscall"
)

// TakenError is a fixed port whose [::1] side another process holds.
type TakenError struct{ Port int }

// Error names the port and why a client would reach the other process.
func (e *TakenError) Error() string {
	return fmt.Sprintf("[::1]:%d is in use by another process, which would receive what a client sends to localhost:%d", e.Port, e.Port)
}

// Listen listens on 127.0.0.1 and, where the machine has an IPv6
// loopback, on [::1] at port (0: a free one), returning the listeners
// (127.0.0.1's first) and the port they share. A free port is taken on
// ::1 first, so the kernel picks one nobody holds there; a fixed port
// whose ::1 side is taken is a *TakenError.
func Listen(port int) ([]net.Listener, int, error) {
	for attempt := 0; ; attempt++ {
		var listeners []net.Listener
		ln6, err := net.Listen("tcp6", net.JoinHostPort("::1", strconv.Itoa(port)))
		switch {
		case err == nil:
			listeners = append(listeners, ln6)
		case NoIPv6(err):
			// localhost can only mean 127.0.0.1 here.
		case port != 0:
			return nil, 0, &TakenError{Port: port}
		default:
			return nil, 0, fmt.Errorf("listen on [::1]: %w", err)
		}
		p := port
		if ln6 != nil {
			p = ln6.Addr().(*net.TCPAddr).Port
		}
		ln4, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err == nil {
			return append([]net.Listener{ln4}, listeners...), ln4.Addr().(*net.TCPAddr).Port, nil
		}
		for _, l := range listeners {
			_ = l.Close()
		}
		if port != 0 || attempt >= 20 {
			return nil, 0, err
		}
		// The port ::1 offered is taken on 127.0.0.1: try another.
	}
}

// NoIPv6 reports whether a listen on ::1 failed because the machine has
// no IPv6 loopback at all (rather than because the port is taken).
func NoIPv6(err error) bool {
	return errors.Is(err, syscall.EADDRNOTAVAIL) || errors.Is(err, syscall.EAFNOSUPPORT) || errors.Is(err, syscall.EPROTONOSUPPORT)
}

package watch

import "golang.org/x/sys/unix"

// credUID is the peer's user id of the socket fd (SO_PEERCRED).
func credUID(fd int) (int, error) {
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}

package watch

import "golang.org/x/sys/unix"

// credUID is the peer's user id of the socket fd (LOCAL_PEERCRED, what
// getpeereid reads).
func credUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}

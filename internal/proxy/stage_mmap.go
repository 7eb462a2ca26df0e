//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proxy

import "golang.org/x/sys/unix"

// newStageBlock is a block of n bytes mapped from the system, outside Go's
// heap, so that it is given back (unmapped) the moment it is copied
// instead of when the garbage collector and the scavenger get to it: a
// big message is then never resident twice. Where mapping fails, it is an
// ordinary slice.
func newStageBlock(n int) []byte {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return make([]byte, n)
	}
	return b
}

// freeStageBlock gives back a block newStageBlock made: b must not be
// used after.
func freeStageBlock(b []byte) {
	_ = unix.Munmap(b[:cap(b)]) // an ordinary slice is not mapped: EINVAL, and the collector frees it
}

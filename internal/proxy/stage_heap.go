//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package proxy

// newStageBlock is a block of n bytes of Go's heap.
func newStageBlock(n int) []byte { return make([]byte, n) }

// freeStageBlock leaves the block to the garbage collector.
func freeStageBlock([]byte) {}

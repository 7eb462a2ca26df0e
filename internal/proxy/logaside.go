package proxy

import (
	"sync"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// A stdio proxy logs aside: what the tracker does with a message (read
// its head, log it in the wire log and the recording, pair it with its
// request) is done on a goroutine of its own, after the message is
// forwarded, instead of on the forwarding path, where it was most of
// what the proxy added to a round trip. Each message is queued (a copy
// of its bytes) before it is forwarded, so the queue holds them in the
// order they went by, and one that answers another is always queued
// after it: the log and the pairing see what they saw before, in the
// same order. The queue is bounded; a message it has no room for, or
// one too big to copy cheaply, is done on the forwarding path as before,
// once the queue is empty.
type logQueue struct {
	mu sync.Mutex
	// idle is broadcast when the queue is empty and nothing taken from it
	// is being done.
	idle  sync.Cond
	items []queued
	// spare is the slice items were last taken in, reused.
	spare []queued
	size  int
	busy  bool
	// closed: the queue takes nothing more.
	closed bool
	// free are copies' buffers to reuse, freeBytes their size.
	free      [][]byte
	freeBytes int
	wake      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	do        func(dir mcpclient.Direction, data []byte)
}

type queued struct {
	dir  mcpclient.Direction
	data []byte
}

// The queue's bounds: a message bigger than maxAsideMessage is done on
// the forwarding path; the queue holds at most maxAsideBytes of copies
// and keeps as much again of buffers to reuse.
const (
	maxAsideMessage = 64 << 10
	maxAsideBytes   = 1 << 20
	maxAsideItems   = 4096
)

// newLogQueue starts a queue that does do with each message queued.
func newLogQueue(do func(dir mcpclient.Direction, data []byte)) *logQueue {
	q := &logQueue{wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), do: do}
	q.idle.L = &q.mu
	go q.run()
	return q
}

// push queues a copy of a message to be done aside, and reports whether
// it did; data is the caller's to reuse once push returns. The message is
// done only after kick (or drain).
func (q *logQueue) push(dir mcpclient.Direction, data []byte) bool {
	if q == nil || len(data) > maxAsideMessage {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.size+len(data) > maxAsideBytes || len(q.items) >= maxAsideItems {
		return false
	}
	var buf []byte
	for i := len(q.free) - 1; i >= 0; i-- {
		if cap(q.free[i]) >= len(data) {
			buf = q.free[i]
			q.freeBytes -= cap(buf)
			q.free[i] = q.free[len(q.free)-1]
			q.free = q.free[:len(q.free)-1]
			break
		}
	}
	q.items = append(q.items, queued{dir: dir, data: append(buf[:0], data...)})
	q.size += len(data)
	return true
}

// kick has what is queued done: called once a message queued is
// forwarded, so that waking the goroutine that does it is not on the
// forwarding path.
func (q *logQueue) kick() {
	if q == nil {
		return
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// drain waits until everything queued is done.
func (q *logQueue) drain() {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) > 0 || q.busy {
		q.kick()
		q.idle.Wait()
	}
}

// close does what is queued and ends the queue: whatever comes later is
// done on the forwarding path.
func (q *logQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	close(q.stop)
	<-q.done
}

func (q *logQueue) run() {
	defer close(q.done)
	for {
		select {
		case <-q.wake:
			q.work()
		case <-q.stop:
			q.work()
			return
		}
	}
}

// work does what is queued until the queue is empty.
func (q *logQueue) work() {
	for {
		q.mu.Lock()
		items := q.items
		if len(items) == 0 {
			q.busy = false
			q.idle.Broadcast()
			q.mu.Unlock()
			return
		}
		q.items, q.spare, q.size, q.busy = q.spare[:0], nil, 0, true
		q.mu.Unlock()
		for _, it := range items {
			q.do(it.dir, it.data)
		}
		q.mu.Lock()
		for i, it := range items {
			if q.freeBytes+cap(it.data) <= maxAsideBytes {
				q.free = append(q.free, it.data)
				q.freeBytes += cap(it.data)
			}
			items[i] = queued{}
		}
		q.spare = items[:0]
		q.mu.Unlock()
	}
}

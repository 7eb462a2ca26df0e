package proxy

import "sync"

// A stdio proxy logs aside: what the tracker does with a message (read
// its head, log it in the wire log and the recording, pair it with its
// request) is done after the message is forwarded instead of before,
// where it was most of what the proxy added to a round trip. Each
// message is queued (a copy of its bytes) before it is forwarded, so the
// queue holds them in the order they went by, and one that answers
// another is always queued after it: the log and the pairing see what
// they saw before, in the same order. Whoever forwarded a message then
// does what is queued, one goroutine at a time, in order (no goroutine of
// the queue's own: waking one cost more than the work). The queue is
// bounded; a message it has no room for, or one too big to copy cheaply,
// is done before it is forwarded as before, once the queue is empty.
type logQueue struct {
	mu sync.Mutex
	// idle is broadcast when what was taken from the queue is done.
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
	do        func(by origin, data []byte)
}

type queued struct {
	by   origin
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

// newLogQueue is a queue that does do with each message queued.
func newLogQueue(do func(by origin, data []byte)) *logQueue {
	q := &logQueue{do: do}
	q.idle.L = &q.mu
	return q
}

// push queues a copy of a message to be done aside, and reports whether
// it did; data is the caller's to reuse once push returns. The message is
// done by the next work or drain.
func (q *logQueue) push(by origin, data []byte) bool {
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
	q.items = append(q.items, queued{by: by, data: append(buf[:0], data...)})
	q.size += len(data)
	return true
}

// work does what is queued, unless another goroutine is doing it (then
// that one does it all): called once a message queued is forwarded.
func (q *logQueue) work() {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.busy {
		q.doQueued()
	}
}

// drain does what is queued, or waits until whoever does it is done.
func (q *logQueue) drain() {
	if q == nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.busy {
		q.idle.Wait()
	}
	q.doQueued()
}

// close does what is queued and ends the queue: whatever comes later is
// done before it is forwarded.
func (q *logQueue) close() {
	q.drain()
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.drain()
}

// doQueued does what is queued until the queue is empty, without q.mu
// while it does (the forwarding goroutines queue meanwhile). q.mu must
// be held and q.busy false.
func (q *logQueue) doQueued() {
	for len(q.items) > 0 {
		items := q.items
		q.items, q.spare, q.size, q.busy = q.spare[:0], nil, 0, true
		q.mu.Unlock()
		for _, it := range items {
			q.do(it.by, it.data)
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
	}
	q.busy = false
	q.idle.Broadcast()
}

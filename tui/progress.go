package tui

import (
	"sync/atomic"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// A tool call's progress. Every call carries a progress token; the
// server's notifications/progress for it reach the program through the
// event queue (notify.go), at most 30 batches a second, and the Tools tab
// (tui/page) shows the latest above the running call's pane: a bar with
// the message and progress/total, or a spinner and the count when the
// server names no total.

// callTrack ties the running call to its progress notifications. The
// call's progress callback learns the call's token from the first of them
// before that notification reaches the event queue, so that the program
// tells the running call's progress from a late one of a call it
// cancelled.
type callTrack struct {
	token atomic.Pointer[string]
	// ended is closed once the call has returned (or was cancelled).
	ended <-chan struct{}
}

// heard is the call's progress callback.
func (t *callTrack) heard(e mcpclient.ProgressEvent) { t.token.CompareAndSwap(nil, &e.Token) }

// owns reports whether a notification is the call's.
func (t *callTrack) owns(e mcpclient.ProgressEvent) bool {
	p := t.token.Load()
	return p != nil && *p == e.Token
}

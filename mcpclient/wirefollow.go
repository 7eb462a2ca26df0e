package mcpclient

import "io"

// Follow returns the entries kept in memory, oldest first, and has every
// entry logged from now on written to sink as a JSON line, as [WireLog.Tap]
// does, both at once: each entry is either in what Follow returns or
// written to sink, never both nor neither. A watcher shown the log so far
// and then its new lines sees each line once, in order.
func (w *WireLog) Follow(sink io.Writer) (entries []WireEntry, stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ordered(), w.tapLocked(sink)
}

// Add logs an entry another log kept, as it was (a watcher's copy of a
// proxy's log): its time, direction, method, id, message and text.
func (w *WireLog) Add(e WireEntry) {
	e.borrowed, e.cut = false, Outcome{}
	w.add(e)
}

package session

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Progress is how a headless run shows the progress of its call.
type Progress int

const (
	// ProgressOff: not at all (stderr is no terminal, and --progress was
	// not given).
	ProgressOff Progress = iota
	// ProgressInPlace: on one line of the terminal, rewritten in place,
	// at most ten times a second; the last stays in view.
	ProgressInPlace
	// ProgressLines: a line for each update (--progress, for CI logs).
	ProgressLines
)

// Events prints what the server tells a headless run on stderr,
// never stdout: each log message as one line, and the progress of the call
// as its Progress says. The connection never waits for it: lines
// queue, bounded, for a writer of their own, and those that do not fit
// are counted and said at the end.
type Events struct {
	out      io.Writer
	progress Progress
	logs     bool // --log-level was given: log messages are shown

	lines   chan queued
	done    chan struct{}
	updated chan struct{} // one token per resource update, for --updates
	mu      sync.Mutex
	dropped int
	closed  bool
	// settled: the call is done (Settle); progress that comes later is
	// written as whole lines, which cannot run into the result.
	settled bool
	// lastProgress is when progress was last queued in place: it is shown
	// at most ten times a second.
	lastProgress time.Time
}

// queued is one line for the writer: text, or, with settled set, the
// request to end the progress line (Settle).
type queued struct {
	text    string
	settled chan struct{}
}

// maxDataRunes is the most of a log message's data one stderr line shows.
const maxDataRunes = 2000

// NewEvents prints on out what the server tells a headless run: log
// messages when logs is set, and progress as progress says.
func NewEvents(out io.Writer, progress Progress, logs bool) *Events {
	e := &Events{out: out, progress: progress, logs: logs, lines: make(chan queued, 256), done: make(chan struct{}), updated: make(chan struct{}, 1024)}
	go e.write()
	return e
}

// write writes the queued lines. A progress line (one that starts with
// \r) is drawn over the one before; a line of another kind clears it
// first. The last progress line is ended rather than cleared, when the
// call settles and at the end, so that the person still sees it.
func (e *Events) write() {
	defer close(e.done)
	onProgressLine := false
	for q := range e.lines {
		switch {
		case q.settled != nil:
			if onProgressLine {
				fmt.Fprintln(e.out)
				onProgressLine = false
			}
			close(q.settled)
		case strings.HasPrefix(q.text, "\r"):
			fmt.Fprint(e.out, q.text+"\x1b[K")
			onProgressLine = true
		default:
			if onProgressLine {
				fmt.Fprint(e.out, "\r\x1b[K")
				onProgressLine = false
			}
			fmt.Fprintln(e.out, q.text)
		}
	}
	if onProgressLine {
		fmt.Fprintln(e.out)
	}
}

// Settle ends the progress line once what is queued before it is
// written: the call's result, on stdout, may come next on the same
// terminal, and starts on a line of its own below the last progress.
// Only the run's goroutine, which closes e later, calls it.
func (e *Events) Settle() {
	if e.progress != ProgressInPlace {
		return
	}
	settled := make(chan struct{})
	e.mu.Lock()
	if e.closed || e.settled {
		e.mu.Unlock()
		return
	}
	e.settled = true // from now on, no line is drawn in place
	e.mu.Unlock()
	// Queued behind every line drawn in place, whatever the room: the
	// writer drains without the lock, and only this goroutine closes e.
	e.lines <- queued{settled: settled}
	<-settled
}

// OnEvent implements [mcpclient.Listener].
func (e *Events) OnEvent(ev mcpclient.Event) {
	var line string
	switch ev := ev.(type) {
	case mcpclient.LogEvent:
		if !e.logs { // only what the person asked for: a server may log unasked
			return
		}
		line = logLine(ev)
	case mcpclient.ResourceUpdatedEvent:
		line = textclean.Cut(textclean.OneLine("mcpeek: resource updated: "+ev.URI), 500)
		select {
		case e.updated <- struct{}{}:
		default:
		}
	case mcpclient.ProgressEvent:
		if e.progress == ProgressOff {
			return
		}
		e.onProgress(ev)
		return
	default:
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.queue(line)
}

// onProgress queues a progress line: drawn in place on a terminal, at most
// ten times a second (the last, at its total, always) until the call
// settles; else, and after, a whole line. Deciding and queueing hold the
// lock together, so that no line drawn in place follows Settle's.
func (e *Events) onProgress(ev mcpclient.ProgressEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.progress == ProgressLines || e.settled {
		e.queue(progressLine(ev))
		return
	}
	if time.Since(e.lastProgress) < 100*time.Millisecond && (ev.Total == 0 || ev.Progress < ev.Total) {
		return
	}
	e.lastProgress = time.Now()
	e.queue("\r" + progressLine(ev))
}

// queue queues a line for the writer, or counts it when the queue is
// full; e.mu is held.
func (e *Events) queue(line string) {
	if e.closed {
		return
	}
	select {
	case e.lines <- queued{text: line}:
	default:
		e.dropped++
	}
}

// Close writes what is queued and says how many lines were dropped.
func (e *Events) Close() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	e.closed = true
	close(e.lines)
	dropped := e.dropped
	e.mu.Unlock()
	<-e.done
	if dropped > 0 {
		fmt.Fprintf(e.out, "mcpeek: %d server notifications came faster than they could be shown and were left out\n", dropped)
	}
}

// logLine is a log message as one line: its level, logger and data (a
// string as its text, anything else as compact JSON), cleaned so that the
// server's words are shown, never obeyed by the terminal.
func logLine(ev mcpclient.LogEvent) string {
	data := string(ev.Data)
	var s string
	if err := json.Unmarshal(ev.Data, &s); err == nil {
		data = s
	}
	if ev.Cut > 0 {
		data += fmt.Sprintf(" … (%d bytes)", ev.Cut)
	}
	logger := ""
	if ev.Logger != "" {
		logger = " [" + ev.Logger + "]"
	}
	line := fmt.Sprintf("mcpeek: server log %s%s: %s", ev.Level, logger, data)
	return textclean.Cut(textclean.OneLine(line), maxDataRunes)
}

func progressLine(ev mcpclient.ProgressEvent) string {
	var b strings.Builder
	b.WriteString("mcpeek: progress ")
	if ev.Total > 0 {
		fmt.Fprintf(&b, "%g/%g (%d%%)", ev.Progress, ev.Total, int(100*ev.Progress/ev.Total))
	} else {
		fmt.Fprintf(&b, "%g", ev.Progress)
	}
	if ev.Message != "" {
		b.WriteString(" " + ev.Message)
	}
	return textclean.Cut(textclean.OneLine(b.String()), 200)
}

// Updated receives one token per resource update the server sends (for
// call --updates).
func (e *Events) Updated() <-chan struct{} { return e.updated }

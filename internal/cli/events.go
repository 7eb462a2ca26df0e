package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// stderrEvents prints what the server tells a headless run on stderr,
// never stdout: each log message as one line, and, when stderr is a
// terminal, the progress of the call on one line rewritten in place. The
// connection never waits for it: lines queue, bounded, for a writer of
// their own, and those that do not fit are counted and said at the end.
type stderrEvents struct {
	out      io.Writer
	terminal bool // stderr is a terminal: progress is shown
	logs     bool // --log-level was given: log messages are shown

	lines   chan string
	done    chan struct{}
	updated chan struct{} // one token per resource update, for --updates
	mu      sync.Mutex
	dropped int
	closed  bool
	// lastProgress is when progress was last queued: it is shown at most
	// ten times a second.
	lastProgress time.Time
}

// maxDataRunes is the most of a log message's data one stderr line shows.
const maxDataRunes = 2000

func newStderrEvents(out io.Writer, terminal, logs bool) *stderrEvents {
	e := &stderrEvents{out: out, terminal: terminal, logs: logs, lines: make(chan string, 256), done: make(chan struct{}), updated: make(chan struct{}, 1024)}
	go e.write()
	return e
}

func (e *stderrEvents) write() {
	defer close(e.done)
	onProgressLine := false
	for line := range e.lines {
		if strings.HasPrefix(line, "\r") {
			fmt.Fprint(e.out, line+"\x1b[K")
			onProgressLine = true
			continue
		}
		if onProgressLine {
			fmt.Fprint(e.out, "\r\x1b[K")
			onProgressLine = false
		}
		fmt.Fprintln(e.out, line)
	}
	if onProgressLine {
		fmt.Fprint(e.out, "\r\x1b[K")
	}
}

// OnEvent implements [mcpclient.Listener].
func (e *stderrEvents) OnEvent(ev mcpclient.Event) {
	var line string
	switch ev := ev.(type) {
	case mcpclient.LogEvent:
		if !e.logs { // only what the person asked for: a server may log unasked
			return
		}
		line = logLine(ev)
	case mcpclient.ResourceUpdatedEvent:
		line = cutLine(oneLine("mcpeek: resource updated: "+ev.URI), 500)
		select {
		case e.updated <- struct{}{}:
		default:
		}
	case mcpclient.ProgressEvent:
		if !e.terminal {
			return
		}
		e.mu.Lock()
		if time.Since(e.lastProgress) < 100*time.Millisecond && (ev.Total == 0 || ev.Progress < ev.Total) {
			e.mu.Unlock()
			return
		}
		e.lastProgress = time.Now()
		e.mu.Unlock()
		line = "\r" + progressLine(ev)
	default:
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return
	}
	select {
	case e.lines <- line:
	default:
		e.dropped++
	}
}

// close writes what is queued and says how many lines were dropped.
func (e *stderrEvents) close() {
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
	return cutLine(oneLine(line), maxDataRunes)
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
	return cutLine(oneLine(b.String()), 200)
}

// cutLine cuts s to n runes.
func cutLine(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/mcpeek/mcpeek/internal/textclean"
)

// Direction says where a wire log entry came from.
type Direction string

// Wire log directions.
const (
	DirSend   Direction = "send"   // mcpeek → server
	DirRecv   Direction = "recv"   // server → mcpeek
	DirStderr Direction = "stderr" // a line the server process wrote to stderr
	DirNote   Direction = "note"   // transport events (read errors, closes)
)

// WireEntry is one line of the wire log.
type WireEntry struct {
	Time   time.Time       `json:"time"`
	Dir    Direction       `json:"dir"`
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	// Message is the raw JSON-RPC message for send/recv entries.
	Message json.RawMessage `json:"message,omitempty"`
	// Text is the line for stderr and note entries.
	Text string `json:"text,omitempty"`
	// cut is how a message the log cut (kept) ended, read before it was
	// cut: a huge input_required result still counts as a round.
	cut Outcome
	// borrowed: Message is the caller's buffer, valid only during add,
	// so what the log keeps of it is a copy (Raw: a huge message is
	// never copied whole unless the handshake keeps it).
	borrowed bool
}

// owned is the entry with a Message of its own, when it was borrowed.
func (e WireEntry) owned() WireEntry {
	if e.borrowed {
		e.Message = bytes.Clone(e.Message)
		e.borrowed = false
	}
	return e
}

// Line is the entry as the log writes it to its file: one JSON line,
// newline included, control characters escaped.
func (e WireEntry) Line() ([]byte, error) { return jsonLine(e) }

// Outcome is how a response in the wire log ended.
type Outcome struct {
	// Kind is OutcomeNone for a message that is not a response.
	Kind OutcomeKind
	// Code is an error's code.
	Code int64
}

// OutcomeKind tells the ends of a response apart.
type OutcomeKind int

// The ends of a response.
const (
	OutcomeNone          OutcomeKind = iota // not a response (or not JSON-RPC)
	OutcomeResult                           // a result
	OutcomeInputRequired                    // a result asking for more input first (2026-07-28)
	OutcomeError                            // a JSON-RPC error, with its code
)

// Outcome reads how the entry's message ended, when it is a response.
func (e WireEntry) Outcome() Outcome {
	if e.Message == nil && e.cut.Kind != OutcomeNone {
		return e.cut
	}
	var r struct {
		Result *struct {
			ResultType string `json:"resultType"`
		} `json:"result"`
		Error *struct {
			Code int64 `json:"code"`
		} `json:"error"`
	}
	if len(e.Message) == 0 || json.Unmarshal(e.Message, &r) != nil {
		return Outcome{}
	}
	switch {
	case r.Error != nil:
		return Outcome{Kind: OutcomeError, Code: r.Error.Code}
	case r.Result != nil && r.Result.ResultType == "input_required":
		return Outcome{Kind: OutcomeInputRequired}
	case r.Result != nil:
		return Outcome{Kind: OutcomeResult}
	}
	return Outcome{}
}

// WireLog keeps the raw JSON-RPC traffic and the server's stderr, bounded in
// memory, and optionally writes each entry as a JSON line to a sink.
type WireLog struct {
	mu  sync.Mutex
	max int
	// entries is a ring once it holds max entries: the oldest is at
	// entries[start], and a new entry overwrites it.
	entries []WireEntry
	start   int
	sink    io.Writer
	// taps are further sinks, added and removed while the log runs (a
	// recording started and stopped in the inspector).
	taps   []*tap
	stderr []string // the last few stderr lines, for error messages
	params paramsBook
	// secrets are redacted wherever they appear (see Secret); the set may
	// be shared (UseSecrets).
	secrets atomic.Pointer[Secrets]
	// open are the server's requests read and not answered yet (the taps
	// see both).
	open unanswered
	// handshake is the last handshake's messages kept whole (the ring
	// cuts long ones and forgets old ones): a recording started later
	// begins with it. Each is bounded by the connection's message size.
	handshake []WireEntry
}

// Secret makes the log redact s (a token, a client secret, an
// authorization code) from every entry it keeps or writes from now on, and
// whoever shares its secrets from everything they show.
func (w *WireLog) Secret(s string) {
	if w != nil {
		w.Secrets().Add(s)
	}
}

// Secrets is the set of secrets the log redacts, for whatever else shows
// what the server says ([Conn.Secrets]).
func (w *WireLog) Secrets() *Secrets {
	if w == nil {
		return nil
	}
	return w.secrets.Load()
}

// UseSecrets makes the log redact the secrets of s, a set it shares (the
// command line's output redacts the same set): the secrets it knew are
// added to s, and those told to it later go to s.
func (w *WireLog) UseSecrets(s *Secrets) {
	if s == nil {
		return
	}
	old := w.secrets.Swap(s)
	if old != nil && old != s {
		old.mu.RLock()
		needles := slices.Clone(old.needles)
		old.mu.RUnlock()
		for _, n := range needles {
			s.Add(n)
		}
	}
}

// NewWireLog returns a wire log that keeps at most max entries in memory
// (0 means 10,000) and writes every entry to sink when sink is not nil.
func NewWireLog(max int, sink io.Writer) *WireLog {
	if max <= 0 {
		max = 10000
	}
	w := &WireLog{max: max, sink: sink}
	w.secrets.Store(&Secrets{})
	return w
}

func (w *WireLog) add(e WireEntry) {
	if w == nil {
		return
	}
	if secrets := w.Secrets(); secrets.known() {
		e.Text = secrets.Redact(e.Text)
		if len(e.Message) > 0 {
			if m := secrets.Redact(string(e.Message)); m != string(e.Message) {
				e.Message, e.borrowed = json.RawMessage(m), false
			}
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	kept := e.kept()
	w.keepHandshake(e)
	if len(w.entries) < w.max {
		w.entries = append(w.entries, kept)
	} else {
		w.entries[w.start] = kept
		w.start = (w.start + 1) % w.max
	}
	if e.Dir == DirStderr {
		w.stderr = append(w.stderr, kept.Text)
		if len(w.stderr) > 20 {
			w.stderr = w.stderr[1:]
		}
	}
	if w.sink != nil || len(w.taps) > 0 {
		if b, err := jsonLine(e); err == nil {
			if w.sink != nil {
				_, _ = w.sink.Write(b)
			}
			for _, t := range w.taps {
				_, _ = t.w.Write(b)
			}
		}
	}
}

type tap struct{ w io.Writer }

// Tap has every entry from now on written to sink as well, as a JSON line
// (as to the log's own sink), until stop is called. Entries are written in
// the order they are logged; sink must not call back into the log.
func (w *WireLog) Tap(sink io.Writer) (stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tapLocked(sink)
}

// tapLocked adds sink to the taps and returns what removes it. w.mu must
// be held.
func (w *WireLog) tapLocked(sink io.Writer) (stop func()) {
	t := &tap{w: sink}
	w.taps = append(w.taps, t)
	return func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.taps = slices.DeleteFunc(w.taps, func(x *tap) bool { return x == t })
	}
}

// maxKept is the most of one message or stderr line the log keeps in
// memory (the sink gets all of it), so that its memory stays bounded
// whatever the server sends: at most max entries of about this size.
const maxKept = 16 << 10

// kept is the entry as the log keeps it in memory: a message or line
// longer than maxKept is cut, and a cut message is kept as text, saying
// how long it was.
func (e WireEntry) kept() WireEntry {
	if len(e.Message) > maxKept {
		e.cut = e.Outcome()
		start := e.Message[:min(len(e.Message), maxKept+utf8.UTFMax)] // a huge message is not copied whole
		e.Text = fmt.Sprintf("%s (%d bytes; --wire-log keeps whole messages)", textclean.Cut(string(start), maxKept, textclean.InBytes()), len(e.Message))
		e.Message = nil
	}
	if len(e.Text) > maxKept+100 {
		e.Text = textclean.Cut(e.Text, maxKept, textclean.InBytes())
	}
	return e.owned()
}

// keepHandshake keeps e whole when it belongs to the handshake: the
// client's initialize or server/discover request starts one, the response
// to it and (2025-11-25) notifications/initialized end it. w.mu must be
// held.
func (w *WireLog) keepHandshake(e WireEntry) {
	switch {
	case e.Dir == DirSend && (e.Method == MethodInitialize || e.Method == MethodDiscover) && len(e.ID) > 0:
		w.handshake = []WireEntry{e.owned()}
	case len(w.handshake) == 1 && e.Dir == DirRecv && e.Method == "" && string(e.ID) == string(w.handshake[0].ID):
		w.handshake = append(w.handshake, e.owned())
	case len(w.handshake) == 2 && w.handshake[0].Method == MethodInitialize && e.Dir == DirSend && e.Method == "notifications/initialized":
		w.handshake = append(w.handshake, e.owned())
	}
}

// Handshake returns the last handshake's messages, whole, however long
// ago it was: the initialize request, its response and
// notifications/initialized (2025-11-25), or the server/discover request
// and its response (2026-07-28), as far as they went.
func (w *WireLog) Handshake() []WireEntry {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.handshake)
}

// Entries returns a copy of the entries kept in memory.
func (w *WireLog) Entries() []WireEntry {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ordered()
}

// ordered returns a copy of the entries, oldest first. w.mu must be held.
func (w *WireLog) ordered() []WireEntry {
	out := make([]WireEntry, 0, len(w.entries))
	out = append(out, w.entries[w.start:]...)
	return append(out, w.entries[:w.start]...)
}

// LastStderr returns the last stderr line of the server, or "".
func (w *WireLog) LastStderr() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.stderr) - 1; i >= 0; i-- {
		if s := strings.TrimSpace(w.stderr[i]); s != "" {
			return s
		}
	}
	return ""
}

// Note adds a line of mcpeek's own to the log: why it did what it did.
func (w *WireLog) Note(text string) {
	w.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: text})
}

// SentCapabilities returns the client capabilities exactly as they went on
// the wire: the initialize request's, or the server/discover request's
// _meta entry in the modern era. It is nil before the handshake.
func (w *WireLog) SentCapabilities() json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.ordered() {
		if e.Dir != DirSend {
			continue
		}
		var m struct {
			Params struct {
				Capabilities json.RawMessage            `json:"capabilities"`
				Meta         map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if json.Unmarshal(e.Message, &m) != nil {
			continue
		}
		switch e.Method {
		case "initialize":
			return m.Params.Capabilities
		case "server/discover":
			return m.Params.Meta["io.modelcontextprotocol/clientCapabilities"]
		}
	}
	return nil
}

// lineWriter splits what it is given into lines and hands each to fn.
type lineWriter struct {
	mu  sync.Mutex
	buf []byte
	fn  func(line string)
}

func (lw *lineWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.buf = append(lw.buf, p...)
	for {
		i := bytes.IndexByte(lw.buf, '\n')
		if i < 0 {
			break
		}
		line := string(lw.buf[:i])
		lw.buf = lw.buf[i+1:]
		lw.fn(line)
	}
	if len(lw.buf) > 1<<20 { // a runaway line without newline: flush it
		lw.fn(string(lw.buf))
		lw.buf = nil
	}
	return len(p), nil
}

// StderrWriter returns a writer for the server process's stderr.
func (w *WireLog) StderrWriter() io.Writer {
	return &lineWriter{fn: func(line string) {
		w.add(WireEntry{Time: time.Now(), Dir: DirStderr, Text: strings.TrimRight(line, "\r")})
	}}
}

// Package record reads and writes mcpeek recordings: a header line saying
// what was connected to, then the wire traffic of the session exactly as
// the wire log (--wire-log) writes it, optionally annotated with who
// answered each question the server asked. A recording can be replayed
// against a server (mcpeek replay), turned into a suite (mcpeek record
// --to-suite), or served in the server's place (mcpeek replay --serve).
//
// The format is JSON Lines, UTF-8. Line 1 is the [Header]; every later line
// is an [Entry]: a wire-log entry (dir send, recv, stderr or note) or an
// answer annotation (dir answer). Readers skip entries of a dir they do not
// know, and refuse a header of a format version newer than [FormatVersion].
package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// FormatVersion is the recording format this package writes, and the
// newest it reads.
const FormatVersion = 1

// DirAnswer is the dir of an answer annotation line.
const DirAnswer mcpclient.Direction = "answer"

// Header is the first line of a recording.
type Header struct {
	// Recording is the format version (mcpeekRecording), 1 to
	// [FormatVersion].
	Recording int `json:"mcpeekRecording"`
	// Mcpeek is the version of the mcpeek that recorded.
	Mcpeek string `json:"mcpeek"`
	// Protocol is the protocol revision of the session: 2025-11-25 or
	// 2026-07-28. A recording always has one (--protocol auto is refused
	// with --record).
	Protocol string `json:"protocol"`
	// Transport is "stdio" or "http".
	Transport          string          `json:"transport"`
	ClientInfo         json.RawMessage `json:"clientInfo,omitempty"`
	ClientCapabilities json.RawMessage `json:"clientCapabilities,omitempty"`
	ServerInfo         json.RawMessage `json:"serverInfo,omitempty"`
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	// Started is when the recording started.
	Started time.Time `json:"started"`
}

// Answer says who answered one question the server asked.
type Answer struct {
	// Method is the question's method: elicitation/create,
	// sampling/createMessage or roots/list.
	Method string `json:"method"`
	// Key is the question's inputRequests key (2026-07-28).
	Key string `json:"key,omitempty"`
	// ID is the server request's id (2025-11-25).
	ID json.RawMessage `json:"id,omitempty"`
	// By is who answered: form, app, answers, decline, sampling or roots.
	By string `json:"by"`
}

// Entry is one line of a recording after the header: a wire-log entry, or
// (Dir == DirAnswer) an answer annotation.
type Entry struct {
	mcpclient.WireEntry
	Answer *Answer `json:"answer,omitempty"`
}

// maxLine is the longest line Read accepts: a recording's message may be
// as large as the largest message mcpeek takes, and a little more for
// escaping.
const maxLine = 2*mcpclient.DefaultMaxMessageSize + 1<<20

// maxPending bounds what a Writer keeps before its header is written (the
// handshake, normally a few kilobytes).
const maxPending = 16 << 20

// ErrNotStarted is returned by Close when the header was never written:
// the session ended before the handshake, and the recording holds
// nothing.
var ErrNotStarted = errors.New("the recording has no header: the session ended before the handshake")

// Writer writes a recording. It is the wire log's sink (Write takes the
// wire log's JSON lines): lines written before the header (the handshake,
// which the header describes) are kept and written after it by Start.
// Its methods are safe for concurrent use.
type Writer struct {
	mu      sync.Mutex
	w       io.Writer
	started bool
	pending bytes.Buffer
	err     error
}

// NewWriter returns a writer of a recording to w (a file created 0600: a
// recording holds what the person and the server sent).
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: w}
}

// Start writes the header, then earlier (entries logged before the
// writer was the log's sink: the handshake of a session recorded once
// under way), then the lines written so far. h.Recording is set to
// FormatVersion and h.Started to now when zero.
func (w *Writer) Start(h Header, earlier ...mcpclient.WireEntry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return errors.New("record: the header is already written")
	}
	if w.err != nil {
		return w.err
	}
	h.Recording = FormatVersion
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	line, err := json.Marshal(h)
	if err != nil {
		return err
	}
	w.started = true
	out := append(line, '\n')
	for _, e := range earlier {
		b, err := e.Line()
		if err != nil {
			return err
		}
		out = append(out, b...)
	}
	if _, err := w.w.Write(out); err != nil {
		w.err = err
		return err
	}
	if _, err := w.w.Write(w.pending.Bytes()); err != nil {
		w.err = err
		return err
	}
	w.pending = bytes.Buffer{}
	return nil
}

// Started reports whether the header is written.
func (w *Writer) Started() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.started
}

// Write takes whole JSON lines, as the wire log writes its entries.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if !w.started {
		if w.pending.Len()+len(p) > maxPending {
			w.err = fmt.Errorf("record: more than %d bytes before the handshake ended", maxPending)
			return 0, w.err
		}
		return w.pending.Write(p)
	}
	n, err := w.w.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

// Annotate writes an answer annotation: who answered a question.
func (w *Writer) Annotate(a Answer) error {
	line, err := json.Marshal(Entry{WireEntry: mcpclient.WireEntry{Time: time.Now(), Dir: DirAnswer}, Answer: &a})
	if err != nil {
		return err
	}
	_, err = w.Write(append(line, '\n'))
	return err
}

// Close reports the first write error, or ErrNotStarted when the header
// was never written. It does not close the underlying writer.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if !w.started {
		return ErrNotStarted
	}
	return nil
}

// Read reads a recording: its header and entries, the entries of a dir
// it does not know skipped.
func Read(r io.Reader) (Header, []Entry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	first, err := readLine(br)
	if err != nil && (err != io.EOF || len(first) == 0) {
		if err == io.EOF {
			return Header{}, nil, errors.New("not an mcpeek recording: it is empty")
		}
		return Header{}, nil, err
	}
	h, err := parseHeader(first)
	if err != nil {
		return Header{}, nil, err
	}
	var entries []Entry
	for n := 2; ; n++ {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			var e Entry
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return h, nil, fmt.Errorf("line %d: %v", n, jerr)
			}
			if known(e) {
				entries = append(entries, e)
			}
		}
		if err == io.EOF {
			return h, entries, nil
		}
		if err != nil {
			return h, nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
}

// ReadFile reads the recording at path; its errors name the file.
func ReadFile(path string) (Header, []Entry, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, nil, err
	}
	defer f.Close()
	h, entries, err := Read(f)
	if err != nil {
		return h, nil, fmt.Errorf("%s: %w", path, err)
	}
	return h, entries, nil
}

func parseHeader(line []byte) (Header, error) {
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil || probe["mcpeekRecording"] == nil {
		return Header{}, errors.New("not an mcpeek recording: its first line is not a recording header (a wire log needs --record, not --wire-log)")
	}
	var h Header
	if err := json.Unmarshal(line, &h); err != nil {
		return Header{}, fmt.Errorf("not an mcpeek recording: its header: %v", err)
	}
	if h.Recording < 1 {
		return Header{}, fmt.Errorf("not an mcpeek recording: format version %d", h.Recording)
	}
	if h.Recording > FormatVersion {
		return Header{}, fmt.Errorf("the recording's format version is %d and this mcpeek reads up to %d: a newer mcpeek made it", h.Recording, FormatVersion)
	}
	return h, nil
}

// known reports whether the entry's dir is one this package knows.
func known(e Entry) bool {
	switch e.Dir {
	case mcpclient.DirSend, mcpclient.DirRecv, mcpclient.DirStderr, mcpclient.DirNote:
		return true
	case DirAnswer:
		return e.Answer != nil
	}
	return false
}

// readLine reads one line, without its newline, refusing lines longer
// than maxLine.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

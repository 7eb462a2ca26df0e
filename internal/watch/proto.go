package watch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// MaxLine is the longest line either end sends or reads: a wire log entry
// longer than maxEntry is cut before it is sent.
const MaxLine = 1 << 20

// maxEntry is the most of one entry's line a watcher is sent; a longer
// message is sent as text, its start and its length (as the wire log keeps
// it in memory).
const maxEntry = 256 << 10

// Message types.
const (
	typeHello   = "hello"
	typeEntry   = "entry"
	typeLive    = "live"
	typeDropped = "dropped"
	typeAsk     = "ask"
	typeCancel  = "cancel"
	typeAnswer  = "answer"
)

// message is one line of the protocol (doc.go).
type message struct {
	Type    string               `json:"type"`
	Info    *Info                `json:"info,omitempty"`
	Entry   *mcpclient.WireEntry `json:"entry,omitempty"`
	Dropped int                  `json:"dropped,omitempty"`
	ID      int64                `json:"id,omitempty"`
	Params  json.RawMessage      `json:"params,omitempty"`
	Result  json.RawMessage      `json:"result,omitempty"`
	Error   string               `json:"error,omitempty"`
}

// line is m as one JSON line.
func (m message) line() []byte {
	b, err := json.Marshal(m)
	if err != nil { // only plain fields and raw JSON checked by its maker
		b, _ = json.Marshal(message{Type: m.Type, ID: m.ID, Error: err.Error()})
	}
	return append(b, '\n')
}

// Info describes a running proxy: what `mcpeek watch --list` prints and
// the hello a watcher is sent first.
type Info struct {
	PID int `json:"pid"`
	// Name is the server's name as the host's config calls it (--name),
	// or "".
	Name string `json:"name,omitempty"`
	// Server is the server's command or URL, secrets redacted.
	Server string `json:"server"`
	// Command is the server as a suite names it: its command and
	// arguments, or its URL, secrets redacted.
	Command []string  `json:"command,omitempty"`
	Started time.Time `json:"started"`
	// Socket is the proxy's socket, in [Dir].
	Socket string `json:"socket"`
}

// Label is how a watcher names the proxy: its name, else its server.
func (i Info) Label() string {
	if i.Name != "" {
		return i.Name
	}
	return i.Server
}

// entryLine is the protocol line of a wire log entry given as the log's
// JSON line (what a tap writes), cut when it is longer than maxEntry.
func entryLine(logLine []byte) []byte {
	if len(logLine) > maxEntry {
		return message{Type: typeEntry, Entry: cutLine(logLine)}.line()
	}
	out := make([]byte, 0, len(logLine)+32)
	out = append(out, `{"type":"entry","entry":`...)
	out = append(out, trimNewline(logLine)...)
	return append(out, "}\n"...)
}

// cutLine is the entry of a log line too long to send whole: its time,
// direction, method and id, and the start of its message or text as
// text, with its length. Only the line's head is decoded (this runs
// under the log's lock, for a message that may be megabytes long).
func cutLine(line []byte) *mcpclient.WireEntry {
	e := &mcpclient.WireEntry{Time: time.Now(), Dir: mcpclient.DirNote, Text: fmt.Sprintf("an entry of %d bytes", len(line))}
	dec := json.NewDecoder(bytes.NewReader(line[:min(len(line), 64<<10)]))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return e
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return e
		}
		var into any
		switch key, _ := t.(string); key {
		case "time":
			into = &e.Time
		case "dir":
			into = &e.Dir
		case "method":
			into = &e.Method
		case "id":
			into = &e.ID
		default: // the message or the text: its start, as text
			rest := bytes.TrimLeft(line[dec.InputOffset():], ": ")
			e.Text = fmt.Sprintf("%s… (%d bytes; --wire-log keeps whole messages)", printable(rest[:min(len(rest), maxEntry/4)]), len(line))
			return e
		}
		if dec.Decode(into) != nil {
			return e
		}
	}
	return e
}

// printable is b with bytes that would not make valid UTF-8 text dropped
// at its cut end.
func printable(b []byte) string {
	for len(b) > 0 && b[len(b)-1]&0xC0 == 0x80 {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] >= 0xC0 {
		b = b[:len(b)-1]
	}
	return string(b)
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// reader reads the protocol's lines from r, each at most MaxLine bytes.
type reader struct{ s *bufio.Scanner }

func newReader(r io.Reader) *reader {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &reader{s: s}
}

// next reads one message; io.EOF at the end.
func (r *reader) next() (message, error) {
	if !r.s.Scan() {
		if err := r.s.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				return message{}, fmt.Errorf("a message over %d bytes", MaxLine)
			}
			return message{}, err
		}
		return message{}, io.EOF
	}
	var m message
	if err := json.Unmarshal(r.s.Bytes(), &m); err != nil {
		return message{}, fmt.Errorf("not a watch message: %w", err)
	}
	return m, nil
}

// checkPeer is the default check of a connection: its peer runs as the
// current user.
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return errors.New("not a Unix socket")
	}
	uid, err := peerUID(uc)
	if err != nil {
		return fmt.Errorf("who is at the other end: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("refused a peer running as user %d (you are %d)", uid, os.Getuid())
	}
	return nil
}

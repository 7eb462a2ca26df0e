package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// httpTap records streamable-HTTP traffic into the wire log at the HTTP
// layer. Wrapping the SDK's connection instead would hide the methods the
// SDK looks for on its own HTTP connection, and with them the standalone SSE
// stream and the protocol-version header, so over HTTP the tap sits here.
//
// A POSTed message is logged before the request goes out; a message in a
// response is logged as the SDK reads it, before the SDK acts on it, so the
// log still shows a request before its response.
//
// It also bounds what a server may send: a response body that is not an
// event stream is one message, and an event stream's event is one, each of
// at most limit bytes. A longer body is cut with a [*MessageTooLargeError]
// as its read error; a longer event passes through for the SDK to refuse
// (its MaxEventSize is the same limit), and the tap keeps none of it.
// Either way the tap never holds more than limit bytes of one message, and
// tooLarge hears of it.
type httpTap struct {
	base     http.RoundTripper
	wire     *WireLog
	seen     func(data []byte) // each received message, after it is logged
	limit    int64             // the largest message, in bytes
	tooLarge func(*MessageTooLargeError)
	// posted hears the status of each answer to a POST, for errors to
	// name (nil: none).
	posted func(resp *http.Response)
}

func (t httpTap) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		_ = r.Body.Close()
		if err != nil {
			return nil, err
		}
		t.logMessages(DirSend, body)
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		t.wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: fmt.Sprintf("HTTP %s: %v", r.Method, err)})
		return resp, err
	}
	if r.Method == http.MethodPost && t.posted != nil {
		t.posted(resp)
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || resp.StatusCode >= 300 {
		t.wire.add(WireEntry{Time: time.Now(), Dir: DirNote,
			Text: fmt.Sprintf("HTTP %s → %s %s", r.Method, resp.Status, media)})
	}
	big := func(err *MessageTooLargeError) {
		t.wire.Note(err.Error())
		if t.tooLarge != nil && r.Context().Value(sideRequest{}) == nil { // the side channel says so itself
			t.tooLarge(err)
		}
	}
	switch media {
	case "text/event-stream":
		resp.Body = &sseTapBody{ReadCloser: resp.Body, tap: t, big: big}
	default:
		resp.Body = &jsonTapBody{ReadCloser: resp.Body, tap: t, log: media == "application/json", big: big}
	}
	return resp, nil
}

// DefaultMaxMessageSize is the largest message a server may send unless
// [Config.MaxMessageSize] says otherwise: go-sdk's own bound on a stdio
// line and on an SSE event.
const DefaultMaxMessageSize = 16 << 20

// MessageTooLargeError is a server's message larger than mcpeek takes.
type MessageTooLargeError struct {
	Limit int64 // the largest message, in bytes
}

func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("the server's answer is larger than %s; --max-message-size raises the limit", humanize.IBytes(uint64(e.Limit)))
}

// sideRequest marks the context of a side-channel request, whose own
// reader reports an answer too large.
type sideRequest struct{}

// logMessages logs one JSON-RPC message, or each of a batch. Anything else,
// such as an HTTP error body that is not a JSON-RPC message, is logged as a
// note with its text, shortened.
func (t httpTap) logMessages(dir Direction, data []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return
	}
	batch := []json.RawMessage{data}
	if data[0] == '[' && json.Unmarshal(data, &batch) != nil {
		batch = []json.RawMessage{data}
	}
	for _, raw := range batch {
		msg, err := jsonrpc.DecodeMessage(raw)
		if err != nil {
			text := string(raw)
			if len(text) > 2048 {
				text = text[:2048] + "…"
			}
			t.wire.add(WireEntry{Time: time.Now(), Dir: DirNote, Text: "not a JSON-RPC message: " + text})
			continue
		}
		if data := t.wire.message(dir, msg); data != nil && dir == DirRecv && t.seen != nil {
			t.seen(data)
		}
	}
}

// jsonTapBody is a response body that is one message: it fails once more
// than the limit has been read. A JSON body (log) is read to its end before
// the SDK sees any of it, then logged and, where an ask lacks params, filled
// (see fillWire).
type jsonTapBody struct {
	io.ReadCloser
	tap  httpTap
	log  bool
	big  func(*MessageTooLargeError)
	read int64
	err  error         // the body's end: too large
	out  *bytes.Reader // a JSON body, once read whole
	end  error         // what ended the read of a JSON body, after out
}

func (b *jsonTapBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if !b.log {
		n, err := b.ReadCloser.Read(p)
		if b.read += int64(n); b.read > b.tap.limit {
			return 0, b.tooLarge()
		}
		return n, err
	}
	if b.out == nil {
		if err := b.readWhole(); err != nil {
			return 0, err
		}
	}
	n, err := b.out.Read(p)
	if err == io.EOF && b.end != nil {
		err = b.end
	}
	return n, err
}

// readWhole reads a JSON body to its end (or a read error, kept for after
// it), at most the limit.
func (b *jsonTapBody) readWhole() error {
	var buf bytes.Buffer
	chunk := make([]byte, 32<<10)
	for {
		n, err := b.ReadCloser.Read(chunk)
		if b.read += int64(n); b.read > b.tap.limit {
			return b.tooLarge()
		}
		buf.Write(chunk[:n])
		if err != nil {
			if err != io.EOF {
				b.end = err
			}
			break
		}
	}
	data := buf.Bytes()
	b.tap.logMessages(DirRecv, data)
	if filled := fillWire(data); filled != nil {
		data = filled
	}
	b.out = bytes.NewReader(data)
	return nil
}

func (b *jsonTapBody) tooLarge() error {
	tooLarge := &MessageTooLargeError{Limit: b.tap.limit}
	b.err, b.out = tooLarge, nil
	b.big(tooLarge)
	return tooLarge
}

// sseTapBody logs each SSE event's data as soon as the blank line that ends
// the event has passed through, which is before the SDK can act on it. An
// event longer than the limit is not kept: the tap skips to its end.
//
// It hands the SDK each line once the line has ended, so that a data line
// holding an ask without params can be filled first (see fillWire); a line
// longer than fillMaxLine passes through as it comes, unfilled, and so does
// an event whose message is split over several data lines.
type sseTapBody struct {
	io.ReadCloser
	tap     httpTap
	big     func(*MessageTooLargeError)
	partial []byte   // an unfinished line
	data    []string // data lines of the current event
	size    int64    // the current event's bytes so far
	// skipping: the current event is too large; lineLen counts the bytes
	// of its current line, to find the blank line that ends it.
	skipping bool
	lineLen  int
	err      error // the stream's end: an event far too large
	// out is what the SDK reads next; passing: the current line is too
	// long to hold, and passes as it comes; end is the body's own end,
	// once out is read.
	out     []byte
	passing bool
	end     error
}

// fillMaxLine is the longest line the tap holds back to fill.
const fillMaxLine = 1 << 20

// skipSlack is how much of a too large event the tap lets through before
// it ends the stream: more than the SDK reads ahead (4 KiB), so the SDK
// has seen the event pass its own limit (the same) and failed it as too
// large; then its draining of the body stops here, however much is left.
const skipSlack = 64 << 10

func (b *sseTapBody) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for len(b.out) == 0 {
		switch {
		case b.err != nil:
			return 0, b.err
		case b.end != nil:
			return 0, b.end
		}
		n, err := b.ReadCloser.Read(p)
		b.feed(p[:n])
		if err != nil {
			b.end = err
			if !b.skipping && !b.passing {
				b.out = append(b.out, b.partial...) // an unfinished last line, as it came
			}
		}
	}
	n := copy(p, b.out)
	b.out = b.out[n:]
	if len(b.out) == 0 {
		b.out = nil // a long line's buffer is not kept
	}
	return n, nil
}

func (b *sseTapBody) feed(chunk []byte) {
	for len(chunk) > 0 {
		if b.skipping {
			rest := b.skip(chunk)
			b.out = append(b.out, chunk[:len(chunk)-len(rest)]...)
			chunk = rest
			continue
		}
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			b.keep(chunk)
			return
		}
		if !b.keep(chunk[:i+1]) {
			chunk = chunk[i+1:]
			continue
		}
		chunk = chunk[i+1:]
		if !b.passing {
			b.out = append(b.out, filledLine(b.partial)...)
		}
		b.passing = false
		line := strings.TrimSuffix(strings.TrimSuffix(string(b.partial), "\n"), "\r")
		b.partial = b.partial[:0]
		if cap(b.partial) > 64<<10 { // a large event's buffer is not kept for the stream's life
			b.partial = nil
		}
		b.line(line)
	}
}

// filledLine is a whole line as the SDK is to read it: a data line whose
// message has an ask without params, filled; any other line as it came.
func filledLine(line []byte) []byte {
	payload, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return line
	}
	payload = bytes.TrimPrefix(payload, []byte(" "))
	filled := fillWire(bytes.TrimRight(payload, "\r\n"))
	if filled == nil {
		return line
	}
	return append(append([]byte("data: "), filled...), '\n')
}

// keep adds bytes of the current line, reporting false once the event is
// too large (then it is skipped, and what was held of it passes on for the
// SDK to refuse).
func (b *sseTapBody) keep(p []byte) bool {
	if b.size += int64(len(p)); b.size > b.tap.limit {
		if !b.passing {
			b.out = append(b.out, b.partial...)
		}
		b.out = append(b.out, p...)
		b.skipping, b.lineLen = true, len(b.partial)+len(p)
		if p[len(p)-1] == '\n' {
			b.lineLen = 0
		}
		b.partial, b.data, b.passing = nil, nil, false
		b.big(&MessageTooLargeError{Limit: b.tap.limit})
		return false
	}
	switch {
	case b.passing:
		b.out = append(b.out, p...)
	case len(b.partial)+len(p) > fillMaxLine:
		b.passing = true
		b.out = append(append(b.out, b.partial...), p...)
	}
	if len(b.partial)+len(p) > cap(b.partial) { // grown by doubling, to at most the limit
		grown := make([]byte, len(b.partial), int(min(int64(2*cap(b.partial)+len(p)), b.tap.limit+1)))
		b.partial = append(grown[:copy(grown, b.partial)], p...)
		return true
	}
	b.partial = append(b.partial, p...)
	return true
}

// skip passes over a too large event up to the blank line that ends it,
// and returns what follows.
func (b *sseTapBody) skip(chunk []byte) []byte {
	for i, c := range chunk {
		switch c {
		case '\n':
			if b.lineLen == 0 {
				b.skipping, b.size = false, 0
				return chunk[i+1:]
			}
			b.lineLen = 0
		case '\r':
		default:
			b.lineLen++
		}
	}
	if b.size += int64(len(chunk)); b.size > b.tap.limit+skipSlack {
		b.err = &MessageTooLargeError{Limit: b.tap.limit}
	}
	return nil
}

// line takes one line of the event stream.
func (b *sseTapBody) line(line string) {
	switch {
	case line == "":
		if len(b.data) > 0 {
			b.tap.logMessages(DirRecv, []byte(strings.Join(b.data, "\n")))
			b.data = b.data[:0]
		}
		b.size = 0
	case line == "data" || strings.HasPrefix(line, "data:"):
		v := strings.TrimPrefix(strings.TrimPrefix(line, "data"), ":")
		b.data = append(b.data, strings.TrimPrefix(v, " "))
	}
}

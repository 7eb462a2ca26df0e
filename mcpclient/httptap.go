package mcpclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
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
// at most limit bytes. A longer body fails with a [*MessageTooLargeError]
// as its read error before the SDK reads any of it; a longer event passes
// through for the SDK to refuse (its MaxEventSize is the same limit), and
// the tap keeps none of it. Either way the tap never holds more than limit
// bytes of one message, and tooLarge hears of it.
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
	var sent []jsonrpc.Message
	if r.Method == http.MethodPost && r.Body != nil {
		body, err := io.ReadAll(r.Body)
		_ = r.Body.Close()
		if err != nil {
			return nil, err
		}
		sent = t.logMessages(DirSend, body)
		defer func() { // written, or failed to be
			for _, msg := range sent {
				t.wire.open.answered(msg)
			}
		}()
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
		// The side channel says so itself; an error page is no message,
		// and its request fails for its status.
		if t.tooLarge != nil && r.Context().Value(sideRequest{}) == nil && resp.StatusCode < 300 {
			t.tooLarge(err)
		}
	}
	var calls map[string]bool // the SDK's; the side channel checks its own answers
	if r.Method == http.MethodPost && r.Context().Value(sideRequest{}) == nil {
		calls = callIDs(sent...)
	}
	switch media {
	case "text/event-stream":
		resp.Body = &sseTapBody{ReadCloser: resp.Body, tap: t, big: big, calls: calls}
	default:
		resp.Body = &jsonTapBody{ReadCloser: resp.Body, tap: t, log: media == "application/json", big: big, length: resp.ContentLength, calls: calls}
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

// logMessages logs one JSON-RPC message, or each of a batch, and returns
// the messages. Anything else,
// such as an HTTP error body that is not a JSON-RPC message, is logged as a
// note with its text, shortened.
func (t httpTap) logMessages(dir Direction, data []byte) []jsonrpc.Message {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil
	}
	batch := []json.RawMessage{data}
	if data[0] == '[' && json.Unmarshal(data, &batch) != nil {
		batch = []json.RawMessage{data}
	}
	var msgs []jsonrpc.Message
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
		msgs = append(msgs, msg)
	}
	return msgs
}

// jsonTapBody is a response body that is one message. It is read whole,
// once, as the SDK first reads it (which reads it whole anyway): at most
// the limit, into one buffer when the length is known and in growing
// chunks up to it when not, so that a body over the limit fails before the
// SDK has read a byte of it, and a JSON body (log) is logged before the SDK
// acts on it, then, where an ask lacks params, filled (see fillWire), and
// where it answers a tools/call of the POST's (calls) with a task's status,
// made an error (refuseTaskStatus). The SDK reads the same bytes, or the
// filled or refused ones.
type jsonTapBody struct {
	io.ReadCloser
	tap    httpTap
	log    bool
	big    func(*MessageTooLargeError)
	calls  map[string]bool // the POST's tools/call requests, by id
	length int64           // the Content-Length, or -1
	body   *bytes.Reader   // once read
	err    error           // the body's end: too large, or a failed read
}

func (b *jsonTapBody) Read(p []byte) (int, error) {
	if b.body == nil && b.err == nil {
		b.fill()
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.body.Read(p)
}

// fill reads the body whole.
func (b *jsonTapBody) fill() {
	data, err := readCapped(b.ReadCloser, b.length, b.tap.limit)
	if err != nil {
		var tooLarge *MessageTooLargeError
		if errors.As(err, &tooLarge) {
			b.big(tooLarge)
		}
		b.err = err
		return
	}
	if b.log {
		b.tap.logMessages(DirRecv, data)
		if filled := fillWire(data); filled != nil {
			data = filled
		}
		if checked := refuseTaskStatusData(data, b.calls, b.tap.wire); checked != nil {
			data = checked
		}
	}
	b.body = bytes.NewReader(data)
}

// readCapped reads r to its end, which must come within limit bytes, else
// the error is a [*MessageTooLargeError]: into one buffer of length bytes
// when the length is known (> 0), else into chunks of growing size, joined
// at the end. A body over the limit costs at most the limit. A length of 0
// is read as unknown: a Response built by hand (a RoundTripper's, a test's)
// leaves it 0 whatever its body.
func readCapped(r io.Reader, length, limit int64) ([]byte, error) {
	if length > limit {
		return nil, &MessageTooLargeError{Limit: limit}
	}
	if length > 0 {
		data := make([]byte, length)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, err
		}
		return data, nil
	}
	var chunks [][]byte
	var total int64
	for size := int64(4 << 10); ; size = min(2*size, 1<<20) {
		chunk := make([]byte, min(size, limit+1-total))
		n, err := io.ReadFull(r, chunk)
		total += int64(n)
		chunks = append(chunks, chunk[:n])
		switch {
		case total > limit:
			return nil, &MessageTooLargeError{Limit: limit}
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			if len(chunks) == 1 {
				return chunks[0], nil
			}
			return bytes.Join(chunks, nil), nil
		case err != nil:
			return nil, err
		}
	}
}

// sseTapBody logs each SSE event's data as soon as the blank line that ends
// the event has passed through, which is before the SDK can act on it. An
// event longer than the limit is not kept: the tap skips to its end.
//
// The current line is kept in chunks of growing size (lineBuf), so that an
// event over the limit costs the tap at most the limit, and an event's data
// is logged from the line itself when it has one data line (the usual).
//
// It hands the SDK each line once the line has ended, so that a data line
// holding an ask without params can be filled first (see fillWire); a line
// longer than fillMaxLine passes through as it comes, unfilled, and so does
// an event whose message is split over several data lines.
type sseTapBody struct {
	io.ReadCloser
	tap     httpTap
	big     func(*MessageTooLargeError)
	calls   map[string]bool // the POST's tools/call requests, by id
	partial lineBuf         // an unfinished line
	data    []byte          // the data of the current event
	hasData bool            // a data line of the current event was seen
	size    int64           // the current event's bytes so far
	// skipping: the current event is too large; lineLen counts the bytes
	// of its current line, to find the blank line that ends it.
	skipping bool
	lineLen  int
	err      error // the stream's end: an event far too large
	// out is what the SDK reads next, in pieces none of which is a copy:
	// of buf (what the tap read), of a held line, of a filled line.
	// passing: the current line is too long to hold, and passes as it
	// comes; end is the body's own end, once out is read.
	out     [][]byte
	buf     []byte
	passing bool
	end     error
}

// sseReadSize is how much the tap reads of an event stream at once.
const sseReadSize = 32 << 10

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
		if b.buf == nil {
			b.buf = make([]byte, sseReadSize)
		}
		// buf is read into again only once out, which may hold pieces of
		// it, is read.
		n, err := b.ReadCloser.Read(b.buf)
		b.feed(b.buf[:n])
		if err != nil {
			b.end = err
			if !b.skipping && !b.passing {
				b.pass(b.partial.chunks...) // an unfinished last line, as it came
			}
		}
	}
	n := 0
	for n < len(p) && len(b.out) > 0 {
		k := copy(p[n:], b.out[0])
		n += k
		if b.out[0] = b.out[0][k:]; len(b.out[0]) == 0 {
			b.out[0], b.out = nil, b.out[1:]
		}
	}
	if len(b.out) == 0 {
		b.out = nil // a long line's pieces are not kept
	}
	return n, nil
}

// pass queues pieces for the SDK to read, as they are: none is written to
// again until the SDK has read it (buf is read into once out is empty, a
// line's chunks are only appended to, past the piece).
func (b *sseTapBody) pass(pieces ...[]byte) {
	for _, piece := range pieces {
		if len(piece) > 0 {
			b.out = append(b.out, piece)
		}
	}
}

func (b *sseTapBody) feed(chunk []byte) {
	for len(chunk) > 0 {
		if b.skipping {
			rest := b.skip(chunk)
			b.pass(chunk[:len(chunk)-len(rest)])
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
		line := b.partial.take()
		if !b.passing {
			b.pass(filledLine(line, b.calls, b.tap.wire))
		}
		b.passing = false
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		b.line(line)
	}
}

// filledLine is a whole line as the SDK is to read it: a data line whose
// message has an ask without params, filled, or that answers one of calls
// with a task's status, made an error (refuseTaskStatus); any other line
// as it came.
func filledLine(line []byte, calls map[string]bool, wire *WireLog) []byte {
	payload, ok := bytes.CutPrefix(line, []byte("data:"))
	if !ok {
		return line
	}
	payload = bytes.TrimRight(bytes.TrimPrefix(payload, []byte(" ")), "\r\n")
	filled := fillWire(payload)
	msg := filled
	if msg == nil {
		msg = payload
	}
	if checked := refuseTaskStatusData(msg, calls, wire); checked != nil {
		filled = checked
	}
	if filled == nil {
		return line
	}
	return append(append([]byte("data: "), filled...), '\n')
}

// keep adds bytes of the current line, reporting false once the event is
// too large (then it is skipped, and what was held of it passes on for the
// SDK to refuse, while the tap keeps none of it).
func (b *sseTapBody) keep(p []byte) bool {
	if b.size += int64(len(p)); b.size > b.tap.limit {
		if !b.passing {
			b.pass(b.partial.chunks...)
		}
		b.pass(p)
		b.skipping, b.lineLen = true, b.partial.len()+len(p)
		if p[len(p)-1] == '\n' {
			b.lineLen = 0
		}
		b.partial, b.data, b.hasData, b.passing = lineBuf{}, nil, false, false
		b.big(&MessageTooLargeError{Limit: b.tap.limit})
		return false
	}
	switch {
	case b.passing:
		b.pass(p)
	case b.partial.len()+len(p) > fillMaxLine:
		b.passing = true
		b.pass(b.partial.chunks...)
		b.pass(p)
	}
	b.partial.add(p)
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

// line takes one line of the event stream. The first data line of an
// event is its data as it is, without a copy; a further one is appended,
// to a copy (the line itself may be queued for the SDK still).
func (b *sseTapBody) line(line []byte) {
	switch {
	case len(line) == 0:
		if b.hasData {
			b.tap.logMessages(DirRecv, b.data)
		}
		b.data, b.hasData, b.size = nil, false, 0
	case bytes.Equal(line, []byte("data")) || bytes.HasPrefix(line, []byte("data:")):
		v := bytes.TrimPrefix(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data")), []byte(":")), []byte(" "))
		if !b.hasData {
			b.data, b.hasData = slices.Clip(v), true
			return
		}
		b.data = append(append(b.data, '\n'), v...) // a copy, the first time: the line may wait in out
	}
}

// lineBuf holds one line as it arrives, in chunks of growing size (at
// most 1 MiB), so that it never holds much more than the line, nor copies
// what it holds as it grows.
type lineBuf struct {
	chunks [][]byte
	n      int
}

func (l *lineBuf) len() int { return l.n }

func (l *lineBuf) add(p []byte) {
	l.n += len(p)
	for len(p) > 0 {
		last := len(l.chunks) - 1
		if last < 0 || len(l.chunks[last]) == cap(l.chunks[last]) {
			size := 256
			if last >= 0 {
				size = min(2*cap(l.chunks[last]), 1<<20)
			}
			l.chunks = append(l.chunks, make([]byte, 0, max(size, min(len(p), 1<<20))))
			last++
		}
		c := l.chunks[last]
		k := min(len(p), cap(c)-len(c))
		l.chunks[last] = append(c, p[:k]...)
		p = p[k:]
	}
}

// take is the line, and empties the buffer: the line is its one chunk (no
// copy), or the chunks joined.
func (l *lineBuf) take() []byte {
	defer func() { l.chunks, l.n = nil, 0 }()
	switch len(l.chunks) {
	case 0:
		return nil
	case 1:
		return l.chunks[0]
	}
	return bytes.Join(l.chunks, nil)
}

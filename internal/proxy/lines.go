package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// lineReader reads newline-delimited messages, each at most max bytes:
// a longer one is not kept, only its start (to find its id) and its size,
// so that memory stays bounded whatever a side sends.
type lineReader struct {
	br  *bufio.Reader
	max int64
	buf []byte
}

// line is one message read: data (its newline included, as read), or,
// for one over the limit, its first bytes and size.
type line struct {
	data    []byte
	tooLong bool
	start   []byte
	size    int64
}

// keptStart is how much of a message over the limit is kept, to find its
// id.
const keptStart = 4 << 10

func newLineReader(r io.Reader, max int64) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next reads the next message. data is valid until the next call. At the
// end it returns io.EOF (a last line without newline is returned first).
func (r *lineReader) next() (line, error) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // a big message's buffer is not kept for the small ones
	}
	r.buf = r.buf[:0]
	var l line
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case l.tooLong:
			l.size += int64(len(chunk))
		case int64(len(r.buf)+len(chunk)) > r.max+1: // +1: the newline
			l.tooLong = true
			l.start = append([]byte(nil), r.buf[:min(len(r.buf), keptStart)]...)
			if len(l.start) < keptStart {
				l.start = append(l.start, chunk[:min(len(chunk), keptStart-len(l.start))]...)
			}
			l.size = int64(len(r.buf) + len(chunk))
			r.buf = r.buf[:0]
		default:
			r.buf = append(r.buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if l.tooLong {
			return l, noEOF(err, l.size > 0)
		}
		l.data = r.buf
		return l, noEOF(err, len(r.buf) > 0)
	}
}

// noEOF holds back io.EOF when a last line was read: it is returned by
// the next call.
func noEOF(err error, read bool) error {
	if err == io.EOF && read {
		return nil
	}
	return err
}

// idOf finds the top-level id in the start of a message too long to read
// whole ("": none found there).
func idOf(start []byte) string {
	dec := json.NewDecoder(bytes.NewReader(start))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return ""
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return ""
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return ""
		}
		if key == "id" {
			return string(v)
		}
	}
	return ""
}

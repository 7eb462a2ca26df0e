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
//
// A message longer than the reader's buffer is kept in the chunks it
// arrives in and joined once whole, so that reading it takes at most
// about twice its size, not the garbage of a slice grown step by step.
func (r *lineReader) next() (line, error) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // a big message's buffer is not kept for the small ones
	}
	var l line
	var chunks [][]byte
	size := 0
	for {
		chunk, err := r.br.ReadSlice('\n')
		if chunks == nil && !l.tooLong && err != bufio.ErrBufferFull && int64(len(chunk)) <= r.max+1 {
			// The whole message was in the buffer: lent from it, not
			// copied.
			l.data = chunk
			return l, noEOF(err, len(chunk) > 0)
		}
		switch {
		case l.tooLong:
			l.size += int64(len(chunk))
		case int64(size+len(chunk)) > r.max+1: // +1: the newline
			l.tooLong = true
			l.start = keepStart(chunks, chunk)
			l.size = int64(size + len(chunk))
			chunks = nil
		default:
			chunks = append(chunks, bytes.Clone(chunk))
			size += len(chunk)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if l.tooLong {
			return l, noEOF(err, l.size > 0)
		}
		r.buf = join(r.buf[:0], chunks, size)
		l.data = r.buf
		return l, noEOF(err, size > 0)
	}
}

// join appends the chunks to buf, growing it once.
func join(buf []byte, chunks [][]byte, size int) []byte {
	if cap(buf) < size {
		buf = make([]byte, 0, size)
	}
	for _, c := range chunks {
		buf = append(buf, c...)
	}
	return buf
}

// keepStart is the first keptStart bytes of the chunks and then chunk.
func keepStart(chunks [][]byte, chunk []byte) []byte {
	var start []byte
	for _, c := range append(chunks, chunk) {
		if len(start) >= keptStart {
			break
		}
		start = append(start, c[:min(len(c), keptStart-len(start))]...)
	}
	return start
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

package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
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
// A message longer than the reader's buffer is staged in blocks as it
// arrives and joined once whole, each block given back as soon as it is
// copied (see stage): reading it takes little more than its size.
func (r *lineReader) next() (line, error) {
	if cap(r.buf) > 1<<20 {
		r.buf = nil // a big message's buffer is not kept for the small ones
	}
	var l line
	var st stage
	defer st.release()
	for {
		chunk, err := r.br.ReadSlice('\n')
		if st.size == 0 && !l.tooLong && err != bufio.ErrBufferFull && int64(len(chunk)) <= r.max+1 {
			// The whole message was in the buffer: lent from it, not
			// copied.
			l.data = chunk
			return l, noEOF(err, len(chunk) > 0)
		}
		switch {
		case l.tooLong:
			l.size += int64(len(chunk))
		case int64(st.size+len(chunk)) > r.max+1: // +1: the newline
			l.tooLong = true
			l.start = st.keepStart(chunk)
			l.size = int64(st.size + len(chunk))
			st.release()
		default:
			st.add(chunk)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if l.tooLong {
			return l, noEOF(err, l.size > 0)
		}
		size := st.size
		r.buf = st.join(r.buf[:0])
		l.data = r.buf
		return l, noEOF(err, size > 0)
	}
}

// stage holds a message longer than the reader's buffer while it is
// read: in blocks of memory outside Go's heap where the system allows
// (stageBlock), each given back to the system as soon as it is copied
// into the message's buffer, so that the message is not held twice.
type stage struct {
	blocks [][]byte
	size   int
}

// stageBlockSize is the size of one block of a stage.
const stageBlockSize = 1 << 20

// add appends p.
func (s *stage) add(p []byte) {
	for len(p) > 0 {
		if len(s.blocks) == 0 || len(s.blocks[len(s.blocks)-1]) == stageBlockSize {
			s.blocks = append(s.blocks, newStageBlock(stageBlockSize)[:0])
		}
		last := &s.blocks[len(s.blocks)-1]
		n := min(len(p), stageBlockSize-len(*last))
		*last = append(*last, p[:n]...)
		p = p[n:]
		s.size += n
	}
}

// join appends what the stage holds to buf, growing it once, and gives
// each block back once copied.
func (s *stage) join(buf []byte) []byte {
	if cap(buf) < s.size {
		buf = make([]byte, 0, s.size)
	}
	for i, b := range s.blocks {
		buf = append(buf, b...)
		freeStageBlock(b)
		s.blocks[i] = nil
	}
	s.blocks, s.size = nil, 0
	return buf
}

// keepStart is the first keptStart bytes of the stage and then chunk.
func (s *stage) keepStart(chunk []byte) []byte {
	var start []byte
	for _, c := range append(slices.Clone(s.blocks), chunk) {
		if len(start) >= keptStart {
			break
		}
		start = append(start, c[:min(len(c), keptStart-len(start))]...)
	}
	return start
}

// release gives back the blocks.
func (s *stage) release() {
	for _, b := range s.blocks {
		freeStageBlock(b)
	}
	s.blocks, s.size = nil, 0
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
	return string(member(start, "id"))
}

// asLine is a message as one line of a stdio transport: trimmed, joined
// onto one line when it was written over several, and ended with a
// newline.
func asLine(msg []byte) []byte {
	msg = bytes.TrimSpace(msg)
	if bytes.ContainsAny(msg, "\r\n") {
		var compact bytes.Buffer
		if json.Compact(&compact, msg) == nil {
			msg = compact.Bytes()
		}
	}
	return append(append(make([]byte, 0, len(msg)+1), msg...), '\n')
}

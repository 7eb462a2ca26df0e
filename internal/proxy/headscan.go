package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// readHead reads a message's head — its top-level method, id, result and
// error — in one pass with a streaming JSON tokenizer that skips every
// other value unread, and reports whether the message is JSON. What it
// reads is what json.Unmarshal into a head reads (keys matched case
// folded, the last of a repeated member winning, a member of the wrong
// type left out), and the message is JSON exactly when json.Valid says
// so (FuzzHeadScan holds the two to that): encoding/json's reflection and
// its two passes over a message took most of what the proxy added to a
// round trip.
func readHead(data []byte) (head, bool) {
	r := headReaders.Get().(*headReader)
	defer headReaders.Put(r)
	r.src.Reset(data)
	r.dec.Reset(&r.src, headOptions...)
	h, err := r.read()
	if err == nil {
		// One value and nothing after it but spaces.
		_, err = r.dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return h, true
		}
	}
	return head{}, false
}

// headOptions let through what encoding/json lets through: a name given
// twice, and bytes that are not UTF-8 inside a string.
var headOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// headReader is a tokenizer kept between messages (its buffers are what
// costs to make).
type headReader struct {
	src bytes.Reader
	dec *jsontext.Decoder
}

var headReaders = sync.Pool{New: func() any {
	r := &headReader{}
	r.dec = jsontext.NewDecoder(&r.src, headOptions...)
	return r
}}

// read reads one value: an object's members of the head, anything else
// skipped (its head is empty).
func (r *headReader) read() (head, error) {
	var h head
	if r.dec.PeekKind() != '{' {
		return h, r.dec.SkipValue()
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return h, err
	}
	for r.dec.PeekKind() != '}' {
		name, err := r.dec.ReadToken()
		if err != nil {
			return h, err
		}
		if err := r.member(&h, name.String()); err != nil {
			return h, err
		}
	}
	_, err := r.dec.ReadToken()
	return h, err
}

// member reads the value of the member name into h when it is one of the
// head's, as json.Unmarshal would, and skips it otherwise.
func (r *headReader) member(h *head, name string) error {
	switch {
	case strings.EqualFold(name, "method"):
		v, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		if v.Kind() == '"' {
			_ = json.Unmarshal(v, &h.Method) // as encoding/json reads the string
		}
	case strings.EqualFold(name, "id"):
		v, err := r.dec.ReadValue()
		if err != nil {
			return err
		}
		h.ID = append(h.ID[:0:0], v...)
	case strings.EqualFold(name, "result"):
		h.Result = true
		return r.dec.SkipValue()
	case strings.EqualFold(name, "error"):
		h.Error = true
		return r.dec.SkipValue()
	default:
		return r.dec.SkipValue()
	}
	return nil
}

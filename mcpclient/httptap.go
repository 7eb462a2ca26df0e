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
type httpTap struct {
	base http.RoundTripper
	wire *WireLog
	seen func(data []byte) // each received message, after it is logged
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
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if r.Method != http.MethodPost || resp.StatusCode >= 300 {
		t.wire.add(WireEntry{Time: time.Now(), Dir: DirNote,
			Text: fmt.Sprintf("HTTP %s → %s %s", r.Method, resp.Status, media)})
	}
	switch media {
	case "application/json":
		resp.Body = &jsonTapBody{ReadCloser: resp.Body, tap: t}
	case "text/event-stream":
		resp.Body = &sseTapBody{ReadCloser: resp.Body, tap: t}
	}
	return resp, nil
}

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

// jsonTapBody logs a JSON response body once it has been read to its end.
type jsonTapBody struct {
	io.ReadCloser
	tap  httpTap
	buf  bytes.Buffer
	done bool
}

func (b *jsonTapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.buf.Write(p[:n])
	if err == io.EOF && !b.done {
		b.done = true
		b.tap.logMessages(DirRecv, b.buf.Bytes())
		b.buf = bytes.Buffer{}
	}
	return n, err
}

// sseTapBody logs each SSE event's data as soon as the blank line that ends
// the event has passed through, which is before the SDK can act on it.
type sseTapBody struct {
	io.ReadCloser
	tap     httpTap
	partial []byte   // an unfinished line
	data    []string // data lines of the current event
}

func (b *sseTapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.feed(p[:n])
	return n, err
}

func (b *sseTapBody) feed(chunk []byte) {
	b.partial = append(b.partial, chunk...)
	for {
		i := bytes.IndexByte(b.partial, '\n')
		if i < 0 {
			return
		}
		line := strings.TrimSuffix(string(b.partial[:i]), "\r")
		b.partial = b.partial[i+1:]
		switch {
		case line == "":
			if len(b.data) > 0 {
				b.tap.logMessages(DirRecv, []byte(strings.Join(b.data, "\n")))
				b.data = b.data[:0]
			}
		case line == "data" || strings.HasPrefix(line, "data:"):
			v := strings.TrimPrefix(strings.TrimPrefix(line, "data"), ":")
			b.data = append(b.data, strings.TrimPrefix(v, " "))
		}
	}
}

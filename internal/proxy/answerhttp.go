package proxy

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/mcpeek/mcpeek/internal/textclean"
)

// --answer over --listen: the same answerer as over stdio, reached the
// way streamable HTTP carries each side's messages. A 2025-11-25
// question arrives as an event of a stream (a POST's answer or the GET
// stream) and is taken out of it (sseFilter), its answer POSTed to the
// server in the stream's session; a 2026-07-28 request the proxy gives
// input for is POSTed by the proxy itself (serveWatched), each retry a
// POST of its own, and the host's POST answered with the final result.

// post POSTs one message of the proxy's to the server, with the headers
// of the host's request it belongs to (its session, its credentials)
// and the -H headers and the stored token, as the host's own go.
func (h *httpLink) post(ctx context.Context, header http.Header, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.up.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = header.Clone()
	for _, k := range []string{"Content-Length", "Connection", "Keep-Alive", "Te", "Transfer-Encoding", "Upgrade", "Accept-Encoding", "Last-Event-Id"} {
		req.Header.Del(k)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	h.opts.upstreamHeaders(req)
	return h.rp.Transport.RoundTrip(req)
}

// eachMessage calls each with every message of a server's answer: a
// JSON body's one, an event stream's each, as they come.
func (h *httpLink) eachMessage(resp *http.Response, each func([]byte)) {
	defer resp.Body.Close()
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	var r io.Reader
	switch media {
	case "text/event-stream":
		r = &sseTap{ReadCloser: resp.Body, max: h.opts.MaxMessageSize, event: each, note: h.opts.Wire.Note}
	case "application/json":
		r = &jsonTap{ReadCloser: resp.Body, max: h.opts.MaxMessageSize, message: each, note: h.opts.Wire.Note}
	default:
		r = resp.Body
	}
	_, _ = io.Copy(io.Discard, r)
}

// replier is how the proxy answers a question that came on the stream
// resp is, and sends the requests of its own that answering it takes: a
// POST in that stream's session.
func (h *httpLink) replier(resp *http.Response) (reply func([]byte), send sendFunc) {
	header := resp.Request.Header.Clone()
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		header.Set("Mcp-Session-Id", sid)
	}
	return func(msg []byte) {
		ans, err := h.post(h.ans.ctx, header, msg)
		if err != nil {
			h.opts.report("POSTing the proxy's answer to the server: " + err.Error())
			return
		}
		if ans.StatusCode >= 300 {
			h.opts.report(fmt.Sprintf("the server refused the proxy's answer: %s", ans.Status))
		}
		h.eachMessage(ans, h.track.fromServer)
	}, h.sender(header)
}

// sender sends the server a request of the proxy's own with header, and
// returns its answer; what else the server's answer holds is logged.
func (h *httpLink) sender(header http.Header) sendFunc {
	return func(ctx context.Context, request []byte) ([]byte, bool) {
		answer, err := h.postFor(ctx, ownHeader(header, request), request, func([]byte) {})
		if err != nil && ctx.Err() == nil {
			h.opts.report("sending the server a request of the proxy's: " + err.Error())
		}
		return answer, answer != nil
	}
}

// ownHeader is header (a host request's) for a request of the proxy's
// own: the 2026-07-28 transport names a request's method and target in
// headers (Mcp-Method, Mcp-Name, Mcp-Param-*), which must be its own.
func ownHeader(header http.Header, request []byte) http.Header {
	if header.Get(methodHeader) == "" {
		return header
	}
	out := header.Clone()
	for k := range out {
		if strings.HasPrefix(http.CanonicalHeaderKey(k), "Mcp-Param-") {
			out.Del(k)
		}
	}
	out.Del(nameHeader)
	var m struct {
		Method string `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	_ = json.Unmarshal(request, &m)
	out.Set(methodHeader, m.Method)
	if m.Method == "resources/read" {
		out.Set(nameHeader, headerValue(m.Params.URI))
	}
	return out
}

// headerValue is s as an Mcp-Name header carries it: as it is when it is
// printable ASCII, else base64 in the =?base64?...?= wrapper.
func headerValue(s string) string {
	const prefix, suffix = "=?base64?", "?="
	plain := !(strings.HasPrefix(s, prefix) && strings.HasSuffix(s, suffix)) && strings.TrimSpace(s) == s
	for _, c := range s {
		plain = plain && c >= 0x20 && c <= 0x7e
	}
	if plain {
		return s
	}
	return prefix + base64.StdEncoding.EncodeToString([]byte(s)) + suffix
}

// postFor POSTs a request of the proxy's and returns the server's
// answer to it (nil: none came); the other messages of the server's
// answer go to others. Every message is logged.
func (h *httpLink) postFor(ctx context.Context, header http.Header, request []byte, others func([]byte)) ([]byte, error) {
	id := string(getPath(request, "id"))
	h.track.fromProxy(request)
	resp, err := h.post(ctx, header, request)
	if err != nil {
		return nil, err
	}
	var answer []byte
	h.eachMessage(resp, func(msg []byte) {
		h.track.fromServer(msg)
		if m, _ := oneHead(msg); m.answers(id) {
			answer = bytes.Clone(msg)
			return
		}
		others(msg)
	})
	if answer == nil {
		return nil, fmt.Errorf("the server answered with HTTP %s and no message", textclean.OneLine(resp.Status))
	}
	return answer, nil
}

// hostAnswer is the answer to one host POST the proxy makes itself: an
// event stream when the server's was one, else one JSON message.
type hostAnswer struct {
	w     http.ResponseWriter
	sse   bool
	wrote bool
}

// start answers with the server's status and headers.
func (o *hostAnswer) start(resp *http.Response) {
	for k, vs := range resp.Header {
		if k != "Content-Length" {
			o.w.Header()[k] = vs
		}
	}
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	o.sse = media == "text/event-stream"
	o.w.WriteHeader(resp.StatusCode)
}

// send sends the host one message: an event, or the JSON body (only
// one: a JSON answer holds one message).
func (o *hostAnswer) send(msg []byte) {
	msg = bytes.TrimRight(msg, "\r\n")
	switch {
	case o.sse:
		_ = writeEvent(o.w, msg)
	case o.wrote:
		return
	default:
		_, _ = o.w.Write(msg)
		flush(o.w)
	}
	o.wrote = true
}

// serveWatched answers a host's POST of a request whose input the proxy
// gives: the server's answer goes to the host unless it asks for input;
// then the proxy runs the rounds, each retry a POST of its own, and the
// host gets the final answer.
func (h *httpLink) serveWatched(w http.ResponseWriter, r *http.Request, body []byte, hostID string, req watchedRequest) {
	ctx := r.Context()
	resp, err := h.post(ctx, r.Header, body)
	if err != nil {
		h.failed(w, r, err)
		return
	}
	out := &hostAnswer{w: w}
	out.start(resp)
	link := roundLink{toHost: out.send, own: h.sender(r.Header)}
	link.send = func(ctx context.Context, retry []byte) ([]byte, bool) {
		return h.postOwn(ctx, r.Header, retry, link, hostID)
	}
	h.eachMessage(resp, func(msg []byte) {
		m, _ := oneHead(msg)
		if m.answers(hostID) && inputRequired(msg) {
			h.track.fromServerHeld(msg)
			h.ans.runRounds(ctx, hostID, req, bytes.Clone(msg), link)
			return
		}
		h.track.fromServer(msg)
		out.send(msg)
	})
}

// postOwn POSTs a retry of the proxy's and returns the server's answer
// to it; what else its stream holds goes to the host.
func (h *httpLink) postOwn(ctx context.Context, header http.Header, retry []byte, link roundLink, hostID string) ([]byte, bool) {
	answer, err := h.postFor(ctx, header, retry, link.toHost)
	if err != nil && ctx.Err() == nil {
		h.ans.failHost(link, hostID, "retrying the request: "+err.Error())
	}
	return answer, answer != nil
}

// sseFilter is a server's event stream as the host gets it when the
// proxy answers for the host: event by event, without those whose
// message the proxy took (take reports it did, and logged it); the
// others are logged (track) and go on as they came. An event over the
// limit goes on unread.
type sseFilter struct {
	io.ReadCloser
	max   int64
	take  func([]byte) bool
	track func([]byte)
	note  func(string)
	buf   []byte
	in    []byte // read, not yet a whole event
	// scanned is how much of in was searched for an event's end without
	// one found: the next search resumes just before it.
	scanned int
	out     []byte // to hand on
	skip    bool   // in an event over the limit: handed on as it comes
	tail    []byte // the last bytes handed on of that event
	err     error
}

func (f *sseFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 && f.err == nil {
		if f.buf == nil {
			f.buf = make([]byte, 32<<10)
		}
		n, err := f.ReadCloser.Read(f.buf)
		f.in = append(f.in, f.buf[:n]...)
		f.cut()
		f.err = err
		if err != nil { // what is left is no whole event: on as it is
			f.out, f.in = append(f.out, f.in...), nil
		}
	}
	if len(f.out) == 0 {
		return 0, f.err
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

// cut moves each whole event read to out, or drops it.
func (f *sseFilter) cut() {
	for {
		if f.skip && !f.skipped() {
			return
		}
		// A separator is at most 3 bytes: one ending past what was
		// searched starts at most 2 before its end.
		from := max(0, f.scanned-3)
		end := eventEnd(f.in[from:])
		if end < 0 {
			f.scanned = len(f.in)
			if int64(len(f.in)) > f.max {
				f.skip, f.scanned = true, 0
				f.note(fmt.Sprintf("proxy: an event of the server's stream is over --max-message-size (%d): forwarded, not logged", f.max))
				continue
			}
			return
		}
		end += from
		event := f.in[:end]
		if data := eventData(event, f.max); data == nil || !f.take(data) {
			if data != nil {
				f.track(data)
			}
			f.out = append(f.out, event...)
		}
		f.in, f.scanned = f.in[end:], 0
	}
}

// skipped hands on what was read of an event over the limit, and
// reports whether it ended (its blank line may come split across reads:
// the last bytes handed on are kept to find it).
func (f *sseFilter) skipped() bool {
	joined := append(append([]byte(nil), f.tail...), f.in...)
	end := eventEnd(joined)
	if end < 0 {
		f.out = append(f.out, f.in...)
		f.tail = joined[max(0, len(joined)-2):]
		f.in = f.in[:0]
		return false
	}
	n := end - len(f.tail)
	f.out = append(f.out, f.in[:n]...)
	f.in = f.in[n:]
	f.skip, f.tail = false, nil
	return true
}

// eventEnd is the index just past the blank line that ends the first
// event of b (-1: none yet).
func eventEnd(b []byte) int {
	end := -1
	for _, sep := range []string{"\n\n", "\n\r\n"} {
		if i := bytes.Index(b, []byte(sep)); i >= 0 && (end < 0 || i+len(sep) < end) {
			end = i + len(sep)
		}
	}
	return end
}

// eventData is one whole event's data (nil: none).
func eventData(event []byte, limit int64) []byte {
	var data []byte
	t := &sseTap{max: limit, event: func(d []byte) { data = d }, note: func(string) {}}
	t.feed(event)
	return data
}

package proxy

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// runHTTP serves the host streamable HTTP on opts.Listen and forwards
// each request to the server's URL as it came (its path and query the
// server's, its headers the host's with the -H headers set), and each
// answer back as it comes, event by event for a stream.
func runHTTP(ctx context.Context, opts Options) error {
	up, err := url.Parse(opts.Target.URL)
	if err != nil {
		return fmt.Errorf("the server's URL: %w", err)
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	h := &httpLink{opts: opts, up: up, track: newTracker(opts.Wire, opts.Record, "http")}
	if opts.Answer != AnswerNever {
		actx, stop := context.WithCancel(ctx)
		defer stop()
		h.ans = newAnswerer(actx, opts, h.track, nil, nil) // answers go by HTTP (answerhttp.go)
	}
	h.rp = &httputil.ReverseProxy{
		Rewrite:        h.rewrite,
		Transport:      mcpclient.HTTPTransport(opts.TLS),
		ModifyResponse: h.tapResponse,
		ErrorHandler:   h.failed,
	}
	return opts.serve(ctx, ln, h, func() {})
}

// httpLink is a streamable-HTTP proxy.
type httpLink struct {
	opts  Options
	up    *url.URL
	rp    *httputil.ReverseProxy
	track *tracker
	// ans answers for the host (--answer; nil: off).
	ans *answerer
}

// loopbackListen reports whether ln listens on a loopback address only.
func loopbackListen(ln net.Listener) bool {
	addr, ok := ln.Addr().(*net.TCPAddr)
	return ok && addr.IP.IsLoopback()
}

// ServeHTTP reads a POSTed message (at most --max-message-size) to log it
// before it goes on; other requests go on as they are.
func (h *httpLink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.Body != nil {
		body, ok := h.opts.hostMessage(w, r)
		if !ok {
			return
		}
		if h.ans != nil {
			body = h.ans.fromHost(body)
			if id, req, ok := h.ans.takeWatched(body); ok {
				h.track.fromHost(body)
				h.serveWatched(w, r, body, id, req)
				return
			}
		}
		h.track.fromHost(body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	h.rp.ServeHTTP(w, r)
}

// refused answers a request for another host or origin made to a proxy
// that listens on loopback only (403, noted in the wire log), and reports
// whether it did.
func (o Options) refused(w http.ResponseWriter, r *http.Request, loopbackOnly bool) bool {
	if !loopbackOnly || record.FromLoopback(r) {
		return false
	}
	o.Wire.Note("proxy: refused a request for " + r.Host + " from origin " + r.Header.Get("Origin"))
	http.Error(w, "mcpeek proxy serves loopback names only", http.StatusForbidden)
	return true
}

// hostMessage reads the message a host POSTed, at most --max-message-size;
// when it cannot, it has answered the request and ok is false.
func (o Options) hostMessage(w http.ResponseWriter, r *http.Request) (body []byte, ok bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, o.MaxMessageSize+1))
	_ = r.Body.Close()
	if err != nil {
		o.Wire.Note("proxy: reading the host's request: " + err.Error())
		http.Error(w, "reading the request: "+err.Error(), http.StatusBadRequest)
		return nil, false
	}
	if int64(len(body)) > o.MaxMessageSize {
		o.report(fmt.Sprintf("a message from the host is over --max-message-size (%d): not forwarded", o.MaxMessageSize))
		http.Error(w, "the message is over the proxy's --max-message-size", http.StatusRequestEntityTooLarge)
		return nil, false
	}
	return body, true
}

// rewrite sends the request to the server's URL, with the -H headers
// and the stored token.
func (h *httpLink) rewrite(pr *httputil.ProxyRequest) {
	u := *h.up
	pr.Out.URL = &u
	pr.Out.Host = ""
	h.opts.upstreamHeaders(pr.Out)
}

// tapResponse has the wire log read the server's answer as it goes by: a
// JSON body whole (up to the limit), an event stream event by event.
func (h *httpLink) tapResponse(resp *http.Response) error {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.Request.Method != http.MethodPost || resp.StatusCode >= 300 {
		h.opts.Wire.Note(fmt.Sprintf("proxy: HTTP %s → %s %s", resp.Request.Method, resp.Status, media))
		h.opts.unauthorized(resp)
	}
	switch {
	case media == "text/event-stream" && h.ans != nil:
		reply, send := h.replier(resp)
		resp.Body = &sseFilter{ReadCloser: resp.Body, max: h.opts.MaxMessageSize, track: h.track.fromServer, note: h.opts.Wire.Note,
			take: func(data []byte) bool { return h.ans.fromServerVia(data, reply, send) }}
	case media == "text/event-stream":
		resp.Body = &sseTap{ReadCloser: resp.Body, max: h.opts.MaxMessageSize, event: h.track.fromServer, note: h.opts.Wire.Note}
	case media == "application/json":
		resp.Body = &jsonTap{ReadCloser: resp.Body, max: h.opts.MaxMessageSize, message: h.track.fromServer, note: h.opts.Wire.Note}
	}
	return nil
}

// failed answers a request the server could not be reached for.
func (h *httpLink) failed(w http.ResponseWriter, r *http.Request, err error) {
	h.opts.report(fmt.Sprintf("HTTP %s to the server: %v", r.Method, err))
	w.WriteHeader(http.StatusBadGateway)
}

// jsonTap logs a JSON body once read whole; one over the limit is
// forwarded but not logged whole (noted).
type jsonTap struct {
	io.ReadCloser
	max     int64
	buf     []byte
	over    bool
	done    bool
	message func([]byte)
	note    func(string)
}

func (t *jsonTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if !t.over {
		if int64(len(t.buf)+n) > t.max {
			t.over, t.buf = true, nil
			t.note(fmt.Sprintf("proxy: the server's answer is over --max-message-size (%d): forwarded, not logged", t.max))
		} else {
			t.buf = append(t.buf, p[:n]...)
		}
	}
	if err == io.EOF && !t.over && !t.done {
		t.done = true
		if len(bytes.TrimSpace(t.buf)) > 0 {
			t.message(t.buf)
		}
		t.buf = nil
	}
	return n, err
}

// sseTap logs each event's data as the stream goes by, each at most max
// bytes (a longer one is noted and not logged).
type sseTap struct {
	io.ReadCloser
	max     int64
	partial []byte // the line being read
	data    []byte // the event's data lines so far
	over    bool
	event   func([]byte)
	note    func(string)
}

func (t *sseTap) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	t.feed(p[:n])
	return n, err
}

func (t *sseTap) feed(b []byte) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			t.partial = t.keep(t.partial, b)
			return
		}
		t.line(bytes.TrimSuffix(t.keep(t.partial, b[:i]), []byte("\r")))
		t.partial = t.partial[:0]
		b = b[i+1:]
	}
}

// keep appends b to buf unless the event is over the limit.
func (t *sseTap) keep(buf, b []byte) []byte {
	if t.over {
		return buf[:0]
	}
	if int64(len(buf)+len(b)+len(t.data)) > t.max {
		t.over = true
		t.note(fmt.Sprintf("proxy: an event of the server's stream is over --max-message-size (%d): forwarded, not logged", t.max))
		return buf[:0]
	}
	return append(buf, b...)
}

func (t *sseTap) line(l []byte) {
	switch {
	case len(l) == 0: // the event's end
		if !t.over && len(t.data) > 0 {
			t.event(t.data)
		}
		t.data, t.over = nil, false
	case t.over:
	case bytes.HasPrefix(l, []byte("data:")):
		d := bytes.TrimPrefix(bytes.TrimPrefix(l, []byte("data:")), []byte(" "))
		if len(t.data) > 0 {
			t.data = append(t.data, '\n')
		}
		t.data = append(t.data, d...)
	}
}

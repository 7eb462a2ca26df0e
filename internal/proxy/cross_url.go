package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Streamable HTTP's headers, as a client sends them.
const (
	sessionHeader  = "Mcp-Session-Id"
	versionHeader  = "Mcp-Protocol-Version"
	methodHeader   = "Mcp-Method"
	nameHeader     = "Mcp-Name"
	metaVersionKey = "io.modelcontextprotocol/protocolVersion"
)

// orderWait is how long a host's message waits for the answer to the
// one before it to begin, so that the server reads them in the order the
// host wrote them, without a request whose answer waits on the host (a
// question on another stream) holding the next message back for ever.
const orderWait = 250 * time.Millisecond

// maxPosts bounds the host's messages being POSTed at once: beyond it
// the proxy reads no more of the host until one is done.
const maxPosts = 256

// urlLink is a stdio host in front of a URL server: each message the
// host writes is POSTed to the URL, and each message of the answers (a
// JSON body or an event stream's events) written to the host as a line.
type urlLink struct {
	opts   Options
	track  *tracker
	client *http.Client
	outMu  sync.Mutex
	// posts holds a slot per POST in flight; wg waits for them.
	posts chan struct{}
	wg    sync.WaitGroup
	// ctx ends the GET stream and the POSTs when the proxy ends.
	ctx context.Context
	// ans answers for the host (--answer; nil: off).
	ans *answerer

	mu      sync.Mutex
	session string // the server's Mcp-Session-Id ("": none yet, or none)
	version string // the revision the initialize answer named
	getting bool   // the GET stream was opened
}

// runStdioToURL proxies a stdio host to a URL server until the host's
// stdin ends or ctx is done; then the server's session is deleted.
func runStdioToURL(ctx context.Context, opts Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	l := &urlLink{opts: opts, track: newTracker(opts.Wire, opts.Record, "http"),
		client: &http.Client{Transport: mcpclient.HTTPTransport(opts.TLS)}, posts: make(chan struct{}, maxPosts), ctx: ctx}
	if opts.Answer != AnswerNever {
		l.ans = newAnswerer(ctx, opts, l.track, l.toServer, l.write)
	}
	opts.say("forwarding stdio to %s", opts.Target)
	done := make(chan error, 1)
	go func() { done <- l.fromHost() }()
	var err error
	select {
	case err = <-done:
		l.finish(cancel)
	case <-ctx.Done():
		err = context.Cause(ctx)
	}
	l.end()
	return err
}

// finish gives the host's requests still in flight the grace a stdio
// server gets once its stdin closes to be answered, then cancels them.
func (l *urlLink) finish(cancel context.CancelFunc) {
	answered := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(answered)
	}()
	t := time.NewTimer(closeGrace)
	defer t.Stop()
	select {
	case <-answered:
	case <-t.C:
		l.opts.Wire.Note("proxy: the host left with requests in flight; cancelling them")
		cancel()
		<-answered
	}
}

// fromHost POSTs the host's messages until its stdin ends.
func (l *urlLink) fromHost() error {
	lr := newLineReader(l.opts.In, l.opts.MaxMessageSize)
	for {
		ln, err := lr.next()
		switch {
		case ln.tooLong:
			l.opts.report(fmt.Sprintf("a message of %d bytes from the host is over --max-message-size (%d): not forwarded", ln.size, l.opts.MaxMessageSize))
			if id := idOf(ln.start); id != "" && id != "null" {
				l.write(errorResponse(id, codeTooLarge, fmt.Sprintf("mcpeek proxy: the request is %d bytes, over the proxy's --max-message-size of %d", ln.size, l.opts.MaxMessageSize)))
			}
		case len(bytes.TrimSpace(ln.data)) > 0:
			data := ln.data
			if l.ans != nil {
				data = l.ans.fromHost(data)
			}
			l.track.fromHost(data)
			l.toServer(data)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				l.opts.Wire.Note("proxy: reading the host: " + err.Error())
			}
			l.opts.Wire.Note("proxy: the host closed the connection; ending the server's session")
			return nil
		}
	}
}

// toServer POSTs one message (its newline, if any, left out).
func (l *urlLink) toServer(data []byte) {
	l.post(bytes.Clone(bytes.TrimRight(data, "\r\n")))
}

// post sends one message in a POST of its own, and waits (at most
// orderWait) for its answer to begin before the next goes.
func (l *urlLink) post(msg []byte) {
	select {
	case l.posts <- struct{}{}:
	case <-l.ctx.Done():
		return
	}
	started := make(chan struct{})
	l.wg.Add(1)
	go func(msg []byte) { // an argument, not a capture: exchange lets go of it
		defer l.wg.Done()
		defer func() { <-l.posts }()
		l.exchange(msg, started)
	}(msg)
	t := time.NewTimer(orderWait)
	defer t.Stop()
	select {
	case <-started:
	case <-t.C:
	case <-l.ctx.Done():
	}
}

// sentBody is a POST's body that lets go of its bytes once read, so that
// a message's memory is not held while its answer streams.
type sentBody struct{ b []byte }

func (r *sentBody) Read(p []byte) (int, error) {
	n := copy(p, r.b)
	if r.b = r.b[n:]; len(r.b) == 0 {
		r.b = nil
		return n, io.EOF
	}
	return n, nil
}

// sent is what the proxy knows of a message it POSTs.
type sent struct {
	ids        []string // the requests' ids
	initialize bool     // it is an initialize request
	notified   bool     // it is notifications/initialized
}

func readSent(msg []byte) sent {
	var s sent
	heads, _, _ := readHeads(msg)
	for _, h := range heads {
		if h.request() {
			s.ids = append(s.ids, string(h.ID))
		}
		s.initialize = s.initialize || (h.Method == "initialize" && h.request())
		s.notified = s.notified || h.Method == "notifications/initialized"
	}
	return s
}

// exchange POSTs msg and writes each message of the answer to the host.
func (l *urlLink) exchange(msg []byte, started chan struct{}) {
	defer func() {
		select {
		case <-started:
		default:
			close(started)
		}
	}()
	s := readSent(msg)
	req, err := http.NewRequestWithContext(l.ctx, http.MethodPost, l.opts.Target.URL, &sentBody{b: msg})
	if err != nil {
		l.failRequests(s.ids, err.Error())
		return
	}
	req.ContentLength = int64(len(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	l.setHeaders(req, msg)
	msg = nil // the body lets go of it once sent, while the answer may stream on
	resp, err := l.client.Do(req)
	if err != nil {
		if l.ctx.Err() == nil {
			l.opts.report(fmt.Sprintf("HTTP POST to the server: %v", err))
			l.failRequests(s.ids, "mcpeek proxy: the server at "+l.opts.Target.String()+" could not be reached: "+err.Error())
		}
		return
	}
	defer resp.Body.Close()
	if id := resp.Header.Get(sessionHeader); id != "" && s.initialize {
		l.mu.Lock()
		l.session = id
		l.mu.Unlock()
	}
	close(started)
	l.answer(resp, s)
	if s.notified && resp.StatusCode < 300 {
		l.openStream()
	}
	// A request the answer did not answer would wait for ever.
	for _, id := range s.ids {
		if l.track.isHostOpen(id) && (l.ans == nil || !l.ans.answering(id)) {
			if l.ans != nil {
				l.ans.unwatch(id)
			}
			l.track.answered(id)
			l.write(errorResponse(id, codeServerGone, "mcpeek proxy: the server at "+l.opts.Target.String()+" ended its answer before it answered the request"))
		}
	}
}

// answer writes the messages of the server's answer to the host: an event
// stream's events, or a JSON body. An HTTP error answers each request
// with an error: the server's own when its body is a JSON-RPC error to
// no id (a stdio host could not pair it), else one naming the status.
func (l *urlLink) answer(resp *http.Response, s sent) {
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	failed := resp.StatusCode >= 300
	if failed {
		l.opts.Wire.Note(fmt.Sprintf("proxy: HTTP POST → %s %s", resp.Status, media))
		l.opts.unauthorized(resp)
	}
	var serverError json.RawMessage
	switch {
	case media == "text/event-stream":
		l.readEvents(resp.Body, s)
	case media == "application/json":
		body, err := io.ReadAll(io.LimitReader(resp.Body, l.opts.MaxMessageSize+1))
		switch {
		case err != nil:
			l.opts.Wire.Note("proxy: reading the server's answer: " + err.Error())
		case int64(len(body)) > l.opts.MaxMessageSize:
			l.opts.report(fmt.Sprintf("the server's answer is over --max-message-size (%d): not forwarded", l.opts.MaxMessageSize))
		case failed && unpaired(body):
			serverError = errorOf(body)
			l.opts.Wire.Note("proxy: the server's HTTP error answers no id: " + textclean.OneLine(string(body)))
		case len(bytes.TrimSpace(body)) > 0:
			l.fromServer(body, s)
		}
	}
	if failed {
		status := "mcpeek proxy: the server answered HTTP " + resp.Status
		if resp.StatusCode == http.StatusNotFound && l.sessionID() != "" {
			status += " (its session has ended)"
		}
		l.failRequestsWith(s.ids, status, serverError)
	}
}

// unpaired reports whether body is a JSON-RPC message with no id.
func unpaired(body []byte) bool {
	heads, batch, ok := readHeads(body)
	return ok && batch == nil && !heads[0].hasID()
}

// errorOf is the error object of a JSON-RPC error response (nil: none).
func errorOf(body []byte) json.RawMessage {
	var m struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &m) != nil || len(m.Error) == 0 || m.Error[0] != '{' {
		return nil
	}
	return m.Error
}

// readEvents writes each event's data to the host as one message, as it
// comes; an event over the limit is skipped and noted.
func (l *urlLink) readEvents(body io.Reader, s sent) {
	for data := range sseEvents(body, l.opts.MaxMessageSize, l.opts.Wire.Note) {
		l.fromServer(data, s)
	}
}

// sseEvents yields the data of each event of an event stream (data lines
// joined by newlines), each at most max bytes.
func sseEvents(body io.Reader, max int64, note func(string)) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		lr := newLineReader(body, max)
		var data []byte
		over := false
		for {
			ln, err := lr.next()
			text := bytes.TrimRight(ln.data, "\r\n")
			switch {
			case ln.tooLong:
				over = true
				note(fmt.Sprintf("proxy: an event of the server's stream is over --max-message-size (%d): not forwarded", max))
			case len(text) == 0 && len(ln.data) > 0: // the event's end
				if !over && len(data) > 0 && !yield(data) {
					return
				}
				data, over = nil, false
			case bytes.HasPrefix(text, []byte("data:")):
				d := bytes.TrimPrefix(bytes.TrimPrefix(text, []byte("data:")), []byte(" "))
				if len(data) > 0 {
					data = append(data, '\n')
				}
				data = append(data, d...)
				if int64(len(data)) > max {
					over, data = true, nil
				}
			}
			if err != nil {
				if !errors.Is(err, io.EOF) {
					note("proxy: reading the server's stream: " + err.Error())
				}
				return
			}
		}
	}
}

// fromServer logs one message (or batch) of the server's and writes it to
// the host as a line: its bytes as sent, unless it holds line breaks
// (JSON may, between tokens), which a line cannot. The answer to the
// host's initialize names the revision the requests after it say.
func (l *urlLink) fromServer(data []byte, s sent) {
	data = bytes.TrimSpace(data)
	if s.initialize {
		l.noteVersion(data)
	}
	line := asLine(data)
	data = line[:len(line)-1]
	if l.ans != nil && l.ans.fromServer(line) {
		return // a question the proxy answers, or the answer to its own request
	}
	l.track.fromServer(data)
	l.write(line)
}

// setHeaders sets what a client of the server's sends with each POST: the
// -H headers, the session, the revision, and in 2026-07-28 the
// request's method and target; the bearer token from mcpeek's store.
func (l *urlLink) setHeaders(req *http.Request, msg []byte) {
	l.opts.upstreamHeaders(req)
	l.mu.Lock()
	session, version := l.session, l.version
	l.mu.Unlock()
	if session != "" {
		req.Header.Set(sessionHeader, session)
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string         `json:"name"`
			URI  string         `json:"uri"`
			Meta map[string]any `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &m)
	if v, ok := m.Params.Meta[metaVersionKey].(string); ok && v != "" {
		version = v
	}
	if version != "" {
		req.Header.Set(versionHeader, version)
	}
	if version >= modernRevision && m.Method != "" {
		req.Header.Set(methodHeader, m.Method)
		switch m.Method {
		case "tools/call", "prompts/get":
			req.Header.Set(nameHeader, m.Params.Name)
		case "resources/read":
			req.Header.Set(nameHeader, m.Params.URI)
		}
	}
}

// noteVersion keeps the revision an initialize answer names, for the
// requests after it.
func (l *urlLink) noteVersion(data []byte) {
	var r struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &r) == nil && r.Result.ProtocolVersion != "" {
		l.mu.Lock()
		l.version = r.Result.ProtocolVersion
		l.mu.Unlock()
	}
}

func (l *urlLink) sessionID() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.session
}

// openStream opens the GET stream the server sends its own messages on,
// once the session is initialized, when the server has a session and
// allows one.
func (l *urlLink) openStream() {
	l.mu.Lock()
	if l.getting || l.session == "" {
		l.mu.Unlock()
		return
	}
	l.getting = true
	l.mu.Unlock()
	go func() {
		req, err := http.NewRequestWithContext(l.ctx, http.MethodGet, l.opts.Target.URL, nil)
		if err != nil {
			return
		}
		req.Header.Set("Accept", "text/event-stream")
		l.setHeaders(req, nil)
		resp, err := l.client.Do(req)
		if err != nil {
			return
		}
		defer resp.Body.Close()
		media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
		if resp.StatusCode != http.StatusOK || media != "text/event-stream" {
			l.opts.Wire.Note(fmt.Sprintf("proxy: the server opens no stream of its own (GET → %s)", resp.Status))
			return
		}
		l.readEvents(resp.Body, sent{})
	}()
}

// end deletes the server's session, as a client that is done does.
func (l *urlLink) end() {
	id := l.sessionID()
	if id == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, l.opts.Target.URL, nil)
	if err != nil {
		return
	}
	l.setHeaders(req, nil)
	if resp, err := l.client.Do(req); err == nil {
		_ = resp.Body.Close()
		l.opts.Wire.Note("proxy: ended the server's session (DELETE → " + resp.Status + ")")
	}
}

// failRequests answers each of the host's requests still waiting with an
// error saying why.
func (l *urlLink) failRequests(ids []string, why string) {
	l.failRequestsWith(ids, why, nil)
}

// failRequestsWith is failRequests with the server's own error object
// when it gave one.
func (l *urlLink) failRequestsWith(ids []string, why string, serverError json.RawMessage) {
	for _, id := range ids {
		if l.ans != nil {
			l.ans.unwatch(id)
		}
		if !l.track.isHostOpen(id) {
			continue
		}
		l.track.answered(id)
		if serverError != nil {
			var compact bytes.Buffer
			if json.Compact(&compact, serverError) == nil {
				l.write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":` + compact.String() + "}\n"))
				continue
			}
		}
		l.write(errorResponse(id, codeServerGone, textclean.OneLine(why)))
	}
}

// write writes one line to the host.
func (l *urlLink) write(data []byte) {
	l.outMu.Lock()
	defer l.outMu.Unlock()
	if _, err := l.opts.Out.Write(data); err != nil {
		l.opts.Wire.Note("proxy: writing to the host: " + err.Error())
	}
}

// answering reports whether the proxy runs rounds of input for the
// host's request id: its answer comes later, from the proxy.
func (a *answerer) answering(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_, ok := a.rounds[id]
	return ok
}

package record

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"
)

// maxSessions bounds the 2025-11-25 sessions open at once. When the
// table is full, an initialize ends the least recently used idle session
// (no request in flight, no stream open): a client that never sends
// DELETE, or a suite that connects once per test, does not use up the
// server.
const maxSessions = 64

// sessionHeader carries a 2025-11-25 session's id.
const sessionHeader = "Mcp-Session-Id"

// httpTimeouts bound how long a client may hold a connection without
// sending what it must: its request's headers, the whole request, and
// the next request on a kept-alive connection. A client that trickles
// bytes, or connects and waits, is let go instead of holding the server.
type httpTimeouts struct{ header, read, idle time.Duration }

var serveTimeouts = httpTimeouts{header: 10 * time.Second, read: 30 * time.Second, idle: time.Minute}

// ServeOn serves the recording as streamable HTTP on the listeners until
// ctx is done. loopbackOnly makes it refuse requests whose Host or Origin
// is not a loopback name (a web page reaching a local port through a name
// it controls). A request must arrive whole within the read timeout; the
// event stream answering it may last as long as it needs (net/http lifts
// the read deadline once a request is read).
func (s *Server) ServeOn(ctx context.Context, listeners []net.Listener, loopbackOnly bool) error {
	return s.serveOn(ctx, listeners, loopbackOnly, serveTimeouts)
}

func (s *Server) serveOn(ctx context.Context, listeners []net.Listener, loopbackOnly bool, t httpTimeouts) error {
	srv := &http.Server{
		Handler:           s.HTTPHandler(loopbackOnly),
		ReadHeaderTimeout: t.header,
		ReadTimeout:       t.read,
		IdleTimeout:       t.idle,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	stop := context.AfterFunc(ctx, func() {
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	})
	defer stop()
	errs := make(chan error, len(listeners))
	for _, ln := range listeners {
		go func() { errs <- srv.Serve(ln) }()
	}
	var first error
	for range listeners {
		if err := <-errs; err != nil && !errors.Is(err, http.ErrServerClosed) && first == nil {
			first = err
			_ = srv.Close() // one listener failing ends the others
		}
	}
	return first
}

// HTTPHandler is the recording served as streamable HTTP, on any path.
// In 2025-11-25 initialize opens a session (Mcp-Session-Id) that later
// requests name, questions travel on the event stream of the POST they
// are asked during and their answers come in POSTs of their own, and a
// GET stream gets the notifications sent outside any request; in
// 2026-07-28 every POST stands alone (no session, no GET stream): its
// request ends when its stream closes, and a notifications/cancelled,
// which no POST can be told to come from the same client as another, is
// accepted and cancels nothing.
func (s *Server) HTTPHandler(loopbackOnly bool) http.Handler {
	return &httpServer{s: s, loopbackOnly: loopbackOnly, sessions: map[string]*session{}, posts: newInflight()}
}

type httpServer struct {
	s            *Server
	loopbackOnly bool
	mu           sync.Mutex
	sessions     map[string]*session
	// clock orders the sessions' uses (the least recently used idle one
	// is ended first); it also numbers 2026-07-28 POSTs.
	clock uint64
	// posts are the 2026-07-28 requests in flight, each by its POST.
	posts *inflight
}

// session is one 2025-11-25 client's: its questions waiting for answers,
// its requests, and its GET stream's notifications.
type session struct {
	// busy counts its POSTs and GET streams open, used is when it was
	// last used (httpServer.clock); both guarded by httpServer.mu.
	busy   int
	used   uint64
	ctx    context.Context
	end    context.CancelFunc
	asks   asker
	reqs   *inflight
	stream chan []byte
}

func newSession() *session {
	ctx, cancel := context.WithCancel(context.Background())
	return &session{ctx: ctx, end: cancel, reqs: newInflight(), stream: make(chan []byte, 64)}
}

func (h *httpServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.loopbackOnly && !FromLoopback(r) {
		http.Error(w, "mcpeek replay serves loopback names only", http.StatusForbidden)
		return
	}
	Streamable{Post: h.post, Get: h.get, Delete: h.delete}.ServeHTTP(w, r)
}

// Streamable is a streamable-HTTP server's three methods, whatever the
// path: a request of another method is refused, naming the three.
type Streamable struct {
	Post, Get, Delete http.HandlerFunc
}

// ServeHTTP hands r to its method's handler.
func (s Streamable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		s.Post(w, r)
	case http.MethodGet:
		s.Get(w, r)
	case http.MethodDelete:
		s.Delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h *httpServer) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.s.maxMessage))
	if err != nil {
		if mbe := (*http.MaxBytesError)(nil); errors.As(err, &mbe) {
			h.s.problem("a message longer than %d bytes was refused", h.s.maxMessage)
			http.Error(w, fmt.Sprintf("a message longer than %d bytes", h.s.maxMessage), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "read: "+err.Error(), http.StatusBadRequest)
		return
	}
	var m wire
	if json.Unmarshal(body, &m) != nil {
		h.s.problem("a message that is not a JSON-RPC object was refused")
		writeJSON(w, http.StatusBadRequest, response(json.RawMessage("null"), nil, json.RawMessage(`{"code":-32700,"message":"parse error: not a JSON-RPC message"}`)))
		return
	}
	if h.s.modern {
		h.standalone(w, r, m)
		return
	}
	sess, status := h.session(w, r, m)
	if sess == nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	defer h.release(sess)
	if !(m.Method != "" && m.hasID()) {
		switch {
		case m.Method == notificationCancelled:
			var c struct {
				ID json.RawMessage `json:"requestId"`
			}
			_ = json.Unmarshal(m.Params, &c)
			sess.reqs.cancel(c.ID)
		case m.Method == "" && m.hasID():
			sess.asks.deliver(m.ID, body)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	ctx, done, ok := sess.reqs.start(r.Context(), m.ID)
	if !ok {
		writeJSON(w, http.StatusOK, response(m.ID, nil, json.RawMessage(`{"code":-32000,"message":"mcpeek replay: too many requests in flight"}`)))
		return
	}
	defer done()
	stop := context.AfterFunc(sess.ctx, func() { sess.reqs.cancel(m.ID) })
	defer stop()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	p := &ssePeer{w: w, sess: sess}
	p.flush() // the headers: a request held open has nothing else to send yet
	h.s.handle(ctx, m, p)
}

// standalone answers a 2026-07-28 POST: a request on its own stream,
// ended when the stream closes; anything else is accepted.
func (h *httpServer) standalone(w http.ResponseWriter, r *http.Request, m wire) {
	if !(m.Method != "" && m.hasID()) {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	h.mu.Lock()
	h.clock++
	key := json.RawMessage(strconv.FormatUint(h.clock, 10))
	h.mu.Unlock()
	ctx, done, ok := h.posts.start(r.Context(), key)
	if !ok {
		writeJSON(w, http.StatusOK, response(m.ID, nil, json.RawMessage(`{"code":-32000,"message":"mcpeek replay: too many requests in flight"}`)))
		return
	}
	defer done()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	p := &ssePeer{w: w}
	p.flush()
	h.s.handle(ctx, m, p)
}

// session finds the session a POST belongs to, opening one for a
// 2025-11-25 initialize (its id in the response's header). nil with the
// status to answer when there is none.
// The session is marked busy until [httpServer.release].
func (h *httpServer) session(w http.ResponseWriter, r *http.Request, m wire) (*session, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m.Method == "initialize" {
		if len(h.sessions) >= maxSessions && !h.evictIdle() {
			return nil, http.StatusServiceUnavailable
		}
		var b [16]byte
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		sess := newSession()
		h.sessions[id] = sess
		w.Header().Set(sessionHeader, id)
		h.acquire(sess)
		return sess, 0
	}
	return h.named(r)
}

// named is the session a request's header names, marked busy. h.mu must
// be held.
func (h *httpServer) named(r *http.Request) (*session, int) {
	id := r.Header.Get(sessionHeader)
	if id == "" {
		return nil, http.StatusBadRequest
	}
	sess := h.sessions[id]
	if sess == nil {
		return nil, http.StatusNotFound
	}
	h.acquire(sess)
	return sess, 0
}

// acquire marks a session busy and used now. h.mu must be held.
func (h *httpServer) acquire(sess *session) {
	h.clock++
	sess.busy++
	sess.used = h.clock
}

// release ends what acquire began.
func (h *httpServer) release(sess *session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.clock++
	sess.busy--
	sess.used = h.clock
}

// evictIdle ends the least recently used session with nothing open;
// false when every session is busy. h.mu must be held.
func (h *httpServer) evictIdle() bool {
	oldest := ""
	for id, sess := range h.sessions {
		if sess.busy == 0 && (oldest == "" || sess.used < h.sessions[oldest].used) {
			oldest = id
		}
	}
	if oldest == "" {
		return false
	}
	h.sessions[oldest].end()
	delete(h.sessions, oldest)
	return true
}

// get is a 2025-11-25 session's stream of what is sent outside any
// request.
func (h *httpServer) get(w http.ResponseWriter, r *http.Request) {
	if h.s.modern {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	h.mu.Lock()
	sess, status := h.named(r)
	h.mu.Unlock()
	if sess == nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	defer h.release(sess)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	p := &ssePeer{w: w}
	p.flush()
	for {
		select {
		case msg := <-sess.stream:
			if p.send(msg) != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-sess.ctx.Done():
			return
		}
	}
}

func (h *httpServer) delete(w http.ResponseWriter, r *http.Request) {
	if h.s.modern {
		w.Header().Set("Allow", "POST")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	id := r.Header.Get(sessionHeader)
	h.mu.Lock()
	sess := h.sessions[id]
	delete(h.sessions, id)
	h.mu.Unlock()
	if sess == nil {
		http.Error(w, http.StatusText(http.StatusNotFound), http.StatusNotFound)
		return
	}
	sess.end()
	w.WriteHeader(http.StatusNoContent)
}

// ssePeer writes a request's traffic as server-sent events on its POST's
// response; the session, when there is one, takes the answers to its
// questions and what belongs to no request.
type ssePeer struct {
	w    http.ResponseWriter
	sess *session
}

func (p *ssePeer) send(msg []byte) error {
	if _, err := fmt.Fprintf(p.w, "event: message\ndata: %s\n\n", msg); err != nil {
		return err
	}
	p.flush()
	return nil
}

func (p *ssePeer) flush() {
	if f, ok := p.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (p *ssePeer) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return p.sess.asks.ask(ctx, p.send, method, params)
}

func (p *ssePeer) outside(msg []byte) {
	if p.sess == nil {
		return
	}
	select {
	case p.sess.stream <- msg:
	default: // no GET stream drains it: dropped, as a server without one would
	}
}

func writeJSON(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(msg)
}

// FromLoopback reports whether r's Host and Origin (when it has one) name
// this machine: a loopback server that requires it cannot be reached by a
// page of another site through DNS rebinding.
func FromLoopback(r *http.Request) bool {
	return loopbackHost(r.Host) && loopbackOrigin(r.Header.Get("Origin"))
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil && len(host) > 2 && host[0] == '[' {
		ip = net.ParseIP(host[1 : len(host)-1])
	}
	return ip != nil && ip.IsLoopback()
}

// loopbackOrigin reports whether an Origin header (when there is one)
// names this machine.
func loopbackOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && loopbackHost(u.Host)
}

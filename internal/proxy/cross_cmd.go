package proxy

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/record"
)

// Bounds of a --listen proxy in front of a command: the sessions (each a
// server process) at once, and the server's own messages kept for a GET
// stream not open yet (their count, and their bytes but the newest's).
const (
	maxSessions  = 64
	maxPending   = 1024
	pendingBytes = 1 << 20
)

// cmdLink is a streamable-HTTP host in front of a server command. Each
// session the host initializes is a server process of its own (a stdio
// server serves one client), under a session id of the proxy's; requests
// that name no session (2026-07-28 has none) share one process.
type cmdLink struct {
	opts Options

	mu       sync.Mutex
	sessions map[string]*cmdSession
	shared   *cmdSession
	recorded bool // a session's tracker writes the recording (the first's)
	closed   bool
}

// runHTTPToCommand serves the host streamable HTTP on opts.Listen, each
// POSTed message written to a server process's stdin and its answers
// returned as an event stream.
func runHTTPToCommand(ctx context.Context, opts Options) error {
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return fmt.Errorf("--listen: %w", err)
	}
	c := &cmdLink{opts: opts, sessions: map[string]*cmdSession{}}
	err = opts.serve(ctx, ln, c, func() { c.stopAll(0) })
	if err != nil {
		c.stopAll(closeGrace)
	}
	return err
}

// serve serves the host h on ln until ctx is done, when stop runs and
// the server shuts down (what is open given 2 s), or serving fails. On a
// loopback address it refuses requests whose Host or Origin is not a
// loopback name (refused); elsewhere it warns that anyone reaching the
// address reaches the server.
func (o Options) serve(ctx context.Context, ln net.Listener, h http.Handler, stop func()) error {
	loopbackOnly := loopbackListen(ln)
	if !loopbackOnly {
		o.say("warning: listening on %s: whoever reaches it reaches the server through the proxy", ln.Addr())
	}
	guarded := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !o.refused(w, r, loopbackOnly) {
			h.ServeHTTP(w, r)
		}
	})
	srv := &http.Server{Handler: guarded, ReadHeaderTimeout: 10 * time.Second}
	if o.Listening != nil {
		o.Listening(ln.Addr().String())
	}
	o.say("serving streamable HTTP on http://%s/ for %s", ln.Addr(), o.Target)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
		case <-done:
			return
		}
		stop()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ServeHTTP is streamable HTTP's three methods on any path.
func (c *cmdLink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	record.Streamable{Post: c.post, Get: c.get, Delete: c.delete}.ServeHTTP(w, r)
}

// post writes the host's message to the server; an answer is due for
// each request in it, which comes back on an event stream (or as JSON,
// for a host that takes no stream).
func (c *cmdLink) post(w http.ResponseWriter, r *http.Request) {
	body, ok := c.opts.hostMessage(w, r)
	if !ok {
		return
	}
	s := readSent(body)
	sess, status := c.session(r, s.initialize)
	if sess == nil {
		http.Error(w, http.StatusText(status), status)
		return
	}
	if sess.id != "" {
		w.Header().Set(sessionHeader, sess.id)
	}
	stream := strings.Contains(r.Header.Get("Accept"), "text/event-stream")
	var rep *reply
	if len(s.ids) > 0 {
		rep = sess.await(s.ids, stream)
		defer sess.drop(rep)
	}
	if !sess.send(body) {
		c.answerGone(w, r, sess, rep, stream)
		return
	}
	if rep == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if stream {
		c.streamReply(w, r, sess, rep)
		return
	}
	c.jsonReply(w, r, sess, rep)
}

// session finds the session a POST is for: a new one for an initialize,
// the one its header names, or the shared one; nil and the HTTP status
// when there is none.
func (c *cmdLink) session(r *http.Request, initialize bool) (*cmdSession, int) {
	id := r.Header.Get(sessionHeader)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, http.StatusServiceUnavailable
	}
	switch {
	case initialize || (id == "" && c.shared == nil):
		if len(c.sessions) >= maxSessions && !c.evictIdle() {
			c.opts.report(fmt.Sprintf("%d sessions at once, none idle: refused another", maxSessions))
			return nil, http.StatusServiceUnavailable
		}
		sess, err := c.start(initialize)
		if err != nil {
			c.opts.report(err.Error())
			return nil, http.StatusBadGateway
		}
		return sess, 0
	case id == "":
		c.shared.touch()
		return c.shared, 0
	}
	if sess := c.sessions[id]; sess != nil {
		sess.touch()
		return sess, 0
	}
	return nil, http.StatusNotFound
}

// evictIdle ends the session used longest ago that waits for nothing and
// has no stream open (hosts often leave without DELETE), to make room for
// another; false when none is idle. c.mu is held.
func (c *cmdLink) evictIdle() bool {
	var oldest *cmdSession
	for _, s := range c.sessions {
		if s.idle() && (oldest == nil || s.used().Before(oldest.used())) {
			oldest = s
		}
	}
	if oldest == nil {
		return false
	}
	delete(c.sessions, oldest.id)
	if c.shared == oldest {
		c.shared = nil
	}
	oldest.proc.leave(fmt.Sprintf("%d sessions at once: the one idle longest is ended", maxSessions), closeGrace)
	return true
}

// start starts a server process for a session (with an id of its own
// when initialize opened it; else the shared one). c.mu is held.
func (c *cmdLink) start(initialize bool) (*cmdSession, error) {
	var rec = c.opts.Record
	if c.recorded {
		rec = nil
	}
	sess := &cmdSession{opts: c.opts, track: newTracker(c.opts.Wire, rec, "stdio"), waiting: map[string]*reply{}, lastUse: time.Now()}
	sess.proc = &stdioLink{opts: c.opts, exited: make(chan struct{}), hostGone: make(chan struct{})}
	out, err := sess.proc.start()
	if err != nil {
		return nil, err
	}
	c.recorded = true // a session whose server never started recorded nothing
	if c.opts.Answer != AnswerNever {
		ctx, stop := context.WithCancel(context.Background())
		go func() { <-sess.proc.exited; stop() }()
		sess.ans = newAnswerer(ctx, c.opts, sess.track, sess.proc.toServer,
			func(msg []byte) { sess.route(bytes.TrimRight(msg, "\r\n")) })
	}
	if initialize {
		sess.id = newSessionID()
	}
	c.sessions[sess.id] = sess
	if !initialize {
		c.shared = sess
	}
	go func() {
		_ = sess.proc.cmd.Wait()
		close(sess.proc.exited)
	}()
	go func() {
		sess.fromServer(out)
		c.ended(sess)
	}()
	return sess, nil
}

// ended forgets a session whose server ended: the host's requests in
// flight are answered with an error naming how.
func (c *cmdLink) ended(sess *cmdSession) {
	select {
	case <-sess.proc.exited:
	case <-time.After(closeGrace):
		sess.proc.stop(0)
		<-sess.proc.exited
	}
	status := "its stdout closed"
	if st := sess.proc.cmd.ProcessState; st != nil {
		status = st.String()
	}
	gone := &ExitError{Status: status, LastStderr: c.opts.Wire.LastStderr(), Name: c.opts.Name}
	c.mu.Lock()
	if c.sessions[sess.id] == sess {
		delete(c.sessions, sess.id)
	}
	if c.shared == sess {
		c.shared = nil
	}
	closed := c.closed
	c.mu.Unlock()
	select {
	case <-sess.proc.hostGone: // the host deleted the session, or the proxy ends
	default:
		if !closed {
			c.opts.report(gone.Error())
		}
	}
	sess.end(gone)
}

// answerGone answers a POST whose session's server has ended: a 404
// (the session is gone) when it asked nothing, else an error to each
// request, on the reply it asked for.
func (c *cmdLink) answerGone(w http.ResponseWriter, r *http.Request, sess *cmdSession, rep *reply, stream bool) {
	if rep == nil {
		http.Error(w, "the server has ended", http.StatusNotFound)
		return
	}
	go func() {
		for _, e := range sess.goneErrors(rep) {
			rep.deliver(bytes.TrimSuffix(e, []byte("\n")))
		}
		rep.finish()
	}()
	if stream {
		c.streamReply(w, r, sess, rep)
		return
	}
	c.jsonReply(w, r, sess, rep)
}

// streamReply writes the messages due to a POST as an event stream until
// each of its requests is answered.
func (c *cmdLink) streamReply(w http.ResponseWriter, r *http.Request, sess *cmdSession, rep *reply, first ...[]byte) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush(w)
	for _, msg := range first {
		if writeEvent(w, msg) != nil {
			return
		}
	}
	for {
		select {
		case msg, ok := <-rep.ch:
			if !ok {
				return
			}
			if writeEvent(w, msg) != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

// jsonReply writes a POST's answers as one JSON body (an array for a
// batch), once all are there; what else the server sends meanwhile goes
// to the GET stream.
func (c *cmdLink) jsonReply(w http.ResponseWriter, r *http.Request, sess *cmdSession, rep *reply) {
	var msgs [][]byte
	for {
		select {
		case msg, ok := <-rep.ch:
			if ok {
				msgs = append(msgs, msg)
				continue
			}
			w.Header().Set("Content-Type", "application/json")
			if len(msgs) == 1 && !rep.batch {
				_, _ = w.Write(msgs[0])
				return
			}
			_, _ = w.Write(append(append([]byte("["), bytes.Join(msgs, []byte(","))...), ']'))
			return
		case <-r.Context().Done():
			return
		}
	}
}

// get opens the stream the server's own messages go on when no POST's
// stream is open.
func (c *cmdLink) get(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	if id == "" || !strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "a stream of the server's own messages belongs to a session", http.StatusMethodNotAllowed)
		return
	}
	c.mu.Lock()
	sess := c.sessions[id]
	c.mu.Unlock()
	if sess == nil {
		http.Error(w, http.StatusText(http.StatusNotFound), http.StatusNotFound)
		return
	}
	rep, kept, ok := sess.listen()
	if !ok {
		http.Error(w, "the session's stream is open already", http.StatusConflict)
		return
	}
	defer sess.drop(rep)
	w.Header().Set(sessionHeader, id)
	c.streamReply(w, r, sess, rep, kept...)
}

// delete ends a session: its server is stopped.
func (c *cmdLink) delete(w http.ResponseWriter, r *http.Request) {
	id := r.Header.Get(sessionHeader)
	if id == "" { // the shared session is not the host's to end
		http.Error(w, http.StatusText(http.StatusNotFound), http.StatusNotFound)
		return
	}
	c.mu.Lock()
	sess := c.sessions[id]
	if sess != nil {
		delete(c.sessions, id)
	}
	c.mu.Unlock()
	if sess == nil {
		http.Error(w, http.StatusText(http.StatusNotFound), http.StatusNotFound)
		return
	}
	sess.proc.leave("the host ended its session", closeGrace)
	w.WriteHeader(http.StatusOK)
}

// stopAll stops every session's server: the proxy is ending.
func (c *cmdLink) stopAll(grace time.Duration) {
	c.mu.Lock()
	c.closed = true
	all := slices.Collect(maps.Values(c.sessions))
	c.mu.Unlock()
	for _, s := range all {
		s.proc.leave("the proxy is ending", grace)
	}
	for _, s := range all {
		<-s.proc.exited
	}
}

// newSessionID is a session id of the proxy's own: 128 random bits.
func newSessionID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func flush(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// writeEvent writes one message as an event of the stream, and flushes.
func writeEvent(w http.ResponseWriter, msg []byte) error {
	if _, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg); err != nil {
		return err
	}
	flush(w)
	return nil
}

// cmdSession is one session's server process and the streams waiting
// for its messages.
type cmdSession struct {
	id    string
	opts  Options
	proc  *stdioLink
	track *tracker
	// ans answers for the host (--answer; nil: off).
	ans *answerer

	mu      sync.Mutex
	waiting map[string]*reply // a request's id → the POST waiting for its answer
	streams []*reply          // POST streams open, oldest first
	getting *reply            // the GET stream, when open
	lastUse time.Time         // the host's last request of the session
	pending [][]byte          // the server's own messages with no stream to go on
	kept    int64             // their bytes
	gone    error             // the server ended
}

// reply is what one POST (or the GET stream) waits for: the messages to
// write, ch closed once each of its requests is answered.
type reply struct {
	ch    chan []byte
	open  map[string]bool
	batch bool
	done  chan struct{} // closed once the handler is gone
	once  sync.Once
	// mu keeps a message from being handed over as ch closes (the
	// server's messages and the proxy's own answers come from two
	// goroutines).
	mu     sync.Mutex
	closed bool
}

// finish closes ch: nothing more is due.
func (r *reply) finish() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.closed {
		r.closed = true
		close(r.ch)
	}
}

// touch notes that the host used the session now.
func (s *cmdSession) touch() {
	s.mu.Lock()
	s.lastUse = time.Now()
	s.mu.Unlock()
}

func (s *cmdSession) used() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUse
}

// idle reports whether the session waits for no answer and has no
// stream open.
func (s *cmdSession) idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiting) == 0 && len(s.streams) == 0 && s.getting == nil
}

// await registers a POST's requests before they reach the server.
func (s *cmdSession) await(ids []string, stream bool) *reply {
	rep := &reply{ch: make(chan []byte, 16), open: map[string]bool{}, batch: len(ids) > 1, done: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		rep.open[id] = true
		s.waiting[id] = rep
	}
	if stream {
		s.streams = append(s.streams, rep)
	}
	return rep
}

// listen registers the GET stream, and returns the server's messages
// kept while none was open, to be written first: what the server sends
// from now on waits on the stream's channel behind them, in order. False
// when a stream is open.
func (s *cmdSession) listen() (rep *reply, kept [][]byte, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.getting != nil || s.gone != nil {
		return nil, nil, false
	}
	rep = &reply{ch: make(chan []byte, 16), done: make(chan struct{})}
	s.getting = rep
	kept = s.pending
	s.pending, s.kept = nil, 0
	return rep, kept, true
}

// drop forgets a handler that is gone.
func (s *cmdSession) drop(rep *reply) {
	rep.once.Do(func() { close(rep.done) })
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.waiting {
		if r == rep {
			delete(s.waiting, id)
		}
	}
	if i := indexOf(s.streams, rep); i >= 0 {
		s.streams = append(s.streams[:i], s.streams[i+1:]...)
	}
	if s.getting == rep {
		s.getting = nil
	}
}

func indexOf(reps []*reply, rep *reply) int {
	for i, r := range reps {
		if r == rep {
			return i
		}
	}
	return -1
}

// deliver hands a message to the handler, unless it is gone.
func (r *reply) deliver(msg []byte) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	select {
	case r.ch <- msg:
		return true
	case <-r.done:
		return false
	}
}

// send writes one of the host's messages to the server's stdin as a line:
// its bytes as POSTed, unless they hold line breaks, which a line cannot.
func (s *cmdSession) send(body []byte) bool {
	s.mu.Lock()
	gone := s.gone
	s.mu.Unlock()
	if gone != nil {
		return false
	}
	line := asLine(body)
	if s.ans != nil {
		line = s.ans.fromHost(line)
	}
	s.track.fromHost(line)
	s.proc.toServer(line)
	return true
}

// fromServer routes the server's messages until its stdout ends: an
// answer to the POST that asked, anything else to an open POST stream,
// the GET stream, or kept (bounded) until one opens.
func (s *cmdSession) fromServer(r *os.File) {
	defer r.Close()
	lr := newLineReader(r, s.opts.MaxMessageSize)
	for {
		ln, err := lr.next()
		switch {
		case ln.tooLong:
			s.opts.report(fmt.Sprintf("a message of %d bytes from the server is over --max-message-size (%d): not forwarded", ln.size, s.opts.MaxMessageSize))
			if id := idOf(ln.start); id != "" && id != "null" {
				s.route([]byte(strings.TrimSuffix(string(errorResponse(id, codeTooLarge, fmt.Sprintf("mcpeek proxy: the server's answer is %d bytes, over the proxy's --max-message-size of %d", ln.size, s.opts.MaxMessageSize))), "\n")))
			}
		case len(bytes.TrimSpace(ln.data)) > 0 && s.ans != nil && s.ans.fromServer(ln.data):
			// a question the proxy answers, or the answer to its own request
		case len(bytes.TrimSpace(ln.data)) > 0:
			msg := bytes.Clone(bytes.TrimRight(ln.data, "\r\n"))
			s.track.fromServer(msg)
			s.route(msg)
		}
		if err != nil {
			return
		}
	}
}

// route hands one server message to the handler it is for.
func (s *cmdSession) route(msg []byte) {
	heads, _, ok := readHeads(msg)
	var h head
	if ok && len(heads) == 1 {
		h = heads[0]
	}
	s.mu.Lock()
	var to *reply
	last := false
	if h.response() && h.hasID() {
		if to = s.waiting[string(h.ID)]; to != nil {
			delete(s.waiting, string(h.ID))
			delete(to.open, string(h.ID))
			if last = len(to.open) == 0; last {
				// Done: the server's own messages go elsewhere now.
				if i := indexOf(s.streams, to); i >= 0 {
					s.streams = append(s.streams[:i], s.streams[i+1:]...)
				}
			}
		}
	}
	if to == nil {
		to = s.ownStream()
	}
	if to == nil {
		s.keep(msg)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	to.deliver(msg)
	if last {
		to.finish()
	}
}

// keep keeps a message of the server's own until the host opens a stream
// for it: at most maxPending of them and pendingBytes of bytes (the
// newest whatever its size), the oldest dropped (noted) beyond. s.mu is
// held.
func (s *cmdSession) keep(msg []byte) {
	s.pending = append(s.pending, msg)
	s.kept += int64(len(msg))
	for len(s.pending) > maxPending || (s.kept > pendingBytes && len(s.pending) > 1) {
		s.kept -= int64(len(s.pending[0]))
		s.pending[0] = nil
		s.pending = s.pending[1:]
		s.opts.Wire.Note("proxy: a message of the server's own waited for the host's stream beyond the proxy's bound; dropped")
	}
}

// ownStream is where the server's own messages go: the newest POST
// stream open, else the GET stream (nil: none). s.mu is held.
func (s *cmdSession) ownStream() *reply {
	if n := len(s.streams); n > 0 {
		return s.streams[n-1]
	}
	return s.getting
}

// end answers every request in flight with an error naming how the
// server ended, and closes the streams.
func (s *cmdSession) end(gone *ExitError) {
	s.mu.Lock()
	s.gone = gone
	reps := map[*reply]bool{}
	for _, r := range s.waiting {
		reps[r] = true
	}
	if s.getting != nil {
		reps[s.getting] = true
	}
	s.mu.Unlock()
	for r := range reps {
		for _, e := range s.goneErrors(r) {
			r.deliver(bytes.TrimSuffix(e, []byte("\n")))
		}
		r.finish()
	}
}

// goneErrors are the errors answering rep's open requests once the
// server has ended.
func (s *cmdSession) goneErrors(rep *reply) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out [][]byte
	for id := range rep.open {
		delete(rep.open, id)
		delete(s.waiting, id)
		msg := "mcpeek proxy: the server ended"
		if s.gone != nil {
			msg = "mcpeek proxy: " + s.gone.Error()
		}
		out = append(out, errorResponse(id, codeServerGone, msg))
	}
	return out
}

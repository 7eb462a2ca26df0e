package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// ErrNoWatcher is what [Hub.Ask] returns when no watcher is attached:
// there is nobody to ask.
var ErrNoWatcher = errors.New("no mcpeek watch is attached")

// queueLen and queueBytes bound how far behind a watcher may be, in
// lines and in bytes, before new entries are dropped for it (and it is
// told how many).
const (
	queueLen   = 4096
	queueBytes = 16 << 20
)

// Options configure a [Hub].
type Options struct {
	// Dir is the socket directory; "" is [Dir]. It is checked as Dir's is.
	Dir string
	// Info describes the proxy; its PID, Started and Socket are filled in.
	Info Info
	// Wire is the log the watchers are sent.
	Wire *mcpclient.WireLog
	// Check decides whether a peer may attach; nil checks that it runs
	// as the current user.
	Check func(net.Conn) error
	// Refused is told of each peer refused (nil: nobody).
	Refused func(err error)
}

// Hub publishes a proxy's wire log to the watchers that attach to its
// socket, and asks them its questions ([Hub.Ask]). With no watcher
// attached it does nothing but wait for one: the log is not tapped.
type Hub struct {
	opts Options
	ln   net.Listener
	info string // the info file

	mu       sync.Mutex
	watchers []*peer
	closed   bool
	nextID   atomic.Int64
	done     chan struct{}
	wg       sync.WaitGroup
}

// Start listens on the proxy's socket, <pid>.sock in the socket
// directory (0600), and writes its info beside it (<pid>.json, 0600),
// after removing those of proxies no longer running.
func Start(opts Options) (*Hub, error) {
	dir := opts.Dir
	var err error
	if dir == "" {
		if dir, err = Dir(); err != nil {
			return nil, err
		}
	} else if err := CheckDir(dir); err != nil {
		return nil, err
	}
	if opts.Check == nil {
		opts.Check = checkPeer
	}
	removeStale(dir)
	pid := os.Getpid()
	sock := filepath.Join(dir, strconv.Itoa(pid)+".sock")
	_ = os.Remove(sock) // a dead process's of the same pid
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("watch socket: %w", err)
	}
	if err := os.Chmod(sock, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("watch socket: %w", err)
	}
	opts.Info.PID, opts.Info.Socket = pid, sock
	if opts.Info.Started.IsZero() {
		opts.Info.Started = time.Now()
	}
	h := &Hub{opts: opts, ln: ln, info: filepath.Join(dir, strconv.Itoa(pid)+".json"), done: make(chan struct{})}
	b, _ := json.Marshal(opts.Info)
	if err := safefile.Atomic(h.info, b, 0o600); err != nil {
		_ = ln.Close()
		return nil, fmt.Errorf("watch socket: %w", err)
	}
	h.wg.Add(1)
	go h.accept()
	return h, nil
}

// Info is the proxy as watchers see it.
func (h *Hub) Info() Info { return h.opts.Info }

// Close stops listening, removes the socket and its info, and detaches
// every watcher: a question asked ends with an error. A nil hub (none
// could start) has nothing to close.
func (h *Hub) Close() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	close(h.done)
	ws := slices.Clone(h.watchers)
	h.mu.Unlock()
	err := h.ln.Close()
	_ = os.Remove(h.info)
	for _, w := range ws {
		w.close()
	}
	h.wg.Wait()
	return err
}

func (h *Hub) accept() {
	defer h.wg.Done()
	for {
		c, err := h.ln.Accept()
		if err != nil {
			return
		}
		if err := h.opts.Check(c); err != nil {
			if h.opts.Refused != nil {
				h.opts.Refused(err)
			}
			_ = c.Close()
			continue
		}
		h.attach(c)
	}
}

// attach sends the watcher at c the hello and the log so far, then each
// new entry, until it detaches.
func (h *Hub) attach(c net.Conn) {
	w := &peer{conn: c, queue: make(chan []byte, queueLen), ctl: make(chan []byte, 16), gone: make(chan struct{}), asks: map[int64]chan message{}}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		_ = c.Close()
		return
	}
	info := h.opts.Info
	w.ctl <- message{Type: typeHello, Info: &info}.line() // first, before any question
	h.watchers = append(h.watchers, w)
	h.mu.Unlock()
	handshake := h.opts.Wire.Handshake()
	ring, stop := h.opts.Wire.Follow(w)
	ring = withHandshake(ring, handshake)
	if !w.tapped(stop) {
		stop()
	}
	h.wg.Add(2)
	go func() { defer h.wg.Done(); w.write(ring) }()
	go func() {
		defer h.wg.Done()
		w.read()
		h.detach(w)
	}()
}

// withHandshake is the ring a watcher is sent: the handshake's messages
// the ring no longer holds (the oldest entries go once it is full), then
// the ring. The watcher needs the handshake to tell which revision the
// traffic speaks, as a test saved from it says.
func withHandshake(ring, handshake []mcpclient.WireEntry) []mcpclient.WireEntry {
	var gone []mcpclient.WireEntry
	for _, m := range handshake {
		held := slices.ContainsFunc(ring, func(e mcpclient.WireEntry) bool {
			return e.Time.Equal(m.Time) && e.Dir == m.Dir && e.Method == m.Method && string(e.ID) == string(m.ID)
		})
		if !held {
			gone = append(gone, m)
		}
	}
	if len(gone) == 0 {
		return ring
	}
	return append(gone, ring...)
}

func (h *Hub) detach(w *peer) {
	w.close()
	h.mu.Lock()
	defer h.mu.Unlock()
	h.watchers = slices.DeleteFunc(h.watchers, func(x *peer) bool { return x == w })
}

// Watchers is how many watchers are attached.
func (h *Hub) Watchers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.watchers)
}

// Ask asks the watcher attached last an elicitation's question (params are
// elicitation/create's) and returns its ElicitResult. It returns
// [ErrNoWatcher] at once when none is attached, an error as soon as the
// watcher detaches before answering, and ctx's error when ctx ends first
// (the watcher is told the question is withdrawn). A nil hub has no
// watcher.
func (h *Hub) Ask(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	if h == nil {
		return nil, ErrNoWatcher
	}
	h.mu.Lock()
	var w *peer
	if n := len(h.watchers); n > 0 && !h.closed {
		w = h.watchers[n-1]
	}
	h.mu.Unlock()
	if w == nil {
		return nil, ErrNoWatcher
	}
	if !json.Valid(params) {
		return nil, errors.New("ask: the params are not JSON")
	}
	if len(params) > MaxLine-1024 {
		return nil, fmt.Errorf("ask: a question of %d bytes is longer than a watcher takes (%d)", len(params), MaxLine-1024)
	}
	id := h.nextID.Add(1)
	answer := make(chan message, 1)
	if !w.pend(id, answer) {
		return nil, errors.New("the watcher detached before it was asked")
	}
	defer w.unpend(id)
	select {
	case w.ctl <- message{Type: typeAsk, ID: id, Params: params}.line():
	case <-w.gone:
		return nil, errors.New("the watcher detached before it was asked")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case m := <-answer:
		if m.Error != "" {
			return nil, fmt.Errorf("the watcher: %s", m.Error)
		}
		if !json.Valid(m.Result) {
			return nil, errors.New("the watcher answered no result")
		}
		return m.Result, nil
	case <-w.gone:
		return nil, errors.New("the watcher detached before it answered")
	case <-ctx.Done():
		select {
		case w.ctl <- message{Type: typeCancel, ID: id}.line():
		default:
		}
		return nil, ctx.Err()
	}
}

// peer is one attached watcher.
type peer struct {
	conn    net.Conn
	queue   chan []byte // entries, dropped when full
	ctl     chan []byte // hello, asks and cancels, never dropped
	dropped atomic.Int64
	queued  atomic.Int64 // the bytes in queue
	stop    func()       // stops the log's tap
	gone    chan struct{}
	once    sync.Once

	mu   sync.Mutex
	asks map[int64]chan message
}

// Write takes one entry's line from the wire log's tap, under the log's
// lock: it never blocks, and drops the entry when the watcher is too far
// behind.
func (w *peer) Write(b []byte) (int, error) {
	if w.queued.Load()+int64(min(len(b), maxEntry)) > queueBytes {
		w.dropped.Add(1)
		return len(b), nil
	}
	line := entryLine(b)
	select {
	case w.queue <- line:
		w.queued.Add(int64(len(line)))
	default:
		w.dropped.Add(1)
	}
	return len(b), nil
}

// write sends the ring, then what comes, until the watcher is gone.
func (w *peer) write(ring []mcpclient.WireEntry) {
	send := func(b []byte) bool {
		_, err := w.conn.Write(b)
		if err != nil {
			w.close()
		}
		return err == nil
	}
	if !send(<-w.ctl) { // the hello
		return
	}
	for _, e := range ring {
		line, err := e.Line()
		if err == nil && !send(entryLine(line)) {
			return
		}
	}
	if !send(message{Type: typeLive}.line()) {
		return
	}
	for {
		var b []byte
		select { // questions first
		case b = <-w.ctl:
		default:
			select {
			case b = <-w.ctl:
			case b = <-w.queue:
				w.queued.Add(-int64(len(b)))
			case <-w.gone:
				return
			}
		}
		if !send(b) {
			return
		}
		if n := w.dropped.Swap(0); n > 0 && !send(message{Type: typeDropped, Dropped: int(n)}.line()) {
			return
		}
	}
}

// read takes the watcher's answers until it detaches.
func (w *peer) read() {
	r := newReader(w.conn)
	for {
		m, err := r.next()
		if err != nil {
			return
		}
		if m.Type != typeAnswer {
			continue
		}
		w.mu.Lock()
		ch := w.asks[m.ID]
		w.mu.Unlock()
		if ch != nil {
			select {
			case ch <- m:
			default:
			}
		}
	}
}

// tapped keeps stop, which stops the log's tap, unless the watcher is
// gone already.
func (w *peer) tapped(stop func()) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.goneLocked() {
		return false
	}
	w.stop = stop
	return true
}

// goneLocked reports whether the watcher is gone; w.mu must be held.
func (w *peer) goneLocked() bool {
	select {
	case <-w.gone:
		return true
	default:
		return false
	}
}

func (w *peer) pend(id int64, ch chan message) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.goneLocked() {
		return false
	}
	w.asks[id] = ch
	return true
}

func (w *peer) unpend(id int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.asks, id)
}

// close detaches the watcher: its tap stops, its connection closes, and
// the questions asked of it end.
func (w *peer) close() {
	w.once.Do(func() {
		w.mu.Lock()
		close(w.gone)
		stop := w.stop
		w.mu.Unlock()
		if stop != nil {
			stop()
		}
		_ = w.conn.Close()
	})
}

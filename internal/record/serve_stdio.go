package record

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// maxInFlight bounds the requests a client may have open at once; more
// are refused with an error.
const maxInFlight = 64

// ServeStdio serves the recording on one stdio connection: JSON-RPC
// messages, one a line, read from in and written to out. It returns when
// in ends (the client closed it) or ctx is done, once every request it
// was answering has stopped.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c := &stdioConn{out: out}
	reqs := newInflight()
	defer reqs.wait()
	defer reqs.cancelAll()
	lines := make(chan lineRead)
	go readLines(ctx, in, s.maxMessage, lines)
	for {
		var l lineRead
		select {
		case <-ctx.Done():
			return nil
		case l = <-lines:
		}
		switch {
		case l.tooLong:
			s.problem("a message longer than %d bytes was refused", s.maxMessage)
			_ = c.send(response(json.RawMessage("null"), nil, tooLarge(s.maxMessage)))
		case l.err == io.EOF:
			return nil
		case l.err != nil:
			return fmt.Errorf("read: %w", l.err)
		case len(bytes.TrimSpace(l.line)) > 0:
			s.dispatch(ctx, l.line, c, &c.asks, reqs)
		}
	}
}

// dispatch acts on one message from the client: a request is answered
// in its own goroutine, a response goes to the question it answers, a
// cancellation stops its request.
func (s *Server) dispatch(ctx context.Context, raw []byte, p peer, asks *asker, reqs *inflight) {
	var m wire
	if err := json.Unmarshal(raw, &m); err != nil {
		s.problem("a message that is not a JSON-RPC object was refused")
		_ = p.send(response(json.RawMessage("null"), nil, json.RawMessage(`{"code":-32700,"message":"parse error: not a JSON-RPC message"}`)))
		return
	}
	switch {
	case m.Method != "" && m.hasID():
		rctx, done, ok := reqs.start(ctx, m.ID)
		if !ok {
			_ = p.send(response(m.ID, nil, json.RawMessage(`{"code":-32000,"message":"mcpeek replay: too many requests in flight"}`)))
			return
		}
		go func() {
			defer done()
			s.handle(rctx, m, p)
		}()
	case m.Method == notificationCancelled:
		var c struct {
			ID json.RawMessage `json:"requestId"`
		}
		_ = json.Unmarshal(m.Params, &c)
		reqs.cancel(c.ID)
	case m.Method == "" && m.hasID():
		asks.deliver(m.ID, raw)
	}
}

func tooLarge(limit int64) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"code": -32600, "message": fmt.Sprintf("mcpeek replay: a message longer than %d bytes", limit)})
	return b
}

// lineRead is one line of the client's, or why there is none.
type lineRead struct {
	line    []byte
	tooLong bool
	err     error
}

// readLines reads lines of at most max bytes (a longer one is skipped
// and reported as such) until in ends or ctx is done.
func readLines(ctx context.Context, in io.Reader, max int64, out chan<- lineRead) {
	br := bufio.NewReaderSize(in, 64<<10)
	put := func(l lineRead) bool {
		select {
		case out <- l:
			return true
		case <-ctx.Done():
			return false
		}
	}
	for {
		line, long, err := boundedLine(br, max)
		switch {
		case long && !put(lineRead{tooLong: true}):
			return
		case !long && len(line) > 0 && !put(lineRead{line: line}):
			return
		}
		if err != nil {
			put(lineRead{err: err})
			return
		}
	}
}

// boundedLine reads one line; long says it was longer than max and was
// skipped.
func boundedLine(br *bufio.Reader, max int64) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && int64(len(line)+len(chunk)) > max {
			long, line = true, nil
		}
		if !long {
			line = append(line, chunk...)
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, long, err
		}
	}
}

// stdioConn is the stdio connection's writing side.
type stdioConn struct {
	mu   sync.Mutex
	out  io.Writer
	asks asker
}

func (c *stdioConn) send(msg []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err := c.out.Write(append(bytes.Clone(msg), '\n'))
	return err
}

func (c *stdioConn) ask(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, error) {
	return c.asks.ask(ctx, c.send, method, params)
}

func (c *stdioConn) outside(msg []byte) { _ = c.send(msg) }

// asker sends the server's questions and waits for the client's
// responses, by request id.
type asker struct {
	mu      sync.Mutex
	next    int64
	pending map[string]chan json.RawMessage
}

// ask sends a request with a fresh id through send and waits for its
// response (or ctx).
func (a *asker) ask(ctx context.Context, send func([]byte) error, method string, params json.RawMessage) (json.RawMessage, error) {
	a.mu.Lock()
	a.next++
	id := json.RawMessage(strconv.FormatInt(a.next, 10))
	ch := make(chan json.RawMessage, 1)
	if a.pending == nil {
		a.pending = map[string]chan json.RawMessage{}
	}
	a.pending[string(id)] = ch
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		delete(a.pending, string(id))
		a.mu.Unlock()
	}()
	msg := map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": id, "method": json.RawMessage(strconv.Quote(method))}
	if len(params) > 0 {
		msg["params"] = params
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return nil, err
	}
	if err := send(b); err != nil {
		return nil, err
	}
	select {
	case got := <-ch:
		return got, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// deliver hands a response to the question waiting for it; a response to
// no question is dropped.
func (a *asker) deliver(id json.RawMessage, msg []byte) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	ch := a.pending[idKey(id)]
	if ch == nil {
		return false
	}
	delete(a.pending, idKey(id))
	ch <- bytes.Clone(msg)
	return true
}

// inflight are the requests being answered, each cancellable by id.
type inflight struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	live map[string]*running
}

// running is one request in flight; its identity tells a request apart
// from a later one that uses the same id.
type running struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newInflight() *inflight { return &inflight{live: map[string]*running{}} }

// start registers a request; false when too many are open. done ends it
// and removes its own entry only: a later request with the same id stays.
func (f *inflight) start(ctx context.Context, id json.RawMessage) (rctx context.Context, done func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.live) >= maxInFlight {
		return nil, nil, false
	}
	rctx, cancel := context.WithCancel(ctx)
	key := idKey(id)
	if old := f.live[key]; old != nil {
		old.cancel() // an id used again: the older request is the client's to forget
	}
	r := &running{ctx: rctx, cancel: cancel}
	f.live[key] = r
	f.wg.Add(1)
	return rctx, func() {
		cancel()
		f.mu.Lock()
		if f.live[key] == r {
			delete(f.live, key)
		}
		f.mu.Unlock()
		f.wg.Done()
	}, true
}

func (f *inflight) cancel(id json.RawMessage) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.live[idKey(id)]; r != nil {
		r.cancel()
	}
}

func (f *inflight) cancelAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, r := range f.live {
		r.cancel()
	}
}

func (f *inflight) wait() { f.wg.Wait() }

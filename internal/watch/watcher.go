package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Watcher is one attachment to a running proxy ([Attach]).
type Watcher struct {
	// Info is the proxy's, as its hello said.
	Info Info
	conn net.Conn
	r    *reader
	wmu  sync.Mutex
}

// Handler takes what a proxy sends its watcher. Entry and Dropped are
// called in order, from one goroutine; Ask from a goroutine of its own
// per question.
type Handler struct {
	// Entry takes one entry of the proxy's wire log: those it held when
	// the watcher attached first, then each new one.
	Entry func(mcpclient.WireEntry)
	// Live is called once the entries held are sent: the rest are new.
	Live func()
	// Dropped says that n entries were not sent: the watcher was behind.
	Dropped func(n int)
	// Ask answers the proxy's elicitation question (elicitation/create
	// params) with an ElicitResult; ctx ends when the proxy withdraws it
	// or the watcher detaches. Nil: every question is declined.
	Ask func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)
}

// Attach connects to the proxy info describes (one [List] returned),
// checks that it runs as the current user, and reads its hello.
func Attach(ctx context.Context, info Info) (*Watcher, error) {
	return attach(ctx, info, nil)
}

func attach(ctx context.Context, info Info, check func(net.Conn) error) (*Watcher, error) {
	c, err := dial(ctx, info, check)
	if err != nil {
		return nil, err
	}
	w := &Watcher{conn: c, r: newReader(c), Info: info}
	m, err := w.r.next()
	if err == nil && (m.Type != typeHello || m.Info == nil) {
		err = errors.New("no hello")
	}
	if err != nil {
		_ = c.Close()
		return nil, fmt.Errorf("attach to the proxy %d: %w", info.PID, err)
	}
	w.Info = *m.Info
	return w, nil
}

// Close detaches.
func (w *Watcher) Close() error { return w.conn.Close() }

// Run reads what the proxy sends and hands it to h until the proxy ends
// (nil), the connection fails, or ctx ends. Questions still asked then
// are withdrawn.
func (w *Watcher) Run(ctx context.Context, h Handler) error {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(ctx, func() { _ = w.conn.Close() })
	defer stop()
	asks := map[int64]context.CancelFunc{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	for {
		m, err := w.r.next()
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		switch m.Type {
		case typeEntry:
			if m.Entry != nil && h.Entry != nil {
				h.Entry(*m.Entry)
			}
		case typeLive:
			if h.Live != nil {
				h.Live()
			}
		case typeDropped:
			if h.Dropped != nil {
				h.Dropped(m.Dropped)
			}
		case typeAsk:
			actx, acancel := context.WithCancel(ctx)
			mu.Lock()
			asks[m.ID] = acancel
			mu.Unlock()
			wg.Add(1)
			go func(id int64, params json.RawMessage) {
				defer wg.Done()
				w.answer(actx, id, params, h.Ask)
				mu.Lock()
				delete(asks, id)
				mu.Unlock()
				acancel()
			}(m.ID, m.Params)
		case typeCancel:
			mu.Lock()
			if c := asks[m.ID]; c != nil {
				c()
			}
			mu.Unlock()
		}
	}
}

// answer asks ask and sends its answer back.
func (w *Watcher) answer(ctx context.Context, id int64, params json.RawMessage, ask func(context.Context, json.RawMessage) (json.RawMessage, error)) {
	reply := message{Type: typeAnswer, ID: id}
	if ask == nil {
		reply.Result = json.RawMessage(`{"action":"decline"}`)
	} else if res, err := ask(ctx, params); err != nil {
		reply.Error = err.Error()
	} else if !json.Valid(res) {
		reply.Error = "the answer is not JSON"
	} else {
		reply.Result = res
	}
	if ctx.Err() != nil { // withdrawn, or the watcher is going
		return
	}
	w.wmu.Lock()
	defer w.wmu.Unlock()
	_, _ = w.conn.Write(reply.line())
}

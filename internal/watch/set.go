package watch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Set is the proxies a watcher is attached to, each with a wire log its
// traffic is copied into: those chosen at the start, then those started
// later that its NAME picks.
type Set struct {
	name string // the NAME given, or "": every proxy

	mu   sync.Mutex
	list []*watched
	ask  func(context.Context, string, json.RawMessage) (json.RawMessage, error)
}

// Watched is one proxy of a [Set], as the watcher shows it.
type Watched struct {
	Info Info
	// Wire is its traffic as the watcher received it.
	Wire *mcpclient.WireLog
	// Ended: the proxy has ended (or detached the watcher).
	Ended bool
}

type watched struct {
	info  Info
	wire  *mcpclient.WireLog
	ended bool
}

// NewSet is a set for NAME ("": every proxy) holding the proxies chosen.
func NewSet(name string, chosen []Info) *Set {
	w := &Set{name: name}
	for _, info := range chosen {
		w.add(info)
	}
	return w
}

func (w *Set) add(info Info) *watched {
	x := &watched{info: info, wire: mcpclient.NewWireLog(0, nil)}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, x)
	return x
}

// known reports whether the proxy of pid is watched already.
func (w *Set) known(pid int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.ContainsFunc(w.list, func(x *watched) bool { return x.info.PID == pid })
}

// Proxies are the proxies watched, as of now.
func (w *Set) Proxies() []Watched {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Watched, len(w.list))
	for i, x := range w.list {
		out[i] = Watched{Info: x.info, Wire: x.wire, Ended: x.ended}
	}
	return out
}

// Start attaches to the proxies chosen, then to those started later that
// NAME picks, until ctx ends; ask answers the questions a proxy asks
// (with the proxy's label).
func (w *Set) Start(ctx context.Context, ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)) {
	w.mu.Lock()
	w.ask = ask
	first := slices.Clone(w.list)
	w.mu.Unlock()
	for _, x := range first {
		go w.follow(ctx, x)
	}
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			all, _ := List("")
			chosen, _ := Find(all, w.name)
			for _, info := range chosen {
				if !w.known(info.PID) {
					go w.follow(ctx, w.add(info))
				}
			}
		}
	}()
}

// follow copies one proxy's traffic into its wire log until it ends.
func (w *Set) follow(ctx context.Context, x *watched) {
	err := w.attach(ctx, x)
	switch {
	case ctx.Err() != nil:
		return
	case err != nil:
		x.wire.Note("mcpeek watch: " + err.Error())
	default:
		x.wire.Note("mcpeek watch: the proxy ended")
	}
	w.mu.Lock()
	x.ended = true
	w.mu.Unlock()
}

func (w *Set) attach(ctx context.Context, x *watched) error {
	c, err := Attach(ctx, x.info)
	if err != nil {
		return err
	}
	defer c.Close()
	label := c.Info.Label()
	return c.Run(ctx, Handler{
		Entry:   x.wire.Add,
		Dropped: func(n int) { x.wire.Note(fmt.Sprintf("mcpeek watch: %d entries not shown: the watcher was behind", n)) },
		Ask: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
			return w.ask(ctx, label, params)
		},
	})
}

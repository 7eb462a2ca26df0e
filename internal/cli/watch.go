package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/internal/watch"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
)

// watchOptions are `mcpeek watch`'s: the running proxies of the person's
// (internal/watch), their traffic in the inspector's views.
type watchOptions struct {
	list bool
	name string
}

func newWatchOptions(fs *flagSet) options {
	o := &watchOptions{}
	fs.BoolVar(&o.list, "list", false, "print the running proxies of yours (pid, name, server, started) and exit")
	return o
}

func (o *watchOptions) parse(fs *flagSet, args []string) error {
	words, err := fs.parse(args)
	if err != nil {
		return err
	}
	switch len(words) {
	case 0:
	case 1:
		o.name = words[0]
	default:
		return usagef("watch: give at most one NAME (a proxy's --name, pid or server)")
	}
	return nil
}

// errNoProxy is watch with nothing to watch.
var errNoProxy = errors.New("no mcpeek proxy of yours is running (a host starts one: mcpeek servers --wrap @NAME prints its entry)")

func (o *watchOptions) run(ctx context.Context, s streams) error {
	all, err := watch.List("")
	if err != nil {
		return err
	}
	if o.list {
		return printProxies(s.out, all)
	}
	if len(all) == 0 && o.name == "" {
		return errNoProxy
	}
	chosen, err := watch.Find(all, o.name)
	if err != nil {
		return err
	}
	if !s.interactive() {
		return usagef("watch: the watcher is the inspector, on a terminal (mcpeek watch --list prints the proxies)")
	}
	// The attachments end with the inspector: a question open in it is
	// withdrawn, and each proxy hears its watcher go.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := &watchers{name: o.name}
	for _, info := range chosen {
		w.add(info)
	}
	return tui.Run(ctx, tui.Options{Target: "mcpeek watch", Watch: &tui.Watch{Proxies: w.proxies, Start: func(ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)) {
		w.start(ctx, ask)
	}}}, s.in, s.term)
}

// printProxies prints the proxies running, one a line.
func printProxies(out io.Writer, all []watch.Info) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PID\tNAME\tSERVER\tSTARTED")
	for _, i := range all {
		name := i.Name
		if name == "" {
			name = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i.PID, textclean.OneLine(name), textclean.OneLine(i.Server), i.Started.Local().Format(time.DateTime))
	}
	return tw.Flush()
}

// watchers are the proxies attached, each with a wire log its traffic is
// copied into.
type watchers struct {
	name string // the NAME given, or "": every proxy

	mu   sync.Mutex
	list []*watched
	ask  func(context.Context, string, json.RawMessage) (json.RawMessage, error)
}

type watched struct {
	info  watch.Info
	wire  *mcpclient.WireLog
	ended bool
}

func (w *watchers) add(info watch.Info) *watched {
	x := &watched{info: info, wire: mcpclient.NewWireLog(0, nil)}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.list = append(w.list, x)
	return x
}

// known reports whether the proxy of pid is watched already.
func (w *watchers) known(pid int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.ContainsFunc(w.list, func(x *watched) bool { return x.info.PID == pid })
}

// proxies are the proxies watched, for the inspector.
func (w *watchers) proxies() []tui.Watched {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]tui.Watched, len(w.list))
	for i, x := range w.list {
		out[i] = tui.Watched{Label: x.info.Label(), Wire: x.wire, Ended: x.ended, Suite: x.info.Command}
	}
	return out
}

// start attaches to the proxies chosen, then to those started later that
// NAME picks, until ctx ends.
func (w *watchers) start(ctx context.Context, ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)) {
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
			all, _ := watch.List("")
			chosen, _ := watch.Find(all, w.name)
			for _, info := range chosen {
				if !w.known(info.PID) {
					go w.follow(ctx, w.add(info))
				}
			}
		}
	}()
}

// follow copies one proxy's traffic into its wire log until it ends.
func (w *watchers) follow(ctx context.Context, x *watched) {
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

func (w *watchers) attach(ctx context.Context, x *watched) error {
	c, err := watch.Attach(ctx, x.info)
	if err != nil {
		return err
	}
	defer c.Close()
	label := c.Info.Label()
	return c.Run(ctx, watch.Handler{
		Entry:   x.wire.Add,
		Dropped: func(n int) { x.wire.Note(fmt.Sprintf("mcpeek watch: %d entries not shown: the watcher was behind", n)) },
		Ask: func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
			return w.ask(ctx, label, params)
		},
	})
}

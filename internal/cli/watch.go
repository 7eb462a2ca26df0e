package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/internal/watch"
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
	w := watch.NewSet(o.name, chosen)
	proxies := func() []tui.Watched {
		var out []tui.Watched
		for _, x := range w.Proxies() {
			out = append(out, tui.Watched{Label: x.Info.Label(), Wire: x.Wire, Ended: x.Ended, Suite: x.Info.Command})
		}
		return out
	}
	return tui.Run(ctx, tui.Options{Target: "mcpeek watch", Watch: &tui.Watch{Proxies: proxies, Start: func(ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)) {
		w.Start(ctx, ask)
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

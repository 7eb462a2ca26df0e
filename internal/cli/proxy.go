package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpeek/mcpeek/internal/proxy"
	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// proxyOptions are `mcpeek proxy`'s: the host's server, run behind mcpeek.
type proxyOptions struct {
	conn    connFlags // -H, -e, --wire-log, --max-message-size, TLS
	record  string
	listen  string
	name    string
	target  mcpclient.Target
	headers listFlag
	env     listFlag
}

func newProxyOptions(fs *flagSet) options {
	o := &proxyOptions{}
	fs.StringVar(&o.record, "record", "", "record the host's session to `FILE` (as --record does) for mcpeek replay and mcpeek record --to-suite")
	fs.StringVar(&o.listen, "listen", "", "serve the host streamable HTTP on `ADDR` (such as 127.0.0.1:8931) instead of stdio; the server is then a URL")
	fs.StringVar(&o.name, "name", "", "the server's `NAME`, as the host's config calls it (for the proxy's messages)")
	fs.Var(&o.headers, "H", "add an HTTP header \"Name: Value\" to each request to the server (URL servers; repeatable)")
	fs.Var(&o.env, "e", "add KEY=VALUE to the server command's environment (repeatable)")
	fs.StringVar(&o.conn.WireLog, "wire-log", "", "write the raw JSON-RPC traffic and server stderr to `FILE` as JSON lines")
	o.conn.maxMessage = mcpclient.DefaultMaxMessageSize
	fs.Var(&o.conn.maxMessage, "max-message-size", "the largest message forwarded either way: a `SIZE` such as 64MiB")
	o.conn.registerTLS(fs)
	return o
}

func (o *proxyOptions) parse(fs *flagSet, args []string) error {
	words, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(words) == 0 {
		return usagef("proxy: name the server: a command (after --) or a URL")
	}
	if strings.HasPrefix(words[0], "@") {
		return usagef("proxy: give the server's command or URL (mcpeek servers --wrap %s prints the host's entry that does)", words[0])
	}
	if err := o.conn.checkTLS(); err != nil {
		return err
	}
	o.conn.MaxMessageSize = int64(o.conn.maxMessage)
	o.target, err = mcpclient.ParseTarget(words, o.headers, o.env, nil)
	if err != nil {
		return usagef("proxy: %v", err)
	}
	switch {
	case o.target.Kind == mcpclient.TargetHTTP && o.listen == "":
		return usagef("proxy: a URL server needs --listen ADDR: the host reaches the proxy over HTTP as it would the server")
	case o.target.Kind == mcpclient.TargetStdio && o.listen != "":
		return usagef("proxy: --listen forwards to a URL server; a command's host starts mcpeek proxy as its stdio server")
	}
	return nil
}

func (o *proxyOptions) run(ctx context.Context, s streams) error {
	cfg := o.conn.Config
	cfg.Target = o.target
	// The host hands the server's environment to the proxy, which the
	// server inherits: its credentials are redacted as -e's are.
	cfg.Secrets = mcpclient.TargetSecrets(mcpclient.Target{Env: os.Environ()})
	var rec *record.Writer
	var closeRec func() error
	hooks := session.Hooks{Secrets: s.secrets, Tap: func(wire *mcpclient.WireLog) (func(), error) {
		if o.record == "" {
			return nil, nil
		}
		f, err := createPrivate(o.record)
		if err != nil {
			return nil, usagef("--record: %v", err)
		}
		rec = record.NewWriter(f)
		untap := wire.Tap(rec)
		closeRec = func() error {
			untap()
			err := rec.Close()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
		return nil, nil
	}}
	e, err := session.Start(cfg, hooks)
	if err != nil {
		return err
	}
	defer e.Close()
	name := "mcpeek proxy"
	if o.name != "" {
		name += " " + textclean.OneLine(o.name)
	}
	err = proxy.Run(ctx, proxy.Options{
		Target: o.target, Listen: o.listen, Name: o.name, Wire: e.Wire, Record: rec,
		MaxMessageSize: o.conn.MaxMessageSize, TLS: o.conn.TLSConfig,
		In: s.in, Out: rawWriter(s.out), ErrOut: s.errOut,
	})
	if closeRec != nil {
		if rerr := closeRec(); rerr != nil {
			fmt.Fprintf(s.errOut, "%s: --record %s: %v\n", name, o.record, rerr)
		}
	}
	if gone := (*proxy.ExitError)(nil); errors.As(err, &gone) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return err
}

// rawWriter is w without the redaction the streams add: the proxy's
// stdout is the server's messages, forwarded byte for byte.
func rawWriter(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}

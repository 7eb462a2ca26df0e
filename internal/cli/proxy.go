package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpeek/mcpeek/internal/proxy"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/watch"
	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/oauth2"
)

// proxyOptions are `mcpeek proxy`'s: the host's server, run behind mcpeek.
type proxyOptions struct {
	conn                 connFlags // -H, -e, --wire-log, --max-message-size, TLS
	record, listen, name string
	target               mcpclient.Target
	// answer, answersPath and onElicit are --answer, --answers and
	// --on-elicit: the proxy answering the server's questions itself.
	answer      answerFlag
	answersPath string
	onElicit    string
	policy      mcpclient.Policy
	answers     []mcpclient.Answer
}

// answerFlag is --answer: a flag that reads as a boolean (--answer,
// --answer=false) and takes one more value, --answer=always.
type answerFlag struct{ mode proxy.AnswerMode }

func (f *answerFlag) String() string { return f.mode.String() }

func (f *answerFlag) Set(v string) (err error) {
	f.mode, err = proxy.ParseAnswerMode(v)
	return err
}

// IsBoolFlag lets --answer stand alone.
func (f *answerFlag) IsBoolFlag() bool { return true }

func newProxyOptions(fs *flagSet) options {
	o := &proxyOptions{}
	fs.StringVar(&o.record, "record", "", "record the host's session to `FILE` (as --record does) for mcpeek replay and mcpeek record --to-suite")
	fs.StringVar(&o.listen, "listen", "", "serve the host streamable HTTP on `ADDR` (such as 127.0.0.1:8931) instead of stdio, in front of a URL or a command")
	fs.StringVar(&o.name, "name", "", "the server's `NAME`, as the host's config calls it (for the proxy's messages)")
	fs.Var(&o.answer, "answer", "answer the server's questions (elicitation, both eras) for a host that advertises none: the proxy advertises form and URL elicitation, "+
		"answers in the server's app with --app-host, else in an attached mcpeek watch, else from --answers, else by --on-elicit; --answer=always answers them even when the host could")
	fs.StringVar(&o.answersPath, "answers", "", "with --answer: answer the server's questions from this JSON `FILE` (the format of mcpeek call --answers)")
	fs.StringVar(&o.onElicit, "on-elicit", "cancel", "with --answer: answer questions nothing else answered: cancel, decline or accept-defaults")
	fs.Var(&o.conn.headers, "H", "add an HTTP header \"Name: Value\" to each request to the server (URL servers; repeatable)")
	fs.Var(&o.conn.env, "e", "add KEY=VALUE to the server command's environment (repeatable)")
	fs.StringVar(&o.conn.WireLog, "wire-log", "", "write the raw JSON-RPC traffic and server stderr to `FILE` as JSON lines")
	o.conn.maxMessage = mcpclient.DefaultMaxMessageSize
	fs.Var(&o.conn.maxMessage, "max-message-size", "the largest message forwarded either way: a `SIZE` such as 64MiB")
	o.conn.registerTLS(fs)
	o.conn.registerAppHost(fs)
	return o
}

func (o *proxyOptions) parse(fs *flagSet, args []string) error {
	words, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(words) > 0 && strings.HasPrefix(words[0], "@") {
		return usagef("proxy: give the server's command or URL (mcpeek servers --wrap %s prints the host's entry that does)", words[0])
	}
	if err := o.conn.checkTLS(); err != nil {
		return err
	}
	if err := o.parseAnswering(fs); err != nil {
		return err
	}
	o.conn.MaxMessageSize = int64(o.conn.maxMessage)
	o.target, err = mcpclient.ParseTarget(words, o.conn.headers, o.conn.env, nil)
	if err != nil {
		return usagef("proxy: %v", err)
	}
	if err := proxy.Check(o.target, o.listen); err != nil {
		return usagef("proxy: %v", err)
	}
	return nil
}

// parseAnswering checks --answer, --answers and --on-elicit: the last
// two say how the proxy answers, so they need the first.
func (o *proxyOptions) parseAnswering(fs *flagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if o.answer.mode == proxy.AnswerNever && (given["answers"] || given["on-elicit"]) {
		return usagef("proxy: --answers and --on-elicit say how the proxy answers the server's questions: give --answer too")
	}
	if o.answer.mode == proxy.AnswerNever && o.conn.AppHost {
		return usagef("proxy: --app-host renders the questions the proxy answers for the host in the server's app: give --answer too")
	}
	var err error
	if o.policy, err = mcpclient.ParsePolicy(o.onElicit); err != nil {
		return usagef("proxy: %v", err)
	}
	if o.answersPath != "" {
		if o.answers, err = mcpclient.LoadAnswers(o.answersPath); err != nil {
			return usagef("proxy: %v", err)
		}
	}
	return nil
}

// askers are the proxy's askers, in the order asked: an attached watcher
// first, then the answers file; after them the --on-elicit policy
// answers. The server's app (--app-host) is asked before them all
// (proxy.Options.Apps).
func (o *proxyOptions) askers(s streams, hub *watch.Hub) []proxy.NamedAsker {
	askers := []proxy.NamedAsker{{Name: "mcpeek watch", Ask: watchAsker(hub)}}
	if o.answers != nil {
		askers = append(askers, proxy.NamedAsker{Name: "--answers " + o.answersPath, Ask: proxy.AnswersAsker(o.answers, s.errOut)})
	}
	return askers
}

func (o *proxyOptions) run(ctx context.Context, s streams) error {
	cfg := o.conn.Config
	cfg.Target = o.target
	// The host hands the server's environment to the proxy, which the
	// server inherits: its credentials are redacted as -e's are.
	cfg.Secrets = mcpclient.TargetSecrets(mcpclient.Target{Env: os.Environ()})
	show := watch.NewURLNotes(s.errOut)
	defer show.Remove()
	e, err := session.Start(cfg, session.Hooks{Secrets: s.secrets, Notify: show.Notify})
	if err != nil {
		return err
	}
	defer e.Close()
	hub := o.publish(e.Wire, s.errOut)
	defer hub.Close()
	rec, stop, err := proxy.Record(o.record, e.Wire)
	if err != nil {
		return usagef("--record: %v", err)
	}
	var apps mcpclient.AppRenderer
	if e.Host != nil { // --app-host
		apps = e.Host
	}
	token, closeAuth, err := storedToken(ctx, cfg, e.Wire)
	if err != nil {
		_ = stop()
		return err
	}
	defer closeAuth()
	err = proxy.Run(ctx, proxy.Options{
		Target: o.target, Listen: o.listen, Name: o.name, Wire: e.Wire, Record: rec,
		MaxMessageSize: o.conn.MaxMessageSize, TLS: o.conn.TLSConfig, Token: token,
		In: s.in, Out: unwrapped(s.out), ErrOut: s.errOut, // the server's bytes, not redacted
		Answer: o.answer.mode, Askers: o.askers(s, hub), OnElicit: o.policy, Apps: apps,
	})
	if rerr := stop(); rerr != nil {
		fmt.Fprintf(s.errOut, "mcpeek proxy: --record %s: %v\n", o.record, rerr)
	}
	return err
}

// storedToken is the token mcpeek's store holds for a URL server (nil:
// none, or the server is a command), which the proxy adds to what it
// forwards. The proxy never logs in: its stdout is the host's.
func storedToken(ctx context.Context, cfg session.Config, wire *mcpclient.WireLog) (ts oauth2.TokenSource, close func(), err error) {
	if cfg.Target.Kind != mcpclient.TargetHTTP {
		return nil, func() {}, nil
	}
	a, err := cfg.StoredAuth(ctx, wire)
	if err != nil {
		return nil, nil, err
	}
	close = func() { _ = a.Close() }
	if ts, err = a.TokenSource(ctx); err != nil {
		return nil, close, nil
	}
	return ts, close, nil
}

// publish opens the proxy's socket for mcpeek watch (internal/watch): its
// wire log, as redacted, to the watchers of the same user. A proxy that
// cannot open one forwards all the same, and says why on stderr; the
// host's stdout never hears of it. The hub is nil then, which Close and
// Ask take as no watcher.
func (o *proxyOptions) publish(wire *mcpclient.WireLog, errOut io.Writer) *watch.Hub {
	hub, err := watch.Start(watch.Options{
		Info:    watch.Info{Name: o.name, Server: wire.Secrets().Redact(o.target.String()), Command: redactWords(wire.Secrets(), targetWords(o.target))},
		Wire:    wire,
		Refused: func(err error) { fmt.Fprintf(errOut, "mcpeek proxy: mcpeek watch: %v\n", err) },
	})
	if err != nil {
		fmt.Fprintf(errOut, "mcpeek proxy: mcpeek watch cannot attach: %v\n", err)
		return nil
	}
	return hub
}

// redactWords are words with the secrets of s redacted from each.
func redactWords(s *mcpclient.Secrets, words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = s.Redact(w)
	}
	return out
}

// watchAsker asks the watcher attached to hub (nil: none can attach): no
// watcher attached is proxy.ErrNobody, so the next asker is asked; a
// watcher that detaches mid-question is said on stderr, and the next is
// asked too.
func watchAsker(hub *watch.Hub) proxy.Asker {
	return func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
		res, err := hub.Ask(ctx, params)
		if errors.Is(err, watch.ErrNoWatcher) {
			return nil, fmt.Errorf("%w: %w", proxy.ErrNobody, err)
		}
		return res, err
	}
}

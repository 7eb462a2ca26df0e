//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connFlags are the flags every command that connects shares, and the
// server they and the command's words name: they parse into the
// session.Config every connection is made of.
type connFlags struct {
	session.Config
	headers    listFlag
	env        listFlag
	timeout    time.Duration
	record     string     // --record FILE (registerRecord)
	rec        *recording // the run's recording, once started
	maxMessage sizeFlag
	rootArgs   listFlag
	// allowHosts are --auth-allow-host's, added to $MCPEEK_AUTH_ALLOW_HOSTS.
	allowHosts listFlag
	selection  session.Selection // --config, --server, @NAME

	// events hears the server's notifications in a headless run; host is
	// its app host (nil without --app-host).
	events *session.Events
	host   *apphost.Host
	// stdinTaken: the run answers in the terminal (call --interactive), so
	// a pasted authorization redirect is not read from stdin.
	stdinTaken bool
	// progress: show progress on stderr even when it is no terminal (call
	// --progress), a line per update.
	progress bool

	// termTheme is the terminal's theme once asked (theme).
	termTheme string
}

// register defines the flags on fs; headless commands also take --timeout.
func (cf *connFlags) register(fs *flagSet, headless bool) {
	fs.StringVar(&cf.Protocol, "protocol", "auto", "protocol revision: auto, legacy (2025-11-25), modern (2026-07-28, required) or a revision date to require")
	fs.Var(&cf.headers, "H", "add an HTTP header \"Name: Value\" (URL servers; repeatable)")
	fs.Var(&cf.env, "e", "add KEY=VALUE to the server command's environment (repeatable)")
	fs.DurationVar(&cf.ConnectTimeout, "connect-timeout", 30*time.Second, "how long to wait for the server to connect")
	cf.registerAppHost(fs)
	fs.BoolVar(&cf.NoFormElicitation, "no-form-elicitation", false, "do not advertise form elicitation")
	fs.StringVar(&cf.WireLog, "wire-log", "", "write the raw JSON-RPC traffic and server stderr to `FILE` as JSON lines")
	cf.maxMessage = mcpclient.DefaultMaxMessageSize
	fs.Var(&cf.maxMessage, "max-message-size", "the largest message a URL server may send (a response, or one event of a stream): a `SIZE` such as 64MiB (a command's is 16 MiB, go-sdk's)")
	cf.registerAuth(fs)
	cf.registerSelection(fs)
	cf.registerTLS(fs)
	fs.Var(&cf.rootArgs, "root", "offer the server this root: a `PATH` (sent as its absolute file:// URI) or a URI (repeatable)")
	fs.StringVar(&cf.LogLevel, "log-level", "", "ask the server for log messages at this `LEVEL` and above: "+strings.Join(mcpclient.LogLevels, ", "))
	if headless {
		fs.DurationVar(&cf.timeout, "timeout", 0, "give up after this long (exit 124); 0 waits forever")
	}
}

// registerAppHost defines --app-host and the flags that go with it.
func (cf *connFlags) registerAppHost(fs *flagSet) {
	fs.BoolVar(&cf.AppHost, "app-host", false, "render app-requested form elicitations in the server's MCP App, in the browser")
	fs.StringVar(&cf.App.Addr, "app-host-addr", "", "listen address of the app host (default: a free port on 127.0.0.1)")
	fs.BoolVar(&cf.NoBrowser, "no-browser", false, "with --app-host: show the URL to open instead of launching a browser")
	fs.StringVar(&cf.OpenWith, "open-with", "", "with --app-host: run this shell `COMMAND` instead of the browser, with the file:// URL of a private page that opens the tab as its last argument")
	fs.DurationVar(&cf.App.InitTimeout, "app-init-timeout", 15*time.Second, "with --app-host: how long the page and app may take to start")
	fs.DurationVar(&cf.App.AnswerTimeout, "app-timeout", 10*time.Minute, "with --app-host: how long the app may take to answer")
}

// parseTarget checks --protocol and reads the server words (none: the
// embedded fixture) with -H and -e into the target, or finds the server a
// config names (--config, --server, @NAME).
func (cf *connFlags) parseTarget(words []string) error {
	if err := cf.checkAll(); err != nil {
		return err
	}
	cfg, sel, err := cf.configFor(words, nil, nil, nil)
	if err != nil {
		return err
	}
	cf.Config, cf.selection = cfg, sel
	return nil
}

// checkAll checks the flags, --protocol too, before configFor makes a
// server's config of them.
func (cf *connFlags) checkAll() error {
	if err := mcpclient.CheckProtocol(cf.Protocol); err != nil {
		return usagef("--protocol: %v", err)
	}
	return cf.check()
}

// check checks the flags besides --protocol and the server's, and reads
// the files they name (TLS certificates).
func (cf *connFlags) check() error {
	if err := cf.checkAuth(); err != nil {
		return err
	}
	cf.MaxMessageSize = int64(cf.maxMessage)
	if cf.LogLevel != "" {
		if err := mcpclient.CheckLogLevel(cf.LogLevel); err != nil {
			return usagef("--log-level: %v", err)
		}
	}
	return cf.checkTLS()
}

// configFor is the session.Config of the server words name (none: the
// embedded fixture; --config, --server or @NAME: a config's), with -H and
// -e, and env and roots added to the flags' own: the command line's
// server, or a suite session's. The flags are left as they are.
func (cf *connFlags) configFor(words, env, headers, roots []string) (session.Config, session.Selection, error) {
	cfg, sel := cf.Config, cf.selection
	cfg.Roots = nil
	for _, arg := range append(slices.Clone(cf.rootArgs), roots...) {
		uri, err := mcpclient.RootURI(arg)
		if err != nil {
			return cfg, sel, usagef("--root: %v", err)
		}
		cfg.Roots = append(cfg.Roots, &mcp.Root{URI: uri})
	}
	env = append(slices.Clone(cf.env), env...)
	headers = append(slices.Clone(cf.headers), headers...)
	if sel.Selects(words) {
		sel.Headers, sel.Env = headers, env
		if err := sel.Choose(words); err != nil {
			return cfg, sel, err
		}
		cfg.Target, cfg.Secrets = sel.Target(), sel.Secrets()
		return cfg, sel, nil
	}
	target, err := mcpclient.ParseTarget(words, headers, env, func() *mcp.Server { return fixture.New(fixture.Options{}) })
	if err != nil {
		return cfg, sel, usagef("%v", err)
	}
	cfg.Target = target
	return cfg, sel, nil
}

// open readies the selection's server and opens the endpoint every
// connection to it shares; notify shows the person a URL to open. Its
// wire log redacts secrets, the run's set that its output redacts too.
func (cf *connFlags) open(s streams, notify func(string)) (*session.Endpoint, error) {
	return cf.openConfig(s, &cf.Config, &cf.selection, notify)
}

// openConfig is open for cfg's server (sel: the config entry it came
// from), which the flags' own configFor made.
func (cf *connFlags) openConfig(s streams, cfg *session.Config, sel *session.Selection, notify func(string)) (*session.Endpoint, error) {
	if err := sel.Ready(); err != nil {
		return nil, err
	}
	if cfg.AppHost {
		cfg.App.Theme = cf.theme(s)
	}
	return session.Start(*cfg, cf.hooks(s, notify))
}

// hooks are what a session started for the run tells it: the run's
// secrets, URLs to open, and --record's file, which the wire log writes
// to and which takes its header from the first connection.
func (cf *connFlags) hooks(s streams, notify func(string)) session.Hooks {
	return session.Hooks{Secrets: s.secrets, Notify: notify, Tap: cf.tapRecording,
		Connected: func(conn *mcpclient.Conn, wire *mcpclient.WireLog) {
			if rerr := cf.rec.connected(conn); rerr != nil {
				wire.Note("--record: " + rerr.Error())
			}
		}}
}

// headless runs do on one connection made for a run without the inspector:
// within --timeout, with URLs to open shown on stderr.
func (cf *connFlags) headless(ctx context.Context, s streams, asker mcpclient.NativeAsker, records *mcpclient.Recorder,
	do func(context.Context, *mcpclient.Conn) error) error {
	return cf.headlessOn(ctx, s, &cf.Config, &cf.selection, asker, records, do)
}

// headlessOn is headless for cfg's server (sel: the config entry it came
// from), which the flags' own configFor made: a command that reaches
// several servers (diff's live sides) gives each its config, and the
// flags give the run's settings (--timeout, --record, progress).
func (cf *connFlags) headlessOn(ctx context.Context, s streams, cfg *session.Config, sel *session.Selection, asker mcpclient.NativeAsker,
	records *mcpclient.Recorder, do func(context.Context, *mcpclient.Conn) error) error {
	// Asked before --timeout counts: the person's time is not the server's.
	if err := approveInto(ctx, cfg, sel, s.errOut, s.terminal()); err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, cf.timeout)
	defer cancel()
	e, err := cf.openConfig(s, cfg, sel, func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) })
	if err != nil {
		return err
	}
	defer cf.finishRecording(s.errOut)
	defer e.Close()
	if cfg.TLS.Insecure {
		fmt.Fprintln(s.errOut, insecureWarning)
	}
	progress := session.ProgressOff
	switch {
	case s.isStderrTTY():
		progress = session.ProgressInPlace
	case cf.progress:
		progress = session.ProgressLines
	}
	events := session.NewEvents(s.errOut, progress, cfg.LogLevel != "")
	defer events.Close()
	e.OnEvent = events.OnEvent
	e.IgnoreListChanges = true // session.Events shows none
	cf.events, cf.host = events, e.Host
	e.ShowAuth = func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) }
	if (cfg.NoBrowser || s.isStdinTTY()) && !cf.stdinTaken {
		e.PasteAuth = s.pasteLine
	}
	conn, err := e.Connect(ctx, asker, records)
	if err != nil {
		return doctorHint(ctx, err, *cfg, sel)
	}
	defer conn.Close()
	err = do(ctx, conn)
	if cfg.LogLevel != "" {
		// Log messages the server sends just after the answer are shown
		// too, as the wire log has them.
		conn.DrainLogs(ctx, logDrain)
	}
	return err
}

// logDrain is how long a headless run that shows log messages waits for
// those that come just after the answer.
const logDrain = 200 * time.Millisecond

// doctorHint points a failure to connect to mcpeek doctor, which checks
// the same server step by step; an interrupted run is left as it is.
func doctorHint(ctx context.Context, err error, cfg session.Config, sel *session.Selection) error {
	if ctx.Err() != nil || !errors.As(err, new(*mcpclient.ConnectError)) {
		return err
	}
	return fmt.Errorf("%w; %s checks each step", err, doctorCommand(cfg.Target, sel))
}

// doctorCommand is the mcpeek doctor command line for the run's server,
// with no secrets: a config's server by its name, a URL without its
// query's values, a command as the error names it.
func doctorCommand(target mcpclient.Target, sel *session.Selection) string {
	switch {
	case sel.Entry() != nil:
		words := []string{"mcpeek", "doctor"}
		if sel.ConfigPath != "" {
			words = append(words, "--config", doctorArg(sel.ConfigPath))
		}
		return strings.Join(append(words, doctorArg("@"+sel.Entry().Name)), " ")
	case target.Kind == mcpclient.TargetHTTP:
		if shown := target.String(); shown != target.URL {
			return "mcpeek doctor " + shown // its query or password left for the person to give again
		}
		return "mcpeek doctor " + doctorArg(target.URL)
	case target.Kind == mcpclient.TargetStdio:
		words := make([]string, len(target.Command))
		for i, w := range target.Command {
			words[i] = doctorArg(w)
		}
		return "mcpeek doctor -- " + strings.Join(words, " ")
	}
	return "mcpeek doctor"
}

// doctorArg is w quoted for a POSIX shell when it needs to be, for the
// doctor command line a person pastes.
func doctorArg(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// waitUpdates waits for n resource updates in a headless run, or for ctx
// to end (--timeout).
func (cf *connFlags) waitUpdates(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		select {
		case <-cf.events.Updated():
		case <-ctx.Done():
			return fmt.Errorf("waiting for resource updates (%d of %d seen): %w", i, n, context.Cause(ctx))
		}
	}
	return nil
}

// withTimeout applies --timeout (0: none) to a headless run.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// theme is the terminal's theme, asked of the terminal once per run.
func (cf *connFlags) theme(s streams) string {
	if cf.termTheme == "" {
		cf.termTheme = s.theme()
	}
	return cf.termTheme
}

func (cf *connFlags) registerSelection(fs *flagSet) {
	sel := &cf.selection
	fs.StringVar(&sel.ConfigPath, "config", "", "read the server from this MCP config `FILE` (Claude Desktop, Claude Code, Cursor, Windsurf, VS Code or Codex)")
	fs.StringVar(&sel.ServerName, "server", "", "connect to the server of this `NAME` in --config, or in the configs found from here (see mcpeek servers); @NAME as SERVER says the same")
	fs.BoolVar(&sel.TrustProject, "trust-project", false, "use a server of a project's config found from here (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) without asking for approval; "+session.TrustProjectEnv+"=1 says the same")
}

// registerTLS defines the TLS flags of URL servers.
func (cf *connFlags) registerTLS(fs *flagSet) {
	fs.StringVar(&cf.TLS.CAFile, "ca-file", "", "trust the CA certificates in this PEM `FILE` too (URL servers)")
	fs.BoolVar(&cf.TLS.Insecure, "insecure", false, "do not verify URL servers' TLS certificates (says so on stderr)")
	fs.StringVar(&cf.TLS.CertFile, "cert", "", "present this PEM client certificate `FILE` to URL servers (with --key)")
	fs.StringVar(&cf.TLS.KeyFile, "key", "", "the PEM private key `FILE` of --cert")
}

// checkTLS reads the certificate files the flags name.
func (cf *connFlags) checkTLS() error {
	cfg, err := cf.TLS.Config()
	if err != nil {
		return usagef("%v", err)
	}
	cf.TLSConfig = cfg
	return nil
}

// insecureWarning is what --insecure says on stderr.
const insecureWarning = "mcpeek: warning: --insecure: TLS certificates are not verified; anyone on the path can read and change the traffic"

// approve makes a config's entry ready as the run starts, asking the
// person on tty and warning on errOut (session.Selection.Approve), and
// takes what it resolved to.
func (cf *connFlags) approve(ctx context.Context, errOut io.Writer, tty session.Terminal) error {
	return approveInto(ctx, &cf.Config, &cf.selection, errOut, tty)
}

// approveInto approves sel's entry into cfg.
func approveInto(ctx context.Context, cfg *session.Config, sel *session.Selection, errOut io.Writer, tty session.Terminal) error {
	err := sel.Approve(ctx, errOut, tty)
	if sel.Entry() != nil {
		cfg.Target, cfg.Secrets = sel.Target(), sel.Secrets()
	}
	return err
}

//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"
	"golang.org/x/term"
)

// connFlags are the flags every command that connects shares, and the
// server they and the command's words name.
type connFlags struct {
	protocol          string
	headers           listFlag
	env               listFlag
	connectTimeout    time.Duration
	timeout           time.Duration
	appHost           bool
	appHostAddr       string
	noBrowser         bool
	openWith          string
	appInitTimeout    time.Duration
	appTimeout        time.Duration
	noFormElicitation bool
	wireLog           string
	record            string     // --record FILE (registerRecord)
	rec               *recording // the run's recording, once started
	maxMessage        sizeFlag
	rootArgs          listFlag
	logLevel          string
	auth              authFlags
	selection         selection // --config, --server, @NAME
	tls               tlsFlags

	// events hears the server's notifications in a headless run; host is
	// its app host (nil without --app-host).
	events *stderrEvents
	host   *apphost.Host
	// stdinTaken: the run answers in the terminal (call --interactive), so
	// a pasted authorization redirect is not read from stdin.
	stdinTaken bool
	// progress: show progress on stderr even when it is no terminal (call
	// --progress), a line per update.
	progress bool

	// target is the server to connect to, set by parseTarget; roots are
	// the --root arguments as root URIs.
	target mcpclient.Target
	roots  []*mcp.Root
	// offerRoots advertises roots even when none is given (the inspector,
	// where the person adds them).
	offerRoots bool
	// termTheme is the terminal's theme once asked (theme).
	termTheme string
	// secrets are the run's, once learnSecrets has added the target's.
	secrets *mcpclient.Secrets
}

// register defines the flags on fs; headless commands also take --timeout.
func (cf *connFlags) register(fs *flagSet, headless bool) {
	fs.StringVar(&cf.protocol, "protocol", "auto", "protocol revision: auto, legacy (2025-11-25), modern (2026-07-28, required) or a revision date to require")
	fs.Var(&cf.headers, "H", "add an HTTP header \"Name: Value\" (URL servers; repeatable)")
	fs.Var(&cf.env, "e", "add KEY=VALUE to the server command's environment (repeatable)")
	fs.DurationVar(&cf.connectTimeout, "connect-timeout", 30*time.Second, "how long to wait for the server to connect")
	fs.BoolVar(&cf.appHost, "app-host", false, "render app-requested form elicitations in the server's MCP App, in the browser")
	fs.StringVar(&cf.appHostAddr, "app-host-addr", "", "listen address of the app host (default: a free port on 127.0.0.1)")
	fs.BoolVar(&cf.noBrowser, "no-browser", false, "with --app-host: show the URL to open instead of launching a browser")
	fs.StringVar(&cf.openWith, "open-with", "", "with --app-host: run this shell `COMMAND` instead of the browser, with the file:// URL of a private page that opens the tab as its last argument")
	fs.DurationVar(&cf.appInitTimeout, "app-init-timeout", 15*time.Second, "with --app-host: how long the page and app may take to start")
	fs.DurationVar(&cf.appTimeout, "app-timeout", 10*time.Minute, "with --app-host: how long the app may take to answer")
	fs.BoolVar(&cf.noFormElicitation, "no-form-elicitation", false, "do not advertise form elicitation")
	fs.StringVar(&cf.wireLog, "wire-log", "", "write the raw JSON-RPC traffic and server stderr to `FILE` as JSON lines")
	cf.maxMessage = mcpclient.DefaultMaxMessageSize
	fs.Var(&cf.maxMessage, "max-message-size", "the largest message a URL server may send (a response, or one event of a stream): a `SIZE` such as 64MiB (a command's is 16 MiB, go-sdk's)")
	cf.auth.register(fs)
	cf.selection.register(fs)
	cf.tls.register(fs)
	fs.Var(&cf.rootArgs, "root", "offer the server this root: a `PATH` (sent as its absolute file:// URI) or a URI (repeatable)")
	fs.StringVar(&cf.logLevel, "log-level", "", "ask the server for log messages at this `LEVEL` and above: "+strings.Join(mcpclient.LogLevels, ", "))
	if headless {
		fs.DurationVar(&cf.timeout, "timeout", 0, "give up after this long (exit 124); 0 waits forever")
	}
}

// parseTarget checks --protocol and reads the server words (none: the
// embedded fixture) with -H and -e into the target, or finds the server a
// config names (--config, --server, @NAME).
func (cf *connFlags) parseTarget(words []string) error {
	if err := mcpclient.CheckProtocol(cf.protocol); err != nil {
		return usagef("--protocol: %v", err)
	}
	if err := cf.auth.check(); err != nil {
		return err
	}
	if cf.logLevel != "" {
		if err := mcpclient.CheckLogLevel(cf.logLevel); err != nil {
			return usagef("--log-level: %v", err)
		}
	}
	for _, arg := range cf.rootArgs {
		uri, err := mcpclient.RootURI(arg)
		if err != nil {
			return usagef("--root: %v", err)
		}
		cf.roots = append(cf.roots, &mcp.Root{URI: uri})
	}
	if err := cf.tls.check(); err != nil {
		return err
	}
	if cf.selection.selects(words) {
		return cf.choose(words)
	}
	target, err := mcpclient.ParseTarget(words, cf.headers, cf.env, func() *mcp.Server { return fixture.New(fixture.Options{}) })
	if err != nil {
		return usagef("%v", err)
	}
	cf.target = target
	return nil
}

// endpoint is what every connection to the target shares, for a headless
// run's one connection as for each of the inspector's: the wire log (and
// its --wire-log file) and, with --app-host, the app host.
type endpoint struct {
	cf      *connFlags
	wire    *mcpclient.WireLog
	host    *apphost.Host // nil without --app-host
	closers []func()
	rec     *recording // --record's, nil without it
	// onEvent hears the server's notifications when the asker does not.
	onEvent func(mcpclient.Event)
	// ignoreListChanges: the run shows no list changes, so it asks the
	// server for none.
	ignoreListChanges bool
	// showAuth tells the person what authorization needs of them;
	// pasteAuth (nil: none) reads a pasted redirect URL.
	showAuth  func(string)
	pasteAuth func(context.Context) (string, error)
}

// open opens the endpoint; notify shows the person a URL to open. Its
// wire log redacts secrets, the run's set that its output redacts too.
func (cf *connFlags) open(secrets *mcpclient.Secrets, notify func(string)) (*endpoint, error) {
	if err := cf.ready(); err != nil {
		return nil, err
	}
	e := &endpoint{cf: cf}
	var sink io.Writer
	if cf.wireLog != "" {
		f, err := createPrivate(cf.wireLog)
		if err != nil {
			return nil, usagef("--wire-log: %v", err)
		}
		e.closers = append(e.closers, func() { _ = f.Close() })
		sink = f
	}
	e.wire = mcpclient.NewWireLog(0, sink)
	e.wire.UseSecrets(secrets)
	cf.learnSecrets(secrets)
	if err := e.startRecording(); err != nil {
		e.close()
		return nil, err
	}
	if cf.appHost {
		host, err := cf.startAppHost(e.wire, notify)
		if err != nil {
			e.close()
			return nil, err
		}
		e.host = host
		e.closers = append(e.closers, func() { _ = host.Close() })
	}
	return e, nil
}

// learnSecrets adds the credentials the target carries (its credential
// headers, -H included, and environment entries) and those its config
// resolved to the run's secrets, which all the run prints is redacted of:
// called before anything is sent, so that even a server's first answer
// cannot show one.
func (cf *connFlags) learnSecrets(secrets *mcpclient.Secrets) {
	for _, v := range mcpclient.TargetSecrets(cf.target) {
		secrets.AddCredential(v)
	}
	for _, secret := range cf.selection.secrets {
		secrets.Add(secret)
	}
	cf.secrets = secrets
}

// startAppHost starts the app host the flags describe; its diagnostics go
// to the wire log.
func (cf *connFlags) startAppHost(wire *mcpclient.WireLog, notify func(string)) (*apphost.Host, error) {
	// Launchers are other processes: they get a launch URL or a launch
	// file, never the tokenized URL (docs/app-host.md, "No token in another
	// process's arguments").
	launch := apphost.SystemBrowser(cf.noBrowser)
	if cf.openWith != "" {
		launch = apphost.OpenWith(cf.openWith)
	}
	host, err := apphost.Start(apphost.Options{
		Addr: cf.appHostAddr, InitTimeout: cf.appInitTimeout, AnswerTimeout: cf.appTimeout,
		Launch: launch, Notify: notify, Version: mcpclient.Version, Theme: cf.theme(),
		Logf: func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
	})
	if err != nil {
		return nil, usagef("--app-host: %v", err)
	}
	return host, nil
}

// connect makes one connection to the target: asker answers its
// elicitations natively, and its sampling requests and hears its
// notifications when it is also a [mcpclient.Sampler] or
// [mcpclient.Listener]; records receives one record per request (nil keeps
// none).
func (e *endpoint) connect(ctx context.Context, asker mcpclient.NativeAsker, records *mcpclient.Recorder) (*mcpclient.Conn, error) {
	cfg := mcpclient.Config{
		Target:         e.cf.target,
		Protocol:       e.cf.protocol,
		ConnectTimeout: e.cf.connectTimeout,
		Capabilities:   mcpclient.CapabilityOptions{FormElicitation: !e.cf.noFormElicitation},
		Asker:          asker,
		Wire:           e.wire,
		Records:        records,
		Roots:          e.cf.roots,
		OfferRoots:     e.cf.offerRoots,
		LogLevel:       e.cf.logLevel,
		TLS:            e.cf.tls.config,
		MaxMessageSize: int64(e.cf.maxMessage),
		// A headless run's stderr shows no list changes.
		IgnoreListChanges: e.ignoreListChanges,
	}
	if s, ok := asker.(mcpclient.Sampler); ok {
		cfg.Sampler = s
	}
	cfg.OnEvent = e.onEvent
	if l, ok := asker.(mcpclient.Listener); ok {
		cfg.OnEvent = l.OnEvent
	}
	if e.cf.target.Kind == mcpclient.TargetHTTP && !e.cf.target.SSE { // the SSE transport takes no OAuth handler
		show, paste := e.showAuth, e.pasteAuth
		if p, ok := asker.(mcpclient.AuthPrompter); ok {
			show, paste = p.ShowAuth, p.PasteAuth
		}
		a, err := e.cf.authorizer(ctx, e.wire, show, paste)
		if err != nil {
			return nil, err
		}
		cfg.Auth = a // closed with the connection
	}
	if e.host != nil {
		cfg.Renderer = e.host
	}
	conn, err := mcpclient.Connect(ctx, cfg)
	if err == nil {
		if rerr := e.rec.connected(conn); rerr != nil {
			e.wire.Note("--record: " + rerr.Error())
		}
	}
	return conn, err
}

// close closes what open opened, the app host before the wire log file it
// writes to.
func (e *endpoint) close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// headless runs do on one connection made for a run without the inspector:
// within --timeout, with URLs to open shown on stderr.
func (cf *connFlags) headless(ctx context.Context, s streams, asker mcpclient.NativeAsker, records *mcpclient.Recorder,
	do func(context.Context, *mcpclient.Conn) error) error {
	// Asked before --timeout counts: the person's time is not the server's.
	if err := cf.approve(ctx, s.errOut); err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, cf.timeout)
	defer cancel()
	e, err := cf.open(s.secrets, func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) })
	if err != nil {
		return err
	}
	defer cf.finishRecording(s.errOut)
	defer e.close()
	if cf.tls.opts.Insecure {
		fmt.Fprintln(s.errOut, insecureWarning)
	}
	progress := progressOff
	switch {
	case isTerminal(s.errOut):
		progress = progressInPlace
	case cf.progress:
		progress = progressLines
	}
	events := newStderrEvents(s.errOut, progress, cf.logLevel != "")
	defer events.close()
	e.onEvent = events.OnEvent
	e.ignoreListChanges = true // stderrEvents shows none
	cf.events, cf.host = events, e.host
	e.showAuth = func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) }
	if (cf.noBrowser || isTerminal(os.Stdin)) && !cf.stdinTaken {
		e.pasteAuth = pasteFromStdin
	}
	conn, err := e.connect(ctx, asker, records)
	if err != nil {
		return cf.doctorHint(ctx, err)
	}
	defer conn.Close()
	err = do(ctx, conn)
	if cf.logLevel != "" {
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
func (cf *connFlags) doctorHint(ctx context.Context, err error) error {
	if ctx.Err() != nil || !errors.As(err, new(*mcpclient.ConnectError)) {
		return err
	}
	return fmt.Errorf("%w; %s checks each step", err, cf.doctorCommand())
}

// doctorCommand is the mcpeek doctor command line for the run's server,
// with no secrets: a config's server by its name, a URL without its
// query's values, a command as the error names it.
func (cf *connFlags) doctorCommand() string {
	sel := cf.selection
	switch {
	case sel.entry != nil:
		words := []string{"mcpeek", "doctor"}
		if sel.configPath != "" {
			words = append(words, "--config", doctorArg(sel.configPath))
		}
		return strings.Join(append(words, doctorArg("@"+sel.entry.Name)), " ")
	case cf.target.Kind == mcpclient.TargetHTTP:
		if shown := cf.target.String(); shown != cf.target.URL {
			return "mcpeek doctor " + shown // its query or password left for the person to give again
		}
		return "mcpeek doctor " + doctorArg(cf.target.URL)
	case cf.target.Kind == mcpclient.TargetStdio:
		words := make([]string, len(cf.target.Command))
		for i, w := range cf.target.Command {
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
		case <-cf.events.updated:
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

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok { // the redacting writer of streams
		w = u.Unwrap()
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// theme is the terminal's theme, asked of the terminal once per run.
func (cf *connFlags) theme() string {
	if cf.termTheme == "" {
		cf.termTheme = terminalTheme()
	}
	return cf.termTheme
}

// terminalTheme is "dark" or "light", after the terminal's background,
// for the apps mcpeek hosts; "light" when stderr is no terminal.
func terminalTheme() string {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return "light"
	}
	if termenv.NewOutput(os.Stderr).HasDarkBackground() {
		return "dark"
	}
	return "light"
}

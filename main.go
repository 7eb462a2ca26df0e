// Command mcpeek is a terminal MCP inspector whose speciality is
// elicitations: it connects to one MCP server, lists and calls what it
// offers, and answers the questions the server asks of its user.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Exit codes (DESIGN §9).
const (
	exitOK          = 0
	exitToolError   = 1
	exitUsage       = 2
	exitConnection  = 3
	exitTimeout     = 124
	exitInterrupted = 130
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errInterrupted is the cause when Ctrl+C cancelled a form.
var errInterrupted = errors.New("interrupted")

// usageError is a command-line mistake or bad input: exit 2 with one line
// on stderr (and a pointer to the help for flag mistakes).
type usageError struct {
	msg  string
	hint bool
}

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{msg: fmt.Sprintf(format, args...)} }

// exitError carries an exit code chosen where the failure happened.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit code %d", e.code)
	}
	return e.err.Error()
}

// run is mcpeek's whole life, testable in-process.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var err error
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "call":
		err = runCall(ctx, args[1:], stdout, stderr)
	case "list":
		err = runList(ctx, args[1:], stdout, stderr)
	case "caps":
		err = runCaps(ctx, args[1:], stdout, stderr)
	case "fixture":
		err = runFixture(ctx, args[1:], stdout, stderr)
	case "help":
		err = runHelp(args[1:], stdout)
	case "version":
		fmt.Fprintf(stdout, "mcpeek %s\n", mcpclient.Version)
	default:
		if isMistypedCommand(args) {
			err = usageError{msg: fmt.Sprintf("unknown command %q", args[0]), hint: true}
			break
		}
		err = runRoot(ctx, args, stdout, stderr)
	}
	return report(ctx, err, stderr)
}

// isMistypedCommand tells "mcpeek frob" (a typo of a subcommand) from
// "mcpeek server-command": a bare first word that is no program on PATH.
// "--" or a path ("./server") always means a server command.
func isMistypedCommand(args []string) bool {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") || strings.ContainsAny(args[0], "/\\") ||
		strings.HasPrefix(args[0], "http://") || strings.HasPrefix(args[0], "https://") {
		return false
	}
	_, err := exec.LookPath(args[0])
	return err != nil
}

// report prints err as one line and maps it to an exit code.
func report(ctx context.Context, err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "mcpeek: %s\n", oneLine(ue.msg))
		if ue.hint {
			fmt.Fprintln(stderr, "Run 'mcpeek help' for usage.")
		}
		return exitUsage
	}
	var ee exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "mcpeek: %s\n", oneLine(ee.err.Error()))
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "mcpeek: %s\n", oneLine(err.Error()))
	switch {
	case ctx.Err() != nil:
		return exitInterrupted
	case errors.Is(err, context.DeadlineExceeded):
		return exitTimeout
	}
	return exitConnection
}

// oneLine makes a message, which may quote the server, safe for one line of
// a terminal: escape sequences are shown, not obeyed, and line breaks
// cannot forge further lines.
func oneLine(s string) string {
	return strings.Join(strings.Fields(formschema.Clean(s)), " ")
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// connFlags are the flags every command that connects shares.
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
}

func (cf *connFlags) register(fs *flagSet, headless bool) {
	fs.StringVar(&cf.protocol, "protocol", "auto", "protocol revision: auto, legacy (2025-11-25), modern (2026-07-28, required) or a revision date to require")
	fs.Var(&cf.headers, "H", "add an HTTP header \"Name: Value\" (URL servers; repeatable)")
	fs.Var(&cf.env, "e", "add KEY=VALUE to the server command's environment (repeatable)")
	fs.DurationVar(&cf.connectTimeout, "connect-timeout", 30*time.Second, "how long to wait for the server to connect")
	fs.BoolVar(&cf.appHost, "app-host", false, "render app-requested form elicitations in the server's MCP App, in the browser")
	fs.StringVar(&cf.appHostAddr, "app-host-addr", "", "listen address of the app host (default: a free port on 127.0.0.1)")
	fs.BoolVar(&cf.noBrowser, "no-browser", false, "with --app-host: show the URL to open instead of launching a browser")
	fs.StringVar(&cf.openWith, "open-with", "", "with --app-host: run this shell `COMMAND` with the URL as its last argument instead of the browser")
	fs.DurationVar(&cf.appInitTimeout, "app-init-timeout", 15*time.Second, "with --app-host: how long the page and app may take to start")
	fs.DurationVar(&cf.appTimeout, "app-timeout", 10*time.Minute, "with --app-host: how long the app may take to answer")
	fs.BoolVar(&cf.noFormElicitation, "no-form-elicitation", false, "do not advertise form elicitation")
	fs.StringVar(&cf.wireLog, "wire-log", "", "write the raw JSON-RPC traffic and server stderr to `FILE` as JSON lines")
	if headless {
		fs.DurationVar(&cf.timeout, "timeout", 0, "give up after this long (exit 124); 0 waits forever")
	}
}

// flagSet is a subcommand's flags and the help that -h prints on stdout.
type flagSet struct {
	*flag.FlagSet
	help func()
}

// newFlagSet makes a flag set that prints nothing itself: -h prints the
// help on stdout, and a mistake becomes a one-line usage error.
func newFlagSet(name, synopsis string, stdout io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.help = func() {
		fmt.Fprintf(stdout, "usage: %s\n\nflags:\n", synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses flags and turns a flag error into a usage error.
func parse(fs *flagSet, args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, err
		}
		msg := err.Error()
		if fs.Name() != "mcpeek" {
			msg = fs.Name() + ": " + msg
		}
		return nil, usageError{msg: msg, hint: true}
	}
	return fs.Args(), nil
}

// session is an open connection plus what closes it.
type session struct {
	conn    *mcpclient.Conn
	closers []func()
}

func (s *session) close() {
	if s.conn != nil {
		_ = s.conn.Close()
	}
	for _, c := range s.closers {
		c()
	}
}

// connect opens the connection the flags and words describe.
func connect(ctx context.Context, cf *connFlags, words []string, asker mcpclient.NativeAsker, records *mcpclient.Recorder, stderr io.Writer) (*session, error) {
	if err := mcpclient.CheckProtocol(cf.protocol); err != nil {
		return nil, usagef("--protocol: %v", err)
	}
	target, err := mcpclient.ParseTarget(words, cf.headers, cf.env, func() *mcp.Server { return fixture.New(fixture.Options{}) })
	if err != nil {
		return nil, usagef("%v", err)
	}
	s := &session{}
	var sink io.Writer
	if cf.wireLog != "" {
		f, err := os.Create(cf.wireLog)
		if err != nil {
			return nil, usagef("--wire-log: %v", err)
		}
		s.closers = append(s.closers, func() { _ = f.Close() })
		sink = f
	}
	wire := mcpclient.NewWireLog(0, sink)
	var renderer mcpclient.AppRenderer
	if cf.appHost {
		host, err := startAppHost(cf, wire, func(text string) { fmt.Fprintln(stderr, "mcpeek: "+text) })
		if err != nil {
			s.close()
			return nil, err
		}
		s.closers = append(s.closers, func() { _ = host.Close() })
		renderer = host
	}
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:         target,
		Protocol:       cf.protocol,
		ConnectTimeout: cf.connectTimeout,
		Capabilities:   mcpclient.CapabilityOptions{FormElicitation: !cf.noFormElicitation},
		Asker:          asker,
		Renderer:       renderer,
		Wire:           wire,
		Records:        records,
	})
	if err != nil {
		s.close()
		return nil, err
	}
	s.conn = conn
	return s, nil
}

// startAppHost starts the app host the flags describe; notify shows the
// person a URL to open, and the host's diagnostics go to the wire log.
func startAppHost(cf *connFlags, wire *mcpclient.WireLog, notify func(string)) (*apphost.Host, error) {
	open := apphost.SystemBrowser(cf.noBrowser)
	if cf.openWith != "" {
		open = apphost.OpenWith(cf.openWith)
	}
	host, err := apphost.Start(apphost.Options{
		Addr: cf.appHostAddr, InitTimeout: cf.appInitTimeout, AnswerTimeout: cf.appTimeout,
		Open: open, Notify: notify, Version: mcpclient.Version,
		Logf: func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
	})
	if err != nil {
		return nil, usagef("--app-host: %v", err)
	}
	return host, nil
}

// withTimeout applies --timeout to a headless run.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode output: %w", err)
	}
	_, err = w.Write(append(escapeC1(b), '\n'))
	return err
}

// escapeC1 writes the C1 controls (U+0080 to U+009F) in JSON as \u escapes:
// encoding/json leaves them raw, and some terminals obey them (U+009B is
// CSI). In valid UTF-8 each is 0xC2 and a byte below 0xA0, and in JSON
// output they can only occur inside strings.
func escapeC1(b []byte) []byte {
	if bytes.IndexByte(b, 0xc2) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] < 0xa0 {
			out = fmt.Appendf(out, `\u%04x`, b[i+1])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}

const callSynopsis = "mcpeek call TOOL [--args JSON] [--answers FILE] [--on-elicit cancel|decline|accept-defaults] [--elicit-log FILE] [flags] [--] [SERVER...]"

func runCall(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cf connFlags
	var argsJSON, answersPath, onElicit, elicitLog string
	var interactive, plain bool
	var elicitTimeout time.Duration
	fs := newFlagSet("call", callSynopsis, stdout)
	cf.register(fs, true)
	fs.StringVar(&argsJSON, "args", "", "tool arguments as a JSON object")
	fs.StringVar(&answersPath, "answers", "", "answer elicitations from this JSON `FILE`")
	fs.StringVar(&onElicit, "on-elicit", "cancel", "answer unmatched elicitations: cancel, decline or accept-defaults")
	fs.StringVar(&elicitLog, "elicit-log", "", "write one JSON record per elicitation to `FILE`")
	fs.BoolVar(&interactive, "interactive", false, "answer elicitations in a form on the terminal (drawn on stderr; the result still goes to stdout)")
	fs.BoolVar(&plain, "plain", os.Getenv("TERM") == "dumb", "with --interactive: ask field by field with line prompts")
	fs.DurationVar(&elicitTimeout, "elicit-timeout", 2*time.Minute, "with --interactive: cancel a form nobody answers within this time (0: never)")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("call: name the tool to call")
	}
	tool := rest[0]
	// Flags may also follow the tool name.
	if rest, err = parse(fs, rest[1:]); err != nil {
		return err
	}
	var toolArgs json.RawMessage
	if argsJSON != "" {
		var obj map[string]any
		if err := json.Unmarshal([]byte(argsJSON), &obj); err != nil || obj == nil {
			return usagef("--args must be a JSON object: %s", jsonProblem(err))
		}
		toolArgs = json.RawMessage(argsJSON)
	}
	policy, err := mcpclient.ParsePolicy(onElicit)
	if err != nil {
		return usagef("%v", err)
	}
	headless := &mcpclient.HeadlessAsker{Policy: policy, Stderr: stderr}
	if answersPath != "" {
		if headless.Answers, err = mcpclient.LoadAnswers(answersPath); err != nil {
			return usagef("%v", err)
		}
	}
	if interactive && (answersPath != "" || onElicit != "cancel") {
		return usagef("call: --interactive answers in the terminal; it does not combine with --answers or --on-elicit")
	}
	var asker mcpclient.NativeAsker = headless
	ctx, interrupt := context.WithCancelCause(ctx)
	defer interrupt(nil)
	if interactive {
		asker = &tui.FormAsker{
			In: os.Stdin, Out: stderr, Log: stderr, Plain: plain, Timeout: elicitTimeout,
			Interrupt: func() { interrupt(errInterrupted) },
		}
	}
	var logSink io.Writer
	if elicitLog != "" {
		f, err := os.Create(elicitLog)
		if err != nil {
			return usagef("--elicit-log: %v", err)
		}
		defer f.Close()
		logSink = f
	}
	ctx, cancel := withTimeout(ctx, cf.timeout)
	defer cancel()
	s, err := connect(ctx, &cf, rest, asker, mcpclient.NewRecorder(logSink), stderr)
	if err != nil {
		return err
	}
	defer s.close()
	res, err := s.conn.Call(ctx, tool, toolArgs)
	if errors.Is(context.Cause(ctx), errInterrupted) {
		return exitError{exitInterrupted, errInterrupted}
	}
	if err != nil {
		return err
	}
	if err := writeJSON(stdout, res); err != nil {
		return err
	}
	if headless.Rejected() > 0 { // each was reported on stderr as it happened
		return exitError{code: exitUsage}
	}
	if res.IsError {
		return exitError{code: exitToolError}
	}
	return nil
}

func jsonProblem(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

const listSynopsis = "mcpeek list tools|resources|prompts [flags] [--] [SERVER...]"

func runList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cf connFlags
	fs := newFlagSet("list", listSynopsis, stdout)
	cf.register(fs, true)
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return usagef("list: say what to list: tools, resources or prompts")
	}
	what := rest[0]
	switch what {
	case "tools", "resources", "prompts":
	default:
		return usagef("list: cannot list %q (want tools, resources or prompts)", what)
	}
	if rest, err = parse(fs, rest[1:]); err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, cf.timeout)
	defer cancel()
	s, err := connect(ctx, &cf, rest, &mcpclient.HeadlessAsker{Stderr: stderr}, nil, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	out, err := s.conn.List(ctx, what)
	if err != nil {
		return fmt.Errorf("list %s: %w", what, err)
	}
	return writeJSON(stdout, out)
}

const capsSynopsis = "mcpeek caps [flags] [--] [SERVER...]"

func runCaps(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cf connFlags
	fs := newFlagSet("caps", capsSynopsis, stdout)
	cf.register(fs, true)
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, cf.timeout)
	defer cancel()
	s, err := connect(ctx, &cf, rest, &mcpclient.HeadlessAsker{Stderr: stderr}, nil, stderr)
	if err != nil {
		return err
	}
	defer s.close()
	return writeJSON(stdout, s.conn.Caps())
}

const fixtureSynopsis = "mcpeek fixture [--http ADDR] [--stateless] [--no-app-elicitation]"

func runFixture(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var httpAddr string
	var stateless, noApp bool
	fs := newFlagSet("fixture", fixtureSynopsis, stdout)
	fs.StringVar(&httpAddr, "http", "", "serve streamable HTTP on `ADDR` (for example 127.0.0.1:8080) instead of stdio")
	fs.BoolVar(&stateless, "stateless", false, "with --http: serve without sessions")
	fs.BoolVar(&noApp, "no-app-elicitation", false, "do not advertise app-rendered elicitation")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("fixture: unexpected arguments: %s", strings.Join(rest, " "))
	}
	if stateless && httpAddr == "" {
		return usagef("fixture: --stateless needs --http")
	}
	opts := fixture.Options{NoAppElicitation: noApp}
	if httpAddr == "" {
		err := fixture.New(opts).Run(ctx, &mcp.StdioTransport{})
		if err != nil && ctx.Err() == nil {
			return exitError{exitConnection, fmt.Errorf("fixture: %w", err)}
		}
		return nil
	}
	ln, err := net.Listen("tcp", httpAddr)
	if err != nil {
		return exitError{exitConnection, fmt.Errorf("fixture: %w", err)}
	}
	srv := &http.Server{Handler: fixture.HTTPHandler(opts, stateless), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stderr, "mcpeek fixture: serving streamable HTTP on http://%s/\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return exitError{exitConnection, fmt.Errorf("fixture: %w", err)}
	}
	return nil
}

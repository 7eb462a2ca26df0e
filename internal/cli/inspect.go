package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"al.essio.dev/pkg/shellescape"
	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inspectOptions are the inspector's, `mcpeek [flags] [--] [SERVER...]`.
type inspectOptions struct {
	conn          connFlags
	version       bool
	elicitTimeout time.Duration
	words         []string // the server as given; set by parse
}

func newInspectOptions(fs *flagSet) options {
	o := &inspectOptions{}
	o.conn.register(fs, false)
	o.conn.registerRecord(fs)
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	fs.DurationVar(&o.elicitTimeout, "elicit-timeout", 2*time.Minute, "cancel an elicitation nobody answers within this time (0: never)")
	return o
}

func (o *inspectOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil || o.version {
		return err
	}
	o.words = rest
	if err := o.conn.checkRecord(); err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

// run is the inspector on a terminal; in a pipe or a script it prints a
// summary of the server and the commands to try against it.
func (o *inspectOptions) run(ctx context.Context, s streams) error {
	switch {
	case o.version:
		printVersion(s.out)
		return nil
	case !s.interactive():
		return o.conn.headless(ctx, s, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
			return summarize(ctx, conn, o.words, s.out)
		})
	}
	return o.inspect(ctx, s)
}

// inspect runs the full-screen inspector, drawn on stderr; it connects, and
// reconnects, through the endpoint.
func (o *inspectOptions) inspect(ctx context.Context, s streams) error {
	// The person adds and removes roots in the inspector.
	o.conn.OfferRoots = true
	// Still on the terminal once the inspector's screen is gone.
	if err := o.conn.approve(ctx, s.term, s.terminal()); err != nil {
		return err
	}
	// The inspector's app card shows each tab's URL, so nothing to notify.
	e, err := o.conn.open(s, func(string) {})
	if err != nil {
		return err
	}
	defer o.conn.finishRecording(s.term)
	defer e.Close()
	if o.conn.TLS.Insecure {
		// Still on the terminal once the inspector's screen is gone.
		fmt.Fprintln(s.term, insecureWarning)
	}
	opts := tui.Options{
		Target:        o.conn.Target.String(),
		SuiteServer:   suiteServer(&o.conn),
		Source:        o.conn.selection.SourceText(),
		Insecure:      o.conn.TLS.Insecure,
		Wire:          e.Wire, // the server's stderr, for a connection that failed
		ElicitTimeout: o.elicitTimeout,
		OpenURL:       apphost.WebOnly(apphost.SystemBrowser(o.conn.NoBrowser)),
		Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
			return e.Connect(ctx, asker, mcpclient.NewRecorder(nil))
		},
	}
	opts.ForgetAuth = forgetAuth(o.conn.Config)
	opts.Recorder = o.conn.rec
	if o.conn.rec == nil {
		opts.Recorder = &recording{}
	}
	opts.Servers = o.serverEntries(e)
	if e.Host != nil {
		opts.AppHost = "127.0.0.1:" + strconv.Itoa(e.Host.Port())
		opts.AppURL = e.Host.URL
		opts.AppSSHHint = e.Host.SSHHint()
		opts.ToolApps = e.Host
		opts.Theme = o.conn.theme(s) // asked of the terminal once, as the app host did
	}
	return tui.Run(ctx, opts, s.in, s.term)
}

// forgetAuth forgets a URL server's stored tokens, so that the
// reconnection logs in afresh (nil for other servers).
func forgetAuth(cfg session.Config) func() error {
	if cfg.Target.Kind != mcpclient.TargetHTTP {
		return nil
	}
	return func() error {
		store, err := cfg.Auth.Store()
		if err != nil || store == nil {
			return err
		}
		_, err = store.Remove(cfg.Target.URL)
		return err
	}
}

// summarize prints what the server is and offers, and commands to try.
func summarize(ctx context.Context, c *mcpclient.Conn, words []string, out io.Writer) error {
	// Most of the summary is the server's own words: it is written out
	// cleaned, so that escape sequences in them are shown, not obeyed.
	w := &strings.Builder{}
	defer func() { _, _ = io.WriteString(out, formschema.Clean(w.String())) }()
	info := c.ServerInfo()
	title := info.Title
	if title == "" {
		title = info.Name
	}
	era := "legacy era: elicitations arrive as elicitation/create requests"
	if c.ProtocolVersion() >= mcpclient.ProtocolModern {
		era = "modern era: elicitations arrive inside input_required results"
	}
	fmt.Fprintf(w, "%s (%s %s) via %s\n", title, info.Name, info.Version, c.Target())
	fmt.Fprintf(w, "protocol %s (%s)\n\n", c.ProtocolVersion(), era)
	client := c.SentCapabilities()
	server, _ := json.Marshal(c.ServerCapabilities())
	fmt.Fprintf(w, "client capabilities: %s\nserver capabilities: %s\n", client, server)
	if ins := c.Instructions(); ins != "" {
		fmt.Fprintf(w, "instructions: %s\n", ins)
	}
	if !offers(c.ServerCapabilities(), "tools") {
		fmt.Fprintf(w, "\ntools: none (the server does not offer tools)\n")
		writeTries(w, words)
		return nil
	}
	list, err := c.List(ctx, "tools")
	if err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	tools, _ := list["tools"].([]*mcp.Tool)
	fmt.Fprintf(w, "\ntools (%d):\n", len(tools))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range tools {
		desc, _, _ := strings.Cut(t.Description, "\n")
		if !mcpclient.ModelVisible(t) {
			desc = "(for its app only) " + desc
		}
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, desc)
	}
	tw.Flush()
	writeTries(w, words)
	return nil
}

// writeTries suggests commands to run against the server words name.
func writeTries(w io.Writer, words []string) {
	self := selfName()
	fmt.Fprintf(w, "\ntry:\n")
	if len(words) == 0 {
		fmt.Fprintf(w, "  %s call choose_option --answers testdata/answers/choose-option-a.json\n", self)
		fmt.Fprintf(w, "  %s call choose_option --on-elicit decline\n", self)
		fmt.Fprintf(w, "  %s call all_fields --on-elicit accept-defaults\n", self)
		fmt.Fprintf(w, "  %s call multi_round --answers testdata/answers/multi-round.json --protocol legacy\n", self)
		fmt.Fprintf(w, "  %s call ask_model --answers testdata/answers/sampling.json\n", self)
		fmt.Fprintf(w, "  %s caps -- %s fixture\n", self, self)
		return
	}
	server := " -- " + shellescape.QuoteCommand(words)
	fmt.Fprintf(w, "  %s list tools%s\n", self, server)
	fmt.Fprintf(w, "  %s call TOOL --args '{}' --on-elicit decline%s\n", self, server)
	fmt.Fprintf(w, "  %s caps%s\n", self, server)
}

// selfName is how a person runs this program: "go run ." under go run.
func selfName() string { return session.SelfName() }

// suiteServer is the server as a suite the inspector's + makes names it:
// @NAME for a server of the MCP configs, the command and its arguments,
// or the URL without its query or user (which may hold keys: a suite is
// committed); nil for the embedded fixture.
func suiteServer(cf *connFlags) []string {
	if cf.selection.ServerName != "" {
		return []string{"@" + cf.selection.ServerName}
	}
	return targetWords(cf.Target)
}

// targetWords are a target as a suite names its server: the command and
// its arguments, or the URL without its credentials, query or fragment.
func targetWords(t mcpclient.Target) []string {
	switch t.Kind {
	case mcpclient.TargetStdio:
		return append([]string(nil), t.Command...)
	case mcpclient.TargetHTTP:
		u, err := url.Parse(t.URL)
		if err != nil {
			return nil
		}
		u.User, u.RawQuery, u.Fragment = nil, "", ""
		return []string{u.String()}
	}
	return nil
}

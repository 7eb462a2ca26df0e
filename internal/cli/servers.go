package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"al.essio.dev/pkg/shellescape"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/completion"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serversOptions are `mcpeek servers`'s: every server the configs name.
type serversOptions struct {
	configPath string
	json       bool
	names      bool
	wrap       wrapOptions
}

func newServersOptions(fs *flagSet) options {
	o := &serversOptions{}
	fs.StringVar(&o.configPath, "config", "", "list the servers of this MCP config `FILE` only")
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.BoolVar(&o.names, "names", false, "print only the names, one a line, for shell completion (a name with other than letters, digits and . _ + - / is left out)")
	o.wrap.register(fs)
	return o
}

func (o *serversOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("servers: unexpected arguments: %s", strings.Join(rest, " "))
	}
	if o.json && o.names {
		return usagef("servers: --json or --names, not both")
	}
	return o.wrap.check(o.json || o.names)
}

func (o *serversOptions) run(_ context.Context, s streams) error {
	servers, looked, err := session.Discover(o.configPath)
	if err != nil {
		return usagef("%v", err)
	}
	if o.wrap.name != "" {
		return o.wrap.run(s, servers)
	}
	listed, err := session.Listings(servers, looked)
	if err != nil {
		return usagef("%v", err)
	}
	if o.names {
		return writeNames(s.out, listed)
	}
	if o.json {
		return writeJSON(s.out, struct {
			Servers []session.Listing   `json:"servers"`
			Files   []session.LookedFor `json:"files"`
		}{listed, looked})
	}
	return writeServers(s.out, listed, looked)
}

// writeNames writes each name @NAME may take, once, in the order found:
// a project's unapproved servers too (naming one runs nothing; using it
// asks first), but only names no shell reads as more than text.
func writeNames(w io.Writer, listed []session.Listing) error {
	seen := map[string]bool{}
	for _, l := range listed {
		if seen[l.Name] || !completion.CompletableName(l.Name) {
			continue
		}
		seen[l.Name] = true
		if _, err := fmt.Fprintln(w, l.Name); err != nil {
			return err
		}
	}
	return nil
}

// writeServers writes the table of servers, or where discovery looked
// when it found none.
func writeServers(w io.Writer, listed []session.Listing, looked []session.LookedFor) error {
	if len(listed) == 0 {
		fmt.Fprintln(w, "no MCP servers found; looked for:")
		for _, l := range looked {
			fmt.Fprintf(w, "  %s\n", session.DisplayPath(l.Path))
		}
		return nil
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tTRANSPORT\tCOMMAND OR URL\tSOURCE\tNOTES")
	for _, l := range listed {
		what := l.CommandOrURL()
		transport := l.Transport
		if l.Error != "" {
			transport = "invalid"
		}
		source := session.DisplayPath(l.File)
		if dir, ok := strings.CutPrefix(l.Scope, "project "); ok {
			source += " (project " + session.DisplayPath(dir) + ")"
		} else if l.Scope != "" {
			source += " (" + l.Scope + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", textclean.OneLine(l.Name), transport, textclean.OneLine(what), textclean.OneLine(source), textclean.OneLine(l.Notes()))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The padding of an empty last column is not kept.
	for line := range strings.Lines(b.String()) {
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " \n")); err != nil {
			return err
		}
	}
	return nil
}

// commandLine joins a command's words, quoted for a POSIX shell, so that
// it can be pasted back.
func commandLine(words []string) string { return shellescape.QuoteCommand(words) }

// serverEntries lists, for the inspector's server picker, the demo fixture
// and every server the configs name (--config's alone when given); each
// is connected to through e, so the wire log and app host stay.
func (o *inspectOptions) serverEntries(e *session.Endpoint) func() ([]tui.ServerEntry, error) {
	return func() ([]tui.ServerEntry, error) {
		servers, looked, err := session.Discover(o.conn.selection.ConfigPath)
		if err != nil {
			return nil, err
		}
		fixtureTarget := mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }}
		entries := []tui.ServerEntry{{
			Name: "fixture", Transport: "memory", What: fixtureTarget.String(), Source: "mcpeek (the demo)",
			Choose: func() (tui.Switch, error) { return o.switchTo(e, fixtureTarget, session.Selection{}), nil },
		}}
		listed, err := session.Listings(servers, looked)
		if err != nil {
			return nil, err
		}
		for i, l := range listed {
			entries = append(entries, o.pickerEntry(e, servers[i], l))
		}
		return entries, nil
	}
}

// pickerEntry is one config's entry in the picker. A project's entry the
// person has not approved cannot be chosen there (the inspector holds the
// terminal): the note says how to approve it.
func (o *inspectOptions) pickerEntry(e *session.Endpoint, srv *mcpconfig.Server, l session.Listing) tui.ServerEntry {
	sel := session.Chosen(o.conn.selection.ConfigPath, srv, l.Client, o.conn.selection.TrustProject)
	entry := tui.ServerEntry{
		Name: l.Name, Transport: l.Transport, What: l.CommandOrURL(), Source: session.DisplayPath(l.File),
		Note: l.Notes(), Key: sel.SourceText(),
	}
	if l.Client != "" {
		entry.Source += " (" + l.Client + ")"
	}
	switch {
	case l.Error != "":
	case l.NeedsApproval && !o.conn.selection.TrustsProjects():
		entry.Note = fmt.Sprintf("a project's server, not approved yet: run %s @%s once on a terminal to approve it, or start the inspector with --trust-project", session.SelfName(), textclean.OneLine(l.Name))
		if len(l.Hides) > 0 {
			entry.Note += "; it hides yours in " + session.DisplayPath(l.Hides[0])
		}
	default:
		entry.Choose = func() (tui.Switch, error) { return o.chooseEntry(e, sel) }
	}
	return entry
}

// chooseEntry resolves a config's entry for the inspector. The command
// line's -H and -e were for the server it named, so they are left out;
// VS Code inputs are asked on the terminal, which the inspector holds, so
// an entry that needs them is started with mcpeek @NAME instead.
func (o *inspectOptions) chooseEntry(e *session.Endpoint, sel session.Selection) (tui.Switch, error) {
	if ok, err := session.Approved(sel.Entry()); !o.conn.selection.TrustsProjects() && (err != nil || !ok) {
		return tui.Switch{}, session.NotApproved(sel.Entry(), cmp.Or(err, errors.New("the inspector does not ask")))
	}
	if err := sel.Resolve(nil); err != nil {
		return tui.Switch{}, err
	}
	if sel.NeedsInput() {
		return tui.Switch{}, fmt.Errorf("it asks for VS Code inputs, which mcpeek asks on the terminal before the inspector opens: run %s @%s", session.SelfName(), sel.Entry().Name)
	}
	for _, secret := range sel.Secrets() {
		e.Wire.Secret(secret)
	}
	return o.switchTo(e, sel.Target(), sel), nil
}

// switchTo is the connection to target through e, with the flags given
// for the inspector otherwise.
func (o *inspectOptions) switchTo(e *session.Endpoint, target mcpclient.Target, sel session.Selection) tui.Switch {
	cfg := e.Config()
	cfg.Target, cfg.Secrets = target, sel.Secrets()
	if target.Kind != o.conn.Target.Kind || target.URL != o.conn.Target.URL {
		// A pre-registered OAuth client and its scopes are the server's
		// named at start; another server's authorization server has its own.
		cfg.Auth.ClientID, cfg.Auth.ClientSecret, cfg.Auth.Scope = "", "", ""
	}
	next := e.With(cfg)
	return tui.Switch{
		Target: target.String(), Source: sel.SourceText(),
		Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
			return next.Connect(ctx, asker, mcpclient.NewRecorder(nil))
		},
		ForgetAuth: forgetAuth(cfg),
	}
}

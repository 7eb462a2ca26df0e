package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
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

// serverListing is one server of `mcpeek servers --json`. Environment and
// header values may be secret: only their names are listed.
type serverListing struct {
	Name      string   `json:"name"`
	Transport string   `json:"transport,omitempty"`
	Command   string   `json:"command,omitempty"`
	Args      []string `json:"args,omitempty"`
	URL       string   `json:"url,omitempty"`
	Env       []string `json:"env,omitempty"`
	Headers   []string `json:"headers,omitempty"`
	File      string   `json:"file"`
	Client    string   `json:"client,omitempty"`
	Format    string   `json:"format"`
	Scope     string   `json:"scope,omitempty"`
	// Shadowed: an earlier config names a server the same; that one is
	// the one @NAME reaches.
	Shadowed bool `json:"shadowed,omitempty"`
	// Project: a project's config names it (one found from the working
	// directory up), so it is used only once approved; NeedsApproval: the
	// person has not approved it as it is now.
	Project       bool `json:"project,omitempty"`
	NeedsApproval bool `json:"needsApproval,omitempty"`
	// Hides are the person's own configs naming a server the same, which
	// @NAME does not reach while the project's is there.
	Hides    []string `json:"hides,omitempty"`
	Disabled bool     `json:"disabled,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// lookedFor is a config file discovery looked for.
type lookedFor struct {
	Path    string `json:"path"`
	Client  string `json:"client,omitempty"`
	Present bool   `json:"present"`
}

func (o *serversOptions) run(_ context.Context, s streams) error {
	servers, looked, err := o.discover()
	if err != nil {
		return usagef("%v", err)
	}
	if o.wrap.name != "" {
		return o.wrap.run(s, servers)
	}
	listed, err := listings(servers, looked)
	if err != nil {
		return usagef("%v", err)
	}
	if o.names {
		return writeNames(s.out, listed)
	}
	if o.json {
		return writeJSON(s.out, struct {
			Servers []serverListing `json:"servers"`
			Files   []lookedFor     `json:"files"`
		}{listed, looked})
	}
	return writeServers(s.out, listed, looked)
}

// writeNames writes each name @NAME may take, once, in the order found:
// a project's unapproved servers too (naming one runs nothing; using it
// asks first), but only names no shell reads as more than text.
func writeNames(w io.Writer, listed []serverListing) error {
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

// listings describe the servers found, each with whose config it is in,
// whether an earlier one has its name, and, for a project's, whether the
// person approved it and which of their own it hides.
func listings(servers []*mcpconfig.Server, looked []lookedFor) ([]serverListing, error) {
	clients := map[string]string{}
	for _, l := range looked {
		clients[l.Path] = l.Client
	}
	listed := make([]serverListing, 0, len(servers))
	seen := map[string]bool{}
	for _, srv := range servers {
		l := listing(srv, clients[srv.File], seen[srv.Name])
		seen[srv.Name] = true
		if srv.FromProject {
			ok, err := session.Approved(srv)
			if err != nil {
				return nil, err
			}
			l.Project, l.NeedsApproval = true, !ok
			for _, other := range servers {
				if !l.Shadowed && strings.EqualFold(other.Name, srv.Name) && !other.FromProject { // as Found.Shadowed
					l.Hides = append(l.Hides, absPath(other.File))
				}
			}
		}
		listed = append(listed, l)
	}
	return listed, nil
}

// commandOrURL is what a listing runs or reaches, as a table shows it.
func (l serverListing) commandOrURL() string {
	if l.Transport == mcpconfig.TransportStdio {
		return commandLine(append([]string{l.Command}, l.Args...))
	}
	return l.URL
}

// discover reads --config, or every config discovery finds.
func (o *serversOptions) discover() ([]*mcpconfig.Server, []lookedFor, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, nil, err
	}
	if o.configPath != "" {
		f, err := mcpconfig.Load(o.configPath, mcpconfig.Options{Dir: dir})
		if err != nil {
			return nil, nil, err
		}
		return f.Servers, []lookedFor{{Path: absPath(o.configPath), Present: true}}, nil
	}
	places, err := mcpconfig.DefaultPlaces()
	if err != nil {
		return nil, nil, err
	}
	found, err := mcpconfig.Discover(places)
	if err != nil {
		return nil, nil, err
	}
	present := map[string]bool{}
	for _, f := range found.Files {
		present[f.Path] = true
	}
	var looked []lookedFor
	for _, c := range found.Looked {
		looked = append(looked, lookedFor{Path: c.Path, Client: c.Client, Present: present[c.Path]})
	}
	return found.Servers(), looked, nil
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// listing describes one server as its config writes it: nothing is
// expanded, so no variable's value is shown.
func listing(srv *mcpconfig.Server, client string, shadowed bool) serverListing {
	l := serverListing{
		Name: srv.Name, File: absPath(srv.File), Client: client, Format: string(srv.Format), Scope: srv.Scope,
		Env: srv.EnvKeys(), Headers: srv.HeaderNames(), Shadowed: shadowed, Disabled: srv.Disabled,
	}
	transport, err := srv.Transport()
	if err != nil {
		l.Error = err.Error()
		return l
	}
	l.Transport = transport
	if transport == mcpconfig.TransportStdio {
		l.Command, l.Args = srv.Command, srv.Args
	} else {
		l.URL = session.RedactURL(srv.URL)
	}
	return l
}

// writeServers writes the table of servers, or where discovery looked
// when it found none.
func writeServers(w io.Writer, listed []serverListing, looked []lookedFor) error {
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
		what := l.commandOrURL()
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", textclean.OneLine(l.Name), transport, textclean.OneLine(what), textclean.OneLine(source), textclean.OneLine(notes(l)))
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

// notes are the remarks on one server: why it cannot be used, whether
// another hides it, and the names of its environment and headers.
func notes(l serverListing) string {
	var n []string
	if l.Error != "" {
		msg := l.Error
		if _, after, ok := strings.Cut(msg, "server "+strconv.Quote(l.Name)); ok {
			msg = strings.TrimLeft(after, ": ")
		}
		n = append(n, "invalid: "+msg)
	}
	if l.NeedsApproval {
		n = append(n, "a project's, not approved yet")
	}
	for _, own := range l.Hides {
		n = append(n, "hides yours in "+session.DisplayPath(own))
	}
	if l.Shadowed {
		n = append(n, "shadowed by an earlier one")
	}
	if l.Disabled {
		n = append(n, "disabled")
	}
	if len(l.Env) > 0 {
		n = append(n, "env "+strings.Join(l.Env, ","))
	}
	if len(l.Headers) > 0 {
		n = append(n, "headers "+strings.Join(l.Headers, ","))
	}
	return strings.Join(n, "; ")
}

// commandLine joins a command's words, quoted for a POSIX shell, so that
// it can be pasted back.
func commandLine(words []string) string { return shellescape.QuoteCommand(words) }

// serverEntries lists, for the inspector's server picker, the demo fixture
// and every server the configs name (--config's alone when given); each
// is connected to through e, so the wire log and app host stay.
func (o *inspectOptions) serverEntries(e *session.Endpoint) func() ([]tui.ServerEntry, error) {
	return func() ([]tui.ServerEntry, error) {
		so := serversOptions{configPath: o.conn.selection.ConfigPath}
		servers, looked, err := so.discover()
		if err != nil {
			return nil, err
		}
		fixtureTarget := mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }}
		entries := []tui.ServerEntry{{
			Name: "fixture", Transport: "memory", What: fixtureTarget.String(), Source: "mcpeek (the demo)",
			Choose: func() (tui.Switch, error) { return o.switchTo(e, fixtureTarget, session.Selection{}), nil },
		}}
		listed, err := listings(servers, looked)
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
func (o *inspectOptions) pickerEntry(e *session.Endpoint, srv *mcpconfig.Server, l serverListing) tui.ServerEntry {
	sel := session.Chosen(o.conn.selection.ConfigPath, srv, l.Client, o.conn.selection.TrustProject)
	entry := tui.ServerEntry{
		Name: l.Name, Transport: l.Transport, What: l.commandOrURL(), Source: session.DisplayPath(l.File),
		Note: notes(l), Key: sel.SourceText(),
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

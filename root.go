package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/term"
)

const rootSynopsis = "mcpeek [flags] [--] [SERVER...]"

const usageText = `mcpeek — a terminal MCP inspector that answers elicitations

usage:
  mcpeek [flags] [--] [SERVER...]   inspect a server (no SERVER: the embedded demo fixture)
  mcpeek call TOOL [flags] [--] [SERVER...]
                                    call a tool, print the CallToolResult JSON
  mcpeek list tools|resources|prompts [flags] [--] [SERVER...]
                                    print what the server offers as JSON
  mcpeek caps [flags] [--] [SERVER...]
                                    print the negotiated capabilities as JSON
  mcpeek fixture [--http ADDR] [--stateless] [--no-app-elicitation]
                                    serve the public test fixture (stdio or HTTP)
  mcpeek help [COMMAND]             show this help, or a command's flags
  mcpeek --version                  print the version

SERVER is an http:// or https:// URL (streamable HTTP; -H adds headers) or a
command and its arguments (stdio; -e adds environment). Put -- before a
server command whose arguments look like flags.

exit codes: 0 ok, 1 the tool returned isError, 2 usage or bad input,
3 connection or protocol error, 124 timeout, 130 interrupted.
`

func runHelp(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stdout, usageText)
		return nil
	}
	switch args[0] {
	case "call", "list", "caps", "fixture":
		run(context.Background(), []string{args[0], "-h"}, stdout, io.Discard)
		return nil
	}
	return usagef("help: unknown command %q", args[0])
}

// runRoot is the inspector on a terminal; in a pipe or a script it prints a
// summary of the server and the commands to try against it.
func runRoot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cf connFlags
	var version bool
	var elicitTimeout time.Duration
	fs := newFlagSet("mcpeek", rootSynopsis, stdout)
	cf.register(fs, false)
	fs.BoolVar(&version, "version", false, "print the version and exit")
	fs.DurationVar(&elicitTimeout, "elicit-timeout", 2*time.Minute, "cancel an elicitation nobody answers within this time (0: never)")
	fs.help = func() { fmt.Fprint(stdout, usageText) }
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if version {
		fmt.Fprintf(stdout, "mcpeek %s\n", mcpclient.Version)
		return nil
	}
	if !interactiveTerminal() {
		// Not a terminal (a script, a pipe): print a summary instead.
		s, err := connect(ctx, &cf, rest, &mcpclient.HeadlessAsker{Stderr: stderr}, nil, stderr)
		if err != nil {
			return err
		}
		defer s.close()
		return summarize(ctx, s.conn, rest, stdout)
	}
	return runInspector(ctx, &cf, rest, elicitTimeout)
}

// interactiveTerminal reports whether a person sits at this terminal.
func interactiveTerminal() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd()))
}

// runInspector runs the full-screen inspector, drawn on stderr.
func runInspector(ctx context.Context, cf *connFlags, words []string, elicitTimeout time.Duration) error {
	if err := mcpclient.CheckProtocol(cf.protocol); err != nil {
		return usagef("--protocol: %v", err)
	}
	target, err := mcpclient.ParseTarget(words, cf.headers, cf.env, func() *mcp.Server { return fixture.New(fixture.Options{}) })
	if err != nil {
		return usagef("%v", err)
	}
	var sink io.Writer
	if cf.wireLog != "" {
		f, err := os.Create(cf.wireLog)
		if err != nil {
			return usagef("--wire-log: %v", err)
		}
		defer f.Close()
		sink = f
	}
	wire := mcpclient.NewWireLog(0, sink)
	opts := tui.Options{
		Target:        target.String(),
		ElicitTimeout: elicitTimeout,
		OpenURL:       apphost.SystemBrowser(cf.noBrowser),
	}
	var host *apphost.Host
	if cf.appHost {
		// The inspector's app card shows each tab's URL, so nothing to notify.
		if host, err = startAppHost(cf, wire, func(string) {}); err != nil {
			return err
		}
		defer host.Close()
		opts.AppHost = "127.0.0.1:" + strconv.Itoa(host.Port())
		opts.AppURL = host.URL
	}
	opts.Connect = func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		cfg := mcpclient.Config{
			Target: target, Protocol: cf.protocol, ConnectTimeout: cf.connectTimeout,
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: !cf.noFormElicitation},
			Asker:        asker, Records: mcpclient.NewRecorder(nil), Wire: wire,
		}
		if host != nil {
			cfg.Renderer = host
		}
		return mcpclient.Connect(ctx, cfg)
	}
	return tui.Run(ctx, opts, os.Stdin, os.Stderr)
}

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
	list, err := c.List(ctx, "tools")
	if err != nil {
		return fmt.Errorf("list tools: %w", err)
	}
	tools, _ := list["tools"].([]*mcp.Tool)
	fmt.Fprintf(w, "\ntools (%d):\n", len(tools))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, t := range tools {
		desc, _, _ := strings.Cut(t.Description, "\n")
		fmt.Fprintf(tw, "  %s\t%s\n", t.Name, desc)
	}
	tw.Flush()
	self := selfName()
	server0 := ""
	if len(words) > 0 {
		server0 = " -- " + strings.Join(words, " ")
	}
	fmt.Fprintf(w, "\ntry:\n")
	if len(words) == 0 {
		fmt.Fprintf(w, "  %s call choose_option --answers testdata/answers/choose-option-a.json\n", self)
		fmt.Fprintf(w, "  %s call choose_option --on-elicit decline\n", self)
		fmt.Fprintf(w, "  %s call all_fields --on-elicit accept-defaults\n", self)
		fmt.Fprintf(w, "  %s call multi_round --answers testdata/answers/multi-round.json --protocol legacy\n", self)
		fmt.Fprintf(w, "  %s caps -- %s fixture\n", self, self)
	} else {
		fmt.Fprintf(w, "  %s list tools%s\n", self, server0)
		fmt.Fprintf(w, "  %s call TOOL --args '{}' --on-elicit decline%s\n", self, server0)
		fmt.Fprintf(w, "  %s caps%s\n", self, server0)
	}
	return nil
}

// selfName is how a person runs this program: "go run ." under go run.
func selfName() string {
	exe, err := os.Executable()
	if err == nil && strings.Contains(exe, "go-build") {
		return "go run ."
	}
	return "mcpeek"
}

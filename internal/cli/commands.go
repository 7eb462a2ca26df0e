package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/completion"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// command is one row of the command table: all that dispatch, the usage
// text and `mcpeek help COMMAND` know of a command.
type command struct {
	// name is the word that selects the command; the inspector, which runs
	// when no command is named, has none.
	name string
	// aliases are other words that select it.
	aliases []string
	// usage is the command's line in the usage text, beside summary.
	usage, summary string
	// synopsis is the line its help prints above its flags; usage when
	// empty.
	synopsis string
	// options returns fresh options for one run, its flags defined on fs.
	options func(fs *flagSet) options
	// words are what its first argument may be, for shell completion.
	words []string
}

// options are one command's settings: parse fills them in from the words
// after the command's name and checks them, without side effects; run acts
// on them.
type options interface {
	parse(fs *flagSet, args []string) error
	run(ctx context.Context, s streams) error
}

// commands is the command table, in the order the usage text lists them.
var commands = []command{
	{
		aliases:  []string{"inspect"},
		usage:    "mcpeek [flags] [--] [SERVER...]",
		synopsis: "mcpeek [inspect] [flags] [--] [SERVER...]",
		summary:  "inspect a server (no SERVER: the embedded demo fixture)",
		options:  newInspectOptions,
	},
	{
		name:     "call",
		usage:    "mcpeek call TOOL [flags] [--] [SERVER...]",
		synopsis: "mcpeek call TOOL [--args JSON] [--answers FILE] [--on-elicit cancel|decline|accept-defaults] [--elicit-log FILE] [flags] [--] [SERVER...]",
		summary:  "call a tool, print the CallToolResult JSON",
		options:  newCallOptions,
	},
	{
		name:    "list",
		usage:   "mcpeek list tools|resources|prompts [flags] [--] [SERVER...]",
		summary: "print what the server offers as JSON",
		options: newListOptions,
		words:   []string{"tools", "resources", "prompts"},
	},
	{
		name:    "read",
		usage:   "mcpeek read URI [--out FILE [--force]] [flags] [--] [SERVER...]",
		summary: "read a resource, print the ReadResourceResult JSON (--out: its content as a file)",
		options: newReadOptions,
	},
	{
		name:    "prompt",
		usage:   "mcpeek prompt NAME [--args JSON] [flags] [--] [SERVER...]",
		summary: "get a prompt, print the GetPromptResult JSON",
		options: newPromptOptions,
	},
	{
		name:     "complete",
		usage:    "mcpeek complete prompt|resource NAME ARG [--value V] [flags] [--] [SERVER...]",
		synopsis: "mcpeek complete prompt NAME ARGUMENT | resource TEMPLATE VARIABLE [--value VALUE | VALUE --] [--context NAME=VALUE] [flags] [--] [SERVER...]",
		summary:  "print the server's completions of an argument as JSON",
		options:  newCompleteOptions,
		words:    []string{"prompt", "resource"},
	},
	{
		name:    "caps",
		usage:   "mcpeek caps [flags] [--] [SERVER...]",
		summary: "print the negotiated capabilities as JSON",
		options: newCapsOptions,
	},
	{
		name:    "surface",
		usage:   "mcpeek surface [flags] [--] [SERVER...]",
		summary: "print the server's surface as canonical JSON (commit it as " + surface.LockFile + ")",
		options: newSurfaceOptions,
	},
	{
		name:     "diff",
		usage:    "mcpeek diff OLD NEW [flags]",
		synopsis: "mcpeek diff OLD NEW [--fail-on ERR|WARN|never] [--format " + strings.Join(surface.Formats, "|") + "] [--config FILE] [flags]\n       OLD and NEW: a surface file, a URL, @NAME, or -- and a server command (to the next -- or the end)",
		summary:  "compare two surfaces (files or servers): which changes break clients",
		options:  newDiffOptions,
	},
	{
		name:     "test",
		usage:    "mcpeek test [PATH...] [flags] [--] [SERVER...]",
		synopsis: "mcpeek test [PATH...] [--protocol R[,R]] [-u] [--filter RE] [--junit FILE] [--json FILE] [--github] [--parallel N] [flags] [--] [SERVER...] | test init [--out FILE] [SERVER...]",
		summary:  "run the suites (*.mcpeek.yaml) against the server; init writes a starter",
		options:  newTestOptions,
		words:    []string{"init"},
	},
	{
		name:     "replay",
		usage:    "mcpeek replay FILE [flags] [--] SERVER... | FILE --serve [--http ADDR]",
		synopsis: "mcpeek replay FILE [--allow-writes] [--redact JSONPATH] [flags] [--] [SERVER...] | mcpeek replay FILE --serve [--http ADDR]",
		summary:  "send a recording's requests (--record) again, answer as recorded, report what differs; --serve: the recording plays the server",
		options:  newReplayOptions,
	},
	{
		name:     "record",
		usage:    "mcpeek record FILE --to-suite OUT [--] [SERVER...]",
		synopsis: "mcpeek record FILE --to-suite OUT [--] [SERVER...]\n       SERVER is the new suite's server (none: the embedded fixture); an existing OUT keeps its own",
		summary:  "make a suite of a recording (--record): a test per tool call, with its answers",
		options:  newRecordOptions,
	},
	{
		name:     "proxy",
		usage:    "mcpeek proxy [flags] [--] SERVER",
		synopsis: "mcpeek proxy [--record FILE] [--answer] [--answers FILE] [--listen ADDR] [--name NAME] [flags] [--] SERVER",
		summary:  "be a host's server: forward its traffic to SERVER as it is, log it and record it",
		options:  newProxyOptions,
	},
	{
		name:     "watch",
		usage:    "mcpeek watch [NAME] [--list]",
		synopsis: "mcpeek watch [NAME] | watch --list\n       NAME: a proxy's --name, pid or a part of its server (none: every proxy of yours)",
		summary:  "attach to your running proxies: their live traffic in the inspector, their questions in its form",
		options:  newWatchOptions,
	},
	{
		name:     "doctor",
		usage:    "mcpeek doctor [flags] [--] [SERVER...]",
		synopsis: "mcpeek doctor [--json] [flags] [--] [SERVER...]",
		summary:  "check each step of reaching a server; say what failed and how to fix it",
		options:  newDoctorOptions,
	},
	{
		name:     "servers",
		usage:    "mcpeek servers [--config FILE] [--json|--names]",
		synopsis: "mcpeek servers [--config FILE] [--json|--names] | servers --wrap @NAME [--format claude|cursor|vscode|codex] [--listen ADDR] [--config FILE]",
		summary:  "list the servers your MCP configs name (for @NAME); --wrap: one's entry through mcpeek proxy",
		options:  newServersOptions,
	},
	{
		name:     "auth",
		usage:    "mcpeek auth login|logout|status [URL]",
		synopsis: "mcpeek auth login URL | logout URL|--all | status [URL] [flags]",
		summary:  "log in to an OAuth-protected server, forget or list stored tokens",
		options:  newAuthOptions,
		words:    []string{"login", "logout", "status"},
	},
	{
		name:    "fixture",
		usage:   "mcpeek fixture [--http ADDR] [--stateless] [--no-app-elicitation] [--changed-results] [--era ERA]",
		summary: "serve the public test fixture (stdio or HTTP)",
		options: newFixtureOptions,
	},
	{
		name:    "completion",
		usage:   "mcpeek completion bash|zsh|fish",
		summary: "print the shell's completion script (commands, flags, @NAMEs)",
		options: func(*flagSet) options { return &completionOptions{} },
		words:   completion.Shells,
	},
	{
		name:    "help",
		usage:   "mcpeek help [COMMAND]",
		summary: "show this help, or a command's flags",
		options: func(*flagSet) options { return &helpOptions{} },
	},
	{
		name: "version",
		// The usage text shows the flag, which does the same.
		usage:    "mcpeek --version",
		synopsis: "mcpeek version",
		summary:  "print the version",
		options:  func(*flagSet) options { return versionOptions{} },
	},
}

// find returns the command name selects, or nil.
func find(name string) *command {
	for i := range commands {
		if c := &commands[i]; c.name != "" && c.name == name || slices.Contains(c.aliases, name) {
			return c
		}
	}
	return nil
}

// inspector is the command that runs when none is named.
func inspector() *command { return &commands[0] }

// usageHead and usageTail frame the command lines in the usage text.
const (
	usageHead = "mcpeek — a terminal MCP inspector that answers elicitations\n\nusage:\n"
	usageTail = `
SERVER is an http:// or https:// URL (streamable HTTP; -H adds headers) or a
command and its arguments (stdio; -e adds environment). Put -- before a
server command whose arguments look like flags. @NAME is the server NAME of
the MCP configs found from here (Claude Code, VS Code, Cursor, Claude
Desktop, Codex, Windsurf: see mcpeek servers); --config FILE reads one.
A command's flags may also come before its name (mcpeek -e K=V call ...).

exit codes: 0 ok, 1 the tool returned isError (diff: findings at or above
--fail-on), 2 usage or bad input,
3 connection or protocol error, 124 timeout, 130 interrupted.
`
	// summaryColumn is where the summaries start; a longer usage line puts
	// its summary on the next line.
	summaryColumn = 36
)

// writeUsage writes the usage text: every command, what it does, what
// SERVER and the exit codes mean, and the inspector's flags.
func writeUsage(w io.Writer) {
	b := &strings.Builder{}
	b.WriteString(usageHead)
	for _, c := range commands {
		line := "  " + c.usage
		if len(line)+2 > summaryColumn {
			b.WriteString(line + "\n")
			line = ""
		}
		fmt.Fprintf(b, "%-*s%s\n", summaryColumn, line, c.summary)
	}
	b.WriteString(usageTail)
	in := inspector()
	fs := in.flagSet(io.Discard)
	in.options(fs)
	fmt.Fprintf(b, "\nthe inspector, %s, takes these flags\n(the other commands' flags: mcpeek help COMMAND):\n", in.synopsis)
	fs.SetOutput(b)
	fs.PrintDefaults()
	_, _ = io.WriteString(w, b.String())
}

// writeHelp writes the command's help: the usage text for the inspector,
// else its synopsis and the flags fs defines.
func (c *command) writeHelp(w io.Writer, fs *flagSet) {
	if c.name == "" {
		writeUsage(w)
		return
	}
	synopsis := c.synopsis
	if synopsis == "" {
		synopsis = c.usage
	}
	fmt.Fprintf(w, "usage: %s\n", synopsis)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprint(w, "\nflags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// helpOptions are `mcpeek help [COMMAND]`'s.
type helpOptions struct {
	topic *command // nil: the usage text
}

func (o *helpOptions) parse(_ *flagSet, args []string) error {
	if len(args) == 0 {
		return nil
	}
	if o.topic = find(args[0]); o.topic == nil {
		return usagef("help: unknown command %q", args[0])
	}
	return nil
}

func (o *helpOptions) run(_ context.Context, s streams) error {
	if o.topic == nil {
		writeUsage(s.out)
		return nil
	}
	fs := o.topic.flagSet(s.out)
	o.topic.options(fs)
	o.topic.writeHelp(s.out, fs)
	return nil
}

// versionOptions are `mcpeek version`'s; it takes no flags and ignores
// any words after it.
type versionOptions struct{}

func (versionOptions) parse(*flagSet, []string) error { return nil }

func (versionOptions) run(_ context.Context, s streams) error {
	printVersion(s.out)
	return nil
}

// printVersion writes mcpeek's version, and for a release build the
// commit and date it was built from.
func printVersion(w io.Writer) {
	if built := mcpclient.Built(); built != "" {
		fmt.Fprintf(w, "mcpeek %s (%s)\n", mcpclient.Version, built)
		return
	}
	fmt.Fprintf(w, "mcpeek %s\n", mcpclient.Version)
}

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"al.essio.dev/pkg/shellescape"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/term"
)

// A project's config (a .mcp.json, .vscode/mcp.json or .cursor/mcp.json
// found from the working directory up) is a repository's file: its
// servers run as the person and read their environment. As Claude Code
// and VS Code do, mcpeek uses one only once the person approves it, and
// remembers the approval until the entry changes (docs/architecture.md,
// "Server configs").

// TrustProjectEnv, set to a true value, is --trust-project (for CI).
const TrustProjectEnv = "MCPEEK_TRUST_PROJECT"

// Approver asks the person whether to use a project's server; an error
// says it could not ask, or ErrInterrupted that the run ended (Ctrl+C)
// while it asked.
type Approver func(ctx context.Context, s *mcpconfig.Server, client string) (bool, error)

// ErrNoTerminal is asking without a terminal to ask on.
var ErrNoTerminal = errors.New("standard input is not a terminal to ask on")

// TrustsProjects reports whether the run uses projects' servers without
// asking: --trust-project, or MCPEEK_TRUST_PROJECT.
func (sel *Selection) TrustsProjects() bool {
	env, _ := strconv.ParseBool(os.Getenv(TrustProjectEnv))
	return sel.TrustProject || env
}

// TrustStore is the store of approved project servers.
func TrustStore() (*mcpconfig.TrustStore, error) {
	path, err := mcpconfig.DefaultTrustPath()
	if err != nil {
		return nil, err
	}
	return mcpconfig.OpenTrustStore(path), nil
}

// Approved reports whether the person approved a project's entry as it is
// now; the user's own entries need no approval.
func Approved(s *mcpconfig.Server) (bool, error) {
	if !s.FromProject {
		return true, nil
	}
	store, err := TrustStore()
	if err != nil {
		return false, err
	}
	return store.Approved(s)
}

// Approve makes the chosen entry ready as the run starts — before its
// --timeout counts and before any log file is opened: it says when a
// project's entry hides one of the person's own, asks the person to
// approve a project's entry not approved yet, remembering the answer,
// then asks for the VS Code inputs the entry refers to. Nothing of the
// entry is expanded, run or reached before. Ctrl+C while it asks ends the
// run at once (ErrInterrupted, exit 130). Warnings go to errOut; tty is
// where the person is asked.
func (sel *Selection) Approve(ctx context.Context, errOut io.Writer, tty Terminal) error {
	if sel.entry == nil {
		return nil
	}
	if !sel.warned {
		sel.warned = true
		for _, own := range sel.hides {
			fmt.Fprintln(errOut, hidesWarning(sel.entry, own))
		}
	}
	if sel.needsApproval {
		if err := sel.getApproval(ctx, errOut, tty); err != nil {
			return err
		}
	}
	return sel.askInputs(ctx, tty)
}

// getApproval asks the person to approve the project's entry, remembers
// a yes, and resolves the entry.
func (sel *Selection) getApproval(ctx context.Context, errOut io.Writer, tty Terminal) error {
	ask := sel.Approver
	if ask == nil {
		ask = func(ctx context.Context, s *mcpconfig.Server, client string) (bool, error) {
			return AskApproval(ctx, s, client, tty.In, errOut)
		}
	}
	ok, err := ask(ctx, sel.entry, sel.client)
	switch {
	case errors.Is(err, ErrInterrupted):
		return err
	case err != nil:
		return NotApproved(sel.entry, err)
	case !ok:
		return usagef("you did not approve server %q of %s: nothing was run", textclean.OneLine(sel.entry.Name), DisplayPath(sel.entry.File))
	}
	store, err := TrustStore()
	if err == nil {
		err = store.Approve(sel.entry)
	}
	if err != nil {
		fmt.Fprintf(errOut, "mcpeek: warning: approved for this run only: %v\n", textclean.OneLine(err.Error()))
	}
	sel.needsApproval = false
	return sel.Resolve(nil)
}

// NotApproved is the refusal of a project's entry that was not approved
// and could not be asked about: it says how to approve it, and how CI
// uses a project's servers.
func NotApproved(s *mcpconfig.Server, why error) error {
	name := textclean.OneLine(s.Name)
	return usagef("server %q comes from a project's config, %s, and you have not approved it (%v): run %s @%s on a terminal to review and approve it, or give --trust-project (%s=1 in CI) to use the project's servers without asking",
		name, DisplayPath(s.File), why, SelfName(), name, TrustProjectEnv)
}

// hidesWarning says that the project's entry s hides the person's own
// entry own of the same name.
func hidesWarning(s, own *mcpconfig.Server) string {
	name, yours := textclean.OneLine(s.Name), textclean.OneLine(own.Name)
	return fmt.Sprintf("mcpeek: warning: @%s is the project's server in %s, which hides your own %q in %s (yours: --config %s --server %s)",
		name, DisplayPath(s.File), yours, DisplayPath(own.File), DisplayPath(own.File), yours)
}

// askApproval shows a project's entry on the terminal — its file, name,
// command or URL, environment and headers as written, the files and
// environment variables it reads — and asks whether to use it. Only "y"
// or "yes" approves; Ctrl+C stops the wait at once (ErrInterrupted).
func AskApproval(ctx context.Context, s *mcpconfig.Server, client string, stdin File, w io.Writer) (bool, error) {
	if !term.IsTerminal(int(stdin.Fd())) {
		return false, ErrNoTerminal
	}
	DescribeEntry(w, s, client)
	return askYes(ctx, stdin, w, "Use this server? mcpeek remembers your answer until the entry changes.")
}

// askYes asks question on w and reads the answer from stdin: only "y" or
// "yes" is yes; Ctrl+C stops the wait at once (ErrInterrupted).
func askYes(ctx context.Context, stdin File, w io.Writer, question string) (bool, error) {
	fmt.Fprintf(w, "%s [y/N] ", question)
	line, err := ReadAnswer(ctx, stdin)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// maxShownValue bounds, in characters, each value the approval prompt
// shows.
const maxShownValue = 160

// DescribeEntry shows what approving a project's entry lets it do: values
// as the file writes them (a variable is shown, not expanded), cleaned
// and cut to one line each.
func DescribeEntry(w io.Writer, s *mcpconfig.Server, client string) {
	transport, invalid := s.Transport()
	source := DisplayPath(s.File)
	if client != "" {
		source += " (" + client + ")"
	}
	fmt.Fprintf(w, "mcpeek: a project's config, not yours, names server %q:\n", textclean.OneLine(s.Name))
	rows := func(label string, values ...string) {
		for _, value := range values {
			if value != "" {
				fmt.Fprintf(w, "  %-8s %s\n", label, textclean.Cut(textclean.OneLine(value), maxShownValue))
				label = ""
			}
		}
	}
	rows("file", source)
	switch {
	case invalid != nil:
		rows("invalid", invalid.Error())
	case transport == mcpconfig.TransportStdio:
		rows("command", shellescape.QuoteCommand(append([]string{s.Command}, s.Args...)))
		rows("cwd", s.Cwd)
		rows("env", written(s.Env, "=")...)
	default:
		rows("url", RedactURL(s.URL))
		rows("headers", headersWritten(s)...)
	}
	fromEnv := ""
	if names := s.EnvReads(); len(names) > 0 {
		fromEnv = strings.Join(names, ", ") + " from your environment, for the server"
	}
	rows("reads", envFileRead(s), fromEnv)
	if invalid == nil && transport == mcpconfig.TransportStdio {
		fmt.Fprintln(w, "  It runs as you, with your environment.")
	} else {
		fmt.Fprintln(w, "  mcpeek sends it your requests, with these headers.")
	}
}

// written are the names and values of m as the file writes them, joined
// by sep, in order of name.
func written(m map[string]string, sep string) []string {
	out := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, k+sep+m[k])
	}
	return out
}

// headersWritten are the entry's headers as written, with those whose
// values Codex takes from the environment.
func headersWritten(s *mcpconfig.Server) []string {
	out := written(s.Headers, ": ")
	for _, k := range slices.Sorted(maps.Keys(s.EnvHeaders)) {
		out = append(out, k+": the value of "+s.EnvHeaders[k])
	}
	if s.BearerTokenEnvVar != "" {
		out = append(out, "Authorization: Bearer and the value of "+s.BearerTokenEnvVar)
	}
	return out
}

// envFileRead says which file the entry reads into its server's
// environment ("" for none), saying plainly when it is outside the
// project: ${userHome}/.aws/credentials, or a link to it.
func envFileRead(s *mcpconfig.Server) string {
	read, ok := s.EnvFileRead()
	switch {
	case !ok:
		return ""
	case read.Path == "":
		return "the file " + read.Written + " (a path your environment or an answer decides), into the server's environment"
	}
	line := "the file " + DisplayPath(read.Path)
	if !read.InProject {
		if read.Real != "" && read.Real != read.Path {
			line += " (a link to " + DisplayPath(read.Real) + ")"
		}
		line += ", outside the project,"
	}
	return line + " into the server's environment"
}

// placeholder is the target of an entry waiting for approval: only its
// kind, which the command line is checked against.
func placeholder(s *mcpconfig.Server) mcpclient.Target {
	if t, _ := s.Transport(); t == mcpconfig.TransportStdio {
		return mcpclient.Target{Kind: mcpclient.TargetStdio}
	}
	return mcpclient.Target{Kind: mcpclient.TargetHTTP}
}

// RedactURL hides a password in a URL's user information.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	return u.Redacted()
}

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/muesli/cancelreader"
	"golang.org/x/term"
)

// Selection is how a server is named from a config file: --config,
// --server, or the words "@NAME" (docs/architecture.md, "Server configs").
type Selection struct {
	ConfigPath   string
	ServerName   string
	TrustProject bool // --trust-project: use a project's servers without approval
	// Approver asks whether to use a project's server (nil: on the
	// terminal).
	Approver Approver
	// Headers and Env are the command line's -H and -e, added to the
	// entry's.
	Headers, Env []string

	// Set by Choose: the entry chosen, its place among the configs, what
	// it resolved to and the secrets it resolved to (redacted from the
	// wire log).
	entry   *mcpconfig.Server
	client  string
	target  mcpclient.Target
	secrets []string
	// needsInput: the entry refers to VS Code inputs, asked when the run
	// starts (never while parsing).
	needsInput bool
	// needsApproval: the entry is a project's the person has not approved;
	// it is asked about, then resolved, when the run starts (Approve).
	needsApproval bool
	// hides are the person's own entries of the same name the project's
	// entry hides, said on stderr when the run starts (warned once done).
	hides  []*mcpconfig.Server
	warned bool
}

// Terminal is where the person is asked: questions are written to Out
// and answers read from In.
type Terminal struct {
	In  File
	Out io.Writer
}

// File is a terminal's input: a reader with a descriptor, as *os.File.
type File interface {
	io.Reader
	Fd() uintptr
}

// Chosen is the selection of the config entry srv, whose config is
// client's, as the inspector's server picker chooses it: approval is the
// picker's to check, and it is not warned about again.
func Chosen(configPath string, srv *mcpconfig.Server, client string, trustProject bool) Selection {
	return Selection{ConfigPath: configPath, entry: srv, client: client, TrustProject: trustProject, warned: true}
}

// Entry is the config entry chosen (nil when the command line named the
// server).
func (sel *Selection) Entry() *mcpconfig.Server { return sel.entry }

// Target is what the chosen entry resolved to (its kind alone while it
// waits for approval or inputs).
func (sel *Selection) Target() mcpclient.Target { return sel.target }

// Secrets are the secrets the chosen entry resolved to.
func (sel *Selection) Secrets() []string { return sel.secrets }

// NeedsInput reports whether the entry refers to VS Code inputs not yet
// asked.
func (sel *Selection) NeedsInput() bool { return sel.needsInput }

// Selects reports whether the server is named from a config: --config,
// --server or the one word @NAME.
func (sel *Selection) Selects(words []string) bool {
	return sel.ConfigPath != "" || sel.ServerName != "" || len(words) > 0 && strings.HasPrefix(words[0], "@")
}

// Choose finds the server the selection names and resolves it into its
// target, with -H and -e added. Inputs are left for Approve; a project's
// entry the person has not approved is left as it is written, for
// Approve.
func (sel *Selection) Choose(words []string) error {
	name := sel.ServerName
	switch {
	case len(words) > 1 && strings.HasPrefix(words[0], "@"):
		return usagef("unexpected words after %s: %s (flags go before the server)", words[0], strings.Join(words[1:], " "))
	case len(words) == 1 && strings.HasPrefix(words[0], "@") && name == "":
		name = strings.TrimPrefix(words[0], "@")
	case len(words) > 0:
		return usagef("--config and --server name the server: give no SERVER words as well (%s)", strings.Join(words, " "))
	}
	if name == "" && sel.ConfigPath == "" {
		return usagef("@ needs a server's name: @NAME")
	}
	if err := sel.find(name); err != nil {
		return usagef("%v", err)
	}
	if err := sel.checkExtras(); err != nil {
		return err
	}
	if !sel.TrustsProjects() {
		ok, err := Approved(sel.entry)
		if err != nil {
			return usagef("%v", err)
		}
		if !ok {
			sel.needsApproval = true
			sel.target = placeholder(sel.entry)
			return nil
		}
	}
	return sel.Resolve(nil)
}

// find finds the server name in --config's file, or by discovery without
// it: the entry, whose config it is, and the person's own entries it
// hides. A file named with --config is the person's choice: none of its
// entries is a project's.
func (sel *Selection) find(name string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	if sel.ConfigPath != "" {
		f, err := mcpconfig.Load(sel.ConfigPath, mcpconfig.Options{Dir: dir})
		if err != nil {
			return err
		}
		sel.entry, err = f.FindIn(name)
		return err
	}
	places, err := mcpconfig.DefaultPlaces()
	if err != nil {
		return err
	}
	found, err := mcpconfig.Discover(places)
	if err != nil {
		return err
	}
	if sel.entry, err = found.Find(name); err != nil {
		return err
	}
	if sel.entry.FromProject {
		sel.hides = found.Shadowed(sel.entry.Name)
	}
	for _, c := range found.Looked {
		if c.Path == sel.entry.File {
			sel.client = c.Client
		}
	}
	return nil
}

// checkExtras refuses -H for a command and -e for a URL, from the entry as
// written.
func (sel *Selection) checkExtras() error {
	name := sel.entry.Name
	transport, err := sel.entry.Transport()
	switch {
	case err != nil:
		return usagef("%v", err)
	case transport == mcpconfig.TransportStdio && len(sel.Headers) > 0:
		return usagef("-H applies to a URL; server %q is a command", name)
	case transport != mcpconfig.TransportStdio && len(sel.Env) > 0:
		return usagef("-e applies to a command; server %q is a URL", name)
	}
	return nil
}

// Resolve resolves the chosen entry into the target; ask (nil: none yet)
// answers its inputs.
func (sel *Selection) Resolve(ask func(mcpconfig.Input) (string, error)) error {
	r, err := sel.entry.Resolve(mcpconfig.Resolver{Ask: ask})
	if errors.Is(err, mcpconfig.ErrNeedsInput) && ask == nil {
		sel.needsInput = true
		return nil
	}
	if err != nil {
		return usagef("%v", err)
	}
	sel.needsInput = false
	t := r.Target
	switch t.Kind {
	case mcpclient.TargetHTTP:
		extra, err := mcpclient.ParseTarget([]string{t.URL}, sel.Headers, nil, nil)
		if err != nil {
			return usagef("%v", err)
		}
		for name, values := range extra.Headers {
			t.Headers[name] = values
		}
	case mcpclient.TargetStdio:
		extra, err := mcpclient.ParseTarget(t.Command, nil, sel.Env, nil)
		if err != nil {
			return usagef("%v", err)
		}
		t.Env = append(t.Env, extra.Env...)
	}
	sel.target = t
	sel.secrets = r.Secrets
	return nil
}

// askInputs asks, on the terminal, for the VS Code inputs the chosen entry
// refers to, each once, and finishes its target. Nothing asked is kept.
// Ctrl+C while it asks ends the run (ErrInterrupted).
func (sel *Selection) askInputs(ctx context.Context, tty Terminal) error {
	if !sel.needsInput {
		return nil
	}
	var stopped error
	err := sel.Resolve(func(in mcpconfig.Input) (string, error) {
		v, err := AskInput(ctx, in, tty.In, tty.Out)
		if errors.Is(err, ErrInterrupted) {
			stopped = err
		}
		return v, err
	})
	if stopped != nil {
		return stopped
	}
	return err
}

// Ready refuses an entry that Approve did not make ready, so that a path
// that forgot to call it fails closed: nothing runs.
func (sel *Selection) Ready() error {
	switch {
	case sel.needsApproval:
		return NotApproved(sel.entry, errors.New("not asked"))
	case sel.needsInput:
		return usagef("server %q refers to VS Code inputs, which were not asked", textclean.OneLine(sel.entry.Name))
	}
	return nil
}

// AskInput asks for one input on the terminal: a password without echo, a
// pick by number or value; an empty answer takes the default. Ctrl+C
// stops the wait at once (ErrInterrupted).
func AskInput(ctx context.Context, in mcpconfig.Input, stdin File, w io.Writer) (string, error) {
	if !term.IsTerminal(int(stdin.Fd())) {
		return "", errors.New("mcpeek asks for it on a terminal, and standard input is not one")
	}
	prompt := in.Description
	if prompt == "" {
		prompt = in.ID
	}
	for i, o := range in.Options {
		fmt.Fprintf(w, "  %d) %s\n", i+1, textclean.OneLine(o))
	}
	if in.Default != "" && !in.Password {
		prompt += " [" + in.Default + "]"
	}
	fmt.Fprintf(w, "%s: ", textclean.OneLine(prompt))
	var answer string
	var err error
	if in.Password {
		answer, err = readPassword(ctx, stdin)
		fmt.Fprintln(w)
	} else {
		answer, err = ReadAnswer(ctx, stdin)
	}
	if err != nil {
		return "", err
	}
	if answer == "" {
		answer = in.Default
	}
	if len(in.Options) > 0 {
		return pick(in, answer)
	}
	return answer, nil
}

// pick is the option an answer names, by its number or as written.
func pick(in mcpconfig.Input, answer string) (string, error) {
	for i, o := range in.Options {
		if answer == o || answer == fmt.Sprint(i+1) {
			return o, nil
		}
	}
	return "", fmt.Errorf("%q is not one of the options", answer)
}

// answer is a line read from the terminal, or why none was.
type answer struct {
	line string
	err  error
}

// ReadAnswer reads the person's answer, one line, from in; the run's end
// (Ctrl+C) stops the wait at once with ErrInterrupted. The read of a
// terminal (any file that can be polled) is cancelled with it, so nothing
// is left reading; another reader's read is left to end on its own.
func ReadAnswer(ctx context.Context, in io.Reader) (string, error) {
	if ctx.Err() != nil {
		return "", ErrInterrupted
	}
	r, err := cancelreader.NewReader(in)
	if err != nil { // not a file that can be polled: read it as it is
		r, _ = cancelreader.NewReader(struct{ io.Reader }{in})
	}
	done := make(chan answer, 1)
	go func() {
		line, err := readLine(r)
		done <- answer{line, err}
	}()
	select {
	case a := <-done:
		_ = r.Close()
		return a.line, a.err
	case <-ctx.Done():
		if r.Cancel() { // the read stopped: close what watched it
			<-done
			_ = r.Close()
		}
		return "", ErrInterrupted
	}
}

// readPassword reads a line from the terminal in without echo; the run's
// end (Ctrl+C) stops the wait at once with ErrInterrupted, and gives the
// terminal its echo back. Where termios is known the echo is turned off
// before the read starts and the read is cancelled as ReadAnswer's is;
// elsewhere term.ReadPassword reads, and its abandoned read ends with the
// process, which is ending.
func readPassword(ctx context.Context, in File) (string, error) {
	if ctx.Err() != nil {
		return "", ErrInterrupted
	}
	fd := int(in.Fd())
	if restore, err := echoOff(fd); err == nil {
		defer restore()
		return ReadAnswer(ctx, in)
	}
	state, err := term.GetState(fd)
	if err != nil {
		return "", err
	}
	done := make(chan answer, 1)
	go func() {
		b, err := term.ReadPassword(fd)
		done <- answer{string(b), err}
	}()
	select {
	case a := <-done:
		return a.line, a.err
	case <-ctx.Done():
		_ = term.Restore(fd, state)
		return "", ErrInterrupted
	}
}

// readLine reads one line a byte at a time, so that nothing after it is
// taken from whoever reads the terminal next.
func readLine(r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return strings.TrimSuffix(b.String(), "\r"), nil
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			if err == io.EOF && b.Len() > 0 {
				return b.String(), nil
			}
			return "", err
		}
	}
}

// SourceReport is where the server came from, in caps and doctor output.
type SourceReport struct {
	Server string `json:"server"`
	File   string `json:"file"`
	Format string `json:"format"`
	Client string `json:"client,omitempty"`
	Scope  string `json:"scope,omitempty"`
}

// Source is where the target came from, or nil when the command line
// named it.
func (sel *Selection) Source() *SourceReport {
	if sel.entry == nil {
		return nil
	}
	file, err := filepath.Abs(sel.entry.File)
	if err != nil {
		file = sel.entry.File
	}
	return &SourceReport{Server: sel.entry.Name, File: file, Format: string(sel.entry.Format), Client: sel.client, Scope: sel.entry.Scope}
}

// SourceText says in a few words which config named the target ("" when
// the command line did): `@notes in ./.mcp.json`.
func (sel *Selection) SourceText() string {
	if sel.entry == nil {
		return ""
	}
	return "@" + sel.entry.Name + " in " + DisplayPath(sel.entry.File)
}

// DisplayPath shows a path short: relative to the working directory when
// inside it, else from ~ when in the home directory.
func DisplayPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if dir, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return "." + string(filepath.Separator) + rel
		}
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if rel, err := filepath.Rel(home, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return "~" + string(filepath.Separator) + rel
		}
	}
	return abs
}

package cli

import (
	"context"
	"crypto/tls"
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

// selection is how a server is named from a config file: --config,
// --server, or the words "@NAME" (docs/architecture.md, "Server configs").
type selection struct {
	configPath   string
	serverName   string
	trustProject bool // --trust-project: use a project's servers without approval
	// approver asks whether to use a project's server (nil: on the
	// terminal).
	approver approver

	// Set by choose: the entry chosen, its place among the configs, and
	// the secrets it resolved to (redacted from the wire log).
	entry   *mcpconfig.Server
	client  string // whose config it is ("" for --config)
	secrets []string
	// needsInput: the entry refers to VS Code inputs, asked when the run
	// starts (never while parsing).
	needsInput bool
	// needsApproval: the entry is a project's the person has not approved;
	// it is asked about, then resolved, when the run starts (approve).
	needsApproval bool
	// hides are the person's own entries of the same name the project's
	// entry hides, said on stderr when the run starts (warned once done).
	hides  []*mcpconfig.Server
	warned bool
}

func (sel *selection) register(fs *flagSet) {
	fs.StringVar(&sel.configPath, "config", "", "read the server from this MCP config `FILE` (Claude Desktop, Claude Code, Cursor, Windsurf, VS Code or Codex)")
	fs.StringVar(&sel.serverName, "server", "", "connect to the server of this `NAME` in --config, or in the configs found from here (see mcpeek servers); @NAME as SERVER says the same")
	fs.BoolVar(&sel.trustProject, "trust-project", false, "use a server of a project's config found from here (.mcp.json, .vscode/mcp.json, .cursor/mcp.json) without asking for approval; "+trustProjectEnv+"=1 says the same")
}

// tlsFlags are the TLS flags of URL servers.
type tlsFlags struct {
	opts   mcpclient.TLSOptions
	config *tls.Config // built by check
}

func (tf *tlsFlags) register(fs *flagSet) {
	fs.StringVar(&tf.opts.CAFile, "ca-file", "", "trust the CA certificates in this PEM `FILE` too (URL servers)")
	fs.BoolVar(&tf.opts.Insecure, "insecure", false, "do not verify URL servers' TLS certificates (says so on stderr)")
	fs.StringVar(&tf.opts.CertFile, "cert", "", "present this PEM client certificate `FILE` to URL servers (with --key)")
	fs.StringVar(&tf.opts.KeyFile, "key", "", "the PEM private key `FILE` of --cert")
}

// check reads the certificate files the flags name.
func (tf *tlsFlags) check() error {
	cfg, err := tf.opts.Config()
	if err != nil {
		return usagef("%v", err)
	}
	tf.config = cfg
	return nil
}

// insecureWarning is what --insecure says on stderr.
const insecureWarning = "mcpeek: warning: --insecure: TLS certificates are not verified; anyone on the path can read and change the traffic"

// selects reports whether the server is named from a config: --config,
// --server or the one word @NAME.
func (sel *selection) selects(words []string) bool {
	return sel.configPath != "" || sel.serverName != "" || len(words) > 0 && strings.HasPrefix(words[0], "@")
}

// choose finds the server the selection names and resolves it into cf's
// target, with -H and -e added. Inputs are left for askInputs; a project's
// entry the person has not approved is left as it is written, for approve.
func (cf *connFlags) choose(words []string) error {
	sel := &cf.selection
	name := sel.serverName
	switch {
	case len(words) > 1 && strings.HasPrefix(words[0], "@"):
		return usagef("unexpected words after %s: %s (flags go before the server)", words[0], strings.Join(words[1:], " "))
	case len(words) == 1 && strings.HasPrefix(words[0], "@") && name == "":
		name = strings.TrimPrefix(words[0], "@")
	case len(words) > 0:
		return usagef("--config and --server name the server: give no SERVER words as well (%s)", strings.Join(words, " "))
	}
	if name == "" && sel.configPath == "" {
		return usagef("@ needs a server's name: @NAME")
	}
	if err := sel.find(name); err != nil {
		return usagef("%v", err)
	}
	if err := cf.checkExtras(); err != nil {
		return err
	}
	if !sel.trustsProjects() {
		ok, err := approved(sel.entry)
		if err != nil {
			return usagef("%v", err)
		}
		if !ok {
			sel.needsApproval = true
			cf.target = placeholder(sel.entry)
			return nil
		}
	}
	return cf.resolve(nil)
}

// find finds the server name in --config's file, or by discovery without
// it: the entry, whose config it is, and the person's own entries it
// hides. A file named with --config is the person's choice: none of its
// entries is a project's.
func (sel *selection) find(name string) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	if sel.configPath != "" {
		f, err := mcpconfig.Load(sel.configPath, mcpconfig.Options{Dir: dir})
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
func (cf *connFlags) checkExtras() error {
	name := cf.selection.entry.Name
	transport, err := cf.selection.entry.Transport()
	switch {
	case err != nil:
		return usagef("%v", err)
	case transport == mcpconfig.TransportStdio && len(cf.headers) > 0:
		return usagef("-H applies to a URL; server %q is a command", name)
	case transport != mcpconfig.TransportStdio && len(cf.env) > 0:
		return usagef("-e applies to a command; server %q is a URL", name)
	}
	return nil
}

// resolve resolves the chosen entry into the target; ask (nil: none yet)
// answers its inputs.
func (cf *connFlags) resolve(ask func(mcpconfig.Input) (string, error)) error {
	sel := &cf.selection
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
		extra, err := mcpclient.ParseTarget([]string{t.URL}, cf.headers, nil, nil)
		if err != nil {
			return usagef("%v", err)
		}
		for name, values := range extra.Headers {
			t.Headers[name] = values
		}
	case mcpclient.TargetStdio:
		extra, err := mcpclient.ParseTarget(t.Command, nil, cf.env, nil)
		if err != nil {
			return usagef("%v", err)
		}
		t.Env = append(t.Env, extra.Env...)
	}
	cf.target = t
	sel.secrets = r.Secrets
	return nil
}

// askInputs asks, on the terminal, for the VS Code inputs the chosen entry
// refers to, each once, and finishes its target. Nothing asked is kept.
// Ctrl+C while it asks ends the run (errInterrupted).
func (cf *connFlags) askInputs(ctx context.Context) error {
	if !cf.selection.needsInput {
		return nil
	}
	var stopped error
	err := cf.resolve(func(in mcpconfig.Input) (string, error) {
		v, err := askInput(ctx, in, os.Stdin, os.Stderr)
		if errors.Is(err, errInterrupted) {
			stopped = err
		}
		return v, err
	})
	if stopped != nil {
		return stopped
	}
	return err
}

// ready refuses an entry that approve did not make ready, so that a path
// that forgot to call it fails closed: nothing runs.
func (cf *connFlags) ready() error {
	sel := &cf.selection
	switch {
	case sel.needsApproval:
		return notApproved(sel.entry, errors.New("not asked"))
	case sel.needsInput:
		return usagef("server %q refers to VS Code inputs, which were not asked", textclean.OneLine(sel.entry.Name))
	}
	return nil
}

// askInput asks for one input on the terminal: a password without echo, a
// pick by number or value; an empty answer takes the default. Ctrl+C
// stops the wait at once (errInterrupted).
func askInput(ctx context.Context, in mcpconfig.Input, stdin *os.File, w io.Writer) (string, error) {
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
		answer, err = readAnswer(ctx, stdin)
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

// readAnswer reads the person's answer, one line, from in; the run's end
// (Ctrl+C) stops the wait at once with errInterrupted. The read of a
// terminal (any file that can be polled) is cancelled with it, so nothing
// is left reading; another reader's read is left to end on its own.
func readAnswer(ctx context.Context, in io.Reader) (string, error) {
	if ctx.Err() != nil {
		return "", errInterrupted
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
		return "", errInterrupted
	}
}

// readPassword reads a line from the terminal in without echo; the run's
// end (Ctrl+C) stops the wait at once with errInterrupted, and gives the
// terminal its echo back. Where termios is known the echo is turned off
// before the read starts and the read is cancelled as readAnswer's is;
// elsewhere term.ReadPassword reads, and its abandoned read ends with the
// process, which is ending.
func readPassword(ctx context.Context, in *os.File) (string, error) {
	if ctx.Err() != nil {
		return "", errInterrupted
	}
	fd := int(in.Fd())
	if restore, err := echoOff(fd); err == nil {
		defer restore()
		return readAnswer(ctx, in)
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
		return "", errInterrupted
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

// sourceReport is where the server came from, in caps and doctor output.
type sourceReport struct {
	Server string `json:"server"`
	File   string `json:"file"`
	Format string `json:"format"`
	Client string `json:"client,omitempty"`
	Scope  string `json:"scope,omitempty"`
}

// source is where the target came from, or nil when the command line
// named it.
func (sel *selection) source() *sourceReport {
	if sel.entry == nil {
		return nil
	}
	file, err := filepath.Abs(sel.entry.File)
	if err != nil {
		file = sel.entry.File
	}
	return &sourceReport{Server: sel.entry.Name, File: file, Format: string(sel.entry.Format), Client: sel.client, Scope: sel.entry.Scope}
}

// sourceText says in a few words which config named the target ("" when
// the command line did): `@notes in ./.mcp.json`.
func (sel *selection) sourceText() string {
	if sel.entry == nil {
		return ""
	}
	return "@" + sel.entry.Name + " in " + displayPath(sel.entry.File)
}

// displayPath shows a path short: relative to the working directory when
// inside it, else from ~ when in the home directory.
func displayPath(path string) string {
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

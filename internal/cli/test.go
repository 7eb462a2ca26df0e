package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/internal/suite/author"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// errTestsFailed is a run in which a test failed: the report said which.
var errTestsFailed = errors.New("a test failed")

// testOptions are `mcpeek test`'s (and `mcpeek test init`'s).
type testOptions struct {
	conn          connFlags
	update        bool
	filter        string
	junitPath     string
	jsonPath      string
	github        bool
	parallel      int
	strictAnswers bool
	out           string

	// Set by parse.
	init      bool
	paths     []string
	server    []string // nil: each suite's own
	revisions []string
	filterRE  *regexp.Regexp
	suites    []*suite.Suite
	// found are the suites found in folders rather than named, by path:
	// a project's, which may need the person's approval.
	found map[string]bool
	// askSuite asks about a project's suite (nil: on the terminal).
	askSuite session.SuiteApprover
}

func newTestOptions(fs *flagSet) options {
	o := &testOptions{}
	o.conn.register(fs, true)
	o.conn.registerRecord(fs)
	fs.Lookup("protocol").Usage = "run each test in these protocol `REVISIONS` (2025-11-25,2026-07-28; legacy, modern) instead of the suites' own"
	fs.BoolVar(&o.update, "u", false, "write the snapshots instead of comparing them")
	fs.StringVar(&o.filter, "filter", "", "run only the tests whose names match this `RE`")
	fs.StringVar(&o.junitPath, "junit", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&o.jsonPath, "json", "", "write the JSON report (version 1) to `FILE`")
	fs.BoolVar(&o.github, "github", os.Getenv("GITHUB_ACTIONS") == "true", "print GitHub Actions annotations and a summary to $GITHUB_STEP_SUMMARY (default when GITHUB_ACTIONS=true)")
	fs.IntVar(&o.parallel, "parallel", 1, "run this many sessions at once")
	fs.BoolVar(&o.strictAnswers, "strict-answers", false, "fail a step whose answers entries were not all used")
	fs.StringVar(&o.out, "out", "starter.mcpeek.yaml", "with init: write the starter suite to `FILE` (- for standard output)")
	return o
}

func (o *testOptions) parse(fs *flagSet, args []string) error {
	if len(args) > 0 && args[0] == "init" {
		o.init = true
		args = args[1:]
	}
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	// Suite paths come first, flags among them; the first word that names
	// no file (or any after --) starts the server.
	for len(rest) > 0 && !o.init && !dashBefore(args, rest) && isSuitePath(rest[0]) {
		o.paths = append(o.paths, rest[0])
		if rest, err = fs.parse(rest[1:]); err != nil {
			return err
		}
	}
	words := rest
	if len(words) > 0 && !o.init && !dashBefore(args, words) && looksLikeSuite(words[0]) {
		return usagef("test: %s: no such suite file (a server command that is a YAML file goes after --)", words[0])
	}
	if o.conn.WireLog != "" {
		return usagef("test: --wire-log is not taken: the JUnit report (--junit) keeps the traffic of each failing step")
	}
	if err := o.checkRecord(); err != nil {
		return err
	}
	if o.conn.Protocol != "auto" {
		if o.revisions, err = suite.Revisions(strings.Split(o.conn.Protocol, ",")); err != nil {
			return usagef("--protocol: %v", err)
		}
	}
	if o.filter != "" {
		if o.filterRE, err = regexp.Compile(o.filter); err != nil {
			return usagef("--filter: %v", err)
		}
	}
	if o.parallel < 1 {
		return usagef("--parallel: give 1 or more")
	}
	if len(words) > 0 {
		o.server = words
		if len(words) == 1 && words[0] == suite.FixtureServer {
			o.server = []string{}
		}
	}
	if o.init {
		o.conn.Protocol = "auto"
		return o.conn.parseTarget(o.server)
	}
	return o.load()
}

// checkRecord checks --record: one revision, one session at a time.
func (o *testOptions) checkRecord() error {
	if err := o.conn.checkRecord(); err != nil {
		return err
	}
	if o.conn.record != "" && o.parallel > 1 {
		return usagef("test: --record records one session at a time: drop --parallel")
	}
	return nil
}

// dashBefore reports whether the word before rest in args is "--".
func dashBefore(args, rest []string) bool {
	i := len(args) - len(rest)
	return i > 0 && args[i-1] == "--"
}

// looksLikeSuite reports whether word, which names no file, was meant
// as a suite: a mistyped one would otherwise start the server.
func looksLikeSuite(word string) bool {
	return strings.HasSuffix(word, ".yaml") || strings.HasSuffix(word, ".yml")
}

// isSuitePath reports whether word names a suite file or a folder of
// them, rather than the start of a server.
func isSuitePath(word string) bool {
	if strings.HasPrefix(word, "@") || strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://") {
		return false
	}
	_, err := os.Stat(word)
	return err == nil
}

// load finds and reads the suites; a mistake in one is exit 2 with its
// file and line.
func (o *testOptions) load() error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	files, err := suite.Files(wd, o.paths)
	if err != nil {
		return usagef("test: %v", err)
	}
	if len(files) == 0 {
		return usagef("test: no suite found: name one, or keep *.mcpeek.yaml files here or under mcpeek/ (mcpeek test init writes a starter)")
	}
	named := map[string]bool{}
	for _, p := range o.paths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			named[session.AbsPath(p)] = true
		}
	}
	o.found = map[string]bool{}
	for _, f := range files {
		s, err := suite.Load(relative(wd, f), os.LookupEnv)
		if err != nil {
			o.cleanup()
			return usagef("%v", err)
		}
		o.suites = append(o.suites, s)
		o.found[s.File] = !named[session.AbsPath(f)]
	}
	// The server's words are checked before anything runs; the revision
	// is each session's own (--protocol may name two).
	for _, s := range o.suites {
		err := o.conn.check()
		if err == nil {
			_, _, err = o.conn.configFor(o.serverOf(s), nil, nil, nil)
		}
		if err != nil {
			o.cleanup()
			return usagef("%s:%d: server: %v", s.File, s.ServerLine, err)
		}
	}
	return nil
}

func relative(wd, path string) string {
	if r, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func (o *testOptions) cleanup() {
	for _, s := range o.suites {
		s.Cleanup()
	}
}

// serverOf is the server a suite's sessions reach: the one the command
// line names, else the suite's.
func (o *testOptions) serverOf(s *suite.Suite) []string {
	if o.server != nil {
		return o.server
	}
	return s.Server
}

func (o *testOptions) run(ctx context.Context, s streams) error {
	if o.init {
		return o.runInit(ctx, s)
	}
	defer o.cleanup()
	if err := o.approveSuites(ctx, s); err != nil {
		return err
	}
	if err := o.conn.openRecording(); err != nil {
		return err
	}
	defer o.conn.finishRecording(s.errOut)
	ctx, cancel := withTimeout(ctx, o.conn.timeout)
	defer cancel()
	report, err := suite.Run(ctx, o.suites, suite.Options{
		Dial: o.dialer(s), Revisions: o.revisions, Filter: o.filterRE, Update: o.update,
		StrictAnswers: o.strictAnswers, Parallel: o.parallel, Secrets: s.secrets,
	})
	if err != nil {
		var ue *suite.UnreachableError
		if errors.As(err, &ue) && ctx.Err() == nil {
			// Exit 3, as diff's live side: a server that never answered
			// the connect (--connect-timeout) was not reached either.
			return unreachableError{fmt.Errorf("no test ran: %w", ue.Err)}
		}
		if errors.As(err, &ue) {
			return fmt.Errorf("no test ran: %w", ue.Err)
		}
		return err
	}
	suite.WriteText(s.out, report)
	if err := o.writeReports(s, report); err != nil {
		return err
	}
	if _, failed, _ := report.Counts(); failed > 0 {
		return errTestsFailed
	}
	return nil
}

// approveSuites asks the person to approve each suite found in the
// project (not named on the command line) whose server is a URL it would
// send their environment's values to, before anything runs; a file named
// is theirs by naming it, and a command's suite is make test's kind
// (docs/security.md). --trust-project or MCPEEK_TRUST_PROJECT runs them
// without asking.
func (o *testOptions) approveSuites(ctx context.Context, s streams) error {
	if o.server != nil || o.conn.selection.TrustsProjects() {
		return nil
	}
	for _, su := range o.suites {
		if !o.found[su.File] || len(su.EnvReads) == 0 || len(su.Server) == 0 || !isURL(su.Server[0]) {
			continue
		}
		ps := session.ProjectSuite{File: su.File, Digest: su.Digest, URL: su.Server[0], Reads: su.EnvReads}
		if err := session.ApproveSuite(ctx, ps, o.askSuite, s.errOut, s.terminal()); err != nil {
			return err
		}
	}
	return nil
}

// isURL reports whether a server's first word is a URL.
func isURL(word string) bool {
	return strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://")
}

// writeReports writes --junit, --json and, with --github, the
// annotations and the step summary.
func (o *testOptions) writeReports(s streams, report *suite.Report) error {
	write := func(path string, f func(*os.File) error) error {
		file, err := safefile.Public(path)
		if err != nil {
			return err
		}
		if err := f(file); err != nil {
			_ = file.Close()
			return err
		}
		return file.Close()
	}
	if o.junitPath != "" {
		if err := write(o.junitPath, func(f *os.File) error { return suite.WriteJUnit(s.secrets.Writer(f), report) }); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
	}
	if o.jsonPath != "" {
		if err := write(o.jsonPath, func(f *os.File) error { return suite.WriteJSON(s.secrets.Writer(f), report) }); err != nil {
			return fmt.Errorf("--json: %w", err)
		}
	}
	if !o.github {
		return nil
	}
	suite.WriteGitHub(s.out, report)
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
		f, err := safefile.PublicAppend(path)
		if err != nil {
			return fmt.Errorf("$GITHUB_STEP_SUMMARY: %w", err)
		}
		suite.WriteGitHubSummary(s.secrets.Writer(f), report)
		return f.Close()
	}
	return nil
}

// dialer connects a session through the one connection setup: the
// session.Config of the command line, with the suite's server,
// environment and roots added, in the session's revision.
func (o *testOptions) dialer(s streams) suite.Dialer {
	return func(ctx context.Context, d suite.Dial) (*mcpclient.Conn, func(), error) {
		words := o.serverOf(d.Suite)
		var env, headers []string
		switch {
		case len(words) > 0 && isURL(words[0]):
			headers = d.Suite.Headers
		case len(words) > 0 && !strings.HasPrefix(words[0], "@"):
			env = d.Suite.Env
		}
		cfg, sel, err := o.conn.configFor(words, env, headers, d.Suite.Roots)
		if err != nil {
			return nil, nil, err
		}
		cfg.Protocol = d.Revision
		// What the suite read from the environment to reach its server
		// (a URL's key, a command's token) is the run's secret, as a
		// config's credentials are.
		cfg.Secrets = append(cfg.Secrets, d.Suite.ServerSecrets...)
		if err := approveInto(ctx, &cfg, &sel, s.errOut, s.terminal()); err != nil {
			return nil, nil, err
		}
		if err := sel.Ready(); err != nil {
			return nil, nil, err
		}
		conn, closeConn, err := session.Open(ctx, cfg, o.conn.hooks(s, func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) }), d.Asker, d.Records)
		if err != nil {
			return nil, nil, doctorHint(ctx, err, cfg, &sel)
		}
		return conn, closeConn, nil
	}
}

// spokenRevisions are the revisions of the two eras the server speaks,
// as a starter's protocol: names them: the one conn negotiated, and each
// other one a session required to speak it connects in (init probes
// each era rather than trust a list).
func (o *testOptions) spokenRevisions(ctx context.Context, s streams, conn *mcpclient.Conn) []string {
	var out []string
	dial := o.dialer(s)
	for _, rev := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		if rev == conn.ProtocolVersion() {
			out = append(out, rev)
			continue
		}
		probe, done, err := dial(ctx, suite.Dial{Suite: &suite.Suite{}, Revision: rev, Asker: &suite.Asker{}, Records: mcpclient.NewRecorder(nil)})
		if err != nil {
			continue
		}
		_ = probe.Close()
		if done != nil {
			done()
		}
		out = append(out, rev)
	}
	return out
}

// runInit writes a starter suite from the server's tools.
func (o *testOptions) runInit(ctx context.Context, s streams) error {
	if o.out != "-" {
		if _, err := os.Lstat(o.out); err == nil {
			return usagef("test init: %s exists; give another --out FILE, or remove it", o.out)
		}
	}
	return o.conn.headless(ctx, s, author.Learner{}, mcpclient.NewRecorder(nil), func(ctx context.Context, conn *mcpclient.Conn) error {
		listed, err := conn.List(ctx, "tools")
		if err != nil {
			return fmt.Errorf("list tools: %w", err)
		}
		tools, _ := listed["tools"].([]*mcp.Tool)
		var server []string
		var secrets map[string]string
		if len(o.server) > 0 {
			server, secrets = author.TemplateSecrets(o.server)
		}
		text, env, err := author.Starter(author.StarterInput{Server: server, Tools: tools, Known: conn.Secrets(),
			Revisions: o.spokenRevisions(ctx, s, conn), Env: o.conn.env, Headers: o.conn.headers,
			Try: author.TryOn(ctx, conn, 10*time.Second)})
		if err != nil {
			return err
		}
		if len(secrets) > 0 {
			names := slices.Sorted(maps.Keys(secrets))
			fmt.Fprintf(s.errOut, "mcpeek: the server's URL or arguments carry values the suite does not keep (it may be committed): it reads them from %s; set them when you run it\n", strings.Join(names, ", "))
		}
		if len(env) > 0 {
			fmt.Fprintf(s.errOut, "mcpeek: the secret arguments, env: and headers: values are not written (the suite may be committed): it reads them from %s; set them when you run it\n", strings.Join(env, ", "))
		}
		if o.out == "-" {
			_, err = s.out.Write(text)
			return err
		}
		if err := safefile.WriteNew(o.out, text, 0o644); err != nil {
			return fmt.Errorf("test init: %w", err)
		}
		fmt.Fprintf(s.errOut, "mcpeek: wrote %s with %d tests; run mcpeek test %s\n", o.out, len(tools), o.out)
		return nil
	})
}

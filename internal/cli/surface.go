package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// errFindings is a diff that found what --fail-on fails on: exit 1, the
// report having said it all.
var errFindings = errors.New("the surfaces differ in ways --fail-on fails on")

// unreachableError is a live side of a diff that could not be reached:
// exit 3, even when it was the connect timeout that ran out.
type unreachableError struct{ err error }

func (e unreachableError) Error() string { return e.err.Error() }
func (e unreachableError) Unwrap() error { return e.err }

// surfaceOptions are `mcpeek surface`'s.
type surfaceOptions struct {
	conn connFlags
}

func newSurfaceOptions(fs *flagSet) options {
	o := &surfaceOptions{}
	o.conn.register(fs, true)
	return o
}

func (o *surfaceOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	return o.conn.parseTarget(rest)
}

func (o *surfaceOptions) run(ctx context.Context, s streams) error {
	sur, err := liveSurface(ctx, s, &o.conn, &o.conn.Config, &o.conn.selection)
	if err != nil {
		return err
	}
	b, err := sur.Marshal()
	if err != nil {
		return err
	}
	_, err = s.out.Write(textclean.EscapeJSON(b))
	return err
}

// liveSurface reads the surface of cfg's server (sel: the config entry it
// came from) in a headless run with cf's settings, and probes which
// protocol revisions it accepts.
func liveSurface(ctx context.Context, s streams, cf *connFlags, cfg *session.Config, sel *session.Selection) (*surface.Surface, error) {
	var sur *surface.Surface
	err := cf.headlessOn(ctx, s, cfg, sel, &mcpclient.HeadlessAsker{Stderr: s.errOut}, nil, func(ctx context.Context, conn *mcpclient.Conn) error {
		var err error
		if sur, err = surface.Live(ctx, conn); err != nil {
			return err
		}
		return sur.Probe(ctx, func(ctx context.Context, revision string) (string, error) {
			return probe(ctx, s, *cfg, revision)
		})
	})
	return sur, err
}

// probe connects once more to cfg's server, requiring revision, and
// returns the revision agreed: quietly (no wire log file, recording, log
// level or app host), as the run's connection is.
func probe(ctx context.Context, s streams, cfg session.Config, revision string) (string, error) {
	cfg.Protocol, cfg.LogLevel, cfg.WireLog, cfg.AppHost = revision, "", "", false
	e, err := session.Start(cfg, session.Hooks{Secrets: s.secrets})
	if err != nil {
		return "", err
	}
	defer e.Close()
	e.IgnoreListChanges = true
	e.ShowAuth = func(text string) { fmt.Fprintln(s.errOut, "mcpeek: "+text) }
	conn, err := e.Connect(ctx, nil, nil)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	return conn.ProtocolVersion(), nil
}

// diffOptions are `mcpeek diff`'s.
type diffOptions struct {
	// conn are the connection flags both live sides share (without
	// --config and --server, which a diff cannot give one side: @NAME can).
	conn       connFlags
	failOn     string
	format     string
	configPath string
	sides      []diffSide // set by parse
}

// diffSide is one side of a diff: a surface file, or the words that name a
// live server (a URL, @NAME, or a command given after --).
type diffSide struct {
	file  string
	words []string
	// cfg and sel are a live side's connection, made of the diff's
	// flags and the side's words (connFlags.configFor).
	cfg session.Config
	sel session.Selection
}

// diffOmits are the connection flags a diff does not take: --config names
// its own file, and no side renders apps.
var diffOmits = []string{"config", "server", "app-host", "app-host-addr", "no-browser", "open-with", "app-init-timeout", "app-timeout"}

func newDiffOptions(fs *flagSet) options {
	o := &diffOptions{}
	all := flag.NewFlagSet("diff", flag.ContinueOnError)
	o.conn.register(&flagSet{FlagSet: all}, true)
	all.VisitAll(func(f *flag.Flag) {
		if !slices.Contains(diffOmits, f.Name) {
			fs.Var(f.Value, f.Name, f.Usage)
		}
	})
	fs.StringVar(&o.failOn, "fail-on", "ERR", "exit 1 when a finding at or above this `LEVEL` stands: ERR, WARN or never")
	fs.StringVar(&o.format, "format", "text", "the report's `FORMAT`: "+strings.Join(surface.Formats, ", "))
	fs.StringVar(&o.configPath, "config", "", "the diff config `FILE`: rule levels and accepted findings (default "+surface.DefaultConfig+" when it exists)")
	return o
}

// parse reads the two sides, with flags before, between and after them. A
// command runs from a -- to the next -- or the end: `diff OLD -- CMD…`,
// `diff -- CMD1… -- CMD2…`.
func (o *diffOptions) parse(fs *flagSet, args []string) error {
	words := args
	for len(words) > 0 {
		rest, err := fs.parse(words)
		if err != nil {
			return err
		}
		if len(rest) == 0 {
			break
		}
		if len(words) > len(rest) && words[len(words)-len(rest)-1] == "--" {
			cmd := rest
			rest = nil
			if next := slices.Index(cmd, "--"); next >= 0 {
				cmd, rest = cmd[:next], cmd[next:]
			}
			if len(cmd) == 0 {
				return usagef("diff: -- must be followed by a server command")
			}
			o.sides = append(o.sides, diffSide{words: cmd})
			words = rest
			continue
		}
		w := rest[0]
		if strings.HasPrefix(w, "@") || strings.HasPrefix(w, "http://") || strings.HasPrefix(w, "https://") {
			o.sides = append(o.sides, diffSide{words: []string{w}})
		} else {
			o.sides = append(o.sides, diffSide{file: w})
		}
		words = rest[1:]
	}
	if len(o.sides) != 2 {
		return usageError{msg: fmt.Sprintf("diff: want OLD and NEW (a surface file, a URL, @NAME, or -- and a command), got %d", len(o.sides)), hint: true}
	}
	if !slices.Contains(surface.Formats, o.format) {
		return usagef("diff: --format %q: want %s", o.format, strings.Join(surface.Formats, ", "))
	}
	if !strings.EqualFold(o.failOn, "never") {
		if _, err := surface.ParseLevel(o.failOn); err != nil {
			return usagef("diff: --fail-on: %v (or never)", err)
		}
	}
	checked := false
	for i := range o.sides {
		side := &o.sides[i]
		if side.words == nil {
			continue
		}
		if !checked {
			if err := o.conn.checkAll(); err != nil {
				return err
			}
			checked = true
		}
		var err error
		if side.cfg, side.sel, err = o.conn.configFor(side.words, nil, nil, nil); err != nil {
			return err
		}
	}
	return nil
}

func (o *diffOptions) run(ctx context.Context, s streams) error {
	cfg, err := o.config()
	if err != nil {
		return err
	}
	// Files first: a mistake in one is found before any server starts.
	surfaces := make([]*surface.Surface, 2)
	labels := make([]surface.Side, 2)
	for i, side := range o.sides {
		if side.file == "" {
			continue
		}
		data, err := safefile.Read(side.file)
		if err != nil {
			return usagef("diff: %v", err)
		}
		if surfaces[i], err = surface.Parse(data); err != nil {
			if st, statErr := os.Stat(side.file); statErr == nil && st.Mode()&0o111 != 0 {
				return usagef("diff: %s: %v; to run it as a server, put -- before it", side.file, err)
			}
			return usagef("diff: %s: %v", side.file, err)
		}
		labels[i] = surface.Side{Label: side.file, File: side.file, Data: data}
	}
	for i := range o.sides {
		side := &o.sides[i]
		if side.file != "" {
			continue
		}
		if surfaces[i], err = liveSurface(ctx, s, &o.conn, &side.cfg, &side.sel); err != nil {
			if errors.As(err, new(*mcpclient.ConnectError)) && ctx.Err() == nil {
				return unreachableError{err}
			}
			return err
		}
		// As the run shows servers elsewhere: a URL without its query's
		// values, which may be keys.
		label := side.cfg.Target.String()
		if strings.HasPrefix(side.words[0], "@") {
			label = side.words[0]
		}
		labels[i] = surface.Side{Label: label}
	}
	level := surface.Level("")
	if !strings.EqualFold(o.failOn, "never") {
		level, _ = surface.ParseLevel(o.failOn)
	}
	r := &surface.Report{Old: labels[0], New: labels[1], FailOn: level,
		Findings: surface.Diff(surfaces[0], surfaces[1], cfg, time.Now())}
	if err := r.Write(s.out, o.format); err != nil {
		return err
	}
	for _, a := range cfg.Unused(r.Findings) {
		fmt.Fprintf(s.errOut, "mcpeek: diff config: the acceptance of %s (%s) matches no finding; remove it?\n", a.ID, textclean.OneLine(a.Reason))
	}
	if r.Failed() {
		return errFindings
	}
	return nil
}

// config reads --config, or the project's diff config when it has one.
func (o *diffOptions) config() (*surface.Config, error) {
	var cfg *surface.Config
	var err error
	if o.configPath == "" {
		cfg, err = surface.ProjectConfig(".")
	} else {
		cfg, err = surface.LoadConfig(o.configPath)
	}
	if err != nil {
		return nil, usagef("diff: --config: %v", err)
	}
	return cfg, nil
}

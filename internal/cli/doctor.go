package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpeek/mcpeek/internal/doctor"
	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// doctorOptions are `mcpeek doctor`'s: check each step of reaching a
// server, stopping at the first that fails (docs/architecture.md,
// "The connection doctor"); internal/doctor checks, this prints.
type doctorOptions struct {
	conn connFlags
	json bool
}

func newDoctorOptions(fs *flagSet) options {
	o := &doctorOptions{}
	o.conn.register(fs, true)
	fs.BoolVar(&o.json, "json", false, "print the report as JSON")
	return o
}

func (o *doctorOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := o.conn.parseTarget(rest); err != nil {
		return err
	}
	// The doctor never opens a browser: a server that needs a login is
	// reached with a stored token or not at all.
	if !o.conn.Auth.NoStored {
		o.conn.Auth.StoredOnly = true
	}
	return nil
}

// errDoctorFailed is a doctor run with a failing step: the report says
// which, so nothing more is printed; exit 3.
var errDoctorFailed = errors.New("a step failed")

func (o *doctorOptions) run(ctx context.Context, s streams) error {
	if err := o.conn.approve(ctx, s.errOut, s.terminal()); err != nil { // before --timeout counts
		return err
	}
	if err := o.conn.selection.Ready(); err != nil {
		return err
	}
	ctx, cancel := withTimeout(ctx, o.conn.timeout)
	defer cancel()
	if o.conn.AppHost {
		o.conn.App.Theme = o.conn.theme(s)
	}
	opts := doctor.Options{Session: o.conn.Config, Source: o.conn.selection.Source(), Secrets: s.secrets}
	if !o.json {
		fmt.Fprintf(s.out, "mcpeek doctor: %s", textclean.OneLine(o.conn.Target.String()))
		if src := opts.Source; src != nil {
			fmt.Fprintf(s.out, " (%q from %s)", src.Server, session.DisplayPath(src.File))
		}
		fmt.Fprintln(s.out)
		opts.Show = func(st doctor.Step) { writeStep(s.out, st) }
	}
	if o.conn.TLS.Insecure {
		fmt.Fprintln(s.errOut, insecureWarning)
	}
	report := doctor.Run(ctx, opts)
	if o.json {
		if err := writeJSON(s.out, report); err != nil {
			return err
		}
	} else {
		writeVerdict(s.out, report)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("doctor: %w", context.Cause(ctx))
	}
	if !report.OK {
		return errDoctorFailed
	}
	return nil
}

// stepMarks are the marks of each status in the text report.
var stepMarks = map[string]string{doctor.StatusOK: "✓", doctor.StatusWarn: "!", doctor.StatusFail: "✗", doctor.StatusSkip: "-"}

func writeStep(w io.Writer, s doctor.Step) {
	fmt.Fprintf(w, "  %s %-15s %6s  %s\n", stepMarks[s.Status], s.Step, fmt.Sprintf("%dms", s.Ms), s.Detail)
	if s.Hint != "" {
		fmt.Fprintf(w, "    fix: %s\n", s.Hint)
	}
}

func writeVerdict(w io.Writer, r doctor.Report) {
	if r.OK {
		warnings := 0
		for _, s := range r.Steps {
			if s.Status == doctor.StatusWarn {
				warnings++
			}
		}
		fmt.Fprintf(w, "all %d steps passed", len(r.Steps))
		if warnings > 0 {
			fmt.Fprintf(w, " (%d with a warning)", warnings)
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintf(w, "stopped at %s\n", r.Steps[len(r.Steps)-1].Step)
}

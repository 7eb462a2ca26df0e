package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/internal/suite/author"
)

// recordOptions are `mcpeek record`'s: what to make of a recording (the
// engine: internal/suite/author).
type recordOptions struct {
	toSuite string

	// Set by parse.
	server []string
	rec    *author.Recording
}

func newRecordOptions(fs *flagSet) options {
	o := &recordOptions{}
	fs.StringVar(&o.toSuite, "to-suite", "", "write a test per tool call of the recording to this suite `FILE` (created, or added to), with its answers, what was asked, its rounds and a snapshot")
	return o
}

func (o *recordOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || dashBefore(args, rest) {
		return usagef("record: name the recording (a file --record wrote)")
	}
	file := rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if o.toSuite == "" {
		return usagef("record: say what to make of %s: --to-suite FILE", file)
	}
	o.server = rest
	if o.rec, err = author.ReadRecording(file); err != nil {
		return usagef("record: %v", err)
	}
	return nil
}

func (o *recordOptions) run(_ context.Context, s streams) error {
	drafts, err := o.rec.Write(o.toSuite, o.server, s.secrets)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	for _, d := range drafts {
		fmt.Fprintf(s.errOut, "mcpeek: wrote the test %q to %s", d.Name, o.toSuite)
		if len(d.Env) > 0 {
			fmt.Fprintf(s.errOut, " (set %s to run it: its secrets are not written)", strings.Join(d.Env, ", "))
		}
		fmt.Fprintln(s.errOut)
	}
	return nil
}

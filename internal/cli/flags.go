package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"
)

// flagSet is a command's flags and the help that -h prints on stdout.
type flagSet struct {
	*flag.FlagSet
	help func()
}

// flagSet makes the command's flag set, which prints nothing itself: -h
// prints the command's help on stdout, and a mistake becomes a one-line
// usage error.
func (c *command) flagSet(stdout io.Writer) *flagSet {
	name := c.name
	if name == "" {
		name = "mcpeek"
	}
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError)}
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.help = func() { c.writeHelp(stdout, fs) }
	return fs
}

// parse parses flags from args and returns the words after them; a flag
// mistake becomes a usage error.
func (fs *flagSet) parse(args []string) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.help()
			return nil, err
		}
		msg := err.Error()
		if fs.Name() != "mcpeek" {
			msg = fs.Name() + ": " + msg
		}
		return nil, usageError{msg: msg, hint: true}
	}
	return fs.Args(), nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// sizeFlag is a size in bytes, given as 16MiB, 64MB, 1GiB or a number of
// bytes.
type sizeFlag int64

func (f *sizeFlag) String() string { return humanize.IBytes(uint64(*f)) }

func (f *sizeFlag) Set(v string) error {
	n, err := humanize.ParseBytes(v)
	if err != nil || n < 1<<10 || n > 1<<40 {
		return fmt.Errorf("%q is not a size from 1KiB to 1TiB (such as 16MiB, 64MB or a number of bytes)", v)
	}
	*f = sizeFlag(n)
	return nil
}

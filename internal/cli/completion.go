package cli

import (
	"context"
	"flag"
	"io"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/completion"
)

// completionOptions are `mcpeek completion SHELL`'s.
type completionOptions struct {
	shell string
}

func (o *completionOptions) parse(_ *flagSet, args []string) error {
	if len(args) != 1 || !slices.Contains(completion.Shells, args[0]) {
		return usagef("completion: name the shell: bash, zsh or fish")
	}
	o.shell = args[0]
	return nil
}

func (o *completionOptions) run(_ context.Context, s streams) error {
	return completion.Write(s.out, o.shell, completionData())
}

// completionData reads the command table.
func completionData() completion.Data {
	var d completion.Data
	valueFlags := map[string]bool{}
	for i := range commands {
		c := &commands[i]
		fs := c.flagSet(io.Discard)
		c.options(fs)
		cc := completion.Command{Name: c.name, Summary: c.summary, Words: c.words}
		if c.name == "help" {
			cc.Words = commandNames()
		}
		fs.VisitAll(func(f *flag.Flag) {
			cf := completion.Flag{Name: "--" + f.Name, Usage: firstLine(f.Usage), Value: !isBoolFlag(f)}
			if len(f.Name) == 1 {
				cf.Name = "-" + f.Name
			}
			cc.Flags = append(cc.Flags, cf)
			if cf.Value {
				valueFlags[cf.Name] = true
			}
		})
		if c.name == "" {
			d.Inspector = cc
		}
		for _, name := range append([]string{c.name}, c.aliases...) {
			if name != "" {
				named := cc
				named.Name = name
				d.Commands = append(d.Commands, named)
			}
		}
	}
	for name := range valueFlags {
		d.ValueFlags = append(d.ValueFlags, name)
	}
	slices.Sort(d.ValueFlags)
	return d
}

// commandNames are the words that name a command, aliases too.
func commandNames() []string {
	var names []string
	for _, c := range commands {
		if c.name != "" {
			names = append(names, c.name)
		}
		names = append(names, c.aliases...)
	}
	return names
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// firstLine is a flag's usage up to its first clause, for a shell's
// one-line description: without the backquotes that name its value.
func firstLine(usage string) string {
	usage = strings.ReplaceAll(usage, "`", "")
	if i := strings.IndexAny(usage, ";:("); i > 0 {
		usage = usage[:i]
	}
	return strings.TrimSpace(usage)
}

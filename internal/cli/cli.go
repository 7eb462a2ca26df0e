package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Run is mcpeek's whole life: it runs the command that args (the words
// after the program's name) name, writes results to stdout and diagnostics
// to stderr, and returns the exit code. Commands read the process's
// standard input through the streams it gives them.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// Diagnostics come from several goroutines (notifications, apps,
	// answers): one write at a time. A file (the terminal) is left as it
	// is: the system keeps its writes apart, and the forms drawn on it
	// need the file itself.
	if _, ok := stderr.(*os.File); !ok {
		stderr = &syncWriter{w: stderr}
	}
	// Every secret the run learns (-H and config credentials, tokens) is
	// redacted from all it prints, results included: a server may quote
	// one back (docs/architecture.md, "Secrets in what is shown").
	secrets := &mcpclient.Secrets{}
	s := newStreams(os.Stdin, stdout, stderr, secrets)
	return report(ctx, dispatch(ctx, args, s), s.errOut)
}

// syncWriter serializes writes to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// dispatch finds the command args name, parses its options and runs it.
func dispatch(ctx context.Context, args []string, s streams) error {
	c, rest, err := lookup(args)
	if err != nil {
		return err
	}
	fs := c.flagSet(s.out)
	opts := c.options(fs)
	if err := opts.parse(fs, rest); err != nil {
		return err
	}
	return opts.run(ctx, s)
}

// lookup returns the command args name and the words after its name. A
// first word that names no command is the inspector's (a server command or
// a flag), unless it looks like a mistyped command.
func lookup(args []string) (*command, []string, error) {
	if len(args) == 0 {
		return inspector(), nil, nil
	}
	if c := find(args[0]); c != nil {
		return c, args[1:], nil
	}
	if c, rest := commandAfterFlags(args); c != nil {
		return c, rest, nil
	}
	if isMistypedCommand(args) {
		return nil, nil, usageError{msg: fmt.Sprintf("unknown command %q", args[0]), hint: true}
	}
	return inspector(), args, nil
}

// commandAfterFlags finds the command named after leading flags, as in
// "mcpeek -e K=V call TOOL ./server", and returns it with those flags
// moved after its name; nil when args begin with no flag, or when no
// command follows flags that are all its own. A -- before the word keeps
// it a server command ("mcpeek -e K=V -- call" runs a program named call).
func commandAfterFlags(args []string) (*command, []string) {
	if !strings.HasPrefix(args[0], "-") {
		return nil, nil
	}
	for i, word := range args {
		if word == "--" {
			return nil, nil
		}
		c := find(word)
		if c == nil {
			continue
		}
		// Its flag set says which flags take a value, so that "-e call"
		// stays -e's.
		fs := c.flagSet(io.Discard)
		c.options(fs)
		if fs.FlagSet.Parse(args[:i]) == nil && fs.NArg() == 0 {
			return c, append(slices.Clone(args[:i]), args[i+1:]...)
		}
	}
	return nil, nil
}

// isMistypedCommand tells "mcpeek frob" (a typo of a command) from
// "mcpeek server-command": a bare first word that is no program on PATH.
// "--" or a path ("./server") always means a server command.
func isMistypedCommand(args []string) bool {
	return len(args) > 0 && !strings.HasPrefix(args[0], "-") && !couldBeServer(args[0])
}

// couldBeServer reports whether word could begin a server's words: a
// URL, @NAME, a path or a program on PATH.
func couldBeServer(word string) bool {
	if strings.HasPrefix(word, "@") || strings.ContainsAny(word, "/\\") ||
		strings.HasPrefix(word, "http://") || strings.HasPrefix(word, "https://") {
		return true
	}
	_, err := exec.LookPath(word)
	return err == nil
}

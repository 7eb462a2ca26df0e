package cli

import (
	"bufio"
	"context"
	"io"
	"os"
	"sync"

	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/muesli/termenv"
	"golang.org/x/term"
)

// streams are where a command reads and writes, given to it rather than
// taken from os.*, so that a test can give its own: in is standard input;
// results go to out, diagnostics to errOut, both with the run's secrets
// redacted; term is stderr itself, for what is drawn on the terminal
// (forms, prompts, the inspector).
type streams struct {
	in          session.File
	out, errOut io.Writer
	term        io.Writer
	secrets     *mcpclient.Secrets
	// lines reads what is pasted on in, one reader for the whole run
	// (nil: nothing to read).
	lines *pastedLines
}

// newStreams are the streams of a run that reads in and writes stdout and
// stderr, redacting secrets from both.
func newStreams(in session.File, stdout, stderr io.Writer, secrets *mcpclient.Secrets) streams {
	return streams{in: in, out: secrets.Writer(stdout), errOut: secrets.Writer(stderr), term: stderr, secrets: secrets,
		lines: &pastedLines{in: in}}
}

// isStdinTTY reports whether standard input is a terminal.
func (s streams) isStdinTTY() bool {
	return s.in != nil && term.IsTerminal(int(s.in.Fd()))
}

// isStdoutTTY reports whether results go to a terminal.
func (s streams) isStdoutTTY() bool { return isTerminal(s.out) }

// isStderrTTY reports whether diagnostics go to a terminal.
func (s streams) isStderrTTY() bool { return isTerminal(s.errOut) }

// interactive reports whether a person sits at this terminal: standard
// input and stderr are both one.
func (s streams) interactive() bool { return s.isStdinTTY() && isTerminal(s.term) }

// terminal is where the person is asked: stdin, with the questions on
// stderr itself.
func (s streams) terminal() session.Terminal { return session.Terminal{In: s.in, Out: s.term} }

// theme is "dark" or "light", after the terminal's background, for the
// apps mcpeek hosts; "light" when stderr is no terminal.
func (s streams) theme() string {
	f, ok := s.term.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "light"
	}
	if termenv.NewOutput(f).HasDarkBackground() {
		return "dark"
	}
	return "light"
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := unwrapped(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// pastedLines reads the lines typed on standard input, for a pasted
// redirect URL: one reader for the whole run, whatever asks.
type pastedLines struct {
	in    io.Reader
	once  sync.Once
	lines chan string
}

func (p *pastedLines) start() chan string {
	p.once.Do(func() {
		p.lines = make(chan string)
		go func() {
			sc := bufio.NewScanner(p.in)
			for sc.Scan() {
				p.lines <- sc.Text()
			}
			close(p.lines)
		}()
	})
	return p.lines
}

// pasteLine reads a pasted line, until ctx ends.
func (s streams) pasteLine(ctx context.Context) (string, error) {
	if s.lines == nil || s.in == nil {
		return "", io.EOF
	}
	select {
	case line, ok := <-s.lines.start():
		if !ok {
			return "", io.EOF
		}
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// unwrapped is w without the redaction streams add to out and errOut.
func unwrapped(w io.Writer) io.Writer {
	if u, ok := w.(interface{ Unwrap() io.Writer }); ok {
		return u.Unwrap()
	}
	return w
}

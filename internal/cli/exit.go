package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mcpeek/mcpeek/internal/session"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Exit codes (docs/architecture.md, "Headless runs and exit codes").
const (
	exitOK          = 0
	exitToolError   = 1
	exitUsage       = 2
	exitConnection  = 3
	exitTimeout     = 124
	exitInterrupted = 130
)

var (
	// errInterrupted is the cause when Ctrl+C cancelled a form or a
	// question on the terminal.
	errInterrupted = session.ErrInterrupted
	// errToolError is a call whose tool returned isError: the result on
	// stdout says what went wrong.
	errToolError = errors.New("the tool returned isError")
	// errAnswersRejected is a call in which answers broke the requested
	// schema and were not sent: each was reported on stderr as it happened.
	errAnswersRejected = errors.New("answers were rejected")
)

// usageError is a command-line mistake or bad input: exit 2 with one line
// on stderr (and a pointer to the help for flag mistakes).
type usageError struct {
	msg  string
	hint bool
}

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{msg: fmt.Sprintf(format, args...)} }

// serveError is the fixture failing to serve: exit 3, even once
// interrupted.
type serveError struct{ err error }

func (e serveError) Error() string { return e.err.Error() }
func (e serveError) Unwrap() error { return e.err }

// report prints err, when it needs saying, as one line on stderr and
// returns the exit code it means.
func report(ctx context.Context, err error, stderr io.Writer) int {
	code, say := exitCode(ctx, err)
	if !say {
		return code
	}
	fmt.Fprintf(stderr, "mcpeek: %s\n", textclean.OneLine(err.Error()))
	if ue := (usageError{}); errors.As(err, &ue) && ue.hint {
		fmt.Fprintln(stderr, "Run 'mcpeek help' for usage.")
	}
	return code
}

// exitCode is the one place an error becomes an exit code; say is whether
// the error still needs printing. ctx is the run's: once it is done, a
// failure is the interruption's doing.
func exitCode(ctx context.Context, err error) (code int, say bool) {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK, false
	case errors.Is(err, errToolError), errors.Is(err, errTestsFailed), errors.Is(err, errReplayDiffers):
		return exitToolError, false
	case errors.Is(err, errDoctorFailed): // the report says which step
		return exitConnection, false
	case errors.Is(err, errFindings): // the diff's report says which
		return exitToolError, false
	case errors.Is(err, errServedMismatch): // the served recording's summary says which
		return exitToolError, false
	case mcpclient.IsSampleRejected(err): // the call cannot go on without the reply
		return exitToolError, true
	case errors.As(err, new(urlRequiredError)): // nor without the pages opened
		return exitToolError, true
	case errors.Is(err, errAnswersRejected):
		return exitUsage, false
	case errors.As(err, new(usageError)), errors.As(err, new(session.UsageError)):
		return exitUsage, true
	case errors.Is(err, errInterrupted):
		return exitInterrupted, true
	case errors.As(err, new(serveError)), errors.As(err, new(unreachableError)):
		return exitConnection, true
	case ctx.Err() != nil:
		return exitInterrupted, true
	case errors.Is(err, context.DeadlineExceeded):
		return exitTimeout, true
	}
	return exitConnection, true
}

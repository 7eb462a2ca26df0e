package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/term"
)

// A suite found in a project (not named on the command line) whose server
// is a URL, and which reads the person's environment ({{env.X}}), would
// send what it reads to that URL: as a project's URL entry does, it is
// used only once the person approves it, remembered by the suite's
// content until it changes (docs/security.md, "A hostile repository").

// ProjectSuite is a suite that needs the person's approval before it
// runs.
type ProjectSuite struct {
	// File is its path; Digest the SHA-256 of its content.
	File, Digest string
	// URL is its server's, as expanded (shown without its query's values
	// or password).
	URL string
	// Reads are the environment variables it reads.
	Reads []string
}

// SuiteApprover asks the person whether to run a project's suite; an
// error says it could not ask, or ErrInterrupted that the run ended
// while it asked.
type SuiteApprover func(ctx context.Context, s ProjectSuite) (bool, error)

// suiteApprovalName is what an approved suite is remembered as in the
// store of approved servers, beside its file's path.
const suiteApprovalName = "suite server"

// ApproveSuite makes sure the person approved the project's suite s as it
// is now: remembered, or asked on tty (ask, when not nil, asks instead),
// a yes remembered. Without a terminal to ask on, the suite is refused
// (exit 2), saying how to approve it and how CI runs it.
func ApproveSuite(ctx context.Context, s ProjectSuite, ask SuiteApprover, errOut io.Writer, tty Terminal) error {
	file, err := filepath.Abs(s.File)
	if err != nil {
		file = s.File
	}
	store, err := TrustStore()
	if err != nil {
		return err
	}
	if ok, err := store.ApprovedDigest(file, suiteApprovalName, s.Digest); err != nil || ok {
		return err
	}
	if ask == nil {
		ask = func(ctx context.Context, s ProjectSuite) (bool, error) { return askSuite(ctx, s, tty.In, errOut) }
	}
	ok, err := ask(ctx, s)
	switch {
	case errors.Is(err, ErrInterrupted):
		return err
	case err != nil:
		return usagef("suite %s sends %s from your environment to %s, and you have not approved it (%v): run %s test on a terminal to review and approve it, or give --trust-project (%s=1 in CI) to run a project's suites without asking",
			DisplayPath(s.File), strings.Join(s.Reads, ", "), shownURL(s.URL), err, SelfName(), TrustProjectEnv)
	case !ok:
		return usagef("you did not approve suite %s: nothing was run", DisplayPath(s.File))
	}
	if err := store.ApproveDigest(file, suiteApprovalName, s.Digest); err != nil {
		fmt.Fprintf(errOut, "mcpeek: warning: approved for this run only: %v\n", textclean.OneLine(err.Error()))
	}
	return nil
}

// askSuite shows what the suite sends where and asks whether to run it.
// Only "y" or "yes" approves.
func askSuite(ctx context.Context, s ProjectSuite, stdin File, w io.Writer) (bool, error) {
	if stdin == nil || !term.IsTerminal(int(stdin.Fd())) {
		return false, ErrNoTerminal
	}
	fmt.Fprintf(w, "mcpeek: a project's suite, not yours, reaches a server with your environment:\n")
	fmt.Fprintf(w, "  %-8s %s\n", "file", DisplayPath(s.File))
	fmt.Fprintf(w, "  %-8s %s\n", "url", shownURL(s.URL))
	fmt.Fprintf(w, "  %-8s %s\n", "reads", textclean.OneLine(strings.Join(s.Reads, ", "))+" from your environment, sent to that server")
	return askYes(ctx, stdin, w, "Run this suite? mcpeek remembers your answer until the suite changes.")
}

// shownURL is a URL as a person may see it: without its query's values or
// a password, which may be keys, cleaned and cut to one line.
func shownURL(raw string) string {
	shown := mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: raw}.String()
	return textclean.Cut(textclean.OneLine(shown), maxShownValue)
}

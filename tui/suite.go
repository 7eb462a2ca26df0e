// The Suite tab's runs: a test of the project's suites on the connection
// the inspector holds (suite.RunOne), its answers standing in for the
// inspector's forms and apps while it runs.

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testRanMsg brings a run's outcome to the Suite tab.
type testRanMsg struct{ ran page.TestRan }

func (msg testRanMsg) update(m *Model) tea.Cmd {
	pageOf[*page.Suite](m).Update(msg.ran)
	return nil
}

// runTest runs a test the Suite tab asked for on conn (nil: not
// connected), off the Update loop; it always answers, with the outcome or
// why nothing ran; running names a Tools call under way. The test reads
// its suite file afresh. While it runs, every question the server asks is
// answered from the test's answers (mcpclient.Conn.StandIn): the
// server's requests of 2025-11-25 name no call, so a tool called
// meanwhile from the Tools tab has its questions answered by the test
// too, which is why no run starts while a call runs.
func runTest(conn *mcpclient.Conn, running string, a page.RunTest) tea.Cmd {
	notRun := func(err error) tea.Cmd {
		return func() tea.Msg { return testRanMsg{page.TestRan{ID: a.ID, Err: err}} }
	}
	switch {
	case conn == nil:
		return notRun(errors.New("not connected to a server"))
	case running != "":
		return notRun(fmt.Errorf("a call is running (%s): its questions are the person's, not the test's", running))
	}
	return func() tea.Msg {
		return testRanMsg{runTestOn(a.Ctx, conn, a.File, a.Name, a.Approved, a.ID)}
	}
}

// A project's suite is a repository's file: before the first run of one
// of its tests on the person's server, the Suite tab shows what the test
// does and asks (docs/security.md, "Suites").

// SuiteTrust remembers the tests the person approved to run, each by its
// suite file's absolute path, its name and the suite's digest: a suite
// that changes is asked about again.
type SuiteTrust interface {
	Approved(file, test, digest string) (bool, error)
	Approve(file, test, digest string) error
}

// storeTrust is mcpeek's store of approved servers (the one a project's
// .mcp.json entries are approved in), holding tests too.
type storeTrust struct{}

func (storeTrust) store() (*mcpconfig.TrustStore, error) {
	path, err := mcpconfig.DefaultTrustPath()
	if err != nil {
		return nil, err
	}
	return mcpconfig.OpenTrustStore(path), nil
}

// Approved reports whether the person approved the test as it is now.
func (t storeTrust) Approved(file, test, digest string) (bool, error) {
	store, err := t.store()
	if err != nil {
		return false, err
	}
	return store.ApprovedDigest(file, "test: "+test, digest)
}

// Approve remembers that the person approved the test as it is now.
func (t storeTrust) Approve(file, test, digest string) error {
	store, err := t.store()
	if err != nil {
		return err
	}
	return store.ApproveDigest(file, "test: "+test, digest)
}

func (m *Model) suiteTrust() SuiteTrust {
	if m.opts.SuiteTrust != nil {
		return m.opts.SuiteTrust
	}
	return storeTrust{}
}

// runOrAsk runs the test a asks for if the person approved it as its
// suite is now (remembering an approval a carries), and otherwise shows
// what it does and asks first; a test not approved does not run, and the
// page hears so. The suite and the store are read off the Update loop
// (testReviewedMsg brings what they said).
func (m *Model) runOrAsk(a page.RunTest) tea.Cmd {
	if m.connected() == nil || m.running != "" {
		return runTest(m.connected(), m.running, a)
	}
	trust := m.suiteTrust()
	tools := slices.Clone(pageOf[*page.Tools](m).All())
	return func() tea.Msg {
		notRun := func(err error) tea.Msg { return testRanMsg{page.TestRan{ID: a.ID, Err: err}} }
		review, err := reviewTest(a.File, a.Name, tools)
		if err != nil {
			return notRun(err)
		}
		file, err := filepath.Abs(a.File)
		if err != nil {
			return notRun(err)
		}
		if a.Approved != "" {
			if a.Approved != review.digest {
				return notRun(fmt.Errorf("%s changed while you reviewed the test: run it again to review it", a.File))
			}
			return testReviewedMsg{run: a, review: review, approved: true, unkept: trust.Approve(file, a.Name, a.Approved)}
		}
		ok, err := trust.Approved(file, a.Name, review.digest)
		if err != nil {
			return notRun(err)
		}
		return testReviewedMsg{run: a, review: review, approved: ok}
	}
}

// testReviewedMsg brings what a test the Suite tab asked to run does, and
// whether the person approved it as its suite is now; unkept says why an
// approval given just now could not be remembered.
type testReviewedMsg struct {
	run      page.RunTest
	review   testReview
	approved bool
	unkept   error
}

// update runs an approved test, or asks about it.
func (msg testReviewedMsg) update(m *Model) tea.Cmd {
	a := msg.run
	if msg.unkept != nil {
		m.status = statusMsg{"approved for this run only: " + widget.Clean(msg.unkept.Error()), true}
	}
	if msg.approved {
		a.Approved = msg.review.digest
		return runTest(m.connected(), m.running, a)
	}
	yes := a
	yes.Approved = msg.review.digest
	no := layer.Cmd{Cmd: func() tea.Msg {
		return testRanMsg{page.TestRan{ID: a.ID, Err: errors.New("you did not approve the test: nothing ran")}}
	}}
	title := widget.Clean(a.Name) + " is the project's test: run it on your server?"
	return m.host(layer.NewApproveTest(&m.c, title, msg.review.text, yes, no))
}

// testReview is what a test does, for the person to approve, and the
// digest of the suite it is of.
type testReview struct {
	text, digest string
}

// reviewTest reads the suite at file and says what its test name does:
// each step, the tools it calls with their annotations (tools are the
// server's), its arguments and answers as the file writes them ({{env.X}}
// shown, not expanded), and the environment it reads; cleaned for the
// terminal.
func reviewTest(file, name string, tools []*mcp.Tool) (testReview, error) {
	named := func(name string) *mcp.Tool {
		if i := slices.IndexFunc(tools, func(t *mcp.Tool) bool { return t.Name == name }); i >= 0 {
			return tools[i]
		}
		return nil
	}
	s, err := suite.Load(file, func(v string) (string, bool) { return "{{env." + v + "}}", true })
	if err != nil {
		return testReview{}, err
	}
	defer s.Cleanup()
	var t *suite.Test
	for _, each := range s.Tests {
		if each.Name == name {
			t = each
		}
	}
	if t == nil {
		return testReview{}, fmt.Errorf("%s holds no test %q any more", file, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, line %d: a file of the project, not yours. What the test does on the server you are connected to:\n", file, t.Line)
	for i, st := range t.Steps {
		fmt.Fprintf(&b, "\n%d. %s %s", i+1, st.Kind, st.Target)
		if st.Kind == suite.StepCall {
			b.WriteString(" — " + toolNature(named(st.Target)))
		}
		b.WriteString("\n")
		if st.Args != nil {
			data, _ := json.Marshal(st.Args)
			fmt.Fprintf(&b, "   arguments: %s\n", data)
		}
		for _, ans := range st.Answers {
			data, _ := json.Marshal(ans)
			fmt.Fprintf(&b, "   answers: %s\n", data)
		}
	}
	if len(s.EnvReads) > 0 {
		fmt.Fprintf(&b, "\nThe suite reads %s from your environment.\n", strings.Join(s.EnvReads, ", "))
	}
	b.WriteString("\nIts answers accept the server's questions for you, without a form. mcpeek remembers your answer until the suite changes.")
	return testReview{text: widget.Clean(b.String()), digest: s.Digest}, nil
}

// toolNature is what a tool's annotations say it does to the person's
// world, as the review names it.
func toolNature(t *mcp.Tool) string {
	switch {
	case t == nil:
		return "a tool this server does not list"
	case t.Annotations != nil && t.Annotations.ReadOnlyHint:
		return "read-only (by its annotations)"
	case t.Annotations != nil && t.Annotations.DestructiveHint != nil && !*t.Annotations.DestructiveHint:
		return "changes things, not destructively (by its annotations)"
	}
	return "MAY CHANGE OR DELETE THINGS (not annotated read-only)"
}

// runTestOn reads the suite at file and runs its test name on conn, if
// the file is still what the person approved (its digest approved).
func runTestOn(ctx context.Context, conn *mcpclient.Conn, file, name, approved string, id int64) page.TestRan {
	out := page.TestRan{ID: id}
	s, err := suite.Load(file, os.LookupEnv)
	if err != nil {
		out.Err = err
		return out
	}
	defer s.Cleanup()
	if s.Digest != approved {
		out.Err = fmt.Errorf("%s changed since you approved the test: run it again to review it", file)
		return out
	}
	var t *suite.Test
	for _, each := range s.Tests {
		if each.Name == name {
			t = each
			break
		}
	}
	if t == nil {
		out.Err = fmt.Errorf("%s holds no test %q any more", file, name)
		return out
	}
	on := suite.On{Conn: conn, Secrets: conn.Secrets(), StandIn: func(a *suite.Asker) (func(), error) { return conn.StandIn(a) }}
	one, err := suite.RunOne(ctx, on, s, t)
	if one != nil {
		out.Result, out.Pending = one.Result, one.Pending
	}
	switch {
	case err != nil && ctx.Err() != nil:
		out.Cancelled = true
	case err != nil:
		out.Err = err
	}
	return out
}

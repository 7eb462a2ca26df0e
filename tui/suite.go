// The Suite tab's runs: a test of the project's suites on the connection
// the inspector holds (suite.RunOne), its answers standing in for the
// inspector's forms and apps while it runs.

package tui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
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
		return testRanMsg{runTestOn(a.Ctx, conn, a.File, a.Name, a.ID)}
	}
}

// runTestOn reads the suite at file and runs its test name on conn.
func runTestOn(ctx context.Context, conn *mcpclient.Conn, file, name string, id int64) page.TestRan {
	out := page.TestRan{ID: id}
	s, err := suite.Load(file, os.LookupEnv)
	if err != nil {
		out.Err = err
		return out
	}
	defer s.Cleanup()
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

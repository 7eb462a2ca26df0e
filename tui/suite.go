// The Suite tab's runs: a test of the project's suites on the connection
// the inspector holds (suite.RunOne), its answers standing in for the
// inspector's forms and apps while it runs.
//
// A project's test is the project's code, run as the person on their own
// server: before its first run the person is shown what it does (each
// step's tool as the server annotates it, its arguments and answers, the
// {{env.*}} it reads) and asked (layer.TestApproval); a yes is remembered
// in the store of approved project servers, by the test's content hash,
// until the test or its suite file changes (docs/security.md).

package tui

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testRanMsg brings a run's outcome to the Suite tab.
type testRanMsg struct{ ran page.TestRan }

func (msg testRanMsg) update(m *Model) tea.Cmd {
	pageOf[*page.Suite](m).Update(msg.ran)
	return nil
}

// notRun is the answer to a run that did not start, saying why.
func notRun(id int64, err error) tea.Cmd {
	return func() tea.Msg { return testRanMsg{page.TestRan{ID: id, Err: err}} }
}

// cannotRun says why no run may start on conn (nil: not connected) while
// running names a Tools call under way, or nil. While a test runs, every
// question the server asks is answered from the test's answers
// (mcpclient.Conn.StandIn): the server's requests of 2025-11-25 name no
// call, so a tool called meanwhile from the Tools tab would have its
// questions answered by the test too, which is why no run starts while a
// call runs.
func cannotRun(conn *mcpclient.Conn, running string) error {
	switch {
	case conn == nil:
		return errors.New("not connected to a server")
	case running != "":
		return fmt.Errorf("a call is running (%s): its questions are the person's, not the test's", running)
	}
	return nil
}

// testReview is a test read for its review: the suite's bytes (what runs
// is what was reviewed), the review shown, and what an approval of it is
// remembered by.
type testReview struct {
	conn   *mcpclient.Conn
	run    page.RunTest
	data   []byte
	file   string // absolute
	digest string
	shown  layer.TestReview
}

// testReviewMsg brings a test the person has not approved yet: its
// review opens.
type testReviewMsg struct{ review *testReview }

func (msg testReviewMsg) update(m *Model) tea.Cmd {
	if msg.review.conn != m.connected() { // the server was switched meanwhile
		return nil
	}
	m.review = msg.review
	return m.host(layer.NewTestApproval(&m.c, msg.review.shown))
}

// runTest runs a test the Suite tab asked for, off the Update loop, once
// the person approved it: remembered, or asked (testReviewMsg). It always
// answers, with the outcome or why nothing ran. The test reads its suite
// file afresh.
func (m *Model) runTest(a page.RunTest) tea.Cmd {
	conn := m.connected()
	if err := cannotRun(conn, m.running); err != nil {
		return notRun(a.ID, err)
	}
	store, err := m.approvals()
	if err != nil {
		return notRun(a.ID, err)
	}
	tools := pageOf[*page.Tools](m).All()
	target, dir := m.opts.Target, m.opts.Dir
	return func() tea.Msg {
		r, err := reviewTest(a, tools)
		if err != nil {
			return testRanMsg{page.TestRan{ID: a.ID, Err: err}}
		}
		r.conn, r.shown.Target = conn, target
		if rel, err := filepath.Rel(cmp.Or(dir, "."), a.File); err == nil {
			r.shown.File = rel
		}
		approved, err := store.ApprovedDigest(r.file, testApprovalName(a.Name), r.digest)
		switch {
		case err != nil:
			return testRanMsg{page.TestRan{ID: a.ID, Err: err}}
		case !approved:
			return testReviewMsg{r}
		}
		return testRanMsg{runTestOn(a.Ctx, conn, a.File, r.data, a.Name, a.ID)}
	}
}

// approveTest runs the test under review id, the person having approved
// it, and remembers the approval.
func (m *Model) approveTest(id int64) tea.Cmd {
	r := m.review
	if r == nil || r.run.ID != id {
		return nil
	}
	m.review = nil
	conn := m.connected()
	if err := cannotRun(conn, m.running); err != nil {
		return notRun(id, err)
	}
	if conn != r.conn {
		return notRun(id, errors.New("the server changed while you read the test: run it again"))
	}
	store, err := m.approvals()
	if err != nil {
		return notRun(id, err)
	}
	return func() tea.Msg {
		if err := store.ApproveDigest(r.file, testApprovalName(r.run.Name), r.digest); err != nil {
			return testRanMsg{page.TestRan{ID: id, Err: fmt.Errorf("your approval could not be remembered, so nothing ran: %w", err)}}
		}
		return testRanMsg{runTestOn(r.run.Ctx, conn, r.run.File, r.data, r.run.Name, id)}
	}
}

// declineTest runs nothing of the test under review id, and says so on
// its row.
func (m *Model) declineTest(id int64) {
	if r := m.review; r != nil && r.run.ID == id {
		m.review = nil
		pageOf[*page.Suite](m).Update(page.TestRan{ID: id, Err: errors.New("you did not approve it: nothing was sent to the server")})
	}
}

// approvals is the store the approvals of tests are remembered in: the
// store of approved project servers, unless Options.Approvals names one.
func (m *Model) approvals() (*mcpconfig.TrustStore, error) {
	if m.opts.Approvals != nil {
		return m.opts.Approvals, nil
	}
	path, err := mcpconfig.DefaultTrustPath()
	if err != nil {
		return nil, err
	}
	return mcpconfig.OpenTrustStore(path), nil
}

// testApprovalName is what an approved test is remembered as in the
// store, beside its suite file's path.
func testApprovalName(name string) string { return "test: " + name }

// envTemplate finds the {{env.NAME}} a reviewed step holds.
var envTemplate = regexp.MustCompile(`\{\{env\.([^{}]+)\}\}`)

// reviewTest reads the suite of the test a asks for and describes the
// test: its steps as written, every {{env.NAME}} left as the template
// (the suite is read with each variable standing for its template, so
// no value of the person's environment is shown or hashed), each call's
// tool as tools lists it; and the digest an approval is remembered by:
// the suite file's bytes and the test's steps, answers read from their
// own files included.
func reviewTest(a page.RunTest, tools []*mcp.Tool) (*testReview, error) {
	data, err := safefile.Read(a.File)
	if err != nil {
		return nil, err
	}
	s, err := suite.Parse(a.File, data, func(name string) (string, bool) { return "{{env." + name + "}}", true })
	if err != nil {
		return nil, err
	}
	defer s.Cleanup()
	i := slices.IndexFunc(s.Tests, func(t *suite.Test) bool { return t.Name == a.Name })
	if i < 0 {
		return nil, fmt.Errorf("%s holds no test %q any more", a.File, a.Name)
	}
	t := s.Tests[i]
	r := &testReview{run: a, data: data, shown: layer.TestReview{ID: a.ID, File: a.File, Name: t.Name, Line: t.Line}}
	if r.file, err = filepath.Abs(a.File); err != nil {
		r.file = a.File
	}
	env := map[string]bool{}
	for _, st := range t.Steps {
		rs := layer.ReviewStep{Kind: st.Kind, Target: st.Target, Args: st.Args, Answers: st.Answers}
		if st.Complete != nil {
			rs.Complete = st.Complete
		}
		for _, p := range st.Explore {
			rs.Explore = append(rs.Explore, string(p))
		}
		if st.Kind == suite.StepCall {
			if j := slices.IndexFunc(tools, func(tool *mcp.Tool) bool { return tool.Name == st.Target }); j >= 0 {
				rs.Tool = tools[j]
			}
		}
		text, _ := json.Marshal(rs)
		for _, match := range envTemplate.FindAllStringSubmatch(string(text), -1) {
			env[match[1]] = true
		}
		r.shown.Steps = append(r.shown.Steps, rs)
	}
	for name := range env {
		r.shown.Env = append(r.shown.Env, name)
	}
	slices.Sort(r.shown.Env)
	sum := sha256.Sum256(data)
	key, err := json.Marshal(struct {
		Suite, Test string
		Steps       []layer.ReviewStep
	}{hex.EncodeToString(sum[:]), t.Name, r.shown.Steps})
	if err != nil {
		return nil, fmt.Errorf("%s: test %q: %w", a.File, a.Name, err)
	}
	sum = sha256.Sum256(key)
	r.digest = hex.EncodeToString(sum[:])
	return r, nil
}

// runTestOn reads the suite from data, the bytes of file, and runs its
// test name on conn.
func runTestOn(ctx context.Context, conn *mcpclient.Conn, file string, data []byte, name string, id int64) page.TestRan {
	out := page.TestRan{ID: id}
	s, err := suite.Parse(file, data, os.LookupEnv)
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

// Saving a result as a test (+): the step behind the result shown, the
// questions the server asked during it with the answers the person gave
// (in the form, in an app, in the sampling form; the roots offered), and
// its writing as a test of a suite under mcpeek/ with its snapshot
// (internal/suite, write.go; docs/architecture.md, "Saving a test").

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/internal/suite/author"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// savedStep is what + saves of one result: the step as it went, and
// whether running it again is harmless (a tool marked read-only, a read,
// a prompt).
type savedStep struct {
	step       suite.SessionStep
	args       json.RawMessage   // a call's arguments
	promptArgs map[string]string // a prompt's
	schema     any               // a call's tool's input schema
	readOnly   bool
}

// what is the step as the save layer's title says it.
func (s *savedStep) what() string {
	switch s.step.Kind {
	case suite.StepRead:
		return "read " + widget.Clean(s.step.Target)
	case suite.StepPrompt:
		return "prompt " + widget.Clean(s.step.Target)
	}
	return "call " + widget.Clean(s.step.Target)
}

// again sends the step's request again.
func (s *savedStep) again(ctx context.Context, conn *mcpclient.Conn) (any, error) {
	switch s.step.Kind {
	case suite.StepRead:
		return conn.Read(ctx, s.step.Target)
	case suite.StepPrompt:
		return conn.GetPrompt(ctx, s.step.Target, s.promptArgs)
	}
	return conn.Call(ctx, s.step.Target, s.args)
}

// ended keeps what a request ended in: its result, or the protocol error
// the server answered with; false for a failure that is not the server's
// answer (nothing to save).
func (s *savedStep) ended(res any, err error) bool {
	var rpc *jsonrpc.Error
	switch {
	case err == nil && res != nil:
		s.step.Result = res
	case errors.As(err, &rpc):
		code := int(rpc.Code)
		s.step.ErrorCode, s.step.ErrorMessage = &code, rpc.Message
	default:
		return false
	}
	return true
}

// savedSteps are the steps behind the results shown, so that + saves the
// one the pane shows: per tool in the order of the Tools page's results
// (nil for a call that was cancelled), per Resources entry its last read,
// per prompt its last get.
type savedSteps struct {
	tools   map[string][]*savedStep
	reads   map[string]*savedStep // by the Resources page's entry key
	prompts map[string]*savedStep // by the prompt's name
	// saving is the step the save layer open is for.
	saving *savedStep
	// stop ends the re-run under way, if any, and gives the connection
	// back to the person at once.
	stop func()
}

// toolSchema is a tool's input schema, or nil.
func toolSchema(t *mcp.Tool) any {
	if t == nil {
		return nil
	}
	return t.InputSchema
}

// stopRerun ends the re-run under way, if any: the save layer closed.
func (s *savedSteps) stopRerun() {
	if s.stop != nil {
		s.stop()
		s.stop = nil
	}
}

// secretStep is st's step with the values that hold a secret marked, to
// be written as {{env.X}} templates: the one secret rule
// (author.Secrets), by the tool's schema and the session's secrets
// (known).
func secretStep(st *savedStep, known *mcpclient.Secrets) suite.SessionStep {
	return author.Secrets(st.step, st.schema, known)
}

// secretEnv are the environment variables the test of st will read its
// secrets from.
func secretEnv(st *savedStep, known *mcpclient.Secrets) []string {
	d, err := suite.BuildTest(st.step.Target, secretStep(st, known))
	if err != nil {
		return nil
	}
	return d.Env
}

// called keeps the step of a call that ended, beside its result.
func (s *savedSteps) called(msg callDoneMsg, tool *mcp.Tool) {
	if s.tools == nil {
		s.tools = map[string][]*savedStep{}
	}
	var saved *savedStep
	if !msg.cancelled {
		saved = &savedStep{args: msg.args, schema: toolSchema(tool), readOnly: tool != nil && tool.Annotations != nil && tool.Annotations.ReadOnlyHint,
			step: suite.SessionStep{Kind: suite.StepCall, Target: msg.tool, Args: msg.args, Era: msg.conn.ProtocolVersion(), Eras: msg.conn.Revisions(),
				Questions: msg.asked, Rounds: msg.rounds}}
		var res any
		if msg.res != nil {
			res = msg.res
		}
		if !saved.ended(res, msg.err) {
			saved = nil
		}
	}
	s.tools[msg.tool] = append(s.tools[msg.tool], saved)
}

// reading forgets the read an entry showed: a new one is under way.
func (s *savedSteps) reading(key string) { delete(s.reads, key) }

// read keeps the step of a read that ended, under its entry.
func (s *savedSteps) read(msg resourceReadMsg) {
	if s.reads == nil {
		s.reads = map[string]*savedStep{}
	}
	saved := &savedStep{readOnly: true, step: suite.SessionStep{Kind: suite.StepRead, Target: msg.read.URI,
		Era: msg.conn.ProtocolVersion(), Eras: msg.conn.Revisions(), Questions: msg.asked, Rounds: msg.rounds}}
	var res any
	if msg.read.Result != nil {
		res = msg.read.Result
	}
	if !saved.ended(res, msg.read.Err) {
		saved = nil
	}
	s.reads[msg.read.Key] = saved
}

// getting forgets what a prompt's last get gave: a new one is under way.
func (s *savedSteps) getting(name string) { delete(s.prompts, name) }

// got keeps the step of a prompt's get that ended.
func (s *savedSteps) got(msg promptGotMsg) {
	if s.prompts == nil {
		s.prompts = map[string]*savedStep{}
	}
	saved := &savedStep{readOnly: true, promptArgs: msg.args, step: suite.SessionStep{Kind: suite.StepPrompt, Target: msg.name,
		Era: msg.conn.ProtocolVersion(), Eras: msg.conn.Revisions(), Questions: msg.asked, Rounds: msg.rounds}}
	if len(msg.args) > 0 {
		saved.step.Args = msg.args
	}
	var res any
	if msg.res != nil {
		res = msg.res
	}
	if !saved.ended(res, msg.err) {
		saved = nil
	}
	s.prompts[msg.name] = saved
}

// shownCall is the step behind the result the Tools pane shows, if any.
func (s *savedSteps) shownCall(tools *page.Tools) *savedStep {
	t := tools.Selected()
	if t == nil {
		return nil
	}
	i, n := tools.Shown(t.Name)
	all := s.tools[t.Name]
	if n == 0 || i < 0 || i >= len(all) {
		return nil
	}
	return all[i]
}

// shown is the step behind the result a tab's page shows, or why there is
// none.
func (s *savedSteps) shown(current page.Page) (*savedStep, string) {
	switch p := current.(type) {
	case *page.Tools:
		if st := s.shownCall(p); st != nil {
			return st, ""
		}
		return nil, "no result of this tool to save: enter calls it (a cancelled call cannot be saved)"
	case *page.Resources:
		if key, ok := p.Shown(); ok && s.reads[key] != nil {
			return s.reads[key], ""
		}
		return nil, "no read of this resource to save: enter reads it"
	case *page.Prompts:
		if pr := p.Selected(); pr != nil && s.prompts[pr.Name] != nil {
			return s.prompts[pr.Name], ""
		}
		return nil, "nothing got of this prompt to save: enter gets it"
	}
	return nil, "+ saves a result as a test: a tool's on the Tools tab, a read on Resources, a prompt on Prompts"
}

// openSaveTest opens the save layer for the result shown (+).
func (m *Model) openSaveTest() tea.Cmd {
	st, why := m.saved.shown(m.current())
	if m.state == stateWatching {
		st, why = m.watchSaved(m.current())
	}
	switch {
	case st == nil:
		m.status = statusMsg{why, true}
		return nil
	case m.running != "":
		m.status = statusMsg{"a call is running: + saves once it is done", true}
		return nil
	}
	m.saved.saving = st
	l, act := layer.NewSaveTest(&m.c, st.what(), suiteFiles(m.opts.Dir), st.step.Target, st.readOnly)
	if m.conn != nil {
		l.NeedEnv(secretEnv(st, m.conn.Secrets()))
	}
	return tea.Batch(m.host(l), m.do(origin{}, act))
}

// suitesDir is the project's folder of suites, in the project folder dir.
func suitesDir(dir string) string { return filepath.Join(dir, "mcpeek") }

// suiteFiles are the suites under the project folder's mcpeek/, relative
// to it.
func suiteFiles(project string) []string {
	dir := suitesDir(project)
	files, err := suite.Files(project, nil)
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range files {
		if rel, err := filepath.Rel(dir, f); err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return out
}

// suitePath is the file a name typed in the save layer stands for, under
// the project folder's mcpeek/: a relative path in it, .yaml added when it
// has no extension.
func suitePath(project, name string) (string, error) {
	name = filepath.Clean(name)
	if filepath.IsAbs(name) || name == "." || strings.HasPrefix(name, "..") {
		return "", fmt.Errorf("%q: name a file under mcpeek/ (such as session.yaml)", name)
	}
	switch filepath.Ext(name) {
	case ".yaml", ".yml":
	case "":
		name += ".yaml"
	default:
		return "", fmt.Errorf("%q: a suite is a .yaml file", name)
	}
	return filepath.Join(suitesDir(project), name), nil
}

// write writes the step being saved as a test of a suite in the project
// folder, with the redactions the person kept; a new suite names server
// and offers conn's roots.
func (s *savedSteps) write(a layer.WriteTest, project string, server []string, conn *mcpclient.Conn) tea.Cmd {
	st := s.saving
	path, err := suitePath(project, a.File)
	if st == nil || err != nil {
		if err == nil {
			err = errors.New("nothing to save")
		}
		return func() tea.Msg { return layer.TestWritten{L: a.From, Err: err.Error()} }
	}
	var known *mcpclient.Secrets
	if conn != nil {
		known = conn.Secrets()
	}
	step := secretStep(st, known)
	step.Redact = a.Redact
	opts := suite.WriteOptions{New: suite.NewSuite{Server: server}}
	if conn != nil {
		// What the screen shows as [redacted] is not written either.
		opts.Secrets = conn.Secrets()
	}
	for _, r := range connRoots(conn) {
		opts.New.Roots = append(opts.New.Roots, r.URI)
	}
	name := a.Name
	return func() tea.Msg {
		d, err := suite.BuildTest(name, step)
		if err == nil {
			err = suite.WriteTest(path, d, opts)
		}
		if err != nil {
			return layer.TestWritten{L: a.From, Err: err.Error()}
		}
		said := fmt.Sprintf("saved the test %q", name)
		if len(d.Env) > 0 {
			// First: a long path would cut it off the status line.
			said += " (set " + strings.Join(d.Env, ", ") + " to run it: its secrets are not written)"
		}
		said += " in " + path
		if d.Snapshot != "" {
			said += " and its snapshot in " + suite.SnapshotPath(path)
		}
		return layer.TestWritten{L: a.From, Said: widget.Clean(said)}
	}
}

// rerun runs the step being saved again on conn (nil: not connected),
// answering every question as the person answered it (a stand-in), and
// proposes to redact the values that differ; running names a call under
// way.
func (s *savedSteps) rerun(l *layer.SaveTest, conn *mcpclient.Conn, running string) tea.Cmd {
	st := s.saving
	fail := func(why string) tea.Cmd {
		return func() tea.Msg { return layer.Proposed{L: l, Err: why} }
	}
	switch {
	case st == nil || st.step.Result == nil:
		return fail("there is no result to compare with")
	case conn == nil:
		return fail("not connected")
	case running != "":
		return fail("a call is running")
	}
	s.stopRerun() // one re-run at a time: a new one replaces it
	d, err := suite.BuildTest("rerun", st.step)
	if err != nil {
		return fail(err.Error())
	}
	answers, err := d.Answers()
	if err != nil {
		return fail(err.Error())
	}
	// The script stands in for the person (and for the apps) on the
	// connection while the step runs again: one at a time, whether this
	// re-run or a Suite tab run (suite.go).
	script := &mcpclient.HeadlessAsker{Answers: answers, Strict: true}
	restore, err := conn.StandIn(script)
	if err != nil {
		return fail("a re-run or a test is under way")
	}
	first := st.step.Result
	ctx, cancel := context.WithTimeout(conn.Context(), time.Minute)
	// Closing the layer stops the re-run and gives the connection back at
	// once, not when the request ends.
	stop := sync.OnceFunc(func() { cancel(); restore() })
	s.stop = stop
	return func() tea.Msg {
		defer stop()
		res, err := st.again(ctx, conn)
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return layer.Proposed{L: l, Err: "stopped"}
		}
		if err != nil {
			return layer.Proposed{L: l, Err: "it ended in an error: " + err.Error()}
		}
		if unused := script.Unused(); len(unused) > 0 {
			return layer.Proposed{L: l, Err: "it did not ask the same questions: the test may not pass as it is"}
		}
		diffs, err := suite.ProposeRedactions(first, res)
		if err != nil {
			return layer.Proposed{L: l, Err: err.Error()}
		}
		props := make([]layer.Proposal, len(diffs))
		for i, d := range diffs {
			props[i] = layer.Proposal{Path: d.Path, Was: brief(d.A), Now: brief(d.B)}
		}
		return layer.Proposed{L: l, Paths: props}
	}
}

// brief is a value in a few characters of JSON.
func brief(v any) string {
	if v == nil {
		return "absent"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return widget.CutText(string(b), 40)
}

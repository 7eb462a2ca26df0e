// The Suite tab: the tests of the project's suites (those mcpeek test
// finds), each run on the connected server with enter, its outcome
// inline; a failure's expected and actual side by side; a snapshot found
// missing or changed accepted with u.

package page

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Suite is the Suite tab. It lists the tests of the suites found in its
// folder, afresh each time it shows, and holds what each test's last run
// gave (this session). Running is the program's, asked by [RunTest] and
// answered by [TestRan]; accepting a snapshot is the page's own (a file
// written, nothing of the connection).
type Suite struct {
	c     *widget.Common
	dir   string
	tests []SuiteTest
	err   error // why the suites could not be found
	list  widget.List
	focus bool // ↑/↓ scroll the pane
	pane  widget.Pane
	w, h  int

	ran     map[string]*TestRan // by SuiteTest.key
	running *suiteRun           // the run in flight, if any
	note    string              // what the last accept did
	noteOf  string              // the test it was of
}

// SuiteTest is one row: a test of a suite file, or a file that could not
// be read (Err, no Name).
type SuiteTest struct {
	File, Name string
	Line       int
	Err        string
}

func (t SuiteTest) key() string { return t.File + "\x00" + t.Name }

// suiteRun is a run in flight: which, and how to cancel it.
type suiteRun struct {
	id     int64
	key    string
	cancel context.CancelFunc
}

// runIDs tell runs apart, across the pages of every server.
var runIDs atomic.Int64

// RunTest asks the program to run a test of a suite file on the
// connected server within Ctx (cancelled by esc), and to answer with
// [TestRan] carrying ID, whatever happens.
type RunTest struct {
	ID         int64
	File, Name string
	Ctx        context.Context
}

// TestRan is what a run gave: the result and the snapshots it left
// pending, or why it did not run (Err). Cancelled says esc ended it.
type TestRan struct {
	ID        int64
	Result    *suite.TestResult
	Pending   []suite.Pending
	Err       error
	Cancelled bool
}

// NewSuite is the Suite tab, listing the suites found in dir ("": the
// working directory), drawn with c's styles and keys.
func NewSuite(c *widget.Common, dir string) *Suite {
	if dir == "" {
		dir = "."
	}
	return &Suite{c: c, dir: dir, ran: map[string]*TestRan{}}
}

// Title is "Suite".
func (*Suite) Title() string { return "Suite" }

// Help is the list's keys (run, accept), the run's while one runs, or the
// pane's while it is focused.
func (p *Suite) Help() []key.Binding {
	k := p.c.Keys.Tabs
	if p.focus {
		return k.PaneHelp(true)
	}
	bs := []key.Binding{k.ShortHelp()[0], keys.Hint("↑↓", "move", k.Up, k.Down), keys.Hint("→", "pane", k.Focus)}
	if p.running != nil {
		bs = append(bs, keys.Hint(k.CancelCall.Help().Key, "cancel the run", k.CancelCall))
	} else {
		bs = append(bs, keys.Hint(k.Open.Help().Key, "run", k.Open))
	}
	if p.pendingOf(p.Selected()) != nil {
		bs = append(bs, keys.Hint(k.Accept.Help().Key, "accept snapshot", k.Accept))
	}
	return append(bs, keys.Hint("?", "keys", k.Help), keys.Hint("q", "quit", k.Quit))
}

// Focus finds the suites afresh each time the tab shows: files written
// meanwhile (mcpeek test init, an editor) are listed.
func (p *Suite) Focus(shown bool) {
	if shown {
		p.Reload()
	}
}

// Reload finds the suites and lists their tests, the selection kept on
// the test it was on.
func (p *Suite) Reload() {
	kept := ""
	if t := p.Selected(); t != nil {
		kept = t.key()
	}
	p.tests, p.err = findTests(p.dir)
	keys := make([]string, len(p.tests))
	for i, t := range p.tests {
		keys[i] = t.key()
	}
	reselect(&p.list, keys, kept)
	p.refresh()
}

// findTests reads the suites mcpeek test would find in dir, keeping each
// test's name and line (a suite that names {{tmp}} makes a folder as it
// is read: it goes at once; a run reads the file again).
func findTests(dir string) ([]SuiteTest, error) {
	files, err := suite.Files(dir, nil)
	if err != nil {
		return nil, err
	}
	var out []SuiteTest
	for _, f := range files {
		if rel, err := filepath.Rel(dir, f); err == nil && !strings.HasPrefix(rel, "..") {
			f = rel
		}
		s, err := suite.Load(filepath.Join(dir, f), os.LookupEnv)
		if err != nil {
			out = append(out, SuiteTest{File: f, Err: err.Error()})
			continue
		}
		s.Cleanup()
		for _, t := range s.Tests {
			out = append(out, SuiteTest{File: f, Name: t.Name, Line: t.Line})
		}
	}
	return out, nil
}

// Selected is the test under the cursor, or nil.
func (p *Suite) Selected() *SuiteTest {
	if c := p.list.Cursor(); c < len(p.tests) {
		return &p.tests[c]
	}
	return nil
}

// Running reports whether a run is in flight.
func (p *Suite) Running() bool { return p.running != nil }

// Update takes the room, the runs' outcomes and the keys.
func (p *Suite) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
	case TestRan:
		p.ended(msg)
	case tea.MouseMsg:
		p.pane.Wheel(msg)
		return nil
	case tea.KeyMsg:
		a := p.key(msg)
		p.refresh()
		return a
	}
	p.refresh()
	return nil
}

func (p *Suite) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	switch {
	case key.Matches(msg, k.Open):
		return p.run()
	case key.Matches(msg, k.CancelCall):
		if p.running == nil {
			return layer.Pass{}
		}
		p.running.cancel()
	case key.Matches(msg, k.Accept):
		return p.accept()
	case key.Matches(msg, k.Focus):
		p.focus = true
	case key.Matches(msg, k.Back):
		p.focus = false
	case p.pane.Scroll(msg, k, p.focus):
	case key.Matches(msg, k.Up):
		p.list.Move(-1)
	case key.Matches(msg, k.Down):
		p.list.Move(1)
	default:
		return layer.Pass{}
	}
	return nil
}

// run asks the program to run the selected test, unless one runs.
func (p *Suite) run() Action {
	t := p.Selected()
	switch {
	case t == nil:
		return nil
	case p.running != nil:
		return Note{Text: "a test is running: " + p.c.Keys.Tabs.CancelCall.Help().Key + " cancels it", Err: true}
	case t.Err != "":
		return Note{Text: widget.Clean(t.File) + " could not be read: fix it, then come back to the tab", Err: true}
	}
	ctx, cancel := context.WithCancel(context.Background())
	p.running = &suiteRun{id: runIDs.Add(1), key: t.key(), cancel: cancel}
	p.note = ""
	delete(p.ran, t.key())
	return RunTest{ID: p.running.id, File: filepath.Join(p.dir, t.File), Name: t.Name, Ctx: ctx}
}

// ended keeps a run's outcome; one this page did not start (another
// server's page, long replaced) is dropped.
func (p *Suite) ended(msg TestRan) {
	if p.running == nil || msg.ID != p.running.id {
		return
	}
	p.running.cancel()
	p.ran[p.running.key] = &msg
	p.running = nil
}

// pendingOf is the pending snapshots of the test's last run, or nil.
func (p *Suite) pendingOf(t *SuiteTest) []suite.Pending {
	if t == nil || (p.running != nil && p.running.key == t.key()) {
		return nil
	}
	if r := p.ran[t.key()]; r != nil {
		return r.Pending
	}
	return nil
}

// accept writes the selected test's pending snapshots, as mcpeek test -u,
// at once: a small file, as w saves one.
func (p *Suite) accept() Action {
	t := p.Selected()
	pending := p.pendingOf(t)
	if pending == nil {
		return Note{Text: "no snapshot is pending: run a test whose snapshot is missing or changed", Err: true}
	}
	names := make([]string, len(pending))
	for i, s := range pending {
		names[i] = s.Name
	}
	if err := suite.Accept(filepath.Join(p.dir, t.File), pending); err != nil {
		p.note, p.noteOf = p.c.Styles.Err.Render("not accepted: ")+widget.Clean(p.relative(err.Error())), t.key()
		return nil
	}
	p.ran[t.key()].Pending = nil
	p.noteOf = t.key()
	p.note = p.c.Styles.OK.Render("accepted: ") + widget.Clean(strings.Join(names, ", ")) +
		p.c.Styles.Dim.Render(" written to "+p.relative(suite.SnapshotPath(filepath.Join(p.dir, t.File)))+"; "+
			p.c.Keys.Tabs.Open.Help().Key+" runs the test again")
	return nil
}

// relative is text with the folder's path taken out of the paths it
// names: the files as the list names them.
func (p *Suite) relative(text string) string {
	if filepath.Clean(p.dir) == "." {
		return text
	}
	return strings.ReplaceAll(text, filepath.Clean(p.dir)+string(filepath.Separator), "")
}

// refresh gives the pane the selected test's text in its room.
func (p *Suite) refresh() {
	if p.w == 0 {
		return
	}
	p.pane.Set(widget.Redact(p.Text()), detailWidth(p.w), p.h-1)
}

// View lists the tests beside the pane.
func (p *Suite) View(w, h int) string {
	lw := listWidth(w)
	rows := p.rows()
	widget.CutRows(rows, lw-2)
	var list string
	switch {
	case p.err != nil:
		list = widget.Block(p.c.Styles.Err.Render("error: ")+widget.Clean(p.err.Error()), lw, h)
	case len(p.tests) == 0:
		list = p.c.Styles.Dim.Render(widget.Block("no suite here: mcpeek test init writes one (mcpeek/*.yaml, *.mcpeek.yaml)", lw, h))
	default: // not filtered: a project's tests are few
		list = p.list.Rows(p.c, rows, lw, h)
	}
	return columns(p.c, list, p.pane.View(p.c, ""), lw, p.focus)
}

// rows are the tests, each marked with its last outcome.
func (p *Suite) rows() []widget.Row {
	files := map[string]bool{}
	for _, t := range p.tests {
		files[t.File] = true
	}
	s := p.c.Styles
	rows := make([]widget.Row, len(p.tests))
	for i, t := range p.tests {
		name := t.Name
		if t.Err != "" {
			rows[i] = markedRow(filepath.Base(t.File), "error", &s.Err)
			continue
		}
		if len(files) > 1 {
			name = suiteStem(t.File) + ": " + name
		}
		mark, style := p.mark(t)
		rows[i] = markedRow(widget.Clean(name), mark, style)
	}
	return rows
}

// markedRow is a list row with a mark, drawn in style (nil: plain).
func markedRow(name, mark string, style *lipgloss.Style) widget.Row {
	return widget.Row{Name: name, Mark: mark, Style: style}
}

// mark is a test's outcome in a word, and its style.
func (p *Suite) mark(t SuiteTest) (string, *lipgloss.Style) {
	s := p.c.Styles
	if p.running != nil && p.running.key == t.key() {
		return "running", &s.Accent
	}
	r := p.ran[t.key()]
	switch {
	case r == nil:
		return "", nil
	case r.Err != nil:
		return "not run", &s.Warn
	case len(r.Pending) > 0:
		return "✗ snapshot", &s.Err
	case r.Result.Status == suite.StatusPassed:
		return "✓ passed", &s.OK
	case r.Result.Status == suite.StatusSkipped:
		return "skipped", &s.Dim
	}
	return "✗ failed", &s.Err
}

// suiteStem is a suite file's name without its folder and extension.
func suiteStem(file string) string {
	base := filepath.Base(file)
	for _, ext := range []string{".mcpeek.yaml", ".yaml", ".yml"} {
		if strings.HasSuffix(base, ext) {
			return strings.TrimSuffix(base, ext)
		}
	}
	return base
}

// Text is the pane's text: the selected test's file and name, then its
// last run: passed, or each failure (expected and actual side by side),
// and the snapshots u would accept.
func (p *Suite) Text() string {
	t := p.Selected()
	s := p.c.Styles
	if t == nil {
		if p.err != nil {
			return ""
		}
		return s.Dim.Render("The Suite tab runs the tests mcpeek test finds here (*.mcpeek.yaml, mcpeek/*.yaml) on the connected server.")
	}
	var b strings.Builder
	if t.Err != "" {
		b.WriteString(s.Title.Render(widget.Clean(t.File)) + "\n\n" + s.Err.Render("error: ") + widget.Clean(p.relative(t.Err)) + "\n")
		return b.String()
	}
	b.WriteString(s.Title.Render(widget.Clean(t.Name)) + "\n")
	b.WriteString(s.Dim.Render(fmt.Sprintf("%s:%d", widget.Clean(t.File), t.Line)) + "\n\n")
	k := p.c.Keys.Tabs
	switch r := p.ran[t.key()]; {
	case p.running != nil && p.running.key == t.key():
		b.WriteString(s.Accent.Render("running") + s.Dim.Render(" on the connected server… "+k.CancelCall.Help().Key+" cancels") + "\n")
	case r == nil:
		b.WriteString(s.Dim.Render(k.Open.Help().Key+" runs it on the connected server, in its protocol revision; its answers answer the server's questions") + "\n")
	default:
		b.WriteString(p.outcome(r))
	}
	if p.note != "" && p.noteOf == t.key() {
		b.WriteString("\n" + p.note + "\n")
	}
	return b.String()
}

// outcome is what a run gave, in the pane's words.
func (p *Suite) outcome(r *TestRan) string {
	s := p.c.Styles
	var b strings.Builder
	switch {
	case r.Cancelled:
		b.WriteString(s.Warn.Render("cancelled") + "\n")
	case r.Err != nil:
		return s.Warn.Render("not run: ") + widget.Clean(p.relative(r.Err.Error())) + "\n"
	}
	res := r.Result
	if res == nil {
		return b.String()
	}
	switch res.Status {
	case suite.StatusPassed:
		b.WriteString(s.OK.Render("✓ passed") + s.Dim.Render(" in "+res.Revision) + "\n")
	case suite.StatusSkipped:
		// Why, when it is known (skip:'s reason, an era the connection
		// does not speak): the reason is the whole story, not a failure.
		why := ""
		if res.Skipped != "" {
			why = ": " + widget.Clean(res.Skipped)
		}
		b.WriteString(s.Dim.Render("skipped"+why) + "\n")
		return b.String()
	default:
		b.WriteString(s.Err.Render("✗ failed") + s.Dim.Render(" in "+res.Revision) + "\n")
	}
	width := detailWidth(p.w)
	for _, f := range res.Failures {
		b.WriteString("\n" + p.failure(f, width))
	}
	if len(r.Pending) > 0 {
		var names []string
		for _, sn := range r.Pending {
			word := "missing"
			if sn.Stored {
				word = "changed"
			}
			names = append(names, widget.Clean(sn.Name)+" ("+word+")")
		}
		k := p.c.Keys.Tabs.Accept
		b.WriteString("\n" + s.Warn.Render("pending snapshot: ") + strings.Join(names, ", ") + "\n" +
			p.c.KeyLine(keys.Hint(k.Help().Key, "accepts it (writes it as mcpeek test -u)", k)) + "\n")
	}
	return b.String()
}

// failure is one failure: where and what, then expected and actual side
// by side in width cells (one above the other when the pane is narrow),
// or its message.
func (p *Suite) failure(f suite.Failure, width int) string {
	s := p.c.Styles
	head := ""
	if f.Step > 0 {
		head = fmt.Sprintf("step %d: ", f.Step)
	}
	head += widget.Clean(f.What)
	if f.Line > 0 {
		head += s.Dim.Render(fmt.Sprintf(" (line %d)", f.Line))
	}
	out := s.Err.Render("✗ ") + head + "\n"
	if f.Expected == "" && f.Actual == "" {
		return out + widget.Wrap(widget.Clean(p.relative(f.Message)), width) + "\n"
	}
	return out + SideBySide(s.Dim.Render("expected"), widget.Clean(f.Expected), s.Dim.Render("actual"), widget.Clean(f.Actual), width, s.Dim) + "\n"
}

// SideBySide draws two texts under their headings in two columns of
// width cells in all, a line between them; below 40 cells, one above the
// other.
func SideBySide(leftHead, left, rightHead, right string, width int, line lipgloss.Style) string {
	if width < 40 {
		return leftHead + "\n" + widget.Wrap(left, width) + "\n" + rightHead + "\n" + widget.Wrap(right, width)
	}
	col := (width - 3) / 2
	l := leftHead + "\n" + widget.Wrap(left, col)
	r := rightHead + "\n" + widget.Wrap(right, col)
	h := max(lipgloss.Height(l), lipgloss.Height(r))
	sep := line.Render(strings.TrimSuffix(strings.Repeat(" │ \n", h), "\n"))
	return lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Width(col).Render(l), sep, r)
}

// Copy is the pane's text, unstyled, as y copies it.
func (p *Suite) Copy() string {
	if p.Selected() == nil {
		return ""
	}
	return ansi.Strip(widget.Redact(p.Text()))
}

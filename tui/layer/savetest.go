// Saving a result as a test (+): the suite file under mcpeek/ (one of
// those there, or a new one), the test's name, and the redactions
// proposed for values that changed when the request ran again, each kept
// or dropped by the person, never applied unseen.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// WriteTest asks the program to write the step as the test Name of the
// suite File (under the project's mcpeek folder), with the redactions
// kept; it answers with [TestWritten].
type WriteTest struct {
	From   *SaveTest
	File   string
	Name   string
	Redact []string
}

// Rerun asks the program to run the step again, answering the questions
// as they were answered, and to propose what differs ([Proposed]).
type Rerun struct{ From *SaveTest }

// StopRerun asks the program to stop the re-run the layer asked for, if
// it is under way: the layer is closing.
type StopRerun struct{ From *SaveTest }

// Proposal is a value that differed between the result and a re-run.
type Proposal struct {
	// Path is the JSONPath to redact; Was and Now the two values, shown.
	Path, Was, Now string
}

// Proposed brings what a re-run found: the values that differ, or why
// it could not say.
type Proposed struct {
	L     *SaveTest
	Paths []Proposal
	Err   string
}

// To is the layer that asked.
func (p Proposed) To() Layer { return p.L }

// TestWritten says how writing the test went.
type TestWritten struct {
	L *SaveTest
	// Said is what the status line says once it is written.
	Said string
	Err  string
}

// To is the layer that asked.
func (w TestWritten) To() Layer { return w.L }

// SaveTest is the layer of saving a result as a test.
type SaveTest struct {
	c        *widget.Common
	what     string   // the request, as the title says it
	files    []string // the suites under mcpeek/, relative to it
	file     textinput.Model
	name     textinput.Model
	focus    int // 0 the file, 1 the name, 2 the redactions
	props    []Proposal
	keep     []bool
	cur      int
	rerun    string // what the re-run is doing, or found
	rerunErr bool
	err      string
	writing  bool
	env      []string // the variables the test reads its secrets from
}

// NewSaveTest asks where and under what name to save the step what (a
// tool call, a read, a prompt), offering the suites under mcpeek/
// (files, relative to it) and name as the test's name. When rerun, the
// step runs again at once, to propose redactions; otherwise ctrl+r runs
// it (a tool not known to be read-only).
func NewSaveTest(c *widget.Common, what string, files []string, name string, rerun bool) (*SaveTest, Action) {
	mk := func(prompt, placeholder, value string) textinput.Model {
		in := textinput.New()
		in.Prompt = prompt
		in.Placeholder = placeholder
		in.Cursor.SetMode(cursor.CursorStatic)
		in.Width = max(c.Width-30, 10)
		in.SetValue(value)
		return in
	}
	file := "session.yaml"
	if len(files) > 0 {
		file = files[0]
	}
	l := &SaveTest{c: c, what: what, files: files,
		file: mk("suite:  mcpeek/", "file.yaml", file), name: mk("test:   ", "the test's name", name)}
	l.name.Focus()
	l.focus = 1
	if !rerun {
		l.rerun = "not run again: " + SaveTestKeys.Rerun.Help().Key + " runs it again to find values that change (the tool is not marked read-only)"
		return l, nil
	}
	l.rerun = "running it again to find values that change…"
	return l, Rerun{From: l}
}

// NeedEnv says which environment variables the test will read its
// secrets from (their values are not written): the layer says so
// before it is written.
func (l *SaveTest) NeedEnv(vars []string) { l.env = vars }

// close closes the layer, stopping its re-run.
func (l *SaveTest) close(then ...Action) Action {
	return append(Batch{StopRerun{From: l}, Close{}}, then...)
}

// TypesText: the file and the name are typed.
func (*SaveTest) TypesText() bool { return true }

// Update takes the keys, the re-run's proposals and the write's outcome.
func (l *SaveTest) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case Proposed:
		l.rerunErr = msg.Err != ""
		switch {
		case msg.Err != "":
			l.rerun = "the re-run: " + msg.Err
		case len(msg.Paths) == 0:
			l.rerun = "ran it again: no value changed"
		default:
			l.rerun = fmt.Sprintf("ran it again: %d values changed; redact them? (%s keeps or drops one)", len(msg.Paths), SaveTestKeys.Toggle.Help().Key)
		}
		l.props, l.keep = msg.Paths, make([]bool, len(msg.Paths))
		for i := range l.keep {
			l.keep[i] = true
		}
		l.cur = 0
		return nil
	case TestWritten:
		l.writing = false
		if msg.Err != "" {
			l.err = msg.Err
			return nil
		}
		return l.close(Status{Text: msg.Said})
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *SaveTest) key(m tea.KeyMsg) Action {
	k := SaveTestKeys
	switch {
	case key.Matches(m, k.Quit):
		return l.close(AskQuit{})
	case key.Matches(m, k.Cancel):
		return l.close()
	case l.writing:
		return nil
	case key.Matches(m, k.Confirm):
		file, name := strings.TrimSpace(l.file.Value()), strings.TrimSpace(l.name.Value())
		switch {
		case file == "":
			l.err = "name the suite file"
			return nil
		case name == "":
			l.err = "name the test"
			return nil
		}
		var redact []string
		for i, p := range l.props {
			if l.keep[i] {
				redact = append(redact, p.Path)
			}
		}
		l.err, l.writing = "", true
		return WriteTest{From: l, File: file, Name: name, Redact: redact}
	case key.Matches(m, k.Rerun):
		l.rerun, l.rerunErr, l.props, l.keep = "running it again to find values that change…", false, nil, nil
		return Rerun{From: l}
	case key.Matches(m, k.Next):
		l.move(m.String() == "shift+tab")
		return nil
	case key.Matches(m, k.Toggle):
		if l.cur < len(l.keep) {
			l.keep[l.cur] = !l.keep[l.cur]
		}
		return nil
	case key.Matches(m, k.Up, k.Down):
		l.pick(key.Matches(m, k.Down))
		return nil
	}
	var cmd tea.Cmd
	switch l.focus {
	case 0:
		l.file, cmd = l.file.Update(m)
	case 1:
		l.name, cmd = l.name.Update(m)
	}
	return Cmd{cmd}
}

// move goes to the next field (back: the one before); the redactions are
// a field only when there are some.
func (l *SaveTest) move(back bool) {
	n := 2
	if len(l.props) > 0 {
		n = 3
	}
	if back {
		l.focus = (l.focus + n - 1) % n
	} else {
		l.focus = (l.focus + 1) % n
	}
	l.file.Blur()
	l.name.Blur()
	switch l.focus {
	case 0:
		l.file.Focus()
	case 1:
		l.name.Focus()
	}
}

// pick moves among the suite files (on the file) or the redactions.
func (l *SaveTest) pick(down bool) {
	step := -1
	if down {
		step = 1
	}
	switch l.focus {
	case 0:
		if len(l.files) == 0 {
			return
		}
		i := 0
		for j, f := range l.files {
			if f == strings.TrimSpace(l.file.Value()) {
				i = (j + step + len(l.files)) % len(l.files)
			}
		}
		l.file.SetValue(l.files[i])
		l.file.CursorEnd()
	case 2:
		l.cur = max(0, min(len(l.props)-1, l.cur+step))
	}
}

// View draws the fields, the suites there are and the redactions.
func (l *SaveTest) View(width, height int) string {
	s := l.c.Styles
	width = max(width-4, 24)
	inner := width - 4
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Line("Save as a test: "+l.what, inner)) + "\n")
	b.WriteString(s.Dim.Render(widget.Line("The request, the answers you gave, what was asked and a snapshot of the result; mcpeek test runs it.", inner)) + "\n\n")
	b.WriteString(l.file.View() + "\n")
	if len(l.files) > 0 {
		b.WriteString(s.Dim.Render(widget.Line("  suites there (↑/↓): "+strings.Join(l.files, ", "), inner)) + "\n")
	} else {
		b.WriteString(s.Dim.Render(widget.Line("  no suite under mcpeek/ yet: this one is made", inner)) + "\n")
	}
	b.WriteString(l.name.View() + "\n\n")
	if len(l.env) > 0 {
		said := "secrets are written as {{env.…}}, not their values: set " + strings.Join(l.env, ", ") + " to run it"
		b.WriteString(widget.Block(s.Warn.Render(widget.Clean(said)), inner, 3) + "\n")
	}
	style := s.Dim
	if l.rerunErr {
		style = s.Warn
	}
	b.WriteString(widget.Block(style.Render(widget.Clean(l.rerun)), inner, 3) + "\n")
	rows := max(height-14, 2)
	for i, p := range l.props {
		if i >= rows {
			b.WriteString(s.Dim.Render(fmt.Sprintf("  … %d more", len(l.props)-rows)) + "\n")
			break
		}
		mark := "[ ]"
		if l.keep[i] {
			mark = "[x]"
		}
		line := fmt.Sprintf("%s redact %s: %s, then %s", mark, p.Path, p.Was, p.Now)
		line = widget.Line(widget.Clean(line), inner-2)
		if l.focus == 2 && i == l.cur {
			line = s.Title.Render("> ") + line
		} else {
			line = "  " + line
		}
		b.WriteString(line + "\n")
	}
	if l.err != "" {
		b.WriteString("\n" + widget.Block(s.Err.Render("error: ")+widget.Clean(l.err), inner, 3) + "\n")
	}
	if l.writing {
		b.WriteString("\n" + s.Dim.Render("writing…") + "\n")
	}
	return s.Box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

// Help is the layer's keys.
func (l *SaveTest) Help() []key.Binding { return SaveTestKeys.ShortHelp() }

// SaveTestKeyMap holds the keys that work while a result is saved as a
// test: the suite file (picked among those under mcpeek/, or a new
// name), the test's name, and the redactions proposed; other keys are
// text.
type SaveTestKeyMap struct {
	Next, Up, Down, Toggle, Rerun, Confirm, Cancel, Quit key.Binding
}

// SaveTestKeys are the bindings of [SaveTestKeyMap].
var SaveTestKeys = SaveTestKeyMap{
	Next:    keys.New("tab", "next field", "tab", "shift+tab"),
	Up:      keys.New("↑", "previous suite file, or redaction", "up"),
	Down:    keys.New("↓", "next suite file, or redaction", "down"),
	Toggle:  keys.New("ctrl+t", "toggle redaction", "ctrl+t"),
	Rerun:   keys.New("ctrl+r", "run again", "ctrl+r"),
	Confirm: keys.New("enter", "write test", "enter"),
	Cancel:  keys.New("esc", "cancel", "esc"),
	Quit:    quitKey,
}

// ShortHelp is every key of saving a test, which its footer documents:
// the key that writes first, all of it within 120 columns.
func (k SaveTestKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Confirm, k.Cancel, k.Next, keys.Hint("↑↓", "choose", k.Up, k.Down), k.Toggle, k.Rerun, k.Quit}
}

// FullHelp lists the keys of saving a test.
func (k SaveTestKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Confirm, k.Cancel, k.Next, k.Up, k.Down, k.Toggle, k.Rerun, k.Quit}}
}

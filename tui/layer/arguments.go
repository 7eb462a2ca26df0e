// The arguments of a tool, a prompt or a resource template: a native form
// whose text fields the server may complete, and the JSON editor for a
// tool whose input schema is more than a form can show.

package layer

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	// ArgsGiven: the person submitted the arguments form; the program
	// runs Done, what the arguments lead to, with Args.
	ArgsGiven struct {
		Args map[string]any
		Done func(args map[string]any) tea.Cmd
	}
	// CallTool calls Tool with Args, as a task when AsTask (the JSON
	// editor's call).
	CallTool struct {
		Tool   *mcp.Tool
		Args   json.RawMessage
		AsTask bool
	}
)

// Completer asks the server for the completions of arg's text, given the
// other fields' texts; it blocks, and is called off the Update loop.
type Completer func(arg mcp.CompleteParamsArgument, given map[string]string) (*mcpclient.Completion, error)

// Completions: the arguments form of a prompt, and the variables form of
// a resource template, ask the server for completion/complete of the
// focused field's text when the server offers completions. A request goes
// out once the text has stood still for CompleteDelay, and whenever the
// focus reaches a field; its answer shows under the field
// (nativeform.Suggestions) only if the field still holds the text it was
// asked for. At most mcpclient.MaxCompletions values are kept.

// CompleteDelay is how long the text stands still before it is completed.
const CompleteDelay = 150 * time.Millisecond

// ArgsForm asks for a tool's or a prompt's arguments with a native form;
// ctrl+c asks to quit over it.
type ArgsForm struct {
	c        *widget.Common
	form     *nativeform.Form
	done     func(args map[string]any) tea.Cmd
	complete Completer // nil: no completions
	asked    fieldText // the field and text last completed (or accepted)
	seq      int       // the completion last scheduled
	inited   bool
}

// fieldText is a field and its text.
type fieldText struct{ key, text string }

// NewArgsForm asks for arguments with a form titled title, made with
// opts (its clock, its grace period); done gets what was submitted.
// complete, if not nil, completes its text fields.
func NewArgsForm(c *widget.Common, title string, schema *formschema.Schema, opts nativeform.Options, complete Completer, done func(map[string]any) tea.Cmd) *ArgsForm {
	opts.Arguments, opts.Suggestions = true, complete != nil
	return &ArgsForm{
		c:        c,
		form:     nativeform.New(nativeform.Request{Message: title, Schema: schema}, opts),
		done:     done,
		complete: complete,
	}
}

// Form is the form shown.
func (l *ArgsForm) Form() *nativeform.Form { return l.form }

// TypesText: the form takes text.
func (*ArgsForm) TypesText() bool { return true }

// HoldsForm: the form's countdown and cursor come here.
func (*ArgsForm) HoldsForm() bool { return true }

type (
	// completeDue says the text has stood still: time to ask.
	completeDue struct {
		l   *ArgsForm
		seq int
	}
	// completed brings a completion's answer.
	completed struct {
		l   *ArgsForm
		at  fieldText
		res *mcpclient.Completion
		err error
	}
)

func (msg completeDue) To() Layer { return msg.l }
func (msg completed) To() Layer   { return msg.l }

// Update gives the form its room, keys and ticks, completes its fields,
// and once it settled closes it, submitted arguments going on.
func (l *ArgsForm) Update(msg tea.Msg) Action {
	var a Action
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a = sizeForm(l.form, msg, &l.inited)
	case tea.KeyMsg:
		a = l.key(msg)
	case nativeform.DoneMsg, nativeform.SampleDoneMsg: // a form settled: this one?
		r, ok := l.form.Result()
		switch {
		case !ok:
			return nil
		case r.Action == nativeform.Accept:
			return Batch{Close{}, ArgsGiven{r.Content, l.done}}
		}
		return Close{}
	case completeDue:
		a = l.ask(msg)
	case completed:
		if key, text, ok := l.form.Focused(); ok && (fieldText{key, text}) == msg.at {
			l.form.SetSuggestions(key, suggestions(msg.res, msg.err))
		} // else stale: for another field, or an older text
	default:
		_, cmd := l.form.Update(msg)
		a = cmdOf(cmd)
	}
	if cmd := l.syncCompletion(); cmd != nil {
		return Batch{a, Cmd{cmd}}
	}
	return a
}

func (l *ArgsForm) key(msg tea.KeyMsg) Action {
	if key.Matches(msg, FormKeys.Interrupt) { // as q on the tabs; the form stays under the prompt
		return AskQuit{}
	}
	accepting := false
	if k, _, ok := l.form.Focused(); ok && key.Matches(msg, nativeform.SuggestKeys.Accept) {
		list, _ := l.form.Suggested(k)
		accepting = len(list.Values) > 0
	}
	_, cmd := l.form.Update(msg)
	if k, text, ok := l.form.Focused(); accepting && ok && l.complete != nil {
		l.asked = fieldText{k, text} // an accepted value is not completed again
	}
	return cmdOf(cmd)
}

// syncCompletion schedules a completion when the focused field or its
// text changed.
func (l *ArgsForm) syncCompletion() tea.Cmd {
	if l.complete == nil {
		return nil
	}
	key, text, ok := l.form.Focused()
	at := fieldText{key, text}
	if !ok || at == l.asked {
		return nil
	}
	// What shows was for another text: it goes until the new answer comes,
	// so that tab never puts in a value offered for an older text.
	l.form.SetSuggestions(l.asked.key, nativeform.Suggestions{})
	l.form.SetSuggestions(at.key, nativeform.Suggestions{})
	l.asked = at
	l.seq++
	seq := l.seq
	return tea.Tick(CompleteDelay, func(time.Time) tea.Msg { return completeDue{l, seq} })
}

// ask asks for the completion of the text that stood still.
func (l *ArgsForm) ask(msg completeDue) Action {
	if msg.seq != l.seq {
		return nil // the text changed since
	}
	at, complete := l.asked, l.complete
	given := map[string]string{} // the other fields given so far
	for k, v := range l.form.Texts() {
		if k != at.key && v != "" {
			given[k] = v
		}
	}
	return Cmd{func() tea.Msg {
		res, err := complete(mcp.CompleteParamsArgument{Name: at.key, Value: at.text}, given)
		return completed{l, at, res, err}
	}}
}

// suggestions are what a completion's answer offers (its values, at most
// mcpclient.MaxCompletions of them, and how many more there are), or why
// there are none.
func suggestions(c *mcpclient.Completion, err error) nativeform.Suggestions {
	if err != nil {
		return nativeform.Suggestions{Note: "no completions: " + err.Error()}
	}
	if c == nil {
		return nativeform.Suggestions{}
	}
	more := max(c.Total-len(c.Values), c.Dropped)
	if more <= 0 && c.HasMore {
		more = -1
	}
	return nativeform.Suggestions{Values: c.Values, More: more}
}

// View is the form.
func (l *ArgsForm) View(int, int) string { return l.form.View() }

// Help is none: the form shows its keys.
func (l *ArgsForm) Help() []key.Binding { return nil }

// Footer is empty: the form shows its keys.
func (l *ArgsForm) Footer(int) string { return "" }

// JSONArgs is what the JSON editor edits.
type JSONArgs struct {
	Tool   *mcp.Tool
	Schema string // the input schema, indented, as listed
	// Why is what in the schema a form cannot show.
	Why string
	// Secrets are the fields whose values are not remembered.
	Secrets []string
	// Text is the arguments to start from: the tool's last ones (the
	// cursor at their end), or when Skeleton a skeleton of the schema
	// (the cursor in its first property).
	Text     string
	Skeleton bool
	AsTask   bool // the call runs as a task
	// Check validates the arguments against the input schema before the
	// call; nil when the schema cannot be read (the server is then left
	// to check them).
	Check func(args []byte) error
}

// JSONEditor edits a tool's arguments as JSON, for an input schema a form
// cannot show (a oneOf of objects, a $ref, arrays of objects…), with the
// schema beside it.
type JSONEditor struct {
	c             *widget.Common
	ed            textarea.Model
	args          JSONArgs
	err           string // why the last call was refused
	width, height int
	opened        bool
}

// SideBySide is the narrowest screen that shows the schema beside the
// editor; a narrower one shows it under the editor.
const SideBySide = 90

// NewJSONEditor edits args.
func NewJSONEditor(c *widget.Common, args JSONArgs) *JSONEditor {
	l := &JSONEditor{c: c, ed: textarea.New(), args: args}
	l.resize(c.Width, max(c.Height-4, 6)) // the body's room, until told
	l.ed.SetValue(args.Text)
	if args.Skeleton {
		for range strings.Count(args.Text, "\n") - 1 { // to the first property, or inside the braces
			l.ed.CursorUp()
		}
		l.ed.CursorEnd()
	}
	l.ed.Focus()
	return l
}

// Editor is the editor.
func (l *JSONEditor) Editor() *textarea.Model { return &l.ed }

// TypesText: the editor takes text.
func (*JSONEditor) TypesText() bool { return true }

func (l *JSONEditor) resize(width, height int) {
	l.width, l.height = width, height
	notes := 1 + min(len(l.args.Secrets), 1) // why, and the note of secrets
	if width >= SideBySide {
		l.ed.SetWidth(max(width/2-2, 20))
	} else {
		l.ed.SetWidth(max(width-4, 20))
	}
	notes += max(len(l.errorLines())-1, 0) // a refusal longer than a line
	if width >= SideBySide {
		l.ed.SetHeight(max(height-5-notes, 4))
		return
	}
	l.ed.SetHeight(max((height-5-notes)*2/3, 4)) // the schema under it
}

// maxErrorLines is the most lines a refusal takes under the editor.
const maxErrorLines = 4

// errorLines is why the last call was refused, wrapped to the editor's
// width.
func (l *JSONEditor) errorLines() []string {
	if l.err == "" {
		return nil
	}
	w := l.ed.Width() + 2
	lines := strings.Split(lipgloss.NewStyle().Width(w).Render(widget.Clean(l.err)), "\n")
	if len(lines) > maxErrorLines {
		lines = append(lines[:maxErrorLines-1], widget.Line(strings.Join(lines[maxErrorLines-1:], " "), w))
	}
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], " ")
	}
	return lines
}

// Update edits the arguments; the call key calls the tool when they are
// a JSON object.
func (l *JSONEditor) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.resize(msg.Width, msg.Height)
		if !l.opened {
			l.opened = true
			return Cmd{textarea.Blink}
		}
		return nil
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *JSONEditor) key(msg tea.KeyMsg) Action {
	k := JSONKeys
	switch {
	case key.Matches(msg, k.Back):
		return Close{}
	case key.Matches(msg, k.Quit):
		return AskQuit{}
	case key.Matches(msg, k.Call):
		var obj map[string]any
		text := l.ed.Value()
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			l.err = "the arguments must be a JSON object"
			if err != nil {
				l.err += ": " + err.Error()
			}
			return nil
		}
		if l.args.Check != nil {
			if err := l.args.Check([]byte(text)); err != nil {
				l.err = "the arguments do not match the input schema: " + err.Error()
				l.resize(l.width, l.height)
				return nil
			}
		}
		return Batch{Close{}, CallTool{l.args.Tool, json.RawMessage(text), l.args.AsTask}}
	}
	var cmd tea.Cmd
	l.ed, cmd = l.ed.Update(msg)
	return cmdOf(cmd)
}

// View draws the editor, and the schema beside it or under it.
func (l *JSONEditor) View(width, height int) string {
	s := l.c.Styles
	head := s.Title.Render("Arguments for "+widget.Clean(l.args.Tool.Name)+" as JSON") + s.Dim.Render(" (its input schema is more than a form can show)")
	out := head + "\n"
	if l.args.Why != "" {
		out += s.Dim.Render(widget.Line(l.args.Why, width-2)) + "\n"
	}
	if len(l.args.Secrets) > 0 {
		out += s.Dim.Render(widget.Line(widget.NotRemembered+": "+widget.Clean(strings.Join(l.args.Secrets, ", ")), width-2)) + "\n"
	}
	editor := l.ed.View()
	if lines := l.errorLines(); len(lines) > 0 {
		editor += "\n" + s.Err.Render(strings.Join(lines, "\n"))
	}
	schema := s.Dim.Render("input schema:") + "\n" + s.ColourJSON(widget.Clean(l.args.Schema))
	if width >= SideBySide {
		h := lipgloss.Height(editor)
		return out + lipgloss.JoinHorizontal(lipgloss.Top, editor, "  ", widget.Block(schema, width-l.ed.Width()-6, h))
	}
	rest := height - lipgloss.Height(out) - lipgloss.Height(editor) - 2
	if rest < 2 {
		return out + editor
	}
	return out + editor + "\n" + widget.Block(schema, width-2, rest)
}

// Help is the editor's keys.
func (l *JSONEditor) Help() []key.Binding { return JSONKeys.ShortHelp() }

// JSONKeyMap holds the keys that work in the JSON editor of a tool's
// arguments.
type JSONKeyMap struct {
	Call, Back, Quit key.Binding
}

// JSONKeys are the bindings of [JSONKeyMap].
var JSONKeys = JSONKeyMap{
	Call: keys.New("ctrl+s", "call the tool", "ctrl+s"),
	Back: backKey,
	Quit: quitKey,
}

// ShortHelp is the footer of the JSON editor.
func (k JSONKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("ctrl+s", "call", k.Call), k.Back}
}

// FullHelp lists every key of the JSON editor.
func (k JSONKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Call, k.Back, k.Quit}} }

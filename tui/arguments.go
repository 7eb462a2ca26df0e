package tui

import (
	"encoding/json"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// argsForm asks for a tool's or a prompt's arguments with a native form.
type argsForm struct {
	form     *nativeform.Form
	done     func(args map[string]any) tea.Cmd // what the arguments lead to
	complete *completer                        // the server's completions of its fields, or nil
}

func (l *argsForm) nativeForm() *nativeform.Form          { return l.form }
func (l *argsForm) typesText() bool                       { return true }
func (l *argsForm) resize(m *Model) tea.Cmd               { return m.sizeForm(l.form) }
func (l *argsForm) view(_ *Model, _ int, _ *level) string { return l.form.View() }
func (l *argsForm) footer(_ *Model, _ *level) string      { return "" } // the form shows its keys

func (l *argsForm) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	if key.Matches(msg, m.c.keys.form.interrupt) { // as q on the tabs; the form stays under the prompt
		return m.askQuit()
	}
	accepting := false
	if k, _, ok := l.form.Focused(); ok && key.Matches(msg, nativeform.SuggestKeys.Accept) {
		list, _ := l.form.Suggested(k)
		accepting = len(list.Values) > 0
	}
	_, cmd := l.form.Update(msg)
	if k, text, ok := l.form.Focused(); accepting && ok && l.complete != nil {
		l.complete.asked = fieldText{k, text} // an accepted value is not completed again
	}
	return cmd
}

// openArgs shows a form for arguments; done gets what was submitted.
func (m *Model) openArgs(title string, schema *formschema.Schema, done func(map[string]any) tea.Cmd) tea.Cmd {
	return m.openArgsCompleting(title, schema, nil, done)
}

// openArgsCompleting shows a form for arguments whose text fields the
// server completes for ref (a prompt or a resource template), when it
// offers completions.
func (m *Model) openArgsCompleting(title string, schema *formschema.Schema, ref *mcp.CompleteReference, done func(map[string]any) tea.Cmd) tea.Cmd {
	complete := newCompleter(m.conn, ref)
	opts := nativeform.Options{Now: m.opts.Clock, Grace: m.opts.Grace, Arguments: true, Suggestions: complete != nil}
	l := &argsForm{
		form:     nativeform.New(nativeform.Request{Message: title, Schema: schema}, opts),
		done:     done,
		complete: complete,
	}
	m.open(l)
	return tea.Batch(l.form.Init(), m.sizeForm(l.form))
}

// argsDone closes a settled arguments form: submitted arguments go on.
func (m *Model) argsDone(l *argsForm, r nativeform.Result) tea.Cmd {
	m.close(l)
	if r.Action == nativeform.Accept {
		return l.done(r.Content)
	}
	return nil
}

// jsonEditor edits a tool's arguments as JSON, for an input schema a form
// cannot show (a oneOf of objects, a $ref, arrays of objects…), with the
// schema beside it.
type jsonEditor struct {
	ed     textarea.Model
	tool   *mcp.Tool
	schema string // the input schema, indented, as listed
	why    string // what in the schema a form cannot show
	asTask bool   // the call runs as a task
	err    string // why the last call was refused
}

func (l *jsonEditor) typesText() bool { return true }

// sideBySide is the narrowest screen that shows the schema beside the
// editor; a narrower one shows it under the editor.
const sideBySide = 90

func (l *jsonEditor) resize(m *Model) tea.Cmd {
	notes := 1 + min(len(secretFields(l.tool.InputSchema)), 1) // why, and the note of secrets
	if m.c.width >= sideBySide {
		l.ed.SetWidth(max(m.c.width/2-2, 20))
		l.ed.SetHeight(max(m.bodyHeight()-5-notes, 4))
		return nil
	}
	l.ed.SetWidth(max(m.c.width-4, 20))
	l.ed.SetHeight(max((m.bodyHeight()-5-notes)*2/3, 4)) // the schema under it
	return nil
}

// openJSON opens the JSON editor for a tool's arguments: those of its
// last call, else a skeleton of the schema (its required properties and
// its defaults), the cursor in the first.
func (m *Model) openJSON(t *mcp.Tool, asTask bool) tea.Cmd {
	input := m.inputSchema(t)
	l := &jsonEditor{ed: textarea.New(), tool: t, asTask: asTask, schema: indentedSchema(input)}
	if _, err := formschema.ParseArguments(input); err != nil {
		l.why = err.Error()
	}
	l.resize(m)
	if last := m.runs.lastArgsJSON(t); last != "" {
		l.ed.SetValue(last) // the tool's last arguments, the cursor at their end
	} else {
		text := skeleton(input)
		l.ed.SetValue(text)
		for range strings.Count(text, "\n") - 1 { // to the first property, or inside the braces
			l.ed.CursorUp()
		}
		l.ed.CursorEnd()
	}
	l.ed.Focus()
	m.open(l)
	return textarea.Blink
}

func (l *jsonEditor) view(m *Model, _ int, _ *level) string {
	s := m.c.styles
	head := s.title.Render("Arguments for "+clean(l.tool.Name)+" as JSON") + s.dim.Render(" (its input schema is more than a form can show)")
	out := head + "\n"
	if l.why != "" {
		out += s.dim.Render(line(l.why, m.c.width-2)) + "\n"
	}
	if secrets := secretFields(l.tool.InputSchema); len(secrets) > 0 {
		out += s.dim.Render(line(notRemembered+": "+clean(strings.Join(secrets, ", ")), m.c.width-2)) + "\n"
	}
	editor := l.ed.View()
	if l.err != "" {
		editor += "\n" + s.err.Render(line(l.err, l.ed.Width()+2))
	}
	schema := s.dim.Render("input schema:") + "\n" + s.colourJSON(clean(l.schema))
	if m.c.width >= sideBySide {
		h := lipgloss.Height(editor)
		return out + lipgloss.JoinHorizontal(lipgloss.Top, editor, "  ", block(schema, m.c.width-l.ed.Width()-6, h))
	}
	rest := m.bodyHeight() - lipgloss.Height(out) - lipgloss.Height(editor) - 2
	if rest < 2 {
		return out + editor
	}
	return out + editor + "\n" + block(schema, m.c.width-2, rest)
}

func (l *jsonEditor) footer(m *Model, _ *level) string {
	return m.c.keyLine(m.c.keys.json.ShortHelp()...)
}

// key edits the arguments; the call key calls the tool when they are a
// JSON object.
func (l *jsonEditor) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.keys.json
	switch {
	case key.Matches(msg, k.back):
		m.close(l)
		return nil
	case key.Matches(msg, k.quit):
		return m.askQuit()
	case key.Matches(msg, k.call):
		var obj map[string]any
		text := l.ed.Value()
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			l.err = "the arguments must be a JSON object"
			if err != nil {
				l.err += ": " + err.Error()
			}
			return nil
		}
		m.close(l)
		return m.callAs(l.tool, json.RawMessage(text), l.asTask)
	}
	var cmd tea.Cmd
	l.ed, cmd = l.ed.Update(msg)
	return cmd
}

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptsView lists the prompts beside the selected one: what it is, its
// arguments, and what getting it gave.
func (m *Model) promptsView(h int) string {
	lw := m.listWidth()
	var names []string
	for _, pr := range m.prompts {
		names = append(names, pr.Name)
	}
	list := m.pick[tabPrompts].View(&m.c, widget.Names(widget.CutNames(names, lw-2)), m.listErr[tabPrompts], lw, h)
	return columns(&m.c, list, m.paneView(""), lw, m.focus[tabPrompts])
}

// selectedPrompt is the prompt under the cursor, or nil.
func (m *Model) selectedPrompt() *mcp.Prompt {
	if c := m.pick[tabPrompts].Cursor(); c < len(m.prompts) {
		return m.prompts[c]
	}
	return nil
}

// promptText is the Prompts tab's pane: the selected prompt's title, name,
// description and arguments (each required or not, and what it is), then
// what getting it last gave.
func (m *Model) promptText() string {
	pr := m.selectedPrompt()
	if pr == nil {
		return ""
	}
	s := m.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Clean(cmp(pr.Title, pr.Name))) + "\n")
	if pr.Title != "" {
		b.WriteString(s.Dim.Render("name: ") + widget.Clean(pr.Name) + "\n")
	}
	if pr.Description != "" {
		b.WriteString(widget.Clean(pr.Description) + "\n")
	}
	if len(pr.Arguments) == 0 {
		b.WriteString(s.Dim.Render("no arguments") + "\n")
	} else {
		b.WriteString(s.Dim.Render("arguments:") + "\n")
	}
	for _, a := range pr.Arguments {
		name := "  " + widget.Clean(cmp(a.Title, a.Name))
		if a.Title != "" {
			name += s.Dim.Render(" (" + widget.Clean(a.Name) + ")")
		}
		if a.Required {
			name += s.Warn.Render(" required")
		}
		b.WriteString(name + "\n")
		if a.Description != "" {
			b.WriteString("    " + widget.Clean(a.Description) + "\n")
		}
	}
	if got, ok := m.promptsGot[pr.Name]; ok {
		return b.String() + "\n" + got
	}
	k := m.c.Keys.Tabs
	hint := k.Open.Help().Key + " gets the prompt"
	if len(pr.Arguments) > 0 {
		hint += fmt.Sprintf(", asking for its arguments first; %s edits them on several lines", k.EditArgs.Help().Key)
	}
	return b.String() + "\n" + s.Dim.Render(hint)
}

// promptGotMsg brings what getting a prompt gave.
type promptGotMsg struct {
	conn *mcpclient.Conn
	name string
	text string
}

func (msg promptGotMsg) update(m *Model) tea.Cmd {
	if msg.conn != m.conn {
		return nil
	}
	if m.promptsGot == nil {
		m.promptsGot = map[string]string{}
	}
	m.promptsGot[msg.name] = msg.text
	return nil
}

// getPromptCmd gets a prompt with the arguments given, remembered for the
// next time in this session.
func (m *Model) getPromptCmd(name string, args map[string]string) tea.Cmd {
	if m.promptArgs == nil {
		m.promptArgs = map[string]map[string]string{}
	}
	m.promptArgs[name] = args
	if m.promptsGot == nil {
		m.promptsGot = map[string]string{}
	}
	m.promptsGot[name] = m.c.Styles.Dim.Render("getting " + widget.Clean(name) + "…")
	conn, c := m.conn, &m.c
	return func() tea.Msg { return promptGotMsg{conn, name, getPrompt(c, conn, name, args)} }
}

// openPrompt gets a prompt, first asking for its arguments with a form
// (whose fields the server may complete), starting from those last given.
func (m *Model) openPrompt(pr *mcp.Prompt) tea.Cmd {
	name := pr.Name
	if len(pr.Arguments) == 0 {
		return m.getPromptCmd(name, nil)
	}
	props := map[string]any{}
	required := []string{} // never null: a schema whose required is null does not parse
	order := make([]string, 0, len(pr.Arguments))
	for _, a := range pr.Arguments {
		prop := map[string]any{"type": "string", "description": a.Description}
		if a.Title != "" {
			prop["title"] = a.Title
		}
		props[a.Name] = prop
		if a.Required {
			required = append(required, a.Name)
		}
		order = append(order, a.Name)
	}
	schema, err := formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": required}, order)
	if err != nil {
		return m.getPromptCmd(name, nil)
	}
	last := map[string]any{}
	for k, v := range m.promptArgs[name] {
		last[k] = v
	}
	schema = prefill(schema, last)
	return m.openArgsCompleting("Arguments for the prompt "+name, schema, &mcp.CompleteReference{Type: "ref/prompt", Name: name}, func(args map[string]any) tea.Cmd {
		strs := map[string]string{}
		for k, v := range args {
			strs[k] = fmt.Sprint(v)
		}
		return m.getPromptCmd(name, strs)
	})
}

// getPrompt gets a prompt and words what it gave: the prompt's description,
// then each message with its role.
func getPrompt(c *widget.Common, conn *mcpclient.Conn, name string, args map[string]string) string {
	s := c.Styles
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return s.Err.Render("error: ") + widget.Clean(err.Error())
	}
	var b strings.Builder
	b.WriteString(s.OK.Render("result") + s.Dim.Render(fmt.Sprintf(" · %d messages", len(res.Messages))) + "\n")
	if res.Description != "" {
		b.WriteString(s.Dim.Render("description: ") + widget.Clean(res.Description) + "\n")
	}
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		role := s.Accent.Render(widget.Clean(string(msg.Role)) + ":")
		if t, ok := msg.Content.(*mcp.TextContent); ok {
			b.WriteString(role + " " + widget.Clean(t.Text) + "\n")
			continue
		}
		b.WriteString(role + " " + s.Dim.Render(widget.Clean(mcpclient.ContentText(msg.Content, 200))) + "\n")
	}
	return b.String()
}

// promptEditor edits a prompt's arguments on several lines each, for text
// a one-line field cannot hold (code, a letter): a textarea per argument.
type promptEditor struct {
	prompt *mcp.Prompt
	eds    []textarea.Model
	focus  int
	err    string // why the prompt was not got
}

// editPromptArgs opens the multi-line editor of the selected prompt's
// arguments, starting from those last given.
func (m *Model) editPromptArgs() tea.Cmd {
	pr := m.selectedPrompt()
	switch {
	case pr == nil || m.conn == nil:
		return nil
	case len(pr.Arguments) == 0:
		m.status = statusMsg{widget.Clean(pr.Name) + " takes no arguments: " + m.c.Keys.Tabs.Open.Help().Key + " gets it", true}
		return nil
	}
	l := &promptEditor{prompt: pr}
	for _, a := range pr.Arguments {
		ed := textarea.New()
		ed.ShowLineNumbers = false
		ed.Prompt = "┃ "
		ed.CharLimit = 0
		ed.Placeholder = widget.Clean(a.Description)
		ed.SetValue(m.promptArgs[pr.Name][a.Name])
		l.eds = append(l.eds, ed)
	}
	l.resize(m)
	l.eds[0].Focus()
	m.open(l)
	return textarea.Blink
}

func (l *promptEditor) typesText() bool { return true }

// resize shares the body's height among the arguments' editors.
func (l *promptEditor) resize(m *Model) tea.Cmd {
	n := len(l.eds)
	each := max((m.bodyHeight()-3)/max(n, 1)-2, 1) // a label above each, the heading and the error under
	for i := range l.eds {
		l.eds[i].SetWidth(max(m.c.Width-4, 20))
		l.eds[i].SetHeight(each)
	}
	return nil
}

func (l *promptEditor) view(m *Model, _ int, _ *level) string {
	s := m.c.Styles
	parts := []string{s.Title.Render("Arguments for the prompt " + widget.Clean(l.prompt.Name))}
	for i, a := range l.prompt.Arguments {
		label := widget.Clean(cmp(a.Title, a.Name))
		if a.Required {
			label += " *"
		}
		if i == l.focus {
			label = s.Accent.Render(label)
		}
		if a.Description != "" {
			label += s.Dim.Render(" · " + widget.Clean(a.Description))
		}
		parts = append(parts, widget.Line(label, m.c.Width-2)+"\n"+l.eds[i].View())
	}
	if l.err != "" {
		parts = append(parts, s.Err.Render(widget.Line(l.err, m.c.Width-2)))
	}
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

func (l *promptEditor) footer(m *Model, _ *level) string {
	return m.c.KeyLine(m.c.Keys.PromptArgs.ShortHelp()...)
}

// key edits the focused argument; tab moves between them, and the get key
// gets the prompt once every required argument is given.
func (l *promptEditor) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.PromptArgs
	switch {
	case key.Matches(msg, k.Back):
		m.close(l)
		return nil
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Next, k.Prev):
		by := 1
		if key.Matches(msg, k.Prev) {
			by = len(l.eds) - 1
		}
		l.eds[l.focus].Blur()
		l.focus = (l.focus + by) % len(l.eds)
		return l.eds[l.focus].Focus()
	case key.Matches(msg, k.Get):
		args := map[string]string{}
		for i, a := range l.prompt.Arguments {
			v := l.eds[i].Value()
			if v == "" && a.Required {
				l.err = widget.Clean(cmp(a.Title, a.Name)) + " is required"
				return nil
			}
			if v != "" {
				args[a.Name] = v
			}
		}
		m.close(l)
		return m.getPromptCmd(l.prompt.Name, args)
	}
	var cmd tea.Cmd
	l.eds[l.focus], cmd = l.eds[l.focus].Update(msg)
	return cmd
}

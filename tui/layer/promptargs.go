// The prompt's arguments on several lines: an editor per argument, for
// text a one-line field cannot hold (code, a letter).

package layer

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GetPrompt asks the program to get a prompt with these arguments (nil:
// none).
type GetPrompt struct {
	Name string
	Args map[string]string
}

// PromptArgs edits a prompt's arguments, a textarea each: tab moves
// between them, and the get key gets the prompt ([GetPrompt]) once every
// required argument is given.
type PromptArgs struct {
	c      *widget.Common
	prompt *mcp.Prompt
	eds    []textarea.Model
	focus  int
	err    string // why the prompt was not got
	width  int
}

// NewPromptArgs is the editor of pr's arguments, starting from last (the
// arguments last given), and the command that blinks its cursor.
func NewPromptArgs(c *widget.Common, pr *mcp.Prompt, last map[string]string) (*PromptArgs, tea.Cmd) {
	l := &PromptArgs{c: c, prompt: pr}
	for _, a := range pr.Arguments {
		ed := textarea.New()
		ed.ShowLineNumbers = false
		ed.Prompt = "┃ "
		ed.CharLimit = 0
		ed.Placeholder = widget.Clean(a.Description)
		ed.SetValue(last[a.Name])
		l.eds = append(l.eds, ed)
	}
	if len(l.eds) > 0 {
		l.eds[0].Focus()
	}
	return l, textarea.Blink
}

// TypesText: a burst of characters is text, not keys.
func (*PromptArgs) TypesText() bool { return true }

// Update edits the focused argument, and shares the room among the
// editors.
func (l *PromptArgs) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

// resize shares the body's height among the arguments' editors.
func (l *PromptArgs) resize(width, height int) {
	n := len(l.eds)
	each := max((height-3)/max(n, 1)-2, 1) // a label above each, the heading and the error under
	for i := range l.eds {
		l.eds[i].SetWidth(max(width-4, 20))
		l.eds[i].SetHeight(each)
	}
	l.width = width
}

func (l *PromptArgs) key(msg tea.KeyMsg) Action {
	k := PromptArgsKeys
	switch {
	case key.Matches(msg, k.Back):
		return Close{}
	case key.Matches(msg, k.Quit):
		return AskQuit{}
	case len(l.eds) == 0:
		return nil
	case key.Matches(msg, k.Next, k.Prev):
		by := 1
		if key.Matches(msg, k.Prev) {
			by = len(l.eds) - 1
		}
		l.eds[l.focus].Blur()
		l.focus = (l.focus + by) % len(l.eds)
		return Cmd{l.eds[l.focus].Focus()}
	case key.Matches(msg, k.Get):
		args := map[string]string{}
		for i, a := range l.prompt.Arguments {
			v := l.eds[i].Value()
			if v == "" && a.Required {
				l.err = widget.Clean(or(a.Title, a.Name)) + " is required"
				return nil
			}
			if v != "" {
				args[a.Name] = v
			}
		}
		return Batch{Close{}, GetPrompt{l.prompt.Name, args}}
	}
	var cmd tea.Cmd
	l.eds[l.focus], cmd = l.eds[l.focus].Update(msg)
	return Cmd{cmd}
}

// View draws the heading, each argument's label over its editor, and why
// the prompt was not got.
func (l *PromptArgs) View(width, _ int) string {
	s := l.c.Styles
	parts := []string{s.Title.Render("Arguments for the prompt " + widget.Clean(l.prompt.Name))}
	for i, a := range l.prompt.Arguments {
		label := widget.Clean(or(a.Title, a.Name))
		if a.Required {
			label += " *"
		}
		if i == l.focus {
			label = s.Accent.Render(label)
		}
		if a.Description != "" {
			label += s.Dim.Render(" · " + widget.Clean(a.Description))
		}
		parts = append(parts, widget.Line(label, width-2)+"\n"+l.eds[i].View())
	}
	if l.err != "" {
		parts = append(parts, s.Err.Render(widget.Line(l.err, width-2)))
	}
	return lipgloss.JoinVertical(lipgloss.Left, parts...)
}

// Help is the editor's keys.
func (l *PromptArgs) Help() []key.Binding { return PromptArgsKeys.ShortHelp() }

// or is a, or b when a is empty.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// PromptArgsKeyMap holds the keys that work in the multi-line editor of
// a prompt's arguments; other keys are text, enter a new line.
type PromptArgsKeyMap struct {
	Next, Prev, Get, Back, Quit key.Binding
}

// PromptArgsKeys are the bindings of [PromptArgsKeyMap].
var PromptArgsKeys = PromptArgsKeyMap{
	Next: keys.New("tab", "next argument", "tab"),
	Prev: keys.New("shift+tab", "previous argument", "shift+tab"),
	Get:  keys.New("ctrl+s", "get the prompt", "ctrl+s"),
	Back: backKey,
	Quit: quitKey,
}

// ShortHelp is the footer of a prompt's arguments on several lines.
func (k PromptArgsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("tab", "next argument", k.Next, k.Prev), keys.Hint("ctrl+s", "get", k.Get), k.Back}
}

// FullHelp lists every key of a prompt's arguments on several lines.
func (k PromptArgsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.Get, k.Back, k.Quit}}
}

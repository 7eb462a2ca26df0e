// The save prompt (w): the name of the file to save the pane's text, or a
// resource's bytes, in.

package layer

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Save asks the program to write Data to the file Name (~/ is the home
// directory); the status line says how it went.
type Save struct {
	Name string
	Data []byte
}

// SavePrompt asks for the name of the file to save in. It is only a
// footer: the tabs stay drawn above it.
type SavePrompt struct {
	c     *widget.Common
	input textinput.Model
	data  []byte // what the pane showed when w was pressed, or the resource's bytes
}

// NewSavePrompt asks where to save data, suggesting name.
func NewSavePrompt(c *widget.Common, name string, data []byte) *SavePrompt {
	in := textinput.New()
	in.Prompt = "save to: "
	in.Placeholder = "file name"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Width = max(c.Width-40, 10)
	in.SetValue(name)
	in.Focus()
	return &SavePrompt{c: c, input: in, data: data}
}

// TypesText: the name is typed.
func (*SavePrompt) TypesText() bool { return true }

// Update takes the name typed: enter saves (unless it is empty), esc
// cancels.
func (l *SavePrompt) Update(msg tea.Msg) Action {
	m, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	k := SaveKeys
	switch {
	case key.Matches(m, k.Quit):
		return Batch{Close{}, AskQuit{}}
	case key.Matches(m, k.Cancel):
		return Close{}
	case key.Matches(m, k.Confirm):
		name := strings.TrimSpace(l.input.Value())
		if name == "" {
			return nil
		}
		return Batch{Close{}, Save{name, l.data}}
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(m)
	return Cmd{cmd}
}

// View is nothing: the prompt is a footer over the tabs.
func (*SavePrompt) View(int, int) string { return "" }

// Help is the prompt's keys.
func (l *SavePrompt) Help() []key.Binding { return SaveKeys.ShortHelp() }

// Footer is the name being typed and the keys.
func (l *SavePrompt) Footer(int) string {
	return l.input.View() + "  " + l.c.KeyLine(l.Help()...)
}

// Seethrough: the tabs stay drawn over the prompt.
func (*SavePrompt) Seethrough() {}

// SaveKeyMap holds the keys that answer the prompt for a file name to
// save the pane in; other keys are text.
type SaveKeyMap struct {
	Confirm, Cancel, Quit key.Binding
}

// SaveKeys are the bindings of [SaveKeyMap].
var SaveKeys = SaveKeyMap{
	Confirm: keys.New("enter", "save", "enter"),
	Cancel:  keys.New("esc", "cancel", "esc"),
	Quit:    quitKey,
}

// ShortHelp is the footer of the save prompt.
func (k SaveKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Cancel, k.Quit} }

// FullHelp lists the save prompt's keys.
func (k SaveKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Confirm, k.Cancel, k.Quit}} }

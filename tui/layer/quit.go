// The quit prompt: asked before quitting cancels pending requests.

package layer

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// QuitPrompt asks before quitting cancels pending requests. It is only a
// footer: what it interrupts stays drawn. y quits; any other key stays.
type QuitPrompt struct {
	c       *widget.Common
	pending func() int
}

// NewQuitPrompt is the quit prompt; pending says how many requests wait,
// asked each time it is drawn (one may arrive while it asks).
func NewQuitPrompt(c *widget.Common, pending func() int) *QuitPrompt {
	return &QuitPrompt{c: c, pending: pending}
}

// Update answers a key: [Quit] for yes, else [Close].
func (l *QuitPrompt) Update(msg tea.Msg) Action {
	k, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
		return nil
	case key.Matches(k, QuitKeys.Confirm):
		return Batch{Close{}, Quit{}}
	}
	return Close{} // any other key stays
}

// View is nothing: the prompt is a footer over what lies under it.
func (l *QuitPrompt) View(int, int) string { return "" }

// Help is the prompt's answers.
func (l *QuitPrompt) Help() []key.Binding { return QuitKeys.ShortHelp() }

// Footer asks the question.
func (l *QuitPrompt) Footer(int) string {
	k := QuitKeys
	return l.c.Styles.Warn.Render(fmt.Sprintf("%d request(s) pending: quit and cancel them? %s/%s",
		l.pending(), k.Confirm.Help().Key, k.Stay.Help().Key))
}

// Rank keeps the prompt on top until it is answered.
func (*QuitPrompt) Rank() Rank { return Prompt }

// Seethrough: what the prompt interrupts stays drawn.
func (*QuitPrompt) Seethrough() {}

// QuitKeyMap holds the keys that answer the quit prompt: confirm quits,
// any other key stays.
type QuitKeyMap struct {
	Confirm, Stay key.Binding
}

// QuitKeys are the bindings of [QuitKeyMap].
var QuitKeys = QuitKeyMap{
	Confirm: keys.New("y", "quit and cancel them", "y", "q", "ctrl+c"),
	Stay:    keys.New("n", "stay (so does any other key)", "n"),
}

// ShortHelp is the answer the quit prompt asks for.
func (k QuitKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Stay} }

// FullHelp lists the quit prompt's keys.
func (k QuitKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Confirm, k.Stay}} }

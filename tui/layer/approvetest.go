// The question asked before the first run of a project's test on the
// Suite tab: what the test does (its steps, the tools' annotations, its
// arguments and answers, the environment it reads), and whether to run it.

package layer

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// ApproveTest shows what a project's test does and asks whether to run
// it on the connected server: y runs it (Yes), n or esc does not (No).
// It stays on top until answered; other keys scroll the review.
type ApproveTest struct {
	c       *widget.Common
	title   string
	review  string
	yes, no Action
	pane    widget.Pane
	w, h    int
}

// NewApproveTest is the question about the test titled title, whose
// review (already cleaned) says what it does; yes and no are what the
// program does with each answer.
func NewApproveTest(c *widget.Common, title, review string, yes, no Action) *ApproveTest {
	l := &ApproveTest{c: c, title: title, review: review, yes: yes, no: no, w: c.Width, h: c.Height}
	l.refresh()
	return l
}

// Update takes the room and the keys.
func (l *ApproveTest) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.w, l.h = msg.Width, msg.Height
		l.refresh()
	case tea.KeyMsg:
		k, v := ApproveTestKeys, &l.pane.Viewport
		switch {
		case key.Matches(msg, k.Run):
			return Batch{Close{}, l.yes}
		case key.Matches(msg, k.Refuse):
			return Batch{Close{}, l.no}
		case key.Matches(msg, k.Quit):
			return Batch{Close{}, l.no, AskQuit{}}
		default:
			scroll(msg, v, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom)
		}
	}
	return nil
}

func (l *ApproveTest) refresh() { l.pane.Set(l.review, l.w, l.h-3) }

// View draws the title over the review.
func (l *ApproveTest) View(width, _ int) string {
	return l.c.Styles.Warn.Render(widget.Line(l.title, width)) + "\n\n" + l.pane.View(l.c, "")
}

// Help is the question's answers.
func (l *ApproveTest) Help() []key.Binding { return ApproveTestKeys.ShortHelp() }

// Rank keeps the question on top until it is answered.
func (*ApproveTest) Rank() Rank { return Prompt }

// ApproveTestKeyMap holds the keys that answer whether to run a
// project's test.
type ApproveTestKeyMap struct {
	Run, Refuse, Up, Down, PageUp, PageDown, Top, Bottom, Quit key.Binding
}

// ApproveTestKeys are the bindings of [ApproveTestKeyMap].
var ApproveTestKeys = ApproveTestKeyMap{
	Run:      keys.New("y", "run it (remembered until the suite changes)", "y"),
	Refuse:   keys.New("n/esc", "do not run it", "n", "esc"),
	Up:       upKey,
	Down:     downKey,
	PageUp:   keys.New("pgup", "page up", "pgup"),
	PageDown: keys.New("pgdown", "page down", "pgdown"),
	Top:      keys.New("home/g", "top", "home", "g"),
	Bottom:   keys.New("end/G", "end", "end", "G"),
	Quit:     quitKey,
}

// ShortHelp is the footer of the question.
func (k ApproveTestKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Run, k.Refuse, keys.Hint("↑↓/pgup/pgdn/g/G", "scroll", k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom), k.Quit}
}

// FullHelp lists the question's keys.
func (k ApproveTestKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Run, k.Refuse, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Quit}}
}

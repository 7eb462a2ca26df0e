// The log level picker (L): the level the server logs at.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// SetLogLevel asks the program to have the server log at Level.
type SetLogLevel struct{ Level string }

// levelWidth is the width of the level column: "emergency".
const levelWidth = 9

// LevelPicker lists the log levels, the current one marked and selected;
// enter asks for the one selected ([SetLogLevel]).
type LevelPicker struct {
	c       *widget.Common
	list    widget.List
	current string // the level the server logs at, "" when not set
	modern  bool   // the protocol era where each call carries the level
}

// NewLevelPicker is the picker on the current level; modern says the
// connection is of the era where each call carries the level.
func NewLevelPicker(c *widget.Common, current string, modern bool) *LevelPicker {
	l := &LevelPicker{c: c, current: current, modern: modern}
	l.list.SetLen(len(mcpclient.LogLevels))
	for i, level := range mcpclient.LogLevels {
		if level == current {
			l.list.Select(i)
		}
	}
	return l
}

// Update moves the selection, or chooses, goes back or quits.
func (l *LevelPicker) Update(msg tea.Msg) Action {
	k, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	keys := LevelKeys
	switch {
	case key.Matches(k, keys.Up):
		l.list.Move(-1)
	case key.Matches(k, keys.Down):
		l.list.Move(1)
	case key.Matches(k, keys.Back):
		return Close{}
	case key.Matches(k, keys.Quit):
		return AskQuit{}
	case key.Matches(k, keys.Choose):
		return Batch{Close{}, SetLogLevel{mcpclient.LogLevels[l.list.Cursor()]}}
	}
	return nil
}

// View lists the levels under a note on what the level does.
func (l *LevelPicker) View(width, height int) string {
	s := l.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Server log level") + "\n")
	note := "The server sends log messages at the chosen level and above."
	if l.modern {
		note += " In this protocol era each call carries the level: it takes effect with the next call."
	}
	b.WriteString(widget.Block(s.Dim.Render(note), width, 3) + "\n\n")
	rows := make([]widget.Row, len(mcpclient.LogLevels))
	for i, level := range mcpclient.LogLevels {
		row := fmt.Sprintf("%-*s", levelWidth, level)
		if level == l.current {
			row += "  (current)"
		}
		style := s.Level(level)
		rows[i] = widget.Row{Name: row, Drawn: true, Style: &style}
	}
	b.WriteString(l.list.Rows(l.c, rows, width, height-lipgloss.Height(b.String())+1))
	return widget.Block(strings.TrimRight(b.String(), "\n"), width, height)
}

// Help is every key the picker takes.
func (l *LevelPicker) Help() []key.Binding { return LevelKeys.ShortHelp() }

// PickerKeyMap holds the keys that choose the level the server logs at.
type PickerKeyMap struct {
	Up, Down, Choose, Back, Quit key.Binding
}

// LevelKeys are the bindings of [PickerKeyMap].
var LevelKeys = PickerKeyMap{
	Up:     upKey,
	Down:   downKey,
	Choose: keys.New("enter", "set this level", "enter"),
	Back:   backKey,
	Quit:   quitKey,
}

// ServerKeys are the bindings of the server picker: the level picker's keys, worded for servers.
var ServerKeys = PickerKeyMap{
	Up:     upKey,
	Down:   downKey,
	Choose: keys.New("enter", "connect to this server", "enter"),
	Back:   backKey,
	Quit:   quitKey,
}

// ShortHelp is the footer of the log level picker: every key it takes.
func (k PickerKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("↑↓", "choose", k.Up, k.Down), k.Choose, k.Back, k.Quit}
}

// FullHelp lists the log level picker's keys.
func (k PickerKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Choose, k.Back, k.Quit}}
}

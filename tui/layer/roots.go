// The roots layer (R): the roots mcpeek offers the server.

//lint:file-ignore SA1019 roots are deprecated from 2026-07-28 on, but servers still use them and mcpeek offers them (docs/architecture.md, "Sampling, roots and notifications").

package layer

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	// AddRoot asks the program to offer the server a root (it tells the
	// server, and remembers it for the connections to come).
	AddRoot struct{ URI string }
	// RemoveRoot asks the program to offer a root no more.
	RemoveRoot struct{ URI string }
	// RootsListed is the program's word that the roots changes typed
	// are made: the roots as the connection has them now.
	RootsListed struct{ Roots []*mcp.Root }
)

// Roots lists the roots mcpeek offers the server (the --root arguments and
// those added here, in the order of their URIs), over the tabs: a adds
// one, a path or a URI typed in; d removes the one selected. The server is
// told each time the list changes (notifications/roots/list_changed).
type Roots struct {
	c         *widget.Common
	connected func() bool
	roots     []*mcp.Root // as the connection last had them, with the changes typed since
	list      widget.List
	adding    bool
	input     textinput.Model
	err       string // why the root typed was not added
}

// NewRoots is the layer on the connection's roots; connected says
// whether there is a connection to offer them on.
func NewRoots(c *widget.Common, roots []*mcp.Root, connected func() bool) *Roots {
	return &Roots{c: c, roots: roots, connected: connected}
}

// TypesText while a root is typed.
func (l *Roots) TypesText() bool { return l.adding }

// Update takes the keys, and the roots once the changes are made.
func (l *Roots) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case RootsListed:
		l.listed(msg.Roots)
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *Roots) key(msg tea.KeyMsg) Action {
	k := RootsKeys
	if key.Matches(msg, k.Quit) {
		return AskQuit{}
	}
	if l.adding {
		return l.inputKey(msg)
	}
	l.list.SetLen(len(l.roots))
	switch {
	case key.Matches(msg, k.Close):
		return Close{}
	case key.Matches(msg, k.Up):
		l.list.Move(-1)
	case key.Matches(msg, k.Down):
		l.list.Move(1)
	case key.Matches(msg, k.Add):
		l.startAdding()
	case key.Matches(msg, k.Remove):
		if c := l.list.Cursor(); c < len(l.roots) && l.connected() {
			uri := l.roots[c].URI
			// At once, so that a key typed next sees the list without it.
			l.roots = slices.Delete(slices.Clone(l.roots), c, c+1)
			l.list.SetLen(len(l.roots))
			return RemoveRoot{uri}
		}
	}
	return nil
}

func (l *Roots) startAdding() {
	in := textinput.New()
	in.Prompt = "path or URI: "
	in.Placeholder = "a directory, or file:///…"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Width = max(l.c.Width-24, 10)
	in.Focus()
	l.input, l.adding, l.err = in, true, ""
}

// inputKey takes the keys while a root is typed: enter adds it, unless
// it is not a path or URI, or is offered already, which shows under it.
func (l *Roots) inputKey(msg tea.KeyMsg) Action {
	k := RootsKeys
	switch {
	case key.Matches(msg, k.Back):
		l.adding, l.err = false, ""
		return nil
	case key.Matches(msg, k.Confirm):
		arg := strings.TrimSpace(l.input.Value())
		if arg == "" {
			return nil
		}
		if !l.connected() {
			l.err = "not connected: roots are offered on a connection"
			return nil
		}
		uri, err := mcpclient.RootURI(arg)
		if err != nil {
			l.err = err.Error()
			return nil
		}
		if slices.ContainsFunc(l.roots, func(r *mcp.Root) bool { return r.URI == uri }) {
			l.err = uri + " is offered already"
			return nil
		}
		l.adding, l.err = false, ""
		l.roots = append(slices.Clone(l.roots), &mcp.Root{URI: uri})
		slices.SortFunc(l.roots, func(a, b *mcp.Root) int { return strings.Compare(a.URI, b.URI) }) // as the connection lists them
		l.list.Place(slices.IndexFunc(l.roots, func(r *mcp.Root) bool { return r.URI == uri }), len(l.roots))
		return AddRoot{uri}
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	l.err = ""
	return Cmd{cmd}
}

// listed shows the roots as the connection has them, the same one
// selected.
func (l *Roots) listed(roots []*mcp.Root) {
	var selected string
	if c := l.list.Cursor(); c < len(l.roots) {
		selected = l.roots[c].URI
	}
	l.roots = roots
	l.list.SetLen(len(l.roots))
	if i := slices.IndexFunc(l.roots, func(r *mcp.Root) bool { return r.URI == selected }); i >= 0 {
		l.list.Select(i)
	}
}

// View is the list in a box, and the root being typed.
func (l *Roots) View(width, height int) string {
	s := l.c.Styles
	width = max(width-4, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Roots offered to the server") + "\n")
	b.WriteString(s.Dim.Render(widget.Line("It lists them with roots/list, and is told when they change.", width-4)) + "\n\n")
	switch {
	case !l.connected():
		b.WriteString(s.Dim.Render("not connected") + "\n")
	case len(l.roots) == 0:
		b.WriteString(s.Dim.Render("(none: a adds one)") + "\n")
	}
	rows := make([]widget.Row, len(l.roots))
	for i, r := range l.roots {
		text := r.URI
		if r.Name != "" {
			text += "  " + r.Name
		}
		rows[i] = widget.Row{Name: widget.Line(text, width-6), Drawn: true}
	}
	if l.adding {
		l.list.Blur()
	} else {
		l.list.Focus()
	}
	if len(rows) > 0 {
		b.WriteString(l.list.Rows(l.c, rows, width-4, max(height-9, 2)) + "\n")
	}
	if l.adding {
		b.WriteString("\n" + l.input.View() + "\n")
		if l.err != "" {
			b.WriteString(widget.Block(s.Err.Render("error: ")+widget.Clean(l.err), width-4, 3) + "\n")
		}
	}
	return s.Box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

// Help is the list's keys, or while a root is typed the input's.
func (l *Roots) Help() []key.Binding {
	k := RootsKeys
	if l.adding {
		return []key.Binding{keys.Hint(k.Confirm.Help().Key, "add it", k.Confirm), k.Back, k.Quit}
	}
	return []key.Binding{keys.Hint("↑↓", "select", k.Up, k.Down), k.Add, k.Remove, k.Close}
}

// RootsKeyMap holds the keys that work on the roots layer; while a root
// is typed, other keys are text.
type RootsKeyMap struct {
	Up, Down, Add, Remove, Close key.Binding
	Confirm, Back, Quit          key.Binding // confirm and back while a root is typed
}

// RootsKeys are the bindings of [RootsKeyMap].
var RootsKeys = RootsKeyMap{
	Up:      upKey,
	Down:    downKey,
	Add:     keys.New("a", "add", "a"),
	Remove:  keys.New("d", "remove", "d", "delete"),
	Close:   keys.New("esc", "close", "esc", "R"),
	Confirm: keys.New("enter", "add", "enter"),
	Back:    backKey,
	Quit:    quitKey,
}

// ShortHelp is every key of the roots layer, which is documented by its
// footer: the list's keys, or while a root is typed the input's.
func (k RootsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Add, k.Remove, k.Close, k.Confirm, k.Back, k.Quit}
}

// FullHelp lists the roots layer's keys.
func (k RootsKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

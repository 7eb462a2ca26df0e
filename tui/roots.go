//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"maps"
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

// rootsLayer lists the roots mcpeek offers the server (the --root
// arguments and those added here, in the order of their URIs), over the
// tabs: a adds one, a path or a URI typed in; d removes the one selected. The server is told each time
// the list changes (notifications/roots/list_changed).
type rootsLayer struct {
	roots  []*mcp.Root // as the connection last had them
	list   widget.List
	adding bool
	input  textinput.Model
	err    string // why the root typed was not added
}

// rootsMsg says a change of the connection's roots is made.
type rootsMsg struct{ conn *mcpclient.Conn }

// openRoots opens the roots layer.
func (m *Model) openRoots() {
	l := &rootsLayer{}
	if m.conn != nil {
		l.roots = m.conn.Roots()
	}
	m.open(l)
}

func (l *rootsLayer) typesText() bool { return l.adding }

func (l *rootsLayer) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Roots
	if key.Matches(msg, k.Quit) {
		return m.askQuit()
	}
	if l.adding {
		return l.inputKey(m, msg)
	}
	l.list.SetLen(len(l.roots))
	switch {
	case key.Matches(msg, k.Close):
		m.close(l)
	case key.Matches(msg, k.Up):
		l.list.Move(-1)
	case key.Matches(msg, k.Down):
		l.list.Move(1)
	case key.Matches(msg, k.Add):
		l.startAdding(m)
	case key.Matches(msg, k.Remove):
		if c := l.list.Cursor(); c < len(l.roots) && m.conn != nil {
			uri := l.roots[c].URI
			// At once, so that a key typed next sees the list without it;
			// the connection tells the server in a command.
			l.roots = slices.Delete(slices.Clone(l.roots), c, c+1)
			l.list.SetLen(len(l.roots))
			m.editRoot(uri, false)
			return m.changeRoots(func(c *mcpclient.Conn) { c.RemoveRoot(uri) })
		}
	}
	return nil
}

func (l *rootsLayer) startAdding(m *Model) {
	in := textinput.New()
	in.Prompt = "path or URI: "
	in.Placeholder = "a directory, or file:///…"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Width = max(m.c.Width-24, 10)
	in.Focus()
	l.input, l.adding, l.err = in, true, ""
}

// inputKey takes the keys while a root is typed: enter adds it, unless
// it is not a path or URI, or is offered already, which shows under it.
func (l *rootsLayer) inputKey(m *Model, msg tea.KeyMsg) tea.Cmd {
	k := m.c.Keys.Roots
	switch {
	case key.Matches(msg, k.Back):
		l.adding, l.err = false, ""
		return nil
	case key.Matches(msg, k.Confirm):
		arg := strings.TrimSpace(l.input.Value())
		if arg == "" {
			return nil
		}
		if m.conn == nil {
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
		m.editRoot(uri, true)
		return m.changeRoots(func(c *mcpclient.Conn) { c.AddRoot(uri, "") })
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	l.err = ""
	return cmd
}

// changeRoots changes the connection's roots off the Update loop (the
// server is told), each change after the one before, in the order typed.
func (m *Model) changeRoots(change func(*mcpclient.Conn)) tea.Cmd {
	conn, prev, done := m.conn, m.rootsDone, make(chan struct{})
	m.rootsDone = done
	return func() tea.Msg {
		if prev != nil {
			<-prev
		}
		change(conn)
		close(done)
		return rootsMsg{conn}
	}
}

// editRoot remembers a root the person added or removed, for the
// connections to come.
func (m *Model) editRoot(uri string, added bool) {
	if m.rootEdits == nil {
		m.rootEdits = map[string]bool{}
	}
	m.rootEdits[uri] = added
}

// keepRoots gives a new connection the roots as the person left them on
// the one before: it adds those they added and removes those they
// removed, which the new connection offers as the flags said.
func (m *Model) keepRoots() tea.Cmd {
	offered := map[string]bool{}
	for _, r := range m.conn.Roots() {
		offered[r.URI] = true
	}
	var cmds []tea.Cmd
	for _, uri := range slices.Sorted(maps.Keys(m.rootEdits)) {
		switch added := m.rootEdits[uri]; {
		case added && !offered[uri]:
			cmds = append(cmds, m.changeRoots(func(c *mcpclient.Conn) { c.AddRoot(uri, "") }))
		case !added && offered[uri]:
			cmds = append(cmds, m.changeRoots(func(c *mcpclient.Conn) { c.RemoveRoot(uri) }))
		}
	}
	return tea.Batch(cmds...)
}

// rootsChanged shows the roots as the connection has them now, once the
// last change is made (until then the layer shows the changes typed).
func (m *Model) rootsChanged(msg rootsMsg) {
	l, ok := find[*rootsLayer](m)
	if !ok || msg.conn != m.conn || m.conn == nil {
		return
	}
	select {
	case <-m.rootsDone:
	default:
		return // another change is on its way
	}
	var selected string
	if c := l.list.Cursor(); c < len(l.roots) {
		selected = l.roots[c].URI
	}
	l.roots = m.conn.Roots()
	l.list.SetLen(len(l.roots))
	if i := slices.IndexFunc(l.roots, func(r *mcp.Root) bool { return r.URI == selected }); i >= 0 {
		l.list.Select(i)
	}
}

func (l *rootsLayer) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	width := max(m.c.Width-4, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Roots offered to the server") + "\n")
	b.WriteString(s.Dim.Render(widget.Line("It lists them with roots/list, and is told when they change.", width-4)) + "\n\n")
	switch {
	case m.conn == nil:
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
		b.WriteString(l.list.Rows(&m.c, rows, width-4, max(h-9, 2)) + "\n")
	}
	if l.adding {
		b.WriteString("\n" + l.input.View() + "\n")
		if l.err != "" {
			b.WriteString(widget.Block(s.Err.Render("error: ")+widget.Clean(l.err), width-4, 3) + "\n")
		}
	}
	return s.Box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

func (l *rootsLayer) footer(m *Model, _ *level) string {
	k := m.c.Keys.Roots
	if l.adding {
		return m.c.KeyLine(keys.Hint(k.Confirm.Help().Key, "add it", k.Confirm), k.Back, k.Quit)
	}
	return m.c.KeyLine(keys.Hint("↑↓", "select", k.Up, k.Down), k.Add, k.Remove, k.Close)
}

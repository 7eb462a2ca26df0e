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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootsLayer lists the roots mcpeek offers the server (the --root
// arguments and those added here, in the order of their URIs), over the
// tabs: a adds one, a path or a URI typed in; d removes the one selected. The server is told each time
// the list changes (notifications/roots/list_changed).
type rootsLayer struct {
	roots  []*mcp.Root // as the connection last had them
	cursor int
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
	k := m.c.keys.roots
	if key.Matches(msg, k.quit) {
		return m.askQuit()
	}
	if l.adding {
		return l.inputKey(m, msg)
	}
	switch {
	case key.Matches(msg, k.close):
		m.close(l)
	case key.Matches(msg, k.up):
		l.cursor = max(l.cursor-1, 0)
	case key.Matches(msg, k.down):
		l.cursor = min(l.cursor+1, max(len(l.roots)-1, 0))
	case key.Matches(msg, k.add):
		l.startAdding(m)
	case key.Matches(msg, k.remove):
		if l.cursor < len(l.roots) && m.conn != nil {
			uri := l.roots[l.cursor].URI
			// At once, so that a key typed next sees the list without it;
			// the connection tells the server in a command.
			l.roots = slices.Delete(slices.Clone(l.roots), l.cursor, l.cursor+1)
			l.cursor = min(l.cursor, max(len(l.roots)-1, 0))
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
	in.Width = max(m.c.width-24, 10)
	in.Focus()
	l.input, l.adding, l.err = in, true, ""
}

// inputKey takes the keys while a root is typed: enter adds it, unless
// it is not a path or URI, or is offered already, which shows under it.
func (l *rootsLayer) inputKey(m *Model, msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys.roots
	switch {
	case key.Matches(msg, k.back):
		l.adding, l.err = false, ""
		return nil
	case key.Matches(msg, k.confirm):
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
		l.cursor = slices.IndexFunc(l.roots, func(r *mcp.Root) bool { return r.URI == uri })
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
	if l.cursor < len(l.roots) {
		selected = l.roots[l.cursor].URI
	}
	l.roots = m.conn.Roots()
	if i := slices.IndexFunc(l.roots, func(r *mcp.Root) bool { return r.URI == selected }); i >= 0 {
		l.cursor = i
	}
	l.cursor = min(l.cursor, max(len(l.roots)-1, 0))
}

func (l *rootsLayer) view(m *Model, h int, _ *level) string {
	s := m.c.styles
	width := max(m.c.width-4, 20)
	var b strings.Builder
	b.WriteString(s.title.Render("Roots offered to the server") + "\n")
	b.WriteString(s.dim.Render(line("It lists them with roots/list, and is told when they change.", width-4)) + "\n\n")
	switch {
	case m.conn == nil:
		b.WriteString(s.dim.Render("not connected") + "\n")
	case len(l.roots) == 0:
		b.WriteString(s.dim.Render("(none: a adds one)") + "\n")
	}
	rows := max(h-9, 1)
	start := max(l.cursor-rows+1, 0)
	for i := start; i < len(l.roots) && i < start+rows; i++ {
		r := l.roots[i]
		text := r.URI
		if r.Name != "" {
			text += "  " + r.Name
		}
		text = line(text, width-6)
		if i == l.cursor && !l.adding {
			b.WriteString(s.selected.Render("> "+text) + "\n")
		} else {
			b.WriteString("  " + text + "\n")
		}
	}
	if l.adding {
		b.WriteString("\n" + l.input.View() + "\n")
		if l.err != "" {
			b.WriteString(block(s.err.Render("error: ")+clean(l.err), width-4, 3) + "\n")
		}
	}
	return s.box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

func (l *rootsLayer) footer(m *Model, _ *level) string {
	k := m.c.keys.roots
	if l.adding {
		return m.c.keyLine(hint(k.confirm.Help().Key, "add it", k.confirm), k.back, k.quit)
	}
	return m.c.keyLine(hint("↑↓", "select", k.up, k.down), k.add, k.remove, k.close)
}

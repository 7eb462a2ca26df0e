// The roots mcpeek offers the server, on the program's side: the changes
// the roots layer (tui/layer, R) asks for, made on the connection one
// after the other, and remembered for the connections to come.

//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"maps"
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rootChanges are the changes of the roots the person made: those on
// their way to the connection, and all of them, kept across reconnects.
type rootChanges struct {
	done  chan struct{}   // closed once the last change is made
	edits map[string]bool // the roots the person added (true) or removed
}

// rootsMsg says a change of the connection's roots is made.
type rootsMsg struct{ conn *mcpclient.Conn }

// connRoots are the roots a connection offers (none without one).
func connRoots(conn *mcpclient.Conn) []*mcp.Root {
	if conn == nil {
		return nil
	}
	return conn.Roots()
}

// edit makes a change the person asked for on conn, and remembers it.
func (r *rootChanges) edit(conn *mcpclient.Conn, uri string, added bool) tea.Cmd {
	if r.edits == nil {
		r.edits = map[string]bool{}
	}
	r.edits[uri] = added
	return r.change(conn, uri, added)
}

// change changes conn's roots off the Update loop (the server is told),
// each change after the one before, in the order typed.
func (r *rootChanges) change(conn *mcpclient.Conn, uri string, added bool) tea.Cmd {
	prev, done := r.done, make(chan struct{})
	r.done = done
	return func() tea.Msg {
		if prev != nil {
			<-prev
		}
		if added {
			conn.AddRoot(uri, "")
		} else {
			conn.RemoveRoot(uri)
		}
		close(done)
		return rootsMsg{conn}
	}
}

// keep gives a new connection the roots as the person left them on the
// one before: it adds those they added and removes those they removed,
// which the new connection offers as the flags said.
func (r *rootChanges) keep(conn *mcpclient.Conn) tea.Cmd {
	offered := map[string]bool{}
	for _, root := range conn.Roots() {
		offered[root.URI] = true
	}
	var cmds []tea.Cmd
	for _, uri := range slices.Sorted(maps.Keys(r.edits)) {
		if added := r.edits[uri]; added != offered[uri] {
			cmds = append(cmds, r.change(conn, uri, added))
		}
	}
	return tea.Batch(cmds...)
}

// update shows the roots layer the roots as the connection has them now,
// once the last change is made (until then it shows the changes typed).
func (msg rootsMsg) update(m *Model) tea.Cmd {
	l, ok := findLayer[*layer.Roots](&m.stack)
	if !ok || msg.conn != m.conn || m.conn == nil {
		return nil
	}
	select {
	case <-m.roots.done:
	default:
		return nil // another change is on its way
	}
	l.Update(layer.RootsListed{Roots: m.conn.Roots()})
	return nil
}

package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The server picker (S): the servers the person's MCP configs name, read
// afresh each time it opens; enter connects to the one selected in place
// of the current server, through the same wire log and app host.

// ServerEntry is one server the configs name, as the picker lists it.
type ServerEntry struct {
	Name      string
	Transport string // stdio, http or sse; "" when the entry is not valid
	What      string // its command line or URL as the config writes it (nothing expanded)
	Source    string // the config file, and whose it is
	Note      string // shadowed, disabled, or why it cannot be used
	// Key is what Options.Source says while connected to it ("" for the
	// demo fixture), so the picker marks the current server.
	Key string
	// Choose makes the connection to it ready, or says why it cannot be
	// made from the inspector (nil: it cannot, and Note says why).
	Choose func() (Switch, error)
}

// Switch is how the inspector reaches the server the person picked.
type Switch struct {
	Target     string // as Options.Target
	Source     string // as Options.Source
	Connect    func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error)
	ForgetAuth func() error // nil: the server is not a URL
}

type (
	// serversMsg brings the servers the configs name.
	serversMsg struct {
		entries []ServerEntry
		err     error
	}
	// switchMsg says whether the server picked can be connected to.
	switchMsg struct {
		name string
		sw   Switch
		err  error
	}
)

// serverPicker lists the servers; the cursor starts on the current one.
type serverPicker struct {
	entries []ServerEntry
	list    widget.List
}

// openServers reads the configs, in a command; the picker opens with what
// they name.
func (m *Model) openServers() tea.Cmd {
	if m.opts.Servers == nil {
		m.status = statusMsg{"no server picker: the inspector was started without configs to read", true}
		return nil
	}
	list := m.opts.Servers
	m.status = statusMsg{"reading the MCP configs…", false}
	return func() tea.Msg {
		entries, err := list()
		return serversMsg{entries, err}
	}
}

func (msg serversMsg) update(m *Model) tea.Cmd {
	switch {
	case msg.err != nil:
		m.status = statusMsg{"reading the MCP configs failed: " + widget.Clean(msg.err.Error()), true}
		return nil
	case len(msg.entries) == 0:
		m.status = statusMsg{"no MCP config names a server (mcpeek servers says where it looks)", true}
		return nil
	}
	m.status = statusMsg{}
	p := &serverPicker{entries: msg.entries}
	p.list.SetLen(len(msg.entries))
	for i, e := range msg.entries {
		if m.isCurrent(e) {
			p.list.Select(i)
		}
	}
	m.open(p)
	return nil
}

// isCurrent reports whether an entry is the server the inspector is for.
func (m *Model) isCurrent(e ServerEntry) bool {
	if e.Key == "" {
		return m.opts.Source == "" && e.What == m.opts.Target
	}
	return e.Key == m.opts.Source
}

func (p *serverPicker) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Servers") + "\n")
	note := "The servers your MCP configs name. Enter connects to the one selected instead of the current server; the wire log, roots and log level stay."
	b.WriteString(widget.Block(s.Dim.Render(note), m.c.Width, 3) + "\n\n")
	nameW := 4
	for _, e := range p.entries {
		nameW = min(max(nameW, lipgloss.Width(widget.Line(e.Name, 24))), 24)
	}
	rows := max(h-lipgloss.Height(b.String())-3, 2) // the selected row, and the position line
	list := make([]widget.Row, len(p.entries))
	for i, e := range p.entries {
		transport := e.Transport
		if transport == "" {
			transport = "invalid"
		}
		row := fmt.Sprintf("%-*s  %-7s  %s", nameW, widget.Line(e.Name, nameW), widget.Line(transport, 7), widget.Line(e.What, m.c.Width))
		if m.isCurrent(e) {
			row += "  (current)"
		}
		list[i] = widget.Row{Name: widget.Fit(row, max(m.c.Width-2, 10)), Drawn: true}
		if e.Choose == nil {
			list[i].Style = &s.Dim
		}
	}
	if len(list) > 0 {
		b.WriteString(p.list.Rows(&m.c, list, m.c.Width, rows) + "\n")
	}
	if len(p.entries) > 0 {
		e := p.entries[p.list.Cursor()]
		b.WriteString("\n" + s.Dim.Render(widget.Line("from "+widget.Clean(e.Source), m.c.Width)))
		if e.Note != "" {
			b.WriteString("\n" + s.Warn.Render(widget.Line(widget.Clean(e.Note), m.c.Width)))
		}
	}
	return widget.Block(strings.TrimRight(b.String(), "\n"), m.c.Width, h)
}

func (p *serverPicker) footer(m *Model, _ *level) string {
	if m.status.text != "" {
		return m.statusLine()
	}
	return m.c.KeyLine(m.c.Keys.Servers.ShortHelp()...)
}

func (p *serverPicker) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Servers
	m.status = statusMsg{}
	p.list.SetLen(len(p.entries))
	switch {
	case key.Matches(msg, k.Up):
		p.list.Move(-1)
	case key.Matches(msg, k.Down):
		p.list.Move(1)
	case key.Matches(msg, k.Back):
		m.close(p)
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Choose):
		e := p.entries[p.list.Cursor()]
		switch {
		case e.Choose == nil:
			m.status = statusMsg{"cannot connect to " + widget.Clean(e.Name) + ": " + widget.Clean(e.Note), true}
		case m.isCurrent(e):
			m.close(p)
			m.status = statusMsg{"already connected to " + widget.Clean(e.Name) + " (r reconnects)", false}
		default:
			m.close(p)
			m.status = statusMsg{"connecting to " + widget.Clean(e.Name) + "…", false}
			choose, name := e.Choose, e.Name
			return func() tea.Msg {
				sw, err := choose()
				return switchMsg{name, sw, err}
			}
		}
	}
	return nil
}

func (msg switchMsg) update(m *Model) tea.Cmd {
	if msg.err != nil {
		m.status = statusMsg{"cannot connect to " + widget.Clean(msg.name) + ": " + widget.Clean(msg.err.Error()), true}
		return nil
	}
	return m.switchServer(msg.sw)
}

// switchServer leaves the current server for another: its call is
// cancelled, its apps closed, what was shown of it cleared (its results
// too); the person's roots, log level and the wire log stay.
func (m *Model) switchServer(sw Switch) tea.Cmd {
	if m.state == stateConnecting {
		m.status = statusMsg{"still connecting: switch once the connection is made or has failed", true}
		return nil
	}
	var cmds []tea.Cmd
	if m.cancelCall != nil {
		m.cancelCall() // its late result is the old connection's, and dropped
	}
	m.running, m.cancelCall, m.runTrack, m.progress, m.runConn, m.apps.calling = "", nil, nil, nil, nil, nil
	for _, a := range m.apps.list {
		if a.state == appOpen && !a.closing {
			cmds = append(cmds, m.closeApp(a))
		}
	}
	m.layers = slices.DeleteFunc(m.layers, func(l modelLayer) bool { // a layer of an old server's app
		_, ok := l.(*appToolsLayer)
		return ok
	})
	m.opts.Target, m.opts.Source = sw.Target, sw.Source
	m.opts.Connect, m.opts.ForgetAuth = sw.Connect, sw.ForgetAuth
	m.promptsGot, m.promptArgs, m.refused = nil, nil, nil
	m.pick = [tabCount]widget.List{}
	m.panes = [tabCount]widget.Pane{}
	m.newServerPages()
	m.focus = [tabCount]bool{}
	m.runs.results, m.runs.shown, m.runs.vars = nil, nil, nil // the last arguments are kept per server
	m.progress, m.tasks = nil, nil
	m.status = statusMsg{}
	if m.conn == nil { // the last attempt failed: nothing to close
		m.state = stateDisconnected
	}
	return tea.Batch(append(cmds, m.reconnect())...)
}

package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
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
	m.servers = msg.entries
	servers := make([]layer.Server, len(msg.entries))
	for i, e := range msg.entries {
		servers[i] = layer.Server{Name: e.Name, Transport: e.Transport, What: e.What, Source: e.Source, Note: e.Note,
			Current: isCurrent(m.opts, e), Usable: e.Choose != nil}
	}
	m.host(layer.NewServerPicker(&m.c, servers))
	return nil
}

// isCurrent reports whether an entry is the server the inspector is for.
func isCurrent(opts Options, e ServerEntry) bool {
	if e.Key == "" {
		return opts.Source == "" && e.What == opts.Target
	}
	return e.Key == opts.Source
}

// pickServer makes the connection to a server the picker listed ready,
// in a command.
func pickServer(e ServerEntry) tea.Cmd {
	choose, name := e.Choose, e.Name
	return func() tea.Msg {
		sw, err := choose()
		return switchMsg{name, sw, err}
	}
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
	m.apps.calling = nil
	for _, a := range m.apps.list {
		if a.state == appOpen && !a.closing {
			cmds = append(cmds, a.close())
		}
	}
	m.drop(func(l layer.Layer) bool { // a layer of an old server's app
		_, ok := l.(*layer.AppTools)
		return ok
	})
	m.opts.Target, m.opts.Source = sw.Target, sw.Source
	m.opts.Connect, m.opts.ForgetAuth = sw.Connect, sw.ForgetAuth
	m.serverState = serverState{} // the last arguments are recalled for the next server when it connects
	m.reset(newPages(&m.c, m.toolsFrom, m.opts.Dir), m.bodySize())
	m.status = statusMsg{}
	if m.conn == nil { // the last attempt failed: nothing to close
		m.state = stateDisconnected
	}
	return tea.Batch(append(cmds, m.reconnect())...)
}

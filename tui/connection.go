package tui

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// link is the connection to the server and what is known of it: whether
// it is made, why not, and the login it waits on. The Model embeds it.
type link struct {
	state   connState
	err     error
	attempt time.Time // when the last connection was attempted
	stderr  []string  // while disconnected, the server's last stderr lines
	conn    *mcpclient.Conn

	login      *layer.LoginCard // the login (OAuth) waiting for the person, if any
	forgetting bool             // a forgets the stored tokens before reconnecting
}

// connected is the connection when it is up, else nil.
func (l *link) connected() *mcpclient.Conn {
	if l.state != stateConnected {
		return nil
	}
	return l.conn
}

// The connection's events.
type (
	connectedMsg struct {
		conn *mcpclient.Conn
		err  error
	}
	disconnectedMsg struct {
		conn *mcpclient.Conn
		err  error
	}
	listsMsg struct {
		tools     []*mcp.Tool
		resources []*mcp.Resource
		templates []*mcp.ResourceTemplate
		prompts   []*mcp.Prompt
		// why a list is missing or short
		toolsErr, resourcesErr, promptsErr error
	}
	// pollMsg asks for the connection's pending requests, records and wire
	// log, twice a second.
	pollMsg struct{}
)

// connection takes in the connection's events.
func (m *Model) connection(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case connectedMsg:
		if m.login != nil { // the login, if one ran, is over
			m.close(m.login)
			m.login = nil
		}
		if msg.err != nil {
			m.state, m.err = stateDisconnected, msg.err
			m.stderr = m.lastStderr(m.opts.Wire)
			return nil
		}
		m.conn, m.state = msg.conn, stateConnected
		for _, p := range m.pages { // what a page holds of a connection goes with it
			p.Update(page.NewConnection{})
		}
		// The wire log's set as a rule, known already; a connection of
		// its own (a test's) brings another.
		widget.Shown.Add(m.conn.Secrets())
		return tea.Batch(m.roots.keep(m.conn), load(m.conn), watch(m.conn), m.runs.recall(m.opts.StateDir, argsServer(m.conn.ServerInfo().Name, m.opts.Target)), m.keepLevel(m.logLevel),
			m.lock.start(m.conn, m.opts.Dir))
	case disconnectedMsg:
		if m.state == stateConnected && msg.conn == m.conn { // not an old connection's end
			m.state = stateDisconnected
			m.err = msg.err
			if m.err == nil {
				m.err = fmt.Errorf("the server closed the connection")
			}
			m.stderr = m.lastStderr(m.opts.Wire)
		}
	case listsMsg:
		pageOf[*page.Tools](m).Update(page.ToolList{Tools: msg.tools, Err: msg.toolsErr})
		pageOf[*page.Resources](m).Update(page.ResourceList{Resources: msg.resources, Templates: msg.templates, Err: msg.resourcesErr})
		pageOf[*page.Prompts](m).Update(page.PromptList{Prompts: msg.prompts, Err: msg.promptsErr})
	case pollMsg:
		if m.opts.Watch != nil {
			m.watchPoll()
		}
		if m.conn != nil {
			m.pending = m.conn.Pending()
			m.records = m.conn.Records()
			m.wire = m.conn.Wire().Entries()
		}
		if m.state == stateDisconnected {
			m.stderr = m.lastStderr(m.opts.Wire)
		}
		m.showAppCard()
		return tea.Batch(poll(), m.deliver(layer.Poll{}, m.pick(nil)))
	}
	return nil
}

// dial starts connecting with connect, which the server's requests reach
// through asker, in a command.
func (l *link) dial(connect func(context.Context, mcpclient.NativeAsker) (*mcpclient.Conn, error), asker mcpclient.NativeAsker) tea.Cmd {
	l.state, l.err, l.attempt = stateConnecting, nil, time.Now()
	return func() tea.Msg {
		conn, err := connect(context.Background(), asker)
		return connectedMsg{conn, err}
	}
}

// reconnect disconnects (pending elicitations end with the connection)
// and connects anew, without restarting.
func (m *Model) reconnect() tea.Cmd {
	if m.state == stateConnecting || m.state == stateWatching {
		return nil
	}
	if old := m.conn; old != nil {
		m.conn = nil
		pageOf[*page.Tools](m).Update(page.ToolList{})
		pageOf[*page.Resources](m).Update(page.ResourceList{})
		pageOf[*page.Prompts](m).Update(page.PromptList{})
		return tea.Sequence(func() tea.Msg { _ = old.Close(); return nil }, m.dial(m.opts.Connect, m.asker))
	}
	return m.dial(m.opts.Connect, m.asker)
}

func poll() tea.Cmd {
	return tea.Tick(500*time.Millisecond, func(time.Time) tea.Msg { return pollMsg{} })
}

// load lists the server's tools, resources, templates and prompts. A list
// that fails keeps what arrived before the error, and the error.
func load(conn *mcpclient.Conn) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		var out listsMsg
		caps, s := conn.ServerCapabilities(), conn.Session()
		if caps.Tools != nil {
			out.tools, out.toolsErr = collect(s.Tools(ctx, nil), mcpclient.MethodListTools)
		}
		if caps.Resources != nil {
			var errResources, errTemplates error
			out.resources, errResources = collect(s.Resources(ctx, nil), mcpclient.MethodListResources)
			out.templates, errTemplates = collect(s.ResourceTemplates(ctx, nil), mcpclient.MethodListResourceTemplates)
			out.resourcesErr = errors.Join(errResources, errTemplates)
		}
		if caps.Prompts != nil {
			out.prompts, out.promptsErr = collect(s.Prompts(ctx, nil), mcpclient.MethodListPrompts)
		}
		return out
	}
}

// collect gathers a list across its pages, up to an error, which names
// the request that failed.
func collect[T any](seq iter.Seq2[T, error], method string) ([]T, error) {
	var out []T
	for x, err := range seq {
		if err != nil && !strings.Contains(err.Error(), method) {
			err = fmt.Errorf("%s: %w", method, err)
		}
		if err != nil {
			return out, err
		}
		out = append(out, x)
	}
	return out, nil
}

// watch reports when the connection ends.
func watch(conn *mcpclient.Conn) tea.Cmd {
	return func() tea.Msg { return disconnectedMsg{conn, conn.Session().Wait()} }
}

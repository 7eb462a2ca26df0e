package tui

import (
	"context"
	"encoding/json"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure the inspector.
type Options struct {
	// Connect opens the connection; it runs in a command, never in Update.
	Connect func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error)
	// Target names the server as the person gave it.
	Target string
	// Source says which MCP config named the server ("" when the command
	// line did), shown before the target in the header.
	Source string
	// Insecure: URL servers' certificates are not verified (--insecure),
	// which the header warns of.
	Insecure bool
	// AppHost is the app host's address, or "" when it is off.
	AppHost string
	// AppURL returns the tab URL of a request answered in its app.
	AppURL func(key string) (string, bool)
	// AppSSHHint is the port-forwarding command for a person on another
	// machine, shown with the URLs.
	AppSSHHint string
	// ToolApps opens the apps of tools called (the app host), or is nil
	// when there is none (apps.go).
	ToolApps mcpclient.ToolAppHost
	// Theme is the theme tool apps are first told of ("light" or "dark");
	// the Apps panel's d switches an app to the other.
	Theme string
	// OpenURL opens a URL in the browser, for URL-mode elicitations.
	OpenURL func(url string) error
	// ElicitTimeout cancels a native form nobody answers (0: never).
	ElicitTimeout time.Duration
	// Clock is the time of forms and cards: their grace periods and
	// countdowns (time.Now when nil; clock.go).
	Clock func() time.Time
	// Grace is how long a form or card just shown ignores keys, so that
	// keys typed for what was there before do not answer it
	// (0: nativeform.DefaultGrace; negative: none).
	Grace time.Duration
	// ForgetAuth forgets the server's stored OAuth tokens, so that the
	// next connection logs in afresh (nil: the server is not a URL).
	ForgetAuth func() error
	// Servers lists the servers the person's MCP configs name, for the
	// server picker (S); nil: there is no picker.
	Servers func() ([]ServerEntry, error)
	// Wire is the wire log the connections write to, if they share one:
	// it still holds the server's stderr when a connection could not be
	// made.
	Wire *mcpclient.WireLog
	// Recorder starts and stops recording the session (ctrl+r); nil: it
	// cannot be recorded.
	Recorder Recorder
	// Dir is where the project's surface lock is looked for
	// (mcpeek/surface.lock.json, lock.go), and the suites + writes to
	// (mcpeek/, savetest.go); "" is the working directory.
	Dir string
	// StateDir is the folder mcpeek keeps its state in: the arguments
	// remembered per server (remember.go). "" is mcpeek's folder in the
	// user's state directory, $XDG_STATE_HOME/mcpeek, else
	// ~/.local/state/mcpeek.
	StateDir string
	// SuiteServer is the server as a suite names it (a command and its
	// arguments, a URL, @NAME), written in a suite + makes; nil is the
	// embedded fixture.
	SuiteServer []string
	// Approvals is where the Suite tab remembers the project tests the
	// person approved (suite.go); nil is the store of approved project
	// servers (mcpconfig.DefaultTrustPath).
	Approvals *mcpconfig.TrustStore
	// Watch, when set, makes the inspector a watcher of running proxies
	// (mcpeek watch, watch.go): Connect is not used.
	Watch *Watch
}

type connState int

const (
	stateConnecting connState = iota
	stateConnected
	stateDisconnected
	stateWatching // watching proxies (watch.go): no connection of its own
)

// Model is the inspector's root: it routes each message to the part it is
// for and applies what the layers and pages ask. Its state is in the
// parts it embeds (the screen, the connection, the server's state, the
// overlay stack), each with methods of its own; the rest is the
// program's, outliving any one server.
type Model struct {
	screen // the terminal's room, the shared look and the layout (model.go)
	opts   Options
	asker  *programAsker

	link // the connection (connection.go)

	spinner   spinner.Model
	tabs                     // the pages, and the one shown (tabs.go)
	toolsFrom page.ToolsFrom // what the Tools page is told by the model, for the pages of each server

	serverState // what belongs to the server connected, replaced whole on a switch (serverstate.go)

	queue   requests            // elicitations and sampling requests waiting for the person; the head is shown (queue.go)
	pending []mcpclient.Pending // requests in flight, for the app card
	records []mcpclient.Record
	wire    []mcpclient.WireEntry
	status  statusMsg // what the last copy or save did, until the next key

	logLevel string      // the level chosen with L, which a new connection is set to again
	roots    rootChanges // the roots the person changed (roots.go)

	droppedEvents int // notifications dropped because they came too fast

	apps    appsState     // the tool apps the calls opened (apps.go)
	servers []ServerEntry // what the server picker lists
	lock    lockCheck     // the server against the project's surface lock (lock.go)

	watch watching // the proxies watched, in watch mode (watch.go)

	stack    // the overlay stack (overlay.go)
	quitting bool
}

// New builds the inspector.
func New(opts Options) *Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	widget.Shown.Add(opts.Wire.Secrets())
	m := &Model{
		opts:  opts,
		asker: newProgramAsker(), spinner: sp,
	}
	m.toolsFrom = page.ToolsFrom{AppText: func(t *mcp.Tool) string { return m.apps.toolText(&m.c, m.opts.ToolApps != nil, t) }, Spinner: func() string { return m.spinner.View() }}
	m.pages = newPages(&m.c, m.toolsFrom, m.opts.Dir)
	m.c = widget.NewCommon(keys.NewMap(titles(m.pages)...))
	return m
}

type (
	callDoneMsg struct {
		conn *mcpclient.Conn // the connection the call was made on
		tool string
		args json.RawMessage // the arguments sent
		res  *mcp.CallToolResult
		err  error
		took time.Duration
		// cancelled: the person cancelled the call (esc) before it ended.
		cancelled bool
		asTask    bool // it was called as a task (t)
		// asked are the questions asked during the call, rounds its
		// input rounds: what + saves with it (savetest.go).
		asked  []suite.Question
		rounds int
	}
)

// Init connects and starts listening for elicitations.
func (m *Model) Init() tea.Cmd {
	start := m.dial(m.opts.Connect, m.asker)
	if m.opts.Watch != nil {
		start = m.watchStart()
	}
	return tea.Batch(start, m.asker.wait(), m.asker.queue.wait(m.asker.ended), m.asker.auth.wait(m.asker.ended), m.spinner.Tick, poll())
}

// Update changes the model's state for a message: keys go to the top of
// the overlay stack, the connection's events to the connection, the
// elicitations to their queue. Then the pages get what they show of the
// new state (syncPages), and the top layer reads afresh what it shows.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.syncPages()
	if r, ok := m.top().layer().(layer.Refresher); ok { // a layer that shows what the program holds reads it afresh
		r.Refresh()
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return m.key(msg)
	case tea.MouseMsg:
		m.wheel(msg)
		return nil
	case tea.WindowSizeMsg: // every page and layer lays itself out in the body's room
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.size(m.bodySize())
		return m.deliver(m.bodySize(), m.pick(nil))
	case connectedMsg, disconnectedMsg, listsMsg, pollMsg:
		return m.connection(msg)
	case askMsg:
		m.queue = append(m.queue, msg.ask)
		return tea.Batch(m.asker.wait(), m.showHead())
	case withdrawnMsg:
		m.queue.withdraw(msg.key)
		return tea.Batch(m.asker.wait(), m.showHead())
	case eventsMsg:
		return m.events(msg)
	case authMsgs:
		return m.auth(msg)
	case forgotMsg:
		if m.status = m.forgot(msg.err); msg.err != nil {
			return nil
		}
		return m.reconnect()
	case modelMsg: // calls, resource reads, subscriptions, completions
		return msg.update(m)
	case nativeform.DoneMsg, nativeform.SampleDoneMsg:
		return m.deliver(msg, m.pick(holdsForm))
	case layer.Msg: // to its layer, if it is still on the stack
		return m.deliver(msg, m.pick(func(l layer.Layer) bool { return l == msg.To() }))
	case layer.OpenMsg:
		return m.host(msg.Layer)
	case argsLoadedMsg:
		m.runs.loaded(msg)
		return nil
	case statusMsg:
		m.status = msg
		return nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return cmd
	}
	// Everything else (form ticks, cursor blinks) goes to a form.
	return m.deliver(msg, m.formHolder())
}

// screen is the terminal's room and the look shared with every part
// (c), and how the inspector lays it out: the header, the tab bar and the
// footer around the body.
type screen struct{ c widget.Common }

func (s *screen) bodyHeight() int { return max(s.c.Height-4, 6) }

// bodySize is the room a layer or a page is drawn in.
func (s *screen) bodySize() tea.WindowSizeMsg {
	return tea.WindowSizeMsg{Width: s.c.Width, Height: s.bodyHeight()}
}

package tui

import (
	"context"
	"encoding/json"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
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
	// Dir is where the project's surface lock is looked for
	// (mcpeek/surface.lock.json, lock.go); "" is the working directory.
	Dir string
}

type connState int

const (
	stateConnecting connState = iota
	stateConnected
	stateDisconnected
)

// Model is the inspector: one root model. The tabs are plain state in
// it; what lies over them is the overlay stack (overlay.go).
type Model struct {
	c     widget.Common
	opts  Options
	asker *programAsker

	state   connState
	err     error
	attempt time.Time // when the last connection was attempted
	stderr  []string  // while disconnected, the server's last stderr lines
	conn    *mcpclient.Conn
	spinner spinner.Model
	tab     tab

	pages []page.Page // the tabs, in the order of the tab bar (pages.go)
	runs  toolRuns    // per tool, its last arguments

	running    string // the tool being called
	runStart   time.Time
	cancelCall context.CancelFunc
	runTrack   *callTrack      // which progress notifications are the running call's
	runConn    *mcpclient.Conn // the connection the running call was made on

	queue   []*ask              // elicitations and sampling requests waiting for the person; the head is shown
	pending []mcpclient.Pending // requests in flight, for the app card
	records []mcpclient.Record
	wire    []mcpclient.WireEntry
	status  statusMsg // what the last copy or save did, until the next key

	logLevel string      // the level chosen with L, which a new connection is set to again
	roots    rootChanges // the roots the person changed (roots.go)

	progress      *mcpclient.ProgressEvent // the running call's latest progress
	droppedEvents int                      // notifications dropped because they came too fast
	tasks         taskList                 // the tasks followed, oldest first

	login      *layer.LoginCard // the login (OAuth) waiting for the person, if any
	forgetting bool             // a forgets the stored tokens before reconnecting

	apps    appsState     // the tool apps the calls opened (apps.go)
	servers []ServerEntry // what the server picker lists
	lock    lockCheck     // the server against the project's surface lock (lock.go)

	layers   []modelLayer // the overlay stack, bottom first
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
	m.pages = m.newPages()
	titles := make([]string, len(m.pages))
	for i, p := range m.pages {
		titles[i] = p.Title()
	}
	m.c = widget.NewCommon(keys.NewMap(titles...))
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
	}
)

// Init connects and starts listening for elicitations.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.connect(), m.asker.wait(), m.asker.queue.wait(m.asker.ended), m.asker.auth.wait(m.asker.ended), m.spinner.Tick, poll())
}

// paneLayer is a layer with a scrollable pane of its own, which Update
// gives its text and size as syncPages does the tabs'.
type paneLayer interface{ sync(m *Model, h int) }

// Update changes the model's state for a message: keys go to the top of
// the overlay stack, the connection's events to the connection, the
// elicitations to their queue. Then the current tab's pane takes the text
// and size the new state gives it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.syncPages()
	if l, ok := m.top().layer().(paneLayer); ok { // a layer's own pane, likewise
		l.sync(m, m.bodyHeight())
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
	case tea.WindowSizeMsg:
		return m.resize(msg)
	case connectedMsg, disconnectedMsg, listsMsg, pollMsg:
		return m.connection(msg)
	case askMsg:
		return tea.Batch(m.asker.wait(), m.enqueue(msg.ask))
	case withdrawnMsg:
		return tea.Batch(m.asker.wait(), m.withdraw(msg.key))
	case eventsMsg:
		return m.events(msg)
	case authMsgs:
		return m.auth(msg)
	case forgotMsg:
		return m.forgot(msg)
	case modelMsg: // calls, resource reads, subscriptions, completions
		return msg.update(m)
	case nativeform.DoneMsg, nativeform.SampleDoneMsg:
		return m.broadcast(msg, holdsForm)
	case layer.Msg:
		return m.toLayer(msg)
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
	return m.formMsg(msg)
}

func (m *Model) bodyHeight() int { return max(m.c.Height-4, 6) }

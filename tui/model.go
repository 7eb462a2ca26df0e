package tui

import (
	"context"
	"encoding/json"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
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
	c     common
	opts  Options
	asker *programAsker

	state   connState
	err     error
	attempt time.Time // when the last connection was attempted
	stderr  []string  // while disconnected, the server's last stderr lines
	conn    *mcpclient.Conn
	spinner spinner.Model
	tab     tab

	tools     []*mcp.Tool
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
	prompts   []*mcp.Prompt
	listErr   [tabCount]error // why a tab's list is missing or short
	pick      [tabCount]picker
	expanded  [tabCount]int        // per tab, the entry shown whole, or -1
	panes     [tabCount]pane       // per tab, the scrollable detail
	focus     [tabCount]bool       // per tab, whether ↑/↓ scroll the pane beside the list
	runs      toolRuns             // per tool, its results and last arguments
	reads     map[string]string    // per resource or template, what enter read
	blobs     map[string]*blobRead // per resource or template, the bytes it read, if binary

	promptsGot map[string]string            // per prompt, what getting it last gave
	promptArgs map[string]map[string]string // per prompt, the arguments last given (this session)

	refused    *refusedCall // the last call refused until a page is opened (urlrequired.go)
	running    string       // the tool being called
	runStart   time.Time
	cancelCall context.CancelFunc
	runTrack   *callTrack      // which progress notifications are the running call's
	runConn    *mcpclient.Conn // the connection the running call was made on

	queue   []*ask              // elicitations and sampling requests waiting for the person; the head is shown
	pending []mcpclient.Pending // requests in flight, for the app card
	records []mcpclient.Record
	wire    []mcpclient.WireEntry
	log     logState  // the Log tab's lines, and whether it follows new ones
	status  statusMsg // what the last copy or save did, until the next key

	requestText requestCache  // the record shown whole on the Requests tab
	rootsDone   chan struct{} // closed once the last change of the roots is made

	serverLog     []mcpclient.LogEvent     // the server's log messages, oldest first, bounded
	progress      *mcpclient.ProgressEvent // the running call's latest progress
	updated       map[string]time.Time     // resources the server said changed, and when
	droppedEvents int                      // notifications dropped because they came too fast
	tasks         []*taskRow               // the tasks followed, oldest first
	subs          subscriptions            // resources subscribed to, and their updates

	login      *login          // the login (OAuth) waiting for the person, if any
	forgetting bool            // a forgets the stored tokens before reconnecting
	rootEdits  map[string]bool // the roots the person added (true) or removed, kept across reconnects

	apps appsState // the tool apps the calls opened (apps.go)

	layers   []layer // the overlay stack, bottom first
	quitting bool
}

// New builds the inspector.
func New(opts Options) *Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	shown.add(opts.Wire.Secrets())
	return &Model{
		c:     newCommon(),
		opts:  opts,
		asker: newProgramAsker(), spinner: sp, expanded: [tabCount]int{-1, -1, -1, -1, -1, -1},
	}
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
// gives its text and size as syncPane does the tabs'.
type paneLayer interface{ sync(m *Model, h int) }

// Update changes the model's state for a message: keys go to the top of
// the overlay stack, the connection's events to the connection, the
// elicitations to their queue. Then the current tab's pane takes the text
// and size the new state gives it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.syncLog()
	m.syncPane()
	if l, ok := m.top().layer().(paneLayer); ok { // a layer's own pane, likewise
		l.sync(m, m.bodyHeight())
	}
	if c := m.syncCompletion(); c != nil {
		cmd = tea.Batch(cmd, c)
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
	case modelMsg: // subscriptions, completions
		return msg.update(m)
	case nativeform.DoneMsg, nativeform.SampleDoneMsg:
		return m.settleForms()
	case callDoneMsg:
		if msg.conn != m.runConn { // a call of a server left since (S)
			return nil
		}
		m.callDone(msg)
		return tea.Batch(m.appCallDone(msg), m.urlRequired(msg))
	case argsLoadedMsg:
		m.runs.loaded(msg)
		return nil
	case resourceReadMsg:
		m.readDone(msg)
		return nil
	case statusMsg:
		m.status = msg
		return nil
	case rootsMsg:
		m.rootsChanged(msg)
		return nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return cmd
	}
	// Everything else (form ticks, cursor blinks) goes to a form.
	if f := m.tickingForm(); f != nil {
		_, cmd := f.Update(msg)
		return cmd
	}
	return nil
}

func (m *Model) bodyHeight() int  { return max(m.c.height-4, 6) }
func (m *Model) detailWidth() int { return max(m.c.width-m.listWidth()-3, 20) }
func (m *Model) listWidth() int   { return min(max(m.c.width/3, 20), 40) }

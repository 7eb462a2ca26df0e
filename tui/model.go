package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
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
	// AppHost is the app host's address, or "" when it is off.
	AppHost string
	// AppURL returns the tab URL of a request answered in its app.
	AppURL func(key string) (string, bool)
	// OpenURL opens a URL in the browser, for URL-mode elicitations.
	OpenURL func(url string) error
	// ElicitTimeout cancels a native form nobody answers (0: never).
	ElicitTimeout time.Duration
}

type connState int

const (
	stateConnecting connState = iota
	stateConnected
	stateDisconnected
)

// Model is the inspector: one root model; the tabs are plain state in it.
type Model struct {
	c     common
	opts  Options
	asker *programAsker

	state   connState
	err     error
	conn    *mcpclient.Conn
	spinner spinner.Model
	tab     tab

	tools     []*mcp.Tool
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
	prompts   []*mcp.Prompt
	pick      [tabCount]picker
	detail    [tabCount]string // what Enter produced on each tab (a result, a resource, a prompt)

	running    string // the tool being called
	runStart   time.Time
	cancelCall context.CancelFunc
	argsForm   *nativeform.Form
	argsDone   func(args map[string]any) tea.Cmd // what the arguments form leads to
	jsonEdit   *textarea.Model                   // arguments as JSON, for schemas a form cannot show
	jsonTool   *mcp.Tool
	jsonErr    string

	queue    []*ask // elicitations waiting for the person; the head is shown
	form     *nativeform.Form
	formKey  string
	pending  []mcpclient.Pending // requests in flight, for the app-path card
	records  []mcpclient.Record
	wire     []mcpclient.WireEntry
	expanded [tabCount]int // per tab, the entry shown whole, or -1
	urlKey   string        // the URL request on the consent card, and since when
	urlShown time.Time

	showHelp    bool
	confirmQuit bool
	quitting    bool
}

// New builds the inspector.
func New(opts Options) *Model {
	sp := spinner.New()
	sp.Spinner = spinner.Dot
	return &Model{
		c:     common{width: 80, height: 24, styles: newStyles(), keys: newKeyMap()},
		opts:  opts,
		asker: newProgramAsker(), spinner: sp, expanded: [tabCount]int{-1, -1, -1, -1, -1, -1},
	}
}

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
		err       error
	}
	callDoneMsg struct {
		tool string
		res  *mcp.CallToolResult
		err  error
		took time.Duration
	}
	detailMsg struct {
		tab  tab
		text string
	}
	pollMsg struct{}
)

// Init connects and starts listening for elicitations.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.connect(), m.asker.wait(), m.spinner.Tick, poll())
}

// Update routes messages: elicitations first, then overlays, then tabs.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		var cmds []tea.Cmd
		for _, f := range []*nativeform.Form{m.form, m.argsForm} {
			if f != nil {
				_, cmd := f.Update(tea.WindowSizeMsg{Width: msg.Width, Height: m.bodyHeight()})
				cmds = append(cmds, cmd)
			}
		}
		return m, tea.Batch(cmds...)
	case connectedMsg:
		if msg.err != nil {
			m.state, m.err = stateDisconnected, msg.err
			return m, nil
		}
		m.conn, m.state = msg.conn, stateConnected
		return m, tea.Batch(load(m.conn), watch(m.conn))
	case disconnectedMsg:
		if m.state == stateConnected && msg.conn == m.conn { // not an old connection's end
			m.state = stateDisconnected
			m.err = msg.err
			if m.err == nil {
				m.err = fmt.Errorf("the server closed the connection")
			}
		}
		return m, nil
	case listsMsg:
		m.tools, m.resources, m.templates, m.prompts = msg.tools, msg.resources, msg.templates, msg.prompts
		return m, nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case pollMsg:
		if m.conn != nil {
			m.pending = m.conn.Pending()
			m.records = m.conn.Records()
			m.wire = m.conn.Wire().Entries()
		}
		if m.urlHead() && m.opts.ElicitTimeout > 0 && time.Since(m.urlShown) > m.opts.ElicitTimeout {
			return m, tea.Batch(poll(), m.replyURL("cancel")) // nobody consented in time
		}
		return m, poll()
	case askMsg:
		m.queue = append(m.queue, msg.ask)
		return m, tea.Batch(m.asker.wait(), m.showHead())
	case withdrawnMsg:
		for i, x := range m.queue {
			if x.req.Key == msg.key {
				m.queue = append(m.queue[:i], m.queue[i+1:]...)
				break
			}
		}
		if m.formKey == msg.key {
			m.form, m.formKey = nil, ""
		}
		return m, tea.Batch(m.asker.wait(), m.showHead())
	case nativeform.DoneMsg:
		return m, m.formDone(msg.Result)
	case callDoneMsg:
		m.running, m.cancelCall = "", nil
		m.detail[tabTools] = renderResult(&m.c, msg.res, msg.err, msg.took, m.detailWidth())
		return m, nil
	case detailMsg:
		m.detail[msg.tab] = msg.text
		return m, nil
	case tea.KeyMsg:
		return m, m.key(msg)
	}
	// Everything else (form ticks, cursor blinks) goes to the open form.
	if f := m.topForm(); f != nil {
		_, cmd := f.Update(msg)
		return m, cmd
	}
	return m, nil
}

// topForm is the form that has the keys: an elicitation over everything.
func (m *Model) topForm() *nativeform.Form {
	if m.form != nil {
		return m.form
	}
	return m.argsForm
}

func (m *Model) bodyHeight() int  { return max(m.c.height-4, 6) }
func (m *Model) detailWidth() int { return max(m.c.width-m.listWidth()-3, 20) }
func (m *Model) listWidth() int   { return min(max(m.c.width/3, 20), 40) }

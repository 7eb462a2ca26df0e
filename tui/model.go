package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
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
	tab     int

	tools     []*mcp.Tool
	resources []*mcp.Resource
	templates []*mcp.ResourceTemplate
	prompts   []*mcp.Prompt
	pick      [6]picker
	detail    [6]string // what Enter produced on each tab (a result, a resource, a prompt)

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
	expanded [6]int // per tab, the entry shown whole, or -1
	urlKey   string // the URL request on the consent card, and since when
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
		asker: newProgramAsker(), spinner: sp, expanded: [6]int{-1, -1, -1, -1, -1, -1},
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
		tab  int
		text string
	}
	pollMsg struct{}
)

// Init connects and starts listening for elicitations.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.connect(), m.asker.wait(), m.spinner.Tick, poll())
}

func (m *Model) connect() tea.Cmd {
	m.state, m.err = stateConnecting, nil
	connect := m.opts.Connect
	asker := m.asker
	return func() tea.Msg {
		conn, err := connect(context.Background(), asker)
		return connectedMsg{conn, err}
	}
}

func poll() tea.Cmd {
	return tea.Tick(500*time.Millisecond, func(time.Time) tea.Msg { return pollMsg{} })
}

func load(conn *mcpclient.Conn) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		var out listsMsg
		caps := conn.ServerCapabilities()
		if caps.Tools != nil {
			for t, err := range conn.Session().Tools(ctx, nil) {
				if err != nil {
					out.err = err
					break
				}
				out.tools = append(out.tools, t)
			}
		}
		if caps.Resources != nil {
			for r, err := range conn.Session().Resources(ctx, nil) {
				if err != nil {
					break
				}
				out.resources = append(out.resources, r)
			}
			for r, err := range conn.Session().ResourceTemplates(ctx, nil) {
				if err != nil {
					break
				}
				out.templates = append(out.templates, r)
			}
		}
		if caps.Prompts != nil {
			for p, err := range conn.Session().Prompts(ctx, nil) {
				if err != nil {
					break
				}
				out.prompts = append(out.prompts, p)
			}
		}
		return out
	}
}

func watch(conn *mcpclient.Conn) tea.Cmd {
	return func() tea.Msg { return disconnectedMsg{conn, conn.Session().Wait()} }
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
		m.detail[0] = renderResult(&m.c, msg.res, msg.err, msg.took, m.detailWidth())
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

// showHead opens the form for the first queued elicitation, if none is open.
func (m *Model) showHead() tea.Cmd {
	if m.form != nil || len(m.queue) == 0 {
		return nil
	}
	x := m.queue[0]
	if x.req.Params.Mode == "url" {
		if m.urlKey != x.req.Key { // shown as the URL consent card, from now
			m.urlKey, m.urlShown = x.req.Key, time.Now()
		}
		return nil
	}
	fr := FormRequest(x.req)
	m.form = nativeform.New(fr, nativeform.Options{Timeout: m.opts.ElicitTimeout})
	m.formKey = x.req.Key
	_, size := m.form.Update(tea.WindowSizeMsg{Width: m.c.width, Height: m.bodyHeight()})
	return tea.Batch(m.form.Init(), size)
}

// formDone settles whichever form finished.
func (m *Model) formDone(r nativeform.Result) tea.Cmd {
	if m.form != nil {
		if _, ok := m.form.Result(); ok {
			if r.Interrupted { // ctrl+c: cancel everything and quit
				return m.quit()
			}
			x := m.queue[0]
			m.queue = m.queue[1:]
			m.form, m.formKey = nil, ""
			out := &mcp.ElicitResult{Action: string(r.Action)}
			if r.Action == nativeform.Accept {
				out.Content = r.Content
			}
			return tea.Batch(answer(x, out), m.showHead())
		}
	}
	if m.argsForm != nil {
		done := m.argsDone
		m.argsForm, m.argsDone = nil, nil
		if r.Action == nativeform.Accept {
			return done(r.Content)
		}
	}
	return nil
}

func (m *Model) call(tool *mcp.Tool, args json.RawMessage) tea.Cmd {
	if m.conn == nil || m.running != "" {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.running, m.runStart, m.cancelCall = tool.Name, time.Now(), cancel
	m.detail[0] = ""
	conn, name, start := m.conn, tool.Name, m.runStart
	return func() tea.Msg {
		defer cancel()
		res, err := conn.Call(ctx, name, args)
		return callDoneMsg{tool: name, res: res, err: err, took: time.Since(start)}
	}
}

// quit answers every pending elicitation with cancel, lets those answers
// reach the server, then closes the connection and ends the program.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	asks := m.queue
	m.queue, m.form, m.formKey = nil, nil, ""
	conn, cancelCall := m.conn, m.cancelCall
	return tea.Sequence(func() tea.Msg {
		for _, x := range asks {
			select {
			case x.reply <- &mcp.ElicitResult{Action: "cancel"}:
			default: // already answered
			}
		}
		if conn != nil {
			conn.DismissPending() // app sessions too: each answered cancel
			deadline := time.Now().Add(2 * time.Second)
			for len(conn.Pending()) > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		}
		if cancelCall != nil { // only now: cancelling first would cancel the elicitation too
			cancelCall()
		}
		if conn != nil {
			_ = conn.Close()
		}
		return nil
	}, tea.Quit)
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	// Fast typing, a paste or a slow link can deliver several characters
	// as one key event: outside forms, take them one by one.
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && m.topForm() == nil && m.jsonEdit == nil && !msg.Paste {
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return tea.Batch(cmds...)
	}
	if m.confirmQuit {
		m.confirmQuit = false
		if msg.String() == "y" || msg.String() == "q" {
			return m.quit()
		}
		return nil
	}
	if m.form == nil && m.jsonEdit != nil {
		return m.jsonKey(msg)
	}
	if f := m.topForm(); f != nil {
		if m.form != nil && key.Matches(msg, m.c.keys.nextPending) && len(m.queue) > 1 {
			// Put the head back at the end: the next one opens.
			m.queue = append(m.queue[1:], m.queue[0])
			m.form, m.formKey = nil, ""
			return m.showHead()
		}
		_, cmd := f.Update(msg)
		return cmd
	}
	if m.urlHead() && !key.Matches(msg, m.c.keys.quit) {
		return m.urlConsentKey(msg)
	}
	if m.showHelp {
		m.showHelp = false
		return nil
	}
	k := m.c.keys
	if m.pick[m.tab].filtering {
		m.pick[m.tab].update(msg, &m.c, m.listLen())
		return nil
	}
	switch {
	case key.Matches(msg, k.quit):
		if len(m.queue) > 0 || len(m.pending) > 0 {
			m.confirmQuit = true
			return nil
		}
		return m.quit()
	case key.Matches(msg, k.help):
		m.showHelp = true
	case key.Matches(msg, k.next):
		m.tab = (m.tab + 1) % len(tabNames)
	case key.Matches(msg, k.prev):
		m.tab = (m.tab + len(tabNames) - 1) % len(tabNames)
	case key.Matches(msg, k.reconnect) && m.state != stateConnecting:
		// Disconnect (pending elicitations end with the connection) and
		// connect anew, without restarting.
		if old := m.conn; old != nil {
			m.conn = nil
			m.tools, m.resources, m.templates, m.prompts = nil, nil, nil, nil
			return tea.Sequence(func() tea.Msg { _ = old.Close(); return nil }, m.connect())
		}
		return m.connect()
	case key.Matches(msg, k.abandon) && len(m.pending) > 0 && m.conn != nil:
		for _, p := range m.pending {
			if p.Path == mcpclient.PathApp {
				m.conn.AbandonApp(p.Key)
				break
			}
		}
	case key.Matches(msg, k.back) && m.running != "" && m.cancelCall != nil:
		m.cancelCall()
	case key.Matches(msg, k.enter):
		return m.enter()
	default:
		for i, b := range k.tabs {
			if key.Matches(msg, b) {
				m.tab = i
				return nil
			}
		}
		if (m.tab == 3 || m.tab == 4) && msg.String() == "x" {
			m.expanded[m.tab] = -1
			return nil
		}
		m.pick[m.tab].update(msg, &m.c, m.listLen())
	}
	return nil
}

// urlHead reports whether the URL consent card is showing.
func (m *Model) urlHead() bool {
	return m.form == nil && len(m.queue) > 0 && m.queue[0].req.Params.Mode == "url"
}

// urlConsentKey answers the URL consent card; keys typed just as it
// appeared are ignored, as in forms.
func (m *Model) urlConsentKey(msg tea.KeyMsg) tea.Cmd {
	if time.Since(m.urlShown) < 400*time.Millisecond {
		return nil
	}
	switch msg.String() {
	case "o":
		open, url := m.opts.OpenURL, m.queue[0].req.Params.URL
		return tea.Batch(m.replyURL("accept"), func() tea.Msg {
			if open != nil {
				_ = open(url)
			}
			return nil
		})
	case "d":
		return m.replyURL("decline")
	case "esc", "c":
		return m.replyURL("cancel")
	}
	return nil
}

func (m *Model) replyURL(action string) tea.Cmd {
	x := m.queue[0]
	m.queue, m.urlKey = m.queue[1:], ""
	return tea.Batch(answer(x, &mcp.ElicitResult{Action: action}), m.showHead())
}

func (m *Model) listLen() int {
	switch m.tab {
	case 0:
		return len(m.visibleTools())
	case 1:
		return len(m.resources) + len(m.templates)
	case 2:
		return len(m.prompts)
	case 3:
		return len(m.records)
	case 4:
		return len(m.wire)
	}
	return 0
}

func (m *Model) visibleTools() []*mcp.Tool {
	var out []*mcp.Tool
	for _, t := range m.tools {
		if m.pick[0].matches(t.Name) {
			out = append(out, t)
		}
	}
	return out
}

// enter acts on the selected item of the current tab.
func (m *Model) enter() tea.Cmd {
	p := m.pick[m.tab]
	switch m.tab {
	case 0:
		tools := m.visibleTools()
		if p.cursor >= len(tools) {
			return nil
		}
		return m.openTool(tools[p.cursor])
	case 1:
		if p.cursor < len(m.resources) && m.conn != nil {
			conn, uri := m.conn, m.resources[p.cursor].URI
			width := m.detailWidth()
			return func() tea.Msg { return detailMsg{1, readResource(conn, uri, width)} }
		}
	case 2:
		if p.cursor < len(m.prompts) && m.conn != nil {
			return m.openPrompt(m.prompts[p.cursor])
		}
	case 3, 4:
		m.expanded[m.tab] = p.cursor
	}
	return nil
}

// openPrompt gets a prompt, first asking for its arguments.
func (m *Model) openPrompt(pr *mcp.Prompt) tea.Cmd {
	conn, name := m.conn, pr.Name
	get := func(args map[string]any) tea.Cmd {
		strs := map[string]string{}
		for k, v := range args {
			strs[k] = fmt.Sprint(v)
		}
		return func() tea.Msg { return detailMsg{2, getPrompt(conn, name, strs)} }
	}
	if len(pr.Arguments) == 0 {
		return get(nil)
	}
	props := map[string]any{}
	required := []string{} // never null: a schema whose required is null does not parse
	order := make([]string, 0, len(pr.Arguments))
	for _, a := range pr.Arguments {
		props[a.Name] = map[string]any{"type": "string", "description": a.Description}
		if a.Required {
			required = append(required, a.Name)
		}
		order = append(order, a.Name)
	}
	schema, err := formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": required}, order)
	if err != nil {
		return get(nil)
	}
	return m.openArgs("Arguments for the prompt "+name, schema, get)
}

// openArgs shows a form for arguments; done gets what was submitted.
func (m *Model) openArgs(title string, schema *formschema.Schema, done func(map[string]any) tea.Cmd) tea.Cmd {
	m.argsDone = done
	m.argsForm = nativeform.New(nativeform.Request{Server: "mcpeek", Connection: "your input", Message: title, Schema: schema}, nativeform.Options{})
	_, size := m.argsForm.Update(tea.WindowSizeMsg{Width: m.c.width, Height: m.bodyHeight()})
	return tea.Batch(m.argsForm.Init(), size)
}

// jsonKey edits arguments as JSON: ctrl+s calls when they are a JSON
// object, esc gives up.
func (m *Model) jsonKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.jsonEdit, m.jsonTool, m.jsonErr = nil, nil, ""
		return nil
	case "ctrl+s":
		var obj map[string]any
		text := m.jsonEdit.Value()
		if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
			m.jsonErr = "the arguments must be a JSON object"
			if err != nil {
				m.jsonErr += ": " + err.Error()
			}
			return nil
		}
		tool := m.jsonTool
		m.jsonEdit, m.jsonTool, m.jsonErr = nil, nil, ""
		return m.call(tool, json.RawMessage(text))
	}
	ed, cmd := m.jsonEdit.Update(msg)
	m.jsonEdit = &ed
	return cmd
}

// openTool calls a tool, first asking for its arguments with a form when
// its input schema has fields.
func (m *Model) openTool(t *mcp.Tool) tea.Cmd {
	schema, err := formschema.Parse(t.InputSchema)
	switch {
	case err == nil && len(schema.Fields) == 0:
		return m.call(t, json.RawMessage(`{}`))
	case err == nil:
		return m.openArgs("Arguments for "+t.Name, schema, func(args map[string]any) tea.Cmd {
			b, _ := json.Marshal(args)
			return m.call(t, b)
		})
	}
	// A schema a form cannot show (nested objects, arrays of objects…):
	// edit the arguments as JSON.
	ed := textarea.New()
	ed.SetWidth(max(m.c.width-4, 20))
	ed.SetHeight(max(m.bodyHeight()-6, 4))
	ed.SetValue("{\n  \n}")
	ed.CursorUp() // inside the braces
	ed.CursorEnd()
	ed.Focus()
	m.jsonEdit, m.jsonTool, m.jsonErr = &ed, t, ""
	return textarea.Blink
}

func readResource(conn *mcpclient.Conn, uri string, width int) string {
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "error: " + clean(err.Error())
	}
	var b strings.Builder
	for _, c := range res.Contents {
		fmt.Fprintf(&b, "%s (%s)\n", clean(c.URI), clean(c.MIMEType))
		switch {
		case c.Text != "":
			b.WriteString(clean(c.Text) + "\n")
		case len(c.Blob) > 0:
			fmt.Fprintf(&b, "[binary, %d bytes]\n", len(c.Blob))
		}
	}
	return b.String()
}

func getPrompt(conn *mcpclient.Conn, name string, args map[string]string) string {
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "error: " + clean(err.Error())
	}
	var b strings.Builder
	for _, msg := range res.Messages {
		if t, ok := msg.Content.(*mcp.TextContent); ok {
			fmt.Fprintf(&b, "%s: %s\n", clean(string(msg.Role)), clean(t.Text))
		} else {
			fmt.Fprintf(&b, "%s: [%T]\n", msg.Role, msg.Content)
		}
	}
	return b.String()
}

func (m *Model) bodyHeight() int  { return max(m.c.height-4, 6) }
func (m *Model) detailWidth() int { return max(m.c.width-m.listWidth()-3, 20) }
func (m *Model) listWidth() int   { return min(max(m.c.width/3, 20), 40) }

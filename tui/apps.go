package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool apps in the inspector (docs/app-host.md, "Tool apps"). With an app
// host, calling a tool whose listing names a ui:// app opens the app in a
// tab of its own as the call starts; when the call ends the app gets its
// result, or that it was cancelled. The Apps panel (appspanel.go) lists the
// sessions this run opened; a link an app asks to open waits for the
// person's consent on a card (applink.go). The host runs each session on
// its own goroutines: what it reports (a message of the app's, a link, the
// session's end) reaches the program as messages, through appQueue.

// appState is where a tool app's session is.
type appState int

const (
	appOpening appState = iota
	appOpen
	appEnded
)

// toolApp is one tool app session, as the inspector knows it. Only Update
// reads and writes it; the host's goroutines name it in their messages.
type toolApp struct {
	tool   *mcp.Tool
	args   json.RawMessage
	opened time.Time
	state  appState
	why    string // why it ended, or was never opened

	sess    mcpclient.ToolAppSession // once open
	url     string                   // the tab's address, with its token
	key     string                   // the session's key in the URL ("t-1")
	closing bool                     // closed from the Apps panel

	// The call's outcome once it ended: its result, or why it has none.
	callDone  bool
	result    *mcp.CallToolResult
	cancelled string
	sent      int // how many times the outcome went to the app

	messages []appMessage // what the app sent, oldest first, bounded
	dropped  int          // older messages no longer kept
	theme    string       // the theme the app was last told of ("": Options.Theme)
}

// appMessage is a message of the app's, readable: ui/message,
// ui/update-model-context, or a link it asked to open and what became
// of it.
type appMessage struct {
	at   time.Time
	kind string
	head string // beside the kind: the role, the link's fate
	text string // as the app sent it, not yet cleaned
}

// Bounds on what an app's messages cost.
const (
	maxAppMessages      = 200  // kept per session, the newest
	maxAppMessageText   = 4000 // bytes of one message kept
	maxQueuedAppReports = 256  // messages waiting for the program
)

// appsState is the inspector's tool apps.
type appsState struct {
	list    []*toolApp // every session this run opened, oldest first
	calling *toolApp   // the app of the call running, if it has one
	links   []*linkAsk // links waiting for consent, oldest first
	queue   *appQueue  // made when the first app opens
}

// opened counts the sessions open.
func (s *appsState) opened() int {
	n := 0
	for _, a := range s.list {
		if a.state != appEnded {
			n++
		}
	}
	return n
}

// toolText is what the Tools pane says of a tool's app and visibility:
// who may call it, its app, what calling it does here, and the app of its
// last call; hosting: mcpeek runs with an app host.
func (a *appsState) toolText(c *widget.Common, hosting bool, t *mcp.Tool) string {
	s := c.Styles
	var b strings.Builder
	switch model, app := mcpclient.ModelVisible(t), mcpclient.AppVisible(t); {
	case app && !model:
		b.WriteString(s.Warn.Render("app only") + s.Dim.Render(": the server offers it to its apps, never to a model (_meta.ui.visibility). The inspector calls it anyway, to try it.") + "\n")
	case !app && !model:
		b.WriteString(s.Warn.Render("hidden") + s.Dim.Render(": visible neither to a model nor to apps (_meta.ui.visibility). The inspector calls it anyway, to try it.") + "\n")
	}
	uri := mcpclient.ToolAppURI(t)
	if uri == "" {
		return b.String()
	}
	b.WriteString(s.Accent.Render("app ") + widget.Clean(uri) + "\n")
	if !hosting {
		b.WriteString(s.Dim.Render("This tool has an MCP App: mcpeek opens it in the browser when a call starts if it runs with --app-host.") + "\n")
		return b.String()
	}
	k := c.Keys.Tabs.Apps.Help().Key
	b.WriteString(s.Dim.Render("Calling it opens its app in the browser, which gets the call's input and result; "+k+" lists the apps opened.") + "\n")
	for i := len(a.list) - 1; i >= 0; i-- {
		if app := a.list[i]; app.tool.Name == t.Name {
			b.WriteString(s.Dim.Render("its last call's app: ") + appStateText(c, app) + "\n")
			break
		}
	}
	return b.String()
}

// withToolApp is the command of a call, preceded by the opening of the
// tool's app when there is an app host and the tool names an app. The app
// opens first, so that its session is known when the call ends.
func (m *Model) withToolApp(tool *mcp.Tool, args json.RawMessage, call tea.Cmd) tea.Cmd {
	m.apps.calling = nil
	if m.opts.ToolApps == nil || m.conn == nil || mcpclient.ToolAppURI(tool) == "" {
		return call
	}
	a := &toolApp{tool: tool, args: args, opened: time.Now()}
	m.apps.list = append(m.apps.list, a)
	m.apps.calling = a
	var wait tea.Cmd
	if m.apps.queue == nil {
		m.apps.queue = &appQueue{ready: newWakeup(), dropped: map[*toolApp]int{}}
		wait = m.apps.queue.wait(m.asker.ended)
	}
	conn, host, q, browse, ended := m.conn, m.opts.ToolApps, m.apps.queue, m.opts.OpenURL, m.asker.ended
	open := func() tea.Msg {
		// The session lives as long as the connection it reaches.
		sess, err := conn.OpenToolApp(conn.Context(), host, tool, args, mcpclient.ToolAppOptions{
			OpenLink: func(ctx context.Context, link string) error { return q.askLink(ctx, a, link, browse, ended) },
			Message: func(msg mcpclient.AppMessage) {
				q.put(appMessageMsg{a, readableAppMessage(msg, time.Now())})
			},
			AppToolsChanged: func() { q.put(appToolsChangedMsg{a}) },
		})
		return appOpenedMsg{a, sess, err}
	}
	return tea.Batch(wait, tea.Sequence(open, call))
}

// The tool app's events.
type (
	// appOpenedMsg: the host opened the app's session, or could not.
	appOpenedMsg struct {
		a    *toolApp
		sess mcpclient.ToolAppSession
		err  error
	}
	// appEndedMsg: the session ended (Done), err saying why.
	appEndedMsg struct {
		a   *toolApp
		err error
	}
	// appMessageMsg: the app sent a message to the conversation.
	appMessageMsg struct {
		a   *toolApp
		msg appMessage
	}
	// appReportsMsg delivers what the host's goroutines reported since the
	// last delivery, in order, and how many messages of each app were
	// dropped because they came too fast.
	appReportsMsg struct {
		msgs    []modelMsg
		dropped map[*toolApp]int
	}
	// appResentMsg: the outcome went to the app again.
	appResentMsg struct{ a *toolApp }
)

func (msg appOpenedMsg) update(m *Model) tea.Cmd {
	a := msg.a
	switch {
	case msg.err != nil:
		a.state, a.why = appEnded, "not opened: "+msg.err.Error()
		m.status = statusMsg{"the app of " + a.tool.Name + " was not opened: " + msg.err.Error(), true}
		return nil
	case msg.sess == nil: // the tool names no app after all
		a.state, a.why = appEnded, "not opened: the tool names no app"
		return nil
	}
	a.state, a.sess, a.url, a.key = appOpen, msg.sess, msg.sess.URL(), appKey(msg.sess.URL())
	m.status = statusMsg{fmt.Sprintf("opened the app of %s in the browser · %s lists the apps", a.tool.Name, m.c.Keys.Tabs.Apps.Help().Key), false}
	return tea.Batch(watchApp(a, msg.sess, m.asker.ended), a.sendOutcome())
}

func (msg appEndedMsg) update(m *Model) tea.Cmd {
	a := msg.a
	a.state = appEnded
	switch {
	case a.closing:
		a.why = "closed here"
	case msg.err == nil:
		a.why = "the tab closed"
	case errors.Is(msg.err, mcpclient.ErrAppClosed):
		a.why = "the app asked to close"
	case errors.Is(msg.err, context.Canceled):
		a.why = "its connection ended"
	default:
		a.why = msg.err.Error()
	}
	return nil
}

func (msg appMessageMsg) update(m *Model) tea.Cmd {
	msg.a.note(msg.msg)
	return nil
}

func (msg appReportsMsg) update(m *Model) tea.Cmd {
	var cmds []tea.Cmd
	for a, n := range msg.dropped {
		a.note(appMessage{at: time.Now(), kind: "dropped", text: fmt.Sprintf("%d messages that came too fast", n)})
	}
	for _, r := range msg.msgs {
		cmds = append(cmds, r.update(m))
	}
	return tea.Batch(append(cmds, m.apps.queue.wait(m.asker.ended))...)
}

func (msg appResentMsg) update(m *Model) tea.Cmd {
	m.status = statusMsg{"sent the call's outcome to the app of " + msg.a.tool.Name + " again", false}
	return nil
}

// note keeps a message of the app's, the newest maxAppMessages.
func (a *toolApp) note(msg appMessage) {
	a.messages = append(a.messages, msg)
	if n := len(a.messages) - maxAppMessages; n > 0 {
		a.messages = append(a.messages[:0:0], a.messages[n:]...)
		a.dropped += n
	}
}

// callDone keeps the outcome of a call with an app, and hands it to the
// app once its session is open.
func (s *appsState) callDone(msg callDoneMsg) tea.Cmd {
	a := s.calling
	s.calling = nil
	if a == nil || a.tool.Name != msg.tool {
		return nil
	}
	a.callDone = true
	switch {
	case msg.cancelled:
		a.cancelled = "the person cancelled the call"
	case msg.err != nil:
		a.cancelled = msg.err.Error()
	default:
		a.result = msg.res
	}
	return a.sendOutcome()
}

// sendOutcome hands the app the call's result, or that it was cancelled,
// when both the session and the outcome are there.
func (a *toolApp) sendOutcome() tea.Cmd {
	if a.sess == nil || !a.callDone || a.state == appEnded {
		return nil
	}
	a.sent++
	sess, res, reason, again := a.sess, a.result, a.cancelled, a.sent > 1
	return func() tea.Msg {
		if res != nil {
			sess.Result(res)
		} else {
			sess.Cancelled(reason)
		}
		if again {
			return appResentMsg{a}
		}
		return nil
	}
}

// watchApp reports when a session ends.
func watchApp(a *toolApp, sess mcpclient.ToolAppSession, ended <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-sess.Done():
			return appEndedMsg{a, sess.Err()}
		case <-ended:
			return nil
		}
	}
}

// appKey is the session's key in its tab's URL (/e/KEY#TOKEN), or "".
func appKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	k, _ := strings.CutPrefix(u.Path, "/e/")
	return k
}

// appQueue carries what the host's goroutines report to the program, in
// order, without making them wait. Messages beyond maxQueuedAppReports are
// dropped and counted; a link or a session's end never is.
type appQueue struct {
	mu       sync.Mutex
	msgs     []modelMsg
	messages int // appMessageMsgs among msgs
	dropped  map[*toolApp]int
	ready    wakeup // set while reports wait
}

func (q *appQueue) put(msg modelMsg) {
	q.mu.Lock()
	if am, ok := msg.(appMessageMsg); ok {
		if q.messages >= maxQueuedAppReports {
			q.dropped[am.a]++
			q.mu.Unlock()
			return
		}
		q.messages++
	}
	q.msgs = append(q.msgs, msg)
	q.mu.Unlock()
	q.ready.notify()
}

// wait delivers what is queued once something is; the model issues it
// again after each delivery.
func (q *appQueue) wait(ended <-chan struct{}) tea.Cmd {
	return q.ready.wait(ended, func() tea.Msg {
		q.mu.Lock()
		defer q.mu.Unlock()
		out := appReportsMsg{msgs: q.msgs, dropped: q.dropped}
		q.msgs, q.messages, q.dropped = nil, 0, map[*toolApp]int{}
		return out
	})
}

// readableAppMessage is a message of an app's as a person reads it: the
// text of its content blocks, the others named, its structured content as
// JSON.
func readableAppMessage(m mcpclient.AppMessage, at time.Time) appMessage {
	msg := appMessage{at: at, kind: m.Kind}
	if !m.Object {
		msg.text = widget.CutRedacted(string(m.Params), maxAppMessageText)
		return msg
	}
	msg.head = m.Role
	var parts []string
	for _, b := range m.Content {
		parts = append(parts, readableBlock(b))
	}
	if m.StructuredContent != nil {
		parts = append(parts, "structuredContent: "+compactJSON(m.StructuredContent))
	}
	if len(parts) == 0 {
		parts = append(parts, compactJSON(m.Params))
	}
	msg.text = widget.CutRedacted(strings.Join(parts, "\n"), maxAppMessageText)
	return msg
}

// readableBlock is a content block's text, or what kind of block it is.
func readableBlock(b mcpclient.AppMessageBlock) string {
	if !b.Object {
		return compactJSON(b.Raw)
	}
	switch b.Type {
	case "text":
		return b.Text
	case "image", "audio":
		return "[" + b.Type + " " + b.MIMEType + "]"
	case "resource_link":
		return "[resource link] " + b.URI
	case "resource":
		if b.URI != "" {
			return "[embedded resource] " + b.URI
		}
	}
	return "[" + b.Type + "] " + compactJSON(b.Raw)
}

// compactJSON is JSON on one line, cut to maxAppMessageText bytes.
func compactJSON(raw json.RawMessage) string {
	return widget.CutRedacted(strings.Join(strings.Fields(string(raw)), " "), maxAppMessageText)
}

// appStateText is a session's state in a few words.
func appStateText(c *widget.Common, a *toolApp) string {
	s := c.Styles
	name := a.key
	if name == "" {
		name = "the app"
	}
	switch a.state {
	case appOpening:
		return s.Dim.Render("opening…")
	case appOpen:
		return s.OK.Render(name + " open")
	}
	return s.Dim.Render(name + " ended: " + widget.Clean(a.why))
}

package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// appsPanel lists the tool apps this run opened, newest first, over the
// tabs (A): each with its tool and state, and the one selected in full:
// its arguments, what became of the call, its tab's URL whole (y copies
// it, to open it again) with the SSH hint, and the messages the app sent.
// c closes the selected app, r sends it its call's result again.
type appsPanel struct {
	sel    *toolApp    // the session selected; nil: the newest
	detail widget.Pane // the selected session, scrolled with pgup/pgdn
}

// openApps opens the Apps panel on the newest session.
func (m *Model) openApps() { m.open(&appsPanel{}) }

// shown are the sessions newest first, and the index of the one selected.
func (l *appsPanel) shown(m *Model) ([]*toolApp, int) {
	list := slices.Clone(m.apps.list)
	slices.Reverse(list)
	i := max(slices.Index(list, l.sel), 0)
	if len(list) > 0 {
		l.sel = list[i]
	}
	return list, i
}

func (l *appsPanel) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Apps
	m.status = statusMsg{} // the status line stays until the next key
	list, i := l.shown(m)
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Back):
		m.close(l)
	case key.Matches(msg, k.Up) && i > 0:
		l.sel = list[i-1]
	case key.Matches(msg, k.Down) && i < len(list)-1:
		l.sel = list[i+1]
	case key.Matches(msg, k.PageUp): // the pane is synced after every message
		l.detail.Viewport.PageUp()
	case key.Matches(msg, k.PageDown):
		l.detail.Viewport.PageDown()
	case l.sel == nil:
	case key.Matches(msg, k.Copy):
		if l.sel.url == "" {
			return func() tea.Msg { return statusMsg{"this app has no URL: it did not open", true} }
		}
		return copyText(l.sel.url, "the app's URL")
	case key.Matches(msg, k.Resend):
		return m.resendOutcome(l.sel)
	case key.Matches(msg, k.Close):
		return m.closeApp(l.sel)
	case key.Matches(msg, k.Tools):
		return m.openAppTools(l.sel)
	case key.Matches(msg, k.Theme):
		return m.toggleTheme(l.sel)
	}
	return nil
}

// resendOutcome sends the app its call's result (or its cancellation)
// once more.
func (m *Model) resendOutcome(a *toolApp) tea.Cmd {
	switch {
	case a.state != appOpen:
		m.status = statusMsg{"this app's session is not open", true}
	case !a.callDone:
		m.status = statusMsg{"its call is still running: the app gets the result when it ends", true}
	default:
		return m.sendOutcome(a)
	}
	return nil
}

// closeApp tears an app down (ui/resource-teardown) and ends its session;
// the panel shows it ended once it has.
func (m *Model) closeApp(a *toolApp) tea.Cmd {
	if a.state != appOpen || a.closing {
		m.status = statusMsg{"this app's session is not open", true}
		return nil
	}
	a.closing = true
	sess := a.sess
	return func() tea.Msg {
		sess.Close()
		return nil
	}
}

func (l *appsPanel) footer(m *Model, _ *level) string {
	if m.status.text != "" {
		return m.statusLine()
	}
	return m.c.KeyLine(m.c.Keys.Apps.ShortHelp()...)
}

// appsPanelHead is how many lines in a body of h lines are above the
// selected session's detail, with n sessions listed: the title, the host,
// the list and a blank line.
func appsPanelHead(n, h int) int { return 3 + appsListRows(n, h) }

// appsListRows is how many sessions the list shows in a body of h lines.
func appsListRows(n, h int) int { return min(n, max(h/4, 1)) }

func (l *appsPanel) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	list, i := l.shown(m)
	var b strings.Builder
	title := "Tool apps"
	if len(list) > 0 {
		title += fmt.Sprintf(" · %d opened, %d open", len(list), m.apps.open())
	}
	b.WriteString(s.Title.Render(widget.Line(title, m.c.Width)) + "\n")
	switch {
	case m.opts.ToolApps == nil:
		b.WriteString(s.Dim.Render(widget.Line("The app host is off: with --app-host, calling a tool marked app opens its app in the browser.", m.c.Width)) + "\n")
	default:
		b.WriteString(s.Dim.Render(widget.Line("app host "+m.opts.AppHost+" · calling a tool marked app opens its app in the browser", m.c.Width)) + "\n")
	}
	if len(list) == 0 {
		b.WriteString("\n" + s.Dim.Render(widget.Line("No app has opened in this run.", m.c.Width)))
		return b.String()
	}
	rows := make([]widget.Row, len(list))
	for j, a := range list {
		name := widget.Line(a.tool.Name, 24)
		rows[j] = widget.Row{Name: widget.Fit(name+strings.Repeat(" ", 25-ansi.StringWidth(name))+ansi.Strip(m.appStateText(a)), m.c.Width-2), Drawn: true}
	}
	var sessions widget.List // the selection is the session (sel), wherever the list puts it
	sessions.Place(i, len(list))
	b.WriteString(sessions.Rows(&m.c, rows, m.c.Width, appsListRows(len(list), h)) + "\n")
	return b.String() + "\n" + l.detail.View(&m.c, "") // synced in Update
}

// sync gives the detail pane the selected session's text and the room
// left under the list in a body of h lines.
func (l *appsPanel) sync(m *Model, h int) {
	list, _ := l.shown(m)
	if len(list) == 0 {
		return
	}
	l.detail.Set(m.redact(m.appText(l.sel)), m.c.Width, h-appsPanelHead(len(list), h)-1)
}

// appText is one session in full: the tool and its arguments, the call's
// outcome, the tab's URL with the SSH hint, and the app's messages.
func (m *Model) appText(a *toolApp) string {
	s := m.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Clean(a.tool.Name)) + s.Dim.Render(" · opened "+a.opened.Format("15:04:05")+" · ") + m.appStateText(a) + "\n")
	args := "{}"
	if len(a.args) > 0 {
		args = compactJSON(a.args)
	}
	b.WriteString(s.Dim.Render("app: ") + widget.Clean(mcpclient.ToolAppURI(a.tool)) + "\n")
	b.WriteString(s.Dim.Render("arguments: ") + s.ColourJSON(widget.Clean(args)) + "\n")
	b.WriteString(s.Dim.Render("the call: ") + m.appOutcome(a) + "\n")
	if a.state == appOpen {
		theme := a.theme
		if theme == "" {
			theme = m.opts.Theme
		}
		if theme == "" {
			theme = "the terminal's"
		}
		k := m.c.Keys.Apps
		b.WriteString(s.Dim.Render(fmt.Sprintf("theme: %s (%s switches) · %s: the app's own tools", theme, k.Theme.Help().Key, k.Tools.Help().Key)) + "\n")
	}
	if a.url != "" {
		b.WriteString(s.Dim.Render("its tab, to open it again (y copies it):") + "\n" + wrapWhole(a.url, m.c.Width) + "\n")
		if m.opts.AppSSHHint != "" {
			b.WriteString(s.Dim.Render("over SSH, forward the port first:") + "\n" + wrapWhole(m.opts.AppSSHHint, m.c.Width) + "\n")
		}
	}
	b.WriteString("\n")
	if len(a.messages) == 0 {
		b.WriteString(s.Dim.Render("No messages from the app yet: its ui/message and ui/update-model-context show here, what a model would have read."))
		return b.String()
	}
	b.WriteString(s.Title.Render(fmt.Sprintf("from the app (%d)", len(a.messages)+a.dropped)) + "\n")
	if a.dropped > 0 {
		b.WriteString(s.Dim.Render(fmt.Sprintf("(%d earlier not kept)", a.dropped)) + "\n")
	}
	for _, msg := range a.messages {
		head := msg.kind
		if msg.head != "" {
			head += " · " + msg.head
		}
		b.WriteString(s.Dim.Render(msg.at.Format("15:04:05")+" ") + s.Accent.Render(widget.Clean(head)) + "\n")
		for _, l := range strings.Split(widget.Clean(msg.text), "\n") {
			b.WriteString("  " + l + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// appOutcome says what became of the call of an app: running, its result
// (how many times the app got it), or why it has none.
func (m *Model) appOutcome(a *toolApp) string {
	s := m.c.Styles
	var what string
	switch {
	case !a.callDone:
		return s.Dim.Render("running")
	case a.result != nil && a.result.IsError:
		what = s.Err.Render("isError") + " " + resultBrief(a.result)
	case a.result != nil:
		what = s.OK.Render("result") + " " + resultBrief(a.result)
	default:
		what = s.Warn.Render("cancelled") + " " + widget.Clean(a.cancelled)
	}
	switch {
	case a.sent == 1:
		what += s.Dim.Render(" · sent to the app")
	case a.sent > 1:
		what += s.Dim.Render(fmt.Sprintf(" · sent to the app %d times", a.sent))
	case a.state == appOpening:
		what += s.Dim.Render(" · the app is opening")
	case a.sess == nil:
		what += s.Dim.Render(" · not sent: the app did not open")
	default:
		what += s.Dim.Render(" · not sent: the app had ended")
	}
	return what
}

// resultBrief is a result's first text, or its structured content, on one
// line.
func resultBrief(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return widget.Line(t.Text, 60)
		}
	}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		return widget.Line(string(b), 60)
	}
	return ""
}

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An app's own tools (a draft feature of MCP Apps): an app that declared
// appCapabilities.tools answers tools/list and tools/call from its host.
// From the Apps panel, t lists the selected app's tools over it; the
// person picks one, types its arguments and calls it: the call is theirs,
// as the draft asks a host to confirm such calls. A list_changed from the
// app lists them again. d switches the theme the app is told of
// (ui/notifications/host-context-changed).

// appToolsLayer lists one app's own tools and calls them.
type appToolsLayer struct {
	a       *toolApp
	tools   []*mcp.Tool
	err     string // why the list is missing
	loading bool
	picked  widget.List // the tool selected
	args    textinput.Model
	calling string // the tool being called
	result  string // the last call's outcome, drawn
	detail  widget.Pane
}

type (
	// appToolsMsg brings an app's own tools, or why there are none.
	appToolsMsg struct {
		a     *toolApp
		tools []*mcp.Tool
		err   error
	}
	// appToolCalledMsg brings the outcome of a call of an app's tool.
	appToolCalledMsg struct {
		a    *toolApp
		name string
		res  *mcp.CallToolResult
		err  error
		took time.Duration
	}
	// appToolsChangedMsg: the app said its tools changed.
	appToolsChangedMsg struct{ a *toolApp }
)

// openAppTools opens the layer on an app and lists its tools.
func (m *Model) openAppTools(a *toolApp) tea.Cmd {
	if a.state != appOpen {
		m.status = statusMsg{"this app's session is not open", true}
		return nil
	}
	in := textinput.New()
	in.Prompt = "arguments: "
	in.Placeholder = "{} (a JSON object)"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Width = max(m.c.Width-16, 10)
	in.Focus()
	l := &appToolsLayer{a: a, args: in}
	m.open(l)
	return l.list()
}

func (l *appToolsLayer) typesText() bool { return true }

// list asks the app for its tools, in a command.
func (l *appToolsLayer) list() tea.Cmd {
	l.loading, l.err = true, ""
	a, sess := l.a, l.a.sess
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tools, err := sess.AppTools(ctx)
		return appToolsMsg{a, tools, err}
	}
}

// layer is the app tools layer open on a, if one is.
func (m *Model) appToolsOf(a *toolApp) *appToolsLayer {
	for _, x := range m.layers {
		if l, ok := x.(*appToolsLayer); ok && l.a == a {
			return l
		}
	}
	return nil
}

func (msg appToolsMsg) update(m *Model) tea.Cmd {
	l := m.appToolsOf(msg.a)
	if l == nil {
		return nil
	}
	l.loading, l.tools, l.err = false, msg.tools, ""
	switch {
	case errors.Is(msg.err, mcpclient.ErrNoAppTools):
		l.err = "This app declared no tools of its own (appCapabilities.tools in its ui/initialize)."
	case msg.err != nil:
		l.err = "listing the app's tools failed: " + msg.err.Error()
	}
	l.picked.SetLen(len(l.tools))
	return nil
}

func (msg appToolsChangedMsg) update(m *Model) tea.Cmd {
	msg.a.note(appMessage{at: time.Now(), kind: "tools changed", text: "the app's own tools changed (notifications/tools/list_changed)"})
	if l := m.appToolsOf(msg.a); l != nil && msg.a.state == appOpen {
		return l.list()
	}
	return nil
}

func (msg appToolCalledMsg) update(m *Model) tea.Cmd {
	text := "error: " + errText(msg.err)
	if msg.err == nil {
		text = resultBrief(msg.res)
		if msg.res.IsError {
			text = "isError: " + text
		}
	}
	msg.a.note(appMessage{at: time.Now(), kind: "app tool", head: msg.name, text: text})
	if l := m.appToolsOf(msg.a); l != nil && l.calling == msg.name {
		l.calling = ""
		l.result = m.c.Styles.Title.Render(widget.Clean(msg.name)) + "\n" + renderResult(&m.c, msg.res, msg.err, msg.took)
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func (l *appToolsLayer) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.AppTools
	l.picked.SetLen(len(l.tools))
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Back):
		m.close(l)
	case key.Matches(msg, k.Up):
		l.picked.Move(-1)
	case key.Matches(msg, k.Down):
		l.picked.Move(1)
	case key.Matches(msg, k.PageUp):
		l.detail.Viewport.PageUp()
	case key.Matches(msg, k.PageDown):
		l.detail.Viewport.PageDown()
	case key.Matches(msg, k.Relist):
		if l.a.state == appOpen {
			return l.list()
		}
	case key.Matches(msg, k.Call):
		return l.call(m)
	default:
		var cmd tea.Cmd
		l.args, cmd = l.args.Update(msg)
		return cmd
	}
	return nil
}

// call calls the selected tool with the arguments typed, when they are a
// JSON object (empty: {}).
func (l *appToolsLayer) call(m *Model) tea.Cmd {
	switch {
	case l.a.state != appOpen:
		l.result = m.c.Styles.Err.Render("the app's session is not open")
		return nil
	case len(l.tools) == 0:
		return nil
	case l.calling != "":
		l.result = m.c.Styles.Warn.Render("still calling " + widget.Clean(l.calling))
		return nil
	}
	text := strings.TrimSpace(l.args.Value())
	if text == "" {
		text = "{}"
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
		l.result = m.c.Styles.Err.Render("the arguments must be a JSON object, like {\"q\": \"x\"}")
		return nil
	}
	name := l.tools[l.picked.Cursor()].Name
	l.calling, l.result = name, m.c.Styles.Dim.Render("calling "+widget.Clean(name)+"…")
	a, sess, args := l.a, l.a.sess, json.RawMessage(text)
	return func() tea.Msg {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := sess.CallAppTool(ctx, name, args)
		return appToolCalledMsg{a, name, res, err, time.Since(start)}
	}
}

func (l *appToolsLayer) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Line("The app's own tools · "+l.a.tool.Name, m.c.Width)) + "\n")
	b.WriteString(s.Dim.Render(widget.Line("Tools the app registered, called in the app (tools/call to it), not on the server.", m.c.Width)) + "\n\n")
	switch {
	case l.loading:
		b.WriteString(s.Dim.Render("asking the app…") + "\n")
	case l.err != "":
		b.WriteString(widget.Block(s.Warn.Render(widget.Clean(l.err)), m.c.Width, 3) + "\n")
	case len(l.tools) == 0:
		b.WriteString(s.Dim.Render("The app lists no tools.") + "\n")
	}
	rows := make([]widget.Row, len(l.tools))
	for i, t := range l.tools {
		rows[i] = widget.Row{Name: widget.Fit(fmt.Sprintf("%-24s  %s", widget.Line(t.Name, 24), widget.Line(t.Description, m.c.Width)), max(m.c.Width-2, 10)), Drawn: true}
	}
	if len(rows) > 0 {
		b.WriteString(l.picked.Rows(&m.c, rows, m.c.Width, max(min(len(l.tools), h/3), 1)) + "\n")
	}
	b.WriteString("\n" + l.args.View() + "\n\n")
	head := b.String()
	l.detail.Set(m.redact(l.result), m.c.Width, max(h-strings.Count(head, "\n"), 1))
	return head + l.detail.View(&m.c, "")
}

func (l *appToolsLayer) footer(m *Model, _ *level) string {
	return m.c.KeyLine(m.c.Keys.AppTools.ShortHelp()...)
}

// toggleTheme tells an app the host's theme is now the other one.
func (m *Model) toggleTheme(a *toolApp) tea.Cmd {
	if a.state != appOpen {
		m.status = statusMsg{"this app's session is not open", true}
		return nil
	}
	current := a.theme
	if current == "" {
		current = m.opts.Theme
	}
	next := "dark"
	if current == "dark" {
		next = "light"
	}
	a.theme = next
	a.note(appMessage{at: time.Now(), kind: "theme", text: "told the app the theme is now " + next + " (ui/notifications/host-context-changed)"})
	m.status = statusMsg{"the app's theme is now " + next, false}
	a.sess.SetTheme(next) // at once, so that changes reach the app in order
	return nil
}

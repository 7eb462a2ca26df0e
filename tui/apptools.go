// An app's own tools (a draft feature of MCP Apps), on the program's
// side: the layer that lists and calls them is in tui/layer (AppTools);
// here the program asks the app for them and calls them in the app, and
// a list_changed from the app lists them again. Also the theme the app is
// told of, which the Apps panel's d switches
// (ui/notifications/host-context-changed).

package tui

import (
	"context"
	"errors"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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

// listAppTools asks an app for its tools, in a command.
func listAppTools(a *toolApp) tea.Cmd {
	sess := a.sess
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		tools, err := sess.AppTools(ctx)
		return appToolsMsg{a, tools, err}
	}
}

// callAppTool calls an app's own tool, in a command.
func callAppTool(a *toolApp, call layer.CallAppTool) tea.Cmd {
	sess := a.sess
	return func() tea.Msg {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := sess.CallAppTool(ctx, call.Name, call.Args)
		return appToolCalledMsg{a, call.Name, res, err, time.Since(start)}
	}
}

// appToolsOf is the app tools layer open on a, if one is.
func appToolsOf(m *Model, a *toolApp) *layer.AppTools {
	for _, x := range m.layers {
		if l, ok := x.(*layer.AppTools); ok && m.apps.list[l.App()] == a {
			return l
		}
	}
	return nil
}

func (msg appToolsMsg) update(m *Model) tea.Cmd {
	l := appToolsOf(m, msg.a)
	if l == nil {
		return nil
	}
	var err string
	switch {
	case errors.Is(msg.err, mcpclient.ErrNoAppTools):
		err = "This app declared no tools of its own (appCapabilities.tools in its ui/initialize)."
	case msg.err != nil:
		err = "listing the app's tools failed: " + msg.err.Error()
	}
	l.Update(layer.AppToolsListed{Tools: msg.tools, Err: err})
	return nil
}

func (msg appToolsChangedMsg) update(m *Model) tea.Cmd {
	msg.a.note(appMessage{at: time.Now(), kind: "tools changed", text: "the app's own tools changed (notifications/tools/list_changed)"})
	if l := appToolsOf(m, msg.a); l != nil && msg.a.state == appOpen {
		l.List()
		return listAppTools(msg.a)
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
	if l := appToolsOf(m, msg.a); l != nil {
		l.Update(layer.AppToolResult{Name: msg.name, Text: m.c.Styles.Title.Render(widget.Clean(msg.name)) + "\n" + renderResult(&m.c, msg.res, msg.err, msg.took)})
	}
	return nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// toggleTheme tells an app the host's theme is now the other one (its
// first is theme), and says which.
func (a *toolApp) toggleTheme(theme string) string {
	current := a.theme
	if current == "" {
		current = theme
	}
	next := "dark"
	if current == "dark" {
		next = "light"
	}
	a.theme = next
	a.note(appMessage{at: time.Now(), kind: "theme", text: "told the app the theme is now " + next + " (ui/notifications/host-context-changed)"})
	a.sess.SetTheme(next) // at once, so that changes reach the app in order
	return next
}

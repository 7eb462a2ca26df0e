// The Apps panel's data (the panel is in tui/layer, A): the tool apps
// this run opened, each in full, and what its keys ask of an app.

package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shown are the sessions as the Apps panel lists them, oldest first.
func (s *appsState) shown(c *widget.Common) []layer.App {
	out := make([]layer.App, len(s.list))
	for i, a := range s.list {
		out[i] = layer.App{Tool: a.tool.Name, State: appStateText(c, a), Ended: a.state == appEnded, URL: a.url}
	}
	return out
}

// appHostLine is what the Apps panel says of the app host: "app host"
// and its address, "" when it is off.
func appHostLine(opts Options) string {
	if opts.ToolApps == nil {
		return ""
	}
	return "app host " + opts.AppHost
}

// do is what the Apps panel asked of an app, as the actions the program
// applies (theme: the theme apps are first told of).
func (s *appsState) do(c *widget.Common, theme string, do layer.AppDo) layer.Action {
	a := s.list[do.App]
	switch {
	case do.What == layer.ResendOutcome && a.state == appOpen && !a.callDone:
		return layer.Status{Text: "its call is still running: the app gets the result when it ends", Err: true}
	case do.What == layer.ResendOutcome && a.state == appOpen:
		return layer.Cmd{Cmd: a.sendOutcome()}
	case a.state != appOpen, do.What == layer.CloseApp && a.closing:
		return layer.Status{Text: "this app's session is not open", Err: true}
	case do.What == layer.CloseApp:
		return layer.Cmd{Cmd: a.close()}
	case do.What == layer.OpenAppTools:
		l := layer.NewAppTools(c, do.App, a.tool.Name, func() bool { return a.state == appOpen })
		return layer.Batch{l.List(), layer.Open{Layer: l}} // the list is asked for as it opens
	case do.What == layer.ToggleTheme:
		return layer.Status{Text: "the app's theme is now " + a.toggleTheme(theme)}
	}
	return nil
}

// close tears an app down (ui/resource-teardown) and ends its session;
// the panel shows it ended once it has.
func (a *toolApp) close() tea.Cmd {
	a.closing = true
	sess := a.sess
	return func() tea.Msg {
		sess.Close()
		return nil
	}
}

// appText is one session in full: the tool and its arguments, the call's
// outcome, the tab's URL with the SSH hint, and the app's messages.
func appText(c *widget.Common, opts *Options, a *toolApp) string {
	s := c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Clean(a.tool.Name)) + s.Dim.Render(" · opened "+a.opened.Format("15:04:05")+" · ") + appStateText(c, a) + "\n")
	args := "{}"
	if len(a.args) > 0 {
		args = compactJSON(a.args)
	}
	b.WriteString(s.Dim.Render("app: ") + widget.Clean(mcpclient.ToolAppURI(a.tool)) + "\n")
	b.WriteString(s.Dim.Render("arguments: ") + s.ColourJSON(widget.Clean(args)) + "\n")
	b.WriteString(s.Dim.Render("the call: ") + appOutcome(c, a) + "\n")
	if a.state == appOpen {
		theme := a.theme
		if theme == "" {
			theme = opts.Theme
		}
		if theme == "" {
			theme = "the terminal's"
		}
		k := layer.AppsKeys
		b.WriteString(s.Dim.Render(fmt.Sprintf("theme: %s (%s switches) · %s: the app's own tools", theme, k.Theme.Help().Key, k.Tools.Help().Key)) + "\n")
	}
	if a.url != "" {
		b.WriteString(s.Dim.Render("its tab, to open it again (y copies it):") + "\n" + widget.WrapWhole(a.url, c.Width) + "\n")
		if opts.AppSSHHint != "" {
			b.WriteString(s.Dim.Render("over SSH, forward the port first:") + "\n" + widget.WrapWhole(opts.AppSSHHint, c.Width) + "\n")
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
func appOutcome(c *widget.Common, a *toolApp) string {
	s := c.Styles
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

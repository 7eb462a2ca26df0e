package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// View draws the header, the tab bar, the body and the footer, never
// wider or taller than the terminal. The top of the overlay stack draws
// the body (and what of the layers under it shows) and gives the footer.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	top := m.top()
	body := top.view(m.bodyHeight())
	hd := header{c: &m.c, opts: &m.opts, link: &m.link, spinner: m.spinner.View(), appsOpen: m.apps.opened(),
		pending: len(m.queue) + len(inApp(m.pending)), loginShown: m.holds(m.login), lock: m.lock.brief(m.conn, &m.c)}
	if m.state == stateWatching {
		hd.watching = m.watchLabel()
	}
	out := hd.view() + "\n" + m.bar(&m.c) + "\n" + body
	lines := strings.Split(out, "\n")
	h := m.c.Height - 1
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return widget.Redact(strings.Join(lines, "\n") + "\n" + widget.Fit(top.footer(), m.c.Width))
}

// header is the screen's first line, made for each frame from what it
// tells: on the left the server and the connection's state, on the right
// what else the person should know (a recording under way, pending
// requests, sign-in, the log level, TLS, the apps and the app host).
type header struct {
	c     *widget.Common
	opts  *Options
	*link // the connection
	// spinner is the spinner's frame while connecting.
	spinner string
	// appsOpen, pending: the tool apps open, the requests waiting.
	appsOpen, pending int
	// lock is what changed since the project's surface lock, in brief.
	lock string
	// loginShown: the login card is on the stack, not hidden.
	loginShown bool
	// watching says which proxy is watched, in watch mode.
	watching string
}

func (h *header) view() string {
	s := h.c.Styles
	app := "app host off"
	if h.opts.AppHost != "" {
		app = "app host " + h.opts.AppHost
	}
	switch n := h.appsOpen; { // tool apps (A)
	case n == 1:
		app = "1 app open · " + app
	case n > 1:
		app = fmt.Sprintf("%d apps open · %s", n, app)
	}
	right := s.Dim.Render(app)
	if h.opts.Insecure {
		right = s.Warn.Render("TLS unverified") + s.Dim.Render(" · ") + right
	}
	if h.conn != nil && h.conn.LogLevel() != "" { // the level the server logs at (L)
		right = s.Dim.Render("log "+h.conn.LogLevel()+" · ") + right
	}
	if a := h.authBrief(h.c, min(max(h.c.Width-lipgloss.Width(right)-40, 12), 48), h.loginShown); a != "" {
		right = a + s.Dim.Render(" · ") + right
	}
	if h.lock != "" && h.state == stateConnected { // D shows the changes
		right = h.lock + s.Dim.Render(" · ") + right
	}
	if n := h.pending; n > 0 {
		right = s.Warn.Render(fmt.Sprintf("%d pending", n)) + s.Dim.Render(" · ") + right
	}
	if r := h.opts.Recorder; r != nil && r.Recording() != "" { // ctrl+r, or --record
		right = s.Err.Render("● recording") + s.Dim.Render(" · ") + right
	}
	width := h.c.Width - lipgloss.Width(right) - 1
	var state string
	switch h.state {
	case stateConnecting:
		state = h.spinner + " connecting to " + h.opts.targetText(40)
	case stateConnected:
		info := h.conn.ServerInfo()
		name := info.Title
		if name == "" {
			name = info.Name
		}
		era := "legacy"
		if h.conn.ProtocolVersion() >= mcpclient.ProtocolModern {
			era = "modern"
		}
		state = fmt.Sprintf("%s %s · %s (%s) · %s", s.Accent.Render(widget.Line(name, 30)), widget.Line(info.Version, 12),
			h.conn.ProtocolVersion(), era, h.opts.targetText(30))
	case stateWatching:
		state = s.Accent.Render("watching") + " " + widget.Line(h.watching, max(width-10, 10))
	case stateDisconnected:
		// One line: what happened and why; the Info tab has the rest.
		what := s.Err.Render(h.failureWhat() + ":")
		retry := s.Dim.Render(" · " + h.c.Keys.Tabs.Reconnect.Help().Key + " reconnects")
		state = what + " " + widget.Line(h.failureReason(), max(width-lipgloss.Width(what+retry)-1, 10)) + retry
	}
	return widget.Fit(state, width) + " " + right
}

// targetText is the target cut to n, after the config that named it.
func (o *Options) targetText(n int) string {
	if o.Source == "" {
		return widget.Line(o.Target, n)
	}
	return widget.Line(o.Source, n) + " · " + widget.Line(o.Target, n)
}

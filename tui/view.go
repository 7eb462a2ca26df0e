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
	out := m.header() + "\n" + m.tabBar() + "\n" + body
	lines := strings.Split(out, "\n")
	h := m.c.Height - 1
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return m.redact(strings.Join(lines, "\n") + "\n" + widget.Fit(top.footer(), m.c.Width))
}

func (m *Model) header() string {
	s := m.c.Styles
	app := "app host off"
	if m.opts.AppHost != "" {
		app = "app host " + m.opts.AppHost
	}
	switch n := m.apps.open(); { // tool apps (A)
	case n == 1:
		app = "1 app open · " + app
	case n > 1:
		app = fmt.Sprintf("%d apps open · %s", n, app)
	}
	right := s.Dim.Render(app)
	if m.opts.Insecure {
		right = s.Warn.Render("TLS unverified") + s.Dim.Render(" · ") + right
	}
	if m.conn != nil && m.conn.LogLevel() != "" { // the level the server logs at (L)
		right = s.Dim.Render("log "+m.conn.LogLevel()+" · ") + right
	}
	if a := m.authBrief(&m.c, min(max(m.c.Width-lipgloss.Width(right)-40, 12), 48), m.hostedOf(m.login) != nil); a != "" {
		right = a + s.Dim.Render(" · ") + right
	}
	if n := len(m.queue) + m.appPending(); n > 0 {
		right = s.Warn.Render(fmt.Sprintf("%d pending", n)) + s.Dim.Render(" · ") + right
	}
	width := m.c.Width - lipgloss.Width(right) - 1
	var state string
	switch m.state {
	case stateConnecting:
		state = m.spinner.View() + " connecting to " + m.opts.targetText(40)
	case stateConnected:
		info := m.conn.ServerInfo()
		name := info.Title
		if name == "" {
			name = info.Name
		}
		era := "legacy"
		if m.conn.ProtocolVersion() >= mcpclient.ProtocolModern {
			era = "modern"
		}
		state = fmt.Sprintf("%s %s · %s (%s) · %s", s.Accent.Render(widget.Line(name, 30)), widget.Line(info.Version, 12),
			m.conn.ProtocolVersion(), era, m.opts.targetText(30))
	case stateDisconnected:
		// One line: what happened and why; the Info tab has the rest.
		what := s.Err.Render(m.failureWhat() + ":")
		retry := s.Dim.Render(" · " + m.c.Keys.Tabs.Reconnect.Help().Key + " reconnects")
		state = what + " " + widget.Line(m.failureReason(), max(width-lipgloss.Width(what+retry)-1, 10)) + retry
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

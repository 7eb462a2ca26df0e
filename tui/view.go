package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
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
	h := m.c.height - 1
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return m.redact(strings.Join(lines, "\n") + "\n" + fit(top.footer(), m.c.width))
}

func (m *Model) header() string {
	s := m.c.styles
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
	right := s.dim.Render(app)
	if m.opts.Insecure {
		right = s.warn.Render("TLS unverified") + s.dim.Render(" · ") + right
	}
	if m.conn != nil && m.conn.LogLevel() != "" { // the level the server logs at (L)
		right = s.dim.Render("log "+m.conn.LogLevel()+" · ") + right
	}
	if a := m.authBrief(min(max(m.c.width-lipgloss.Width(right)-40, 12), 48)); a != "" {
		right = a + s.dim.Render(" · ") + right
	}
	if n := len(m.queue) + m.appPending(); n > 0 {
		right = s.warn.Render(fmt.Sprintf("%d pending", n)) + s.dim.Render(" · ") + right
	}
	width := m.c.width - lipgloss.Width(right) - 1
	var state string
	switch m.state {
	case stateConnecting:
		state = m.spinner.View() + " connecting to " + m.targetText(40)
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
		state = fmt.Sprintf("%s %s · %s (%s) · %s", s.accent.Render(line(name, 30)), line(info.Version, 12),
			m.conn.ProtocolVersion(), era, m.targetText(30))
	case stateDisconnected:
		// One line: what happened and why; the Info tab has the rest.
		what := s.err.Render(m.failureWhat() + ":")
		retry := s.dim.Render(" · " + m.c.keys.tabs.reconnect.Help().Key + " reconnects")
		state = what + " " + line(m.failureReason(), max(width-lipgloss.Width(what+retry)-1, 10)) + retry
	}
	return fit(state, width) + " " + right
}

// targetText is the target cut to n, after the config that named it.
func (m *Model) targetText(n int) string {
	if m.opts.Source == "" {
		return line(m.opts.Target, n)
	}
	return line(m.opts.Source, n) + " · " + line(m.opts.Target, n)
}

package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// View draws the header, the tab bar, the body (or what is over it) and
// the footer, never wider or taller than the terminal.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	body := m.body()
	out := m.header() + "\n" + m.tabBar() + "\n" + body
	lines := strings.Split(out, "\n")
	h := m.c.height - 1
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + m.footer()
}

func (m *Model) header() string {
	s := m.c.styles
	var state string
	switch m.state {
	case stateConnecting:
		state = m.spinner.View() + " connecting to " + line(m.opts.Target, 40)
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
			m.conn.ProtocolVersion(), era, line(m.opts.Target, 30))
	case stateDisconnected:
		state = s.err.Render("disconnected") + " " + line(fmt.Sprint(m.err), max(m.c.width-45, 10)) + s.dim.Render(" · r reconnects")
	}
	app := "app host off"
	if m.opts.AppHost != "" {
		app = "app host " + m.opts.AppHost
	}
	right := s.dim.Render(app)
	if n := len(m.queue) + m.appPending(); n > 0 {
		right = s.warn.Render(fmt.Sprintf("%d pending", n)) + s.dim.Render(" · ") + right
	}
	return fit(state, m.c.width-lipgloss.Width(right)-1) + " " + right
}

func (m *Model) footer() string {
	s := m.c.styles
	var text string
	switch {
	case m.confirmQuit:
		text = s.warn.Render(fmt.Sprintf("%d elicitation(s) pending: quit and cancel them? y/n", len(m.queue)+m.appPending()))
	case m.form != nil && len(m.queue) > 1:
		text = s.warn.Render(fmt.Sprintf("1 of %d pending", len(m.queue))) + s.dim.Render(" · ctrl+n shows the next")
	case m.topForm() != nil || m.jsonEdit != nil:
		text = ""
	case m.urlHead():
		text = s.dim.Render("o open · d decline · esc cancel this request · q quit")
	case m.running != "":
		text = s.dim.Render(fmt.Sprintf("%s calling %s… %s · esc cancels the call", m.spinner.View(), m.running, time.Since(m.runStart).Round(time.Second)))
	default:
		text = s.dim.Render("1-6/tab switch · ↑↓ move · / filter · enter open · r reconnect · ? keys · q quit")
	}
	return fit(text, m.c.width)
}

func (m *Model) body() string {
	h := m.bodyHeight()
	switch {
	case m.showHelp:
		return m.helpView()
	case m.form != nil:
		return m.form.View()
	case m.urlHead():
		return m.urlView()
	case m.argsForm != nil:
		return m.argsForm.View()
	case m.jsonEdit != nil:
		s := m.c.styles
		head := s.title.Render("Arguments for "+clean(m.jsonTool.Name)+" as JSON") + s.dim.Render(" (its input schema is more than a form can show)")
		foot := s.dim.Render("ctrl+s call · esc back")
		if m.jsonErr != "" {
			foot = s.err.Render(line(m.jsonErr, m.c.width-2)) + "\n" + foot
		}
		return head + "\n" + m.jsonEdit.View() + "\n" + foot
	}
	var card string
	if m.appPending() > 0 {
		card = m.appCard() + "\n"
		h -= lipgloss.Height(card)
	}
	return card + m.tabView(h)
}

package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
)

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

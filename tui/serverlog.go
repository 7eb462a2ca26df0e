package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The level the server logs at: L opens a picker of the levels, and a
// new connection is set to the level last chosen. The server's log itself
// is a view of the Log tab (tui/page).

// offersLogging reports whether the server offers logging.
func offersLogging(conn *mcpclient.Conn) bool {
	//lint:ignore SA1019 logging is deprecated from 2026-07-28 on, and still offered by servers of both eras
	return conn.ServerCapabilities().Logging != nil
}

// openLevelPicker opens the level picker (tui/layer) on the current
// level, when the server offers logging.
func (m *Model) openLevelPicker() tea.Cmd {
	switch {
	case m.conn == nil || m.state != stateConnected:
		return func() tea.Msg { return statusMsg{"not connected: no log level to set", true} }
	case !offersLogging(m.conn):
		return func() tea.Msg {
			return statusMsg{"the server does not offer logging (no logging capability)", true}
		}
	}
	m.host(layer.NewLevelPicker(&m.c, m.conn.LogLevel(), m.conn.ProtocolVersion() >= mcpclient.ProtocolModern))
	return nil
}

// setLogLevel asks the server to log at a level, in a command.
func setLogLevel(conn *mcpclient.Conn, level string) tea.Cmd {
	if conn == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		return levelSetMsg{level, conn.SetLogLevel(ctx, level)}
	}
}

// levelSetMsg says how setting the log level ended.
type levelSetMsg struct {
	level string
	err   error
}

func (msg levelSetMsg) update(m *Model) tea.Cmd {
	if msg.err != nil {
		m.status = statusMsg{"setting the log level failed: " + widget.Clean(msg.err.Error()), true}
		return nil
	}
	m.logLevel = msg.level
	m.status = statusMsg{"the server now logs at " + msg.level + " and above", false}
	return nil
}

// keepLevel sets a new connection to the level chosen with L before
// (a reconnection does not lose it).
func (l *link) keepLevel(level string) tea.Cmd {
	if level == "" || l.conn == nil || l.conn.LogLevel() == level || !offersLogging(l.conn) {
		return nil
	}
	return setLogLevel(l.conn, level)
}

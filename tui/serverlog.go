package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
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

// levelPicker sets the level the server logs at: a list of the levels,
// the current one marked.
type levelPicker struct{ list widget.List }

// openLevelPicker opens the level picker on the current level, when the
// server offers logging.
func (m *Model) openLevelPicker() tea.Cmd {
	switch {
	case m.conn == nil || m.state != stateConnected:
		return func() tea.Msg { return statusMsg{"not connected: no log level to set", true} }
	case !offersLogging(m.conn):
		return func() tea.Msg {
			return statusMsg{"the server does not offer logging (no logging capability)", true}
		}
	}
	l := &levelPicker{}
	l.list.SetLen(len(mcpclient.LogLevels))
	for i, level := range mcpclient.LogLevels {
		if level == m.conn.LogLevel() {
			l.list.Select(i)
		}
	}
	m.open(l)
	return nil
}

func (l *levelPicker) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Server log level") + "\n")
	note := "The server sends log messages at the chosen level and above."
	if m.conn != nil && m.conn.ProtocolVersion() >= mcpclient.ProtocolModern {
		note += " In this protocol era each call carries the level: it takes effect with the next call."
	}
	b.WriteString(widget.Block(s.Dim.Render(note), m.c.Width, 3) + "\n\n")
	current := ""
	if m.conn != nil {
		current = m.conn.LogLevel()
	}
	rows := make([]widget.Row, len(mcpclient.LogLevels))
	for i, level := range mcpclient.LogLevels {
		row := fmt.Sprintf("%-*s", widget.LevelWidth, level)
		if level == current {
			row += "  (current)"
		}
		style := s.Level(level)
		rows[i] = widget.Row{Name: row, Drawn: true, Style: &style}
	}
	b.WriteString(l.list.Rows(&m.c, rows, m.c.Width, h-lipgloss.Height(b.String())+1))
	return widget.Block(strings.TrimRight(b.String(), "\n"), m.c.Width, h)
}

func (l *levelPicker) footer(m *Model, _ *level) string {
	return m.c.KeyLine(m.c.Keys.Level.ShortHelp()...)
}

func (l *levelPicker) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Level
	l.list.SetLen(len(mcpclient.LogLevels))
	switch {
	case key.Matches(msg, k.Up):
		l.list.Move(-1)
	case key.Matches(msg, k.Down):
		l.list.Move(1)
	case key.Matches(msg, k.Back):
		m.close(l)
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Choose):
		m.close(l)
		return m.setLogLevel(mcpclient.LogLevels[l.list.Cursor()])
	}
	return nil
}

// setLogLevel asks the server to log at a level, in a command.
func (m *Model) setLogLevel(level string) tea.Cmd {
	conn := m.conn
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

// keepLogLevel sets a new connection to the level chosen with L before
// (a reconnection does not lose it).
func (m *Model) keepLogLevel() tea.Cmd {
	if l := m.logLevel; l == "" || m.conn == nil || m.conn.LogLevel() == l || !offersLogging(m.conn) {
		return nil
	}
	return m.setLogLevel(m.logLevel)
}

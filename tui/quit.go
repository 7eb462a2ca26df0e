package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askQuit quits, first asking when elicitations are pending.
func (m *Model) askQuit() tea.Cmd {
	if len(m.queue) > 0 || len(m.pending) > 0 {
		if _, asking := findHosted[*layer.QuitPrompt](m); !asking {
			m.host(layer.NewQuitPrompt(&m.c, func() int { return len(m.queue) + m.appPending() }))
		}
		return nil
	}
	return m.quit()
}

// quit answers every pending elicitation with cancel, lets those answers
// reach the server, then closes the connection and ends the program.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	asks := m.queue
	m.queue, m.layers = nil, nil
	conn, cancelCall := m.conn, m.cancelCall
	return tea.Sequence(func() tea.Msg {
		for _, x := range asks {
			select {
			case x.reply <- &mcp.ElicitResult{Action: "cancel"}:
			default: // already answered
			}
		}
		if conn != nil {
			conn.DismissPending() // app sessions too: each answered cancel
			// The answers are on their way once nothing is pending (2 s at
			// most: the program ends).
			select {
			case <-conn.Settled():
			case <-time.After(2 * time.Second):
			}
		}
		if cancelCall != nil { // only now: cancelling first would cancel the elicitation too
			cancelCall()
		}
		if conn != nil {
			_ = conn.Close()
		}
		return nil
	}, tea.Quit)
}

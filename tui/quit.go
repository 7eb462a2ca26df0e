package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quit answers every pending elicitation with cancel, lets those answers
// reach the server, then closes the connection and ends the program.
func (m *Model) quit() tea.Cmd {
	m.quitting = true
	asks := m.queue
	m.queue, m.form, m.formKey = nil, nil, ""
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
			deadline := time.Now().Add(2 * time.Second)
			for len(conn.Pending()) > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
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

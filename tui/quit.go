package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// askQuit quits, first asking when elicitations are pending.
func (m *Model) askQuit() tea.Cmd {
	if m.conn != nil {
		// As they are now, not at the last poll: a question answered
		// since is not pending.
		m.pending = m.conn.Pending()
	}
	if len(m.queue) > 0 || len(m.pending) > 0 {
		if _, asking := findLayer[*layer.QuitPrompt](&m.stack); !asking {
			m.host(layer.NewQuitPrompt(&m.c, func() int { return len(m.queue) + len(inApp(m.pending)) }))
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
	conn, cancelCall, track := m.conn, m.cancelCall, m.runTrack
	return tea.Sequence(func() tea.Msg {
		for _, x := range asks {
			select {
			case x.reply <- &mcp.ElicitResult{Action: "cancel"}:
			default: // already answered
			}
		}
		if conn != nil {
			asked := len(asks) > 0 || len(conn.Pending()) > 0
			conn.DismissPending() // app sessions too: each answered cancel
			// The answers are written once nothing is pending; a call that
			// asked then ends on its own, its cancellation unable to
			// overtake them on the server's side (2 s at most: the
			// program ends).
			giveUp := time.After(2 * time.Second)
			select {
			case <-conn.PendingDone():
			case <-giveUp:
			}
			if asked && cancelCall != nil && track != nil {
				select {
				case <-track.ended:
				case <-giveUp:
				}
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

package tui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quitPrompt asks before quitting cancels pending elicitations. It is
// only a footer: what it interrupts stays drawn.
type quitPrompt struct{}

func (*quitPrompt) view(_ *Model, h int, under *level) string { return under.view(h) }

func (l *quitPrompt) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	m.close(l)
	if key.Matches(msg, m.c.keys.quit.confirm) {
		return m.quit()
	}
	return nil // any other key stays
}

func (*quitPrompt) footer(m *Model, _ *level) string {
	k := m.c.keys.quit
	return m.c.styles.warn.Render(fmt.Sprintf("%d request(s) pending: quit and cancel them? %s/%s",
		len(m.queue)+m.appPending(), k.confirm.Help().Key, k.stay.Help().Key))
}

// askQuit quits, first asking when elicitations are pending.
func (m *Model) askQuit() tea.Cmd {
	if len(m.queue) > 0 || len(m.pending) > 0 {
		if _, asking := find[*quitPrompt](m); !asking {
			m.open(&quitPrompt{})
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

package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// showHead opens the form for the first queued elicitation, if none is open.
func (m *Model) showHead() tea.Cmd {
	if m.form != nil || len(m.queue) == 0 {
		return nil
	}
	x := m.queue[0]
	if x.req.Params.Mode == "url" {
		if m.urlKey != x.req.Key { // shown as the URL consent card, from now
			m.urlKey, m.urlShown = x.req.Key, time.Now()
		}
		return nil
	}
	fr := FormRequest(x.req)
	m.form = nativeform.New(fr, nativeform.Options{Timeout: m.opts.ElicitTimeout})
	m.formKey = x.req.Key
	_, size := m.form.Update(tea.WindowSizeMsg{Width: m.c.width, Height: m.bodyHeight()})
	return tea.Batch(m.form.Init(), size)
}

// formDone settles whichever form finished.
func (m *Model) formDone(r nativeform.Result) tea.Cmd {
	if m.form != nil {
		if _, ok := m.form.Result(); ok {
			if r.Interrupted { // ctrl+c: cancel everything and quit
				return m.quit()
			}
			x := m.queue[0]
			m.queue = m.queue[1:]
			m.form, m.formKey = nil, ""
			out := &mcp.ElicitResult{Action: string(r.Action)}
			if r.Action == nativeform.Accept {
				out.Content = r.Content
			}
			return tea.Batch(answer(x, out), m.showHead())
		}
	}
	if m.argsForm != nil {
		done := m.argsDone
		m.argsForm, m.argsDone = nil, nil
		if r.Action == nativeform.Accept {
			return done(r.Content)
		}
	}
	return nil
}

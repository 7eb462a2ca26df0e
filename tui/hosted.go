// The layers of tui/layer on the overlay stack: the adapter that gives
// them the stack's place and applies the actions they return.

package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
)

// hosted is a [layer.Layer] on the stack. Layers still written against
// the Model (the layer interface) are ported to tui/layer one by one; the
// stack holds both kinds meanwhile.
type hosted struct{ l layer.Layer }

// host opens l on the stack, telling it the room it has.
func (m *Model) host(l layer.Layer) tea.Cmd {
	h := &hosted{l}
	m.open(h)
	return m.apply(h, l.Update(m.bodySize()), nil, nil)
}

func (h *hosted) view(m *Model, height int, under *level) string {
	switch h.l.(type) {
	case layer.Seethrough:
		return under.view(height)
	case layer.Banner:
		banner := h.l.View(m.c.Width, height/2) + "\n"
		return banner + under.view(height-lipgloss.Height(banner))
	}
	return h.l.View(m.c.Width, height)
}

func (h *hosted) key(m *Model, msg tea.KeyMsg, under *level) tea.Cmd {
	if _, ok := h.l.(layer.StatusFooter); ok {
		m.status = statusMsg{} // the status line stays until the next key
	}
	return m.apply(h, h.l.Update(msg), under, msg)
}

func (h *hosted) typesText() bool {
	t, ok := h.l.(layer.Typist)
	return ok && t.TypesText()
}

func (h *hosted) footer(m *Model, under *level) string {
	if _, ok := h.l.(layer.StatusFooter); ok && m.status.text != "" {
		return m.status.line(m.c.Styles)
	}
	switch l := h.l.(type) {
	case layer.Footer:
		return l.Footer(m.c.Width)
	case layer.Banner:
		return under.footer()
	}
	return m.c.KeyLine(h.l.Help()...)
}

// refresh lets a layer that shows what the program holds read it afresh.
func (h *hosted) refresh() {
	if r, ok := h.l.(layer.Refresher); ok {
		r.Refresh()
	}
}

// apply carries out what the layer h asked, at once: msg is the key that
// asked it, which a [layer.Pass] gives to what lies under h.
func (m *Model) apply(h *hosted, a layer.Action, under *level, msg tea.Msg) tea.Cmd {
	switch a := a.(type) {
	case nil:
	case layer.Close:
		m.close(h)
	case layer.Open:
		return m.host(a.Layer)
	case layer.Replace:
		next := &hosted{a.Layer}
		m.replace(h, next)
		return m.apply(next, a.Layer.Update(m.bodySize()), nil, nil)
	case layer.Pass:
		if k, ok := msg.(tea.KeyMsg); ok && under != nil {
			return under.key(k)
		}
	case layer.Cmd:
		return a.Cmd
	case layer.Batch:
		cmds := make([]tea.Cmd, 0, len(a))
		for _, each := range a {
			cmds = append(cmds, m.apply(h, each, under, msg))
		}
		return tea.Batch(cmds...)
	case layer.Quit:
		return m.quit()
	case layer.AskQuit:
		return m.askQuit()
	case layer.GetPrompt:
		return getPrompt(m.conn, &m.c, pageOf[*page.Prompts](m), &m.saved, a.Name, a.Args)
	case layer.Status:
		m.status = statusMsg{a.Text, a.Err}
	case layer.Copy:
		return copyText(a.Text, a.What)
	default: // the answers of the list and panel layers (listacts.go), and of the layers over a conversation (queue.go)
		return tea.Batch(m.applyList(a, under, msg), m.answer(a))
	}
	return nil
}

// rank is where a hosted layer opens.
func (h *hosted) rank() int {
	r, ok := h.l.(layer.Ranked)
	if !ok {
		return rankLayer
	}
	switch r.Rank() {
	case layer.Backdrop:
		return rankBackdrop
	case layer.Prompt:
		return rankPrompt
	case layer.Normal:
	}
	return rankLayer
}

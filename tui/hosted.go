// The layers of tui/layer on the overlay stack: the adapter that gives
// them the stack's place (actions.go applies the actions they return).

package tui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// hosted is a [layer.Layer] on the stack. Layers still written against
// the Model (the layer interface) are ported to tui/layer one by one; the
// stack holds both kinds meanwhile.
type hosted struct{ l layer.Layer }

// host opens l on the stack, telling it the room it has.
func (m *Model) host(l layer.Layer) tea.Cmd {
	h := &hosted{l}
	m.open(h)
	return m.do(origin{from: h}, l.Update(m.bodySize()))
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
	return m.do(origin{h, under, msg}, h.l.Update(msg))
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

// Panes: which tab shows a pane, what it holds, and the keys and mouse
// wheel that scroll it.

package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// hasPane reports whether the current tab shows a pane now.
func (m *Model) hasPane() bool {
	switch m.tab {
	case tabTools, tabPrompts, tabInfo:
		return true
	case tabResources, tabRequests, tabLog, tabCount:
	}
	return false
}

// paneFocused reports whether ↑/↓ scroll the current tab's pane: after
// → on a tab with a list beside it; always where the pane is all there is.
func (m *Model) paneFocused() bool {
	switch m.tab {
	case tabTools, tabPrompts:
		return m.focus[m.tab]
	case tabInfo:
		return m.hasPane()
	case tabResources, tabRequests, tabLog, tabCount:
	}
	return false
}

// paneKey handles the keys that focus, leave or scroll the pane,
// reporting whether the key was one of them.
func (m *Model) paneKey(msg tea.KeyMsg) bool {
	k := m.c.Keys.Tabs
	switch {
	case key.Matches(msg, k.Focus):
		if m.tab == tabTools || m.tab == tabPrompts {
			m.focus[m.tab] = true
		}
		return true
	case key.Matches(msg, k.Back):
		switch {
		case m.focus[m.tab]:
			m.focus[m.tab] = false
		}
		return true
	}
	if !m.hasPane() {
		return false
	}
	return m.panes[m.tab].Scroll(msg, k, m.paneFocused())
}

// paneSize is the size of the current tab's pane, its position line
// aside.
func (m *Model) paneSize() (w, h int) {
	h = m.bodyHeight() - 1
	switch m.tab {
	case tabTools, tabPrompts:
		return m.detailWidth(), h - m.paneBanner()
	case tabResources, tabRequests, tabLog, tabInfo, tabCount:
	}
	return m.c.Width, h
}

// syncPane gives the current tab's pane its text and size; Update calls
// it after every message.
func (m *Model) syncPane() {
	if !m.hasPane() {
		return
	}
	w, h := m.paneSize()
	if _, ok := m.pages[m.tab].(*page.Info); ok { // a page of tui/page: it holds its pane
		m.pages[m.tab].Update(page.Show{Text: m.redact(m.paneText()), Width: w, Height: h})
		return
	}
	m.panes[m.tab].Set(m.redact(m.paneText()), w, h)
}

// redact hides the secrets the connections know (-H and config
// credentials, tokens) in text about to be drawn: a server may quote one
// back. Text is redacted before it is wrapped or cut (here, and in clean
// and line), and the whole frame again (View), so that no secret shows
// whole or in part. The wire log and its connections share one set,
// redacted once (see shown).
func (m *Model) redact(text string) string { return widget.Redact(text) }

// paneText is what the current tab's pane shows.
func (m *Model) paneText() string {
	switch m.tab {
	case tabTools:
		return m.withFailure(m.toolText())
	case tabPrompts:
		return m.promptText()
	case tabResources, tabRequests, tabLog, tabInfo, tabCount:
	}
	return m.withFailure(infoText(&m.c, m.conn))
}

// paneView draws the current tab's pane, extra (a hint) on its last line.
func (m *Model) paneView(extra string) string {
	return m.panes[m.tab].View(&m.c, extra)
}

// wheel scrolls the current tab's pane with the mouse wheel, while the
// tabs are on top (the app card leaves them usable).
func (m *Model) wheel(msg tea.MouseMsg) {
	switch m.top().layer().(type) {
	case tabsLayer, *appCard:
	default:
		return
	}
	if _, ok := m.pages[m.tab].(tabPage); !ok { // a page of tui/page: it holds its pane
		m.pages[m.tab].Update(msg)
		return
	}
	if m.hasPane() {
		m.panes[m.tab].Wheel(msg)
	}
}

// The panes of the tabs the Model still draws (Tools and Prompts, through
// tabPage): what they hold, and the keys that focus and scroll them. The
// pages of tui/page hold their own panes; once every tab is one, this
// file goes.

package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// paneKey handles the keys that focus, leave or scroll the pane,
// reporting whether the key was one of them.
func (m *Model) paneKey(msg tea.KeyMsg) bool {
	k := m.c.Keys.Tabs
	switch {
	case key.Matches(msg, k.Focus):
		m.focus[m.tab] = true
		return true
	case key.Matches(msg, k.Back):
		m.focus[m.tab] = false
		return true
	}
	return m.panes[m.tab].Scroll(msg, k, m.focus[m.tab])
}

// syncPane gives the current tab's pane its text and size, its position
// line aside; Update calls it after every message.
func (m *Model) syncPane() {
	if _, ok := m.pages[m.tab].(tabPage); !ok {
		return
	}
	h := m.bodyHeight() - 1 - m.paneBanner()
	m.panes[m.tab].Set(m.redact(m.paneText()), m.detailWidth(), h)
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
	if m.tab == tabTools {
		return m.withFailure(m.toolText())
	}
	return m.promptText()
}

// paneView draws the current tab's pane, extra (a hint) on its last line.
func (m *Model) paneView(extra string) string {
	return m.panes[m.tab].View(&m.c, extra)
}

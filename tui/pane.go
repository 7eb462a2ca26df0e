package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// paneLines bounds the text a pane holds: far more than anyone scrolls
// through, so that a huge result does not cost a huge wrap.
const paneLines = 5000

// pane is a tab's scrollable detail: a tool's description and result, a
// resource, a prompt, an elicitation's record, a log message, the Info
// tab. It holds the text wrapped to its width; the model gives it its
// text and size after every message (Model.syncPane), so that keys scroll
// what is on the screen and View only draws.
type pane struct {
	vp    viewport.Model
	text  string // as given, before wrapping
	width int
}

// set gives the pane its text and size. New text shows from its top; a
// new width keeps the place.
func (p *pane) set(text string, width, height int) {
	p.vp.Width, p.vp.Height = width, max(height, 1)
	if text == p.text && width == p.width {
		p.vp.SetYOffset(p.vp.YOffset) // clamp to the new height
		return
	}
	if text != p.text {
		p.vp.GotoTop()
	}
	p.text, p.width = text, width
	p.vp.SetContent(wrap(text, width))
	p.vp.SetYOffset(p.vp.YOffset)
}

// scroll moves the pane for a key, reporting whether the key scrolls.
// ↑/↓ scroll only a focused pane; elsewhere they move the list.
func (p *pane) scroll(msg tea.KeyMsg, k tabKeys, focused bool) bool {
	switch {
	case focused && key.Matches(msg, k.up):
		p.vp.ScrollUp(1)
	case focused && key.Matches(msg, k.down):
		p.vp.ScrollDown(1)
	case key.Matches(msg, k.pageUp):
		p.vp.PageUp()
	case key.Matches(msg, k.pageDown):
		p.vp.PageDown()
	case key.Matches(msg, k.top):
		p.vp.GotoTop()
	case key.Matches(msg, k.bottom):
		p.vp.GotoBottom()
	default:
		return false
	}
	return true
}

// position says which lines show: "41–60 of 300", or "" when all do.
func (p *pane) position() string {
	total := p.vp.TotalLineCount()
	if total <= p.vp.Height {
		return ""
	}
	first := p.vp.YOffset + 1
	return fmt.Sprintf("%d–%d of %d", first, min(p.vp.YOffset+p.vp.Height, total), total)
}

// view draws the pane's lines, then a line with extra (a hint) and its
// position.
func (p *pane) view(c *common, extra string) string {
	status := extra
	if pos := p.position(); pos != "" {
		if status != "" {
			status += c.styles.dim.Render(" · ")
		}
		status += c.styles.dim.Render(pos)
	}
	return p.vp.View() + "\n" + fit(status, p.vp.Width)
}

// wrap wraps text to width at spaces and JSON punctuation, never inside a
// word that fits on a line. An indented line (nested JSON) keeps its
// indentation, and a little more, where it wraps.
func wrap(text string, width int) string {
	width = max(width, 1)
	text = cutText(text, paneLines*(width+1))
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	if len(lines) > paneLines {
		lines = append(lines[:paneLines], "…")
	}
	var out []string
	for _, l := range lines {
		if ansi.StringWidth(l) <= width {
			out = append(out, l)
			continue
		}
		pad := ""
		if indent := len(l) - len(strings.TrimLeft(l, " ")); indent > 0 && indent+2 <= width/2 {
			pad = strings.Repeat(" ", indent+2)
		}
		first := true
		for _, w := range strings.Split(ansi.Wrap(l, width-len(pad), ",:"), "\n") {
			if first {
				out = append(out, w)
				first = false
				continue
			}
			for _, ww := range strings.Split(ansi.Wrap(strings.TrimLeft(w, " "), width-len(pad), ",:"), "\n") {
				out = append(out, pad+ww)
			}
		}
	}
	return strings.Join(out, "\n")
}

// prettyText pretty-prints text that is JSON, and leaves other text as
// it is.
func prettyText(s string) string {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return s
	}
	var b bytes.Buffer
	if json.Indent(&b, []byte(t), "", "  ") != nil {
		return s
	}
	return b.String()
}

// hasPane reports whether the current tab shows a pane now.
func (m *Model) hasPane() bool {
	switch m.tab {
	case tabRequests, tabLog:
		return m.expandedEntry() >= 0
	case tabTools, tabResources, tabPrompts, tabInfo:
		return true
	case tabCount:
	}
	return false
}

// paneFocused reports whether ↑/↓ scroll the current tab's pane: after
// → on a tab with a list beside it; always where the pane is all there is.
func (m *Model) paneFocused() bool {
	switch m.tab {
	case tabTools, tabResources, tabPrompts:
		return m.focus[m.tab]
	case tabRequests, tabLog, tabInfo:
		return m.hasPane()
	case tabCount:
	}
	return false
}

// paneKey handles the keys that focus, leave or scroll the pane,
// reporting whether the key was one of them.
func (m *Model) paneKey(msg tea.KeyMsg) bool {
	k := m.c.keys.tabs
	switch {
	case key.Matches(msg, k.focus):
		if m.tab == tabTools || m.tab == tabResources || m.tab == tabPrompts {
			m.focus[m.tab] = true
		}
		return true
	case key.Matches(msg, k.back):
		switch {
		case m.focus[m.tab]:
			m.focus[m.tab] = false
		case m.expandable():
			m.expanded[m.tab] = -1
		}
		return true
	}
	if !m.hasPane() {
		return false
	}
	return m.panes[m.tab].scroll(msg, k, m.paneFocused())
}

// paneSize is the size of the current tab's pane, its position line
// aside.
func (m *Model) paneSize() (w, h int) {
	h = m.bodyHeight() - 1
	switch m.tab {
	case tabTools, tabResources, tabPrompts:
		return m.detailWidth(), h - m.paneBanner()
	case tabRequests, tabLog, tabInfo, tabCount:
	}
	return m.c.width, h
}

// syncPane gives the current tab's pane its text and size; Update calls
// it after every message.
func (m *Model) syncPane() {
	if !m.hasPane() {
		return
	}
	w, h := m.paneSize()
	m.panes[m.tab].set(m.redact(m.paneText()), w, h)
}

// redact hides the secrets the connections know (-H and config
// credentials, tokens) in text about to be drawn: a server may quote one
// back. Text is redacted before it is wrapped or cut (here, and in clean
// and line), and the whole frame again (View), so that no secret shows
// whole or in part. The wire log and its connections share one set,
// redacted once (see shown).
func (m *Model) redact(text string) string { return redactShown(text) }

// paneText is what the current tab's pane shows.
func (m *Model) paneText() string {
	switch m.tab {
	case tabTools:
		return m.withFailure(m.toolText())
	case tabResources:
		return m.resourceText()
	case tabPrompts:
		return m.promptText()
	case tabRequests:
		return m.recordText()
	case tabLog:
		return m.logText()
	case tabInfo, tabCount:
	}
	return m.withFailure(infoText(&m.c, m.conn))
}

// paneView draws the current tab's pane, extra (a hint) on its last line.
func (m *Model) paneView(extra string) string {
	return m.panes[m.tab].view(&m.c, extra)
}

// wheelLines is how far one turn of the mouse wheel scrolls a pane.
const wheelLines = 3

// wheel scrolls the current tab's pane with the mouse wheel, while the
// tabs are on top (the app card leaves them usable).
func (m *Model) wheel(msg tea.MouseMsg) {
	switch m.top().layer().(type) {
	case tabsLayer, *appCard:
	default:
		return
	}
	if !m.hasPane() || msg.Action != tea.MouseActionPress {
		return
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		m.panes[m.tab].vp.ScrollUp(wheelLines)
	case tea.MouseButtonWheelDown:
		m.panes[m.tab].vp.ScrollDown(wheelLines)
	}
}

package widget

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/keys"
)

// paneLines bounds the text a pane holds: far more than anyone scrolls
// through, so that a huge result does not cost a huge wrap.
const paneLines = 5000

// Pane is a tab's scrollable detail: a tool's description and result, a
// resource, a prompt, an elicitation's record, a log message, the Info
// tab. It holds the text wrapped to its width; its page (or the model,
// for a tab it still draws) gives it its text and size after every
// message, so that keys scroll what is on the screen and View only draws.
type Pane struct {
	Viewport viewport.Model
	text     string // as given, before wrapping
	width    int
}

// Set gives the pane its text and size. New text shows from its top; a
// new width keeps the place.
func (p *Pane) Set(text string, width, height int) {
	p.Viewport.Width, p.Viewport.Height = width, max(height, 1)
	if text == p.text && width == p.width {
		p.Viewport.SetYOffset(p.Viewport.YOffset) // clamp to the new height
		return
	}
	if text != p.text {
		p.Viewport.GotoTop()
	}
	p.text, p.width = text, width
	p.Viewport.SetContent(Wrap(text, width))
	p.Viewport.SetYOffset(p.Viewport.YOffset)
}

// Scroll moves the pane for a key, reporting whether the key scrolls.
// ↑/↓ scroll only a focused pane; elsewhere they move the list.
func (p *Pane) Scroll(msg tea.KeyMsg, k keys.Tabs, focused bool) bool {
	switch {
	case focused && key.Matches(msg, k.Up):
		p.Viewport.ScrollUp(1)
	case focused && key.Matches(msg, k.Down):
		p.Viewport.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		p.Viewport.PageUp()
	case key.Matches(msg, k.PageDown):
		p.Viewport.PageDown()
	case key.Matches(msg, k.Top):
		p.Viewport.GotoTop()
	case key.Matches(msg, k.Bottom):
		p.Viewport.GotoBottom()
	default:
		return false
	}
	return true
}

// WheelLines is how far one turn of the mouse wheel scrolls a pane.
const WheelLines = 3

// Wheel scrolls the pane for a turn of the mouse wheel.
func (p *Pane) Wheel(msg tea.MouseMsg) {
	if msg.Action != tea.MouseActionPress {
		return
	}
	switch msg.Button {
	case tea.MouseButtonWheelUp:
		p.Viewport.ScrollUp(WheelLines)
	case tea.MouseButtonWheelDown:
		p.Viewport.ScrollDown(WheelLines)
	}
}

// position says which lines show: "41–60 of 300", or "" when all do.
func (p *Pane) position() string {
	total := p.Viewport.TotalLineCount()
	if total <= p.Viewport.Height {
		return ""
	}
	first := p.Viewport.YOffset + 1
	return fmt.Sprintf("%d–%d of %d", first, min(p.Viewport.YOffset+p.Viewport.Height, total), total)
}

// View draws the pane's lines, then a line with extra (a hint) and its
// position.
func (p *Pane) View(c *Common, extra string) string {
	status := extra
	if pos := p.position(); pos != "" {
		if status != "" {
			status += c.Styles.Dim.Render(" · ")
		}
		status += c.Styles.Dim.Render(pos)
	}
	return p.Viewport.View() + "\n" + Fit(status, p.Viewport.Width)
}

// Wrap wraps text to width at spaces and JSON punctuation, never inside a
// word that fits on a line. An indented line (nested JSON) keeps its
// indentation, and a little more, where it wraps.
func Wrap(text string, width int) string {
	width = max(width, 1)
	text = CutText(text, paneLines*(width+1))
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

// PrettyText pretty-prints text that is JSON, and leaves other text as
// it is.
func PrettyText(s string) string {
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

// The Info tab: how mcpeek is authorized, the roots offered, both sides'
// capabilities and the server's instructions, in a scrollable pane.

package page

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Info is the Info tab: one pane, scrolled by ↑↓, the pages, g/G and the
// mouse wheel. Its text comes from the program in [Show].
type Info struct {
	c    *widget.Common
	pane widget.Pane
	text string
}

// NewInfo is the Info tab, drawn with c's styles and keys.
func NewInfo(c *widget.Common) *Info { return &Info{c: c} }

// Title is "Info".
func (*Info) Title() string { return "Info" }

// Help is the pane's keys (no list to go back to).
func (p *Info) Help() []key.Binding { return p.c.Keys.Tabs.PaneHelp(false) }

// Update takes the text to show, and the keys and wheel that scroll it.
func (p *Info) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case Show:
		p.text = msg.Text
		p.pane.Set(msg.Text, msg.Width, msg.Height)
	case tea.MouseMsg:
		p.pane.Wheel(msg)
	case tea.KeyMsg:
		k := p.c.Keys.Tabs
		if key.Matches(msg, k.Focus, k.Back) { // the pane is all there is: always focused
			return nil
		}
		if !p.pane.Scroll(msg, k, true) {
			return layer.Pass{}
		}
	}
	return nil
}

// View draws the pane as last sized by [Show].
func (p *Info) View(int, int) string { return p.pane.View(p.c, "") }

// Copy is the text shown, as y copies it.
func (p *Info) Copy() string { return ansi.Strip(p.text) }

// Focus does nothing: the pane keeps its place while another tab shows.
func (*Info) Focus(bool) {}

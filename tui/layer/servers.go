// The server picker (S): the servers the person's MCP configs name; enter
// connects to the one selected in place of the current server.

package layer

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Server is one server the configs name, as the picker lists it.
type Server struct {
	Name      string
	Transport string // stdio, http or sse; "" when the entry is not valid
	What      string // its command line or URL as the config writes it
	Source    string // the config file, and whose it is
	Note      string // shadowed, disabled, or why it cannot be used
	Current   bool   // the server the inspector is for
	Usable    bool   // it can be connected to from the inspector (else Note says why)
}

// ServerPicked asks the program to connect to the Index-th server listed
// in place of the current one.
type ServerPicked struct{ Index int }

// ServerPicker lists the servers; the cursor starts on the current one.
type ServerPicker struct {
	c       *widget.Common
	servers []Server
	list    widget.List
}

// NewServerPicker is the picker on servers, the current one selected.
func NewServerPicker(c *widget.Common, servers []Server) *ServerPicker {
	p := &ServerPicker{c: c, servers: servers}
	p.list.SetLen(len(servers))
	for i, s := range servers {
		if s.Current {
			p.list.Select(i)
		}
	}
	return p
}

// Update moves the selection, or picks, goes back or quits.
func (p *ServerPicker) Update(msg tea.Msg) Action {
	m, ok := msg.(tea.KeyMsg)
	if !ok {
		return nil
	}
	k := ServerKeys
	switch {
	case key.Matches(m, k.Up):
		p.list.Move(-1)
	case key.Matches(m, k.Down):
		p.list.Move(1)
	case key.Matches(m, k.Back):
		return Close{}
	case key.Matches(m, k.Quit):
		return AskQuit{}
	case key.Matches(m, k.Choose) && len(p.servers) > 0:
		i := p.list.Cursor()
		e := p.servers[i]
		switch {
		case !e.Usable:
			return Status{"cannot connect to " + widget.Clean(e.Name) + ": " + widget.Clean(e.Note), true}
		case e.Current:
			return Batch{Close{}, Status{"already connected to " + widget.Clean(e.Name) + " (r reconnects)", false}}
		}
		return Batch{Close{}, Status{"connecting to " + widget.Clean(e.Name) + "…", false}, ServerPicked{i}}
	}
	return nil
}

// View lists the servers, with where the selected one comes from.
func (p *ServerPicker) View(width, height int) string {
	s := p.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("Servers") + "\n")
	note := "The servers your MCP configs name. Enter connects to the one selected instead of the current server; the wire log, roots and log level stay."
	b.WriteString(widget.Block(s.Dim.Render(note), width, 3) + "\n\n")
	nameW := 4
	for _, e := range p.servers {
		nameW = min(max(nameW, lipgloss.Width(widget.Line(e.Name, 24))), 24)
	}
	rows := max(height-lipgloss.Height(b.String())-3, 2) // the selected row, and the position line
	list := make([]widget.Row, len(p.servers))
	for i, e := range p.servers {
		transport := e.Transport
		if transport == "" {
			transport = "invalid"
		}
		row := fmt.Sprintf("%-*s  %-7s  %s", nameW, widget.Line(e.Name, nameW), widget.Line(transport, 7), widget.Line(e.What, width))
		if e.Current {
			row += "  (current)"
		}
		list[i] = widget.Row{Name: widget.Fit(row, max(width-2, 10)), Drawn: true}
		if !e.Usable {
			list[i].Style = &s.Dim
		}
	}
	if len(list) > 0 {
		b.WriteString(p.list.Rows(p.c, list, width, rows) + "\n")
	}
	if len(p.servers) > 0 {
		e := p.servers[p.list.Cursor()]
		b.WriteString("\n" + s.Dim.Render(widget.Line("from "+widget.Clean(e.Source), width)))
		if e.Note != "" {
			b.WriteString("\n" + s.Warn.Render(widget.Line(widget.Clean(e.Note), width)))
		}
	}
	return widget.Block(strings.TrimRight(b.String(), "\n"), width, height)
}

// Help is the picker's keys.
func (p *ServerPicker) Help() []key.Binding { return ServerKeys.ShortHelp() }

// StatusFooter: what picking did shows in the footer until the next key.
func (*ServerPicker) StatusFooter() {}

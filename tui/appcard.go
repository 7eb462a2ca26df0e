package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// appCard shows, above the tabs, an elicitation being answered in its app
// in the browser. The tabs stay usable under it: it takes only n, which
// answers natively instead, and hands them every other key and the footer.
type appCard struct{}

func (*appCard) view(m *Model, h int, under *level) string {
	card := m.appCardView(h/2) + "\n"
	return card + under.view(h-lipgloss.Height(card))
}

func (*appCard) key(m *Model, msg tea.KeyMsg, under *level) tea.Cmd {
	// While a filter is typed, n is a letter of it.
	if !key.Matches(msg, m.c.Keys.App.Abandon) || m.filtering() || m.conn == nil {
		return under.key(msg)
	}
	for _, p := range m.pending {
		if p.Path == mcpclient.PathApp {
			m.conn.AbandonApp(p.Key)
			break
		}
	}
	return nil
}

func (*appCard) footer(_ *Model, under *level) string { return under.footer() }

// showAppCard opens the app card while an elicitation is answered in its
// app, and closes it when none is.
func (m *Model) showAppCard() {
	card, shown := find[*appCard](m)
	switch {
	case m.appPending() > 0 && !shown:
		m.open(&appCard{})
	case m.appPending() == 0 && shown:
		m.close(card)
	}
}

// appPending is how many elicitations are being answered in their app.
func (m *Model) appPending() int {
	n := 0
	for _, p := range m.pending {
		if p.Path == mcpclient.PathApp {
			n++
		}
	}
	return n
}

// appCardView is the card for the requests answered in the browser, in at
// most about budget lines: as many requests as fit, each with its URL whole,
// then how many more there are.
func (m *Model) appCardView(budget int) string {
	s := m.c.Styles
	var inApp []mcpclient.Pending
	for _, p := range m.pending {
		if p.Path == mcpclient.PathApp {
			inApp = append(inApp, p)
		}
	}
	if len(inApp) == 0 {
		return ""
	}
	var ssh string
	if m.opts.AppSSHHint != "" && m.opts.AppURL != nil {
		ssh = "\n" + s.Dim.Render("over SSH, forward the port first:") + "\n" + wrapWhole(m.opts.AppSSHHint, m.c.Width)
	}
	used := 3 + lipgloss.Height(ssh) // the box's frame and heading, and the SSH lines
	var rows, links []string
	for i, p := range inApp {
		row := s.Dim.Render(p.Key+" · ") + widget.Line(p.Message, m.c.Width-16) + "\n" +
			s.Dim.Render("     app "+widget.Line(p.ResourceURI, m.c.Width-20))
		var link string
		if m.opts.AppURL != nil {
			if u, ok := m.opts.AppURL(p.Key); ok {
				// Whole, wrapped at the edge rather than cut, so that every
				// character of it can be copied.
				link = s.Dim.Render("open "+p.Key+":") + "\n" + wrapWhole(u, m.c.Width)
			}
		}
		need := 2 + lipgloss.Height(link)
		if i > 0 && used+need+1 > budget { // keep a line to say how many more
			rows = append(rows, s.Dim.Render(fmt.Sprintf("… and %d more in the browser", len(inApp)-i)))
			break
		}
		used += need
		rows = append(rows, row)
		if link != "" {
			links = append(links, link)
		}
	}
	abandon := m.c.Keys.App.Abandon.Help()
	text := s.Title.Render(fmt.Sprintf("answering in the browser (%d)", len(inApp))) +
		s.Dim.Render(fmt.Sprintf(" · %s answers %s natively instead", abandon.Key, inApp[0].Key)) +
		"\n" + strings.Join(rows, "\n")
	card := s.Box.Width(max(m.c.Width-4, 20)).Render(text)
	if len(links) > 0 {
		card += "\n" + strings.Join(links, "\n") + ssh
	}
	return card
}

// wrapWhole breaks a URL or a command at the edge, wherever it falls, so
// that none of it is cut and its spaces survive for copying.
func wrapWhole(s string, width int) string { return ansi.Hardwrap(s, max(width, 10), true) }

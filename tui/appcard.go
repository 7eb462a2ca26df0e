package tui

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// appCard shows, above the tabs, an elicitation being answered in its app
// in the browser. The tabs stay usable under it: it takes only n, which
// answers natively instead, and hands them every other key and the footer.
type appCard struct{}

func (*appCard) view(m *Model, h int, under *level) string {
	card := m.appCardView() + "\n"
	return card + under.view(h-lipgloss.Height(card))
}

func (*appCard) key(m *Model, msg tea.KeyMsg, under *level) tea.Cmd {
	// While a filter is typed, n is a letter of it.
	if !key.Matches(msg, m.c.keys.app.abandon) || m.filtering() || m.conn == nil {
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

func (m *Model) appCardView() string {
	s := m.c.styles
	for _, p := range m.pending {
		if p.Path != mcpclient.PathApp {
			continue
		}
		abandon := m.c.keys.app.abandon.Help()
		text := s.title.Render("answering in the browser: ") + line(p.Message, m.c.width-34) + "\n" +
			s.dim.Render(fmt.Sprintf("%s · app %s · %s answers natively instead", p.Key, line(p.ResourceURI, 40), abandon.Key))
		card := s.box.Width(max(m.c.width-4, 20)).Render(text)
		if m.opts.AppURL != nil {
			if u, ok := m.opts.AppURL(p.Key); ok {
				// On its own line, unwrapped, so it can be copied whole.
				card += "\n" + s.dim.Render("open: ") + u
			}
		}
		return card
	}
	return ""
}

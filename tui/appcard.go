package tui

import (
	"fmt"

	"github.com/mcpeek/mcpeek/mcpclient"
)

func (m *Model) appPending() int {
	n := 0
	for _, p := range m.pending {
		if p.Path == mcpclient.PathApp {
			n++
		}
	}
	return n
}

func (m *Model) appCard() string {
	s := m.c.styles
	for _, p := range m.pending {
		if p.Path != mcpclient.PathApp {
			continue
		}
		text := s.title.Render("answering in the browser: ") + line(p.Message, m.c.width-34) + "\n" +
			s.dim.Render(fmt.Sprintf("%s · app %s · n answers natively instead", p.Key, line(p.ResourceURI, 40)))
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

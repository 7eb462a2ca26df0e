package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
)

type keyMap struct {
	next, prev, quit, help, reconnect, enter, back, up, down, filter key.Binding
	tabs                                                             [tabCount]key.Binding
	nextPending, abandon, openURL                                    key.Binding
}

func newKeyMap() keyMap {
	k := keyMap{
		next:        key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next tab")),
		prev:        key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous tab")),
		quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "keys")),
		reconnect:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reconnect")),
		enter:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open / call")),
		back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		nextPending: key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "next pending elicitation")),
		abandon:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "answer natively instead")),
	}
	for i := range k.tabs {
		n := string(rune('1' + i))
		k.tabs[i] = key.NewBinding(key.WithKeys(n), key.WithHelp(n, tabNames[i]))
	}
	return k
}

func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	// Fast typing, a paste or a slow link can deliver several characters
	// as one key event: outside forms, take them one by one.
	if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && m.topForm() == nil && m.jsonEdit == nil && !msg.Paste {
		var cmds []tea.Cmd
		for _, r := range msg.Runes {
			cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
		}
		return tea.Batch(cmds...)
	}
	if m.confirmQuit {
		m.confirmQuit = false
		if msg.String() == "y" || msg.String() == "q" {
			return m.quit()
		}
		return nil
	}
	if m.form == nil && m.jsonEdit != nil {
		return m.jsonKey(msg)
	}
	if f := m.topForm(); f != nil {
		if m.form != nil && key.Matches(msg, m.c.keys.nextPending) && len(m.queue) > 1 {
			// Put the head back at the end: the next one opens.
			m.queue = append(m.queue[1:], m.queue[0])
			m.form, m.formKey = nil, ""
			return m.showHead()
		}
		_, cmd := f.Update(msg)
		return cmd
	}
	if m.urlHead() && !key.Matches(msg, m.c.keys.quit) {
		return m.urlConsentKey(msg)
	}
	if m.showHelp {
		m.showHelp = false
		return nil
	}
	k := m.c.keys
	if m.pick[m.tab].filtering {
		m.pick[m.tab].update(msg, &m.c, m.listLen())
		return nil
	}
	switch {
	case key.Matches(msg, k.quit):
		if len(m.queue) > 0 || len(m.pending) > 0 {
			m.confirmQuit = true
			return nil
		}
		return m.quit()
	case key.Matches(msg, k.help):
		m.showHelp = true
	case key.Matches(msg, k.next):
		m.tab = (m.tab + 1) % tabCount
	case key.Matches(msg, k.prev):
		m.tab = (m.tab + tabCount - 1) % tabCount
	case key.Matches(msg, k.reconnect) && m.state != stateConnecting:
		// Disconnect (pending elicitations end with the connection) and
		// connect anew, without restarting.
		if old := m.conn; old != nil {
			m.conn = nil
			m.tools, m.resources, m.templates, m.prompts = nil, nil, nil, nil
			return tea.Sequence(func() tea.Msg { _ = old.Close(); return nil }, m.connect())
		}
		return m.connect()
	case key.Matches(msg, k.abandon) && len(m.pending) > 0 && m.conn != nil:
		for _, p := range m.pending {
			if p.Path == mcpclient.PathApp {
				m.conn.AbandonApp(p.Key)
				break
			}
		}
	case key.Matches(msg, k.back) && m.running != "" && m.cancelCall != nil:
		m.cancelCall()
	case key.Matches(msg, k.enter):
		return m.enter()
	default:
		for i, b := range k.tabs {
			if key.Matches(msg, b) {
				m.tab = tab(i)
				return nil
			}
		}
		if m.expandable() && msg.String() == "x" {
			m.expanded[m.tab] = -1
			return nil
		}
		m.pick[m.tab].update(msg, &m.c, m.listLen())
	}
	return nil
}

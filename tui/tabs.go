package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// tab is one of the inspector's tabs, in the order of the tab bar.
type tab int

// The tabs.
const (
	tabTools tab = iota
	tabResources
	tabPrompts
	tabRequests // the server's requests to mcpeek: elicitations, sampling, roots
	tabLog
	tabInfo
	tabCount
)

var tabNames = [tabCount]string{"Tools", "Resources", "Prompts", "Requests", "Log", "Info"}

func (m *Model) tabBar() string {
	var parts []string
	for i, p := range m.pages {
		label := fmt.Sprintf("%d %s", i+1, p.Title())
		if tab(i) == m.tab {
			parts = append(parts, m.c.Styles.ActiveTab.Render(label))
		} else {
			parts = append(parts, m.c.Styles.Tab.Render(label))
		}
	}
	return widget.Fit(strings.Join(parts, ""), m.c.Width)
}

// tabView draws the current tab in h lines.
func (m *Model) tabView(h int) string { return m.pages[m.tab].View(m.c.Width, h) }

// tabsLayer is the tabs themselves, under every layer.
type tabsLayer struct{}

func (tabsLayer) view(m *Model, h int, _ *level) string { return m.tabView(h) }

func (tabsLayer) footer(m *Model, _ *level) string {
	k := m.c.Keys
	switch {
	case m.filtering():
		return m.c.KeyLine(k.Filter.ShortHelp()...)
	case m.running != "":
		status := fmt.Sprintf("%scalling %s… %s%s", m.spinner.View(), m.running, time.Since(m.runStart).Round(time.Second), page.ProgressBrief(m.progress))
		return m.c.Styles.Dim.Render(status+" · ") + m.c.KeyLine(keys.Hint(k.Tabs.CancelCall.Help().Key, "cancels the call", k.Tabs.CancelCall))
	case m.status.text != "":
		return m.statusLine()
	}
	return m.c.KeyLine(m.pages[m.tab].Help()...)
}

func (tabsLayer) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Tabs
	m.status = statusMsg{} // the status line stays until the next key
	if m.filtering() {
		if key.Matches(msg, m.c.Keys.Filter.Quit) {
			return m.askQuit()
		}
		return m.pageKey(msg)
	}
	if t, ok := k.JumpTo(msg); ok {
		m.show(tab(t))
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Help):
		m.host(layer.NewHelpScreen(&m.c))
	case key.Matches(msg, k.Next):
		m.show((m.tab + 1) % tab(len(m.pages)))
	case key.Matches(msg, k.Prev):
		m.show((m.tab + tab(len(m.pages)) - 1) % tab(len(m.pages)))
	case key.Matches(msg, k.Reconnect, k.Roots, k.Authorize, k.Apps, k.Tasks, k.Servers, k.Lock):
		return m.connectionKey(msg)
	case key.Matches(msg, k.CancelCall):
		if m.cancelCall != nil {
			m.cancelCall()
		}
	case key.Matches(msg, k.LogLevel):
		return m.openLevelPicker()
	case key.Matches(msg, k.Copy):
		return m.copyPane()
	case key.Matches(msg, k.Save):
		return m.askSave()
	default:
		return m.pageKey(msg)
	}
	return nil
}

// connectionKey takes the keys about the connection rather than a tab:
// reconnect, roots, sign in, the apps and tasks it opened, another server,
// the changes since the project's surface lock.
func (m *Model) connectionKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.Keys.Tabs
	switch {
	case key.Matches(msg, k.Reconnect):
		return m.reconnect()
	case key.Matches(msg, k.Roots):
		m.host(layer.NewRoots(&m.c, connRoots(m.conn), func() bool { return m.conn != nil }))
	case key.Matches(msg, k.Authorize):
		return m.authorize()
	case key.Matches(msg, k.Apps):
		m.host(layer.NewApps(&m.c, appHostLine(m.opts), func() []layer.App { return m.apps.shown(&m.c) },
			func(i int) string { return m.redact(appText(&m.c, &m.opts, m.apps.list[i])) }))
	case key.Matches(msg, k.Tasks):
		m.host(layer.NewTasks(&m.c, func() []layer.Task { return m.tasks.shown() }, func() []mcpclient.Record { return m.records }))
	case key.Matches(msg, k.Servers):
		return m.openServers()
	case key.Matches(msg, k.Lock):
		m.host(layer.NewLock(&m.c, func() layer.LockCheck { return m.lock.of(m.conn, m.opts.Dir) }))
	}
	return nil
}

// filtering reports whether a list's filter is being typed.
func (m *Model) filtering() bool {
	f, ok := m.pages[m.tab].(page.Filterer)
	return ok && f.Filtering()
}

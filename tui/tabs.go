package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
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
	for i, name := range tabNames {
		label := fmt.Sprintf("%d %s", i+1, name)
		if tab(i) == m.tab {
			parts = append(parts, m.c.styles.activeTab.Render(label))
		} else {
			parts = append(parts, m.c.styles.tab.Render(label))
		}
	}
	return fit(strings.Join(parts, ""), m.c.width)
}

// listLen is how many entries the current tab lists.
func (m *Model) listLen() int {
	switch m.tab {
	case tabTools:
		return len(m.visibleTools())
	case tabResources:
		return len(m.visibleResources())
	case tabPrompts:
		return len(m.prompts)
	case tabRequests:
		return len(m.records)
	case tabLog:
		return len(m.wire)
	case tabInfo, tabCount:
	}
	return 0
}

// expandable reports whether the current tab shows an entry whole on
// enter (and closes it again).
func (m *Model) expandable() bool { return m.tab == tabRequests || m.tab == tabLog }

// closesHint is the line under an expanded entry: how to close it.
func (m *Model) closesHint() string {
	k := m.c.keys.tabs.collapse
	return m.c.keyLine(hint(k.Help().Key, "closes", k))
}

// enter acts on the selected item of the current tab.
func (m *Model) enter() tea.Cmd {
	p := m.pick[m.tab]
	switch m.tab {
	case tabTools:
		tools := m.visibleTools()
		if p.cursor >= len(tools) {
			return nil
		}
		return m.openTool(tools[p.cursor])
	case tabResources:
		return m.openResource()
	case tabPrompts:
		if p.cursor < len(m.prompts) && m.conn != nil {
			return m.openPrompt(m.prompts[p.cursor])
		}
	case tabRequests, tabLog:
		m.expanded[m.tab] = p.cursor
	case tabInfo, tabCount:
	}
	return nil
}

// tabView draws the current tab in h lines.
func (m *Model) tabView(h int) string {
	switch m.tab {
	case tabTools:
		return m.toolsView(h)
	case tabResources:
		return m.resourcesView(h)
	case tabPrompts:
		return m.promptsView(h)
	case tabRequests:
		return m.requestsView(h)
	case tabLog:
		return m.logView(h)
	case tabInfo, tabCount:
	}
	return m.paneView("")
}

// tabsLayer is the tabs themselves, under every layer.
type tabsLayer struct{}

func (tabsLayer) view(m *Model, h int, _ *level) string { return m.tabView(h) }

func (tabsLayer) footer(m *Model, _ *level) string {
	k := m.c.keys
	switch {
	case m.filtering():
		return m.c.keyLine(k.filter.ShortHelp()...)
	case m.running != "":
		status := fmt.Sprintf("%scalling %s… %s%s", m.spinner.View(), m.running, time.Since(m.runStart).Round(time.Second), m.progressBrief())
		return m.c.styles.dim.Render(status+" · ") + m.c.keyLine(hint(k.tabs.cancelCall.Help().Key, "cancels the call", k.tabs.cancelCall))
	case m.status.text != "":
		return m.statusLine()
	}
	if m.paneFocused() {
		return m.c.keyLine(k.tabs.paneHelp(m.tab != tabInfo)...)
	}
	return m.c.keyLine(k.tabs.ShortHelp()...)
}

func (tabsLayer) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.keys.tabs
	m.status = statusMsg{} // the status line stays until the next key
	if m.filtering() {
		if key.Matches(msg, m.c.keys.filter.quit) {
			return m.askQuit()
		}
		m.pick[m.tab].update(msg, &m.c, m.listLen())
		return nil
	}
	if t, ok := k.tabFor(msg); ok {
		m.tab = t
		return nil
	}
	switch {
	case key.Matches(msg, k.quit):
		return m.askQuit()
	case key.Matches(msg, k.help):
		m.open(&helpScreen{})
	case key.Matches(msg, k.next):
		m.tab = (m.tab + 1) % tabCount
	case key.Matches(msg, k.prev):
		m.tab = (m.tab + tabCount - 1) % tabCount
	case key.Matches(msg, k.reconnect, k.roots, k.authorize, k.apps, k.tasks, k.servers):
		return m.connectionKey(msg)
	case m.entryKey(msg):
		return m.entryCmd(msg)
	case key.Matches(msg, k.cancelCall):
		if m.cancelCall != nil {
			m.cancelCall()
		}
	case key.Matches(msg, k.open):
		return m.enter()
	case key.Matches(msg, k.logView, k.logLevel, k.subscribe):
		return m.notifyKey(msg)
	case key.Matches(msg, k.copy):
		return m.copyPane()
	case key.Matches(msg, k.save):
		return m.askSave()
	case m.logKey(msg):
	case key.Matches(msg, k.collapse):
		if m.expandable() {
			m.expanded[m.tab] = -1
		}
	case m.stepResult(msg):
	case m.paneKey(msg):
	default:
		m.pick[m.tab].update(msg, &m.c, m.listLen())
	}
	return nil
}

// connectionKey takes the keys about the connection rather than a tab:
// reconnect, roots, sign in, the apps and tasks it opened, another server.
func (m *Model) connectionKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys.tabs
	switch {
	case key.Matches(msg, k.reconnect):
		return m.reconnect()
	case key.Matches(msg, k.roots):
		m.openRoots()
	case key.Matches(msg, k.authorize):
		return m.authorize()
	case key.Matches(msg, k.apps):
		m.openApps()
	case key.Matches(msg, k.tasks):
		m.openTasks()
	case key.Matches(msg, k.servers):
		return m.openServers()
	}
	return nil
}

// filtering reports whether a list's filter is being typed.
func (m *Model) filtering() bool { return m.pick[m.tab].filtering }

// columns lays out a list and a detail pane side by side; the line
// between them is heavy when the pane is focused.
func columns(c *common, left, right string, leftWidth int, focused bool) string {
	l := lipgloss.NewStyle().Width(leftWidth).Render(left)
	bar, style := "│", c.styles.dim
	if focused {
		bar, style = "┃", c.styles.accent
	}
	sep := style.Render(strings.Repeat(bar+"\n", max(lipgloss.Height(l), lipgloss.Height(right))-1) + bar)
	return lipgloss.JoinHorizontal(lipgloss.Top, l, " ", sep, " ", right)
}

// entryKey reports whether a key acts on the selected entry of the
// current tab beyond enter: t and c on a tool, e on a prompt.
func (m *Model) entryKey(msg tea.KeyMsg) bool {
	k := m.c.keys.tabs
	return m.tab == tabTools && key.Matches(msg, k.asTask, k.retry) || m.tab == tabPrompts && key.Matches(msg, k.editArgs)
}

// entryCmd acts on the selected entry for a key entryKey takes.
func (m *Model) entryCmd(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys.tabs
	switch {
	case key.Matches(msg, k.editArgs):
		return m.editPromptArgs()
	case key.Matches(msg, k.retry):
		return m.retryRefused()
	}
	return m.callAsTask()
}

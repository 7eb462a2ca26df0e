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

// tabs are the pages in the order of the tab bar (newPages, pages.go),
// and the one shown: the tab bar, the footer's keys and the dispatch of
// keys come from them. A page is addressed by its type (pageOf, shows,
// showPage), never by its place, which only the bar and its keys know. A
// switch to another server makes the pages afresh (reset); the tab shown
// stays.
type tabs struct {
	pages []page.Page
	at    int // the place in the bar of the page shown
}

// current is the page shown.
func (t *tabs) current() page.Page { return t.pages[t.at] }

// bar is the tab bar: each page's place and title, the one shown marked.
func (t *tabs) bar(c *widget.Common) string {
	var parts []string
	for i, p := range t.pages {
		label := fmt.Sprintf("%d %s", i+1, p.Title())
		if i == t.at {
			parts = append(parts, c.Styles.ActiveTab.Render(label))
		} else {
			parts = append(parts, c.Styles.Tab.Render(label))
		}
	}
	return widget.Fit(strings.Join(parts, ""), c.Width)
}

// show makes the tab at place n of the bar the one shown, telling the
// pages.
func (t *tabs) show(n int) {
	if n == t.at {
		return
	}
	t.current().Focus(false)
	t.at = n
	t.current().Focus(true)
}

// step shows the tab delta places on, around the bar.
func (t *tabs) step(delta int) {
	n := len(t.pages)
	t.show(((t.at+delta)%n + n) % n)
}

// showPage shows the page of type P.
func showPage[P page.Page](t *tabs) { t.show(placeOf[P](t.pages)) }

// shows reports whether the page shown is of type P.
func shows[P page.Page](t *tabs) bool {
	_, ok := t.current().(P)
	return ok
}

// size tells every page the room of the body.
func (t *tabs) size(room tea.WindowSizeMsg) {
	for _, p := range t.pages {
		p.Update(room)
	}
}

// reset puts pages made afresh in place of the last server's, in room,
// the tab shown kept.
func (t *tabs) reset(pages []page.Page, room tea.WindowSizeMsg) {
	t.pages = pages
	t.size(room)
	t.current().Focus(true)
}

// filtering reports whether a list's filter is being typed.
func (t *tabs) filtering() bool {
	f, ok := t.current().(page.Filterer)
	return ok && f.Filtering()
}

// tabsFooter is the footer while the tabs are on top.
func (m *Model) tabsFooter() string {
	k := m.c.Keys
	switch {
	case m.filtering():
		return m.c.KeyLine(k.Filter.ShortHelp()...)
	case m.running != "":
		status := fmt.Sprintf("%scalling %s… %s%s", m.spinner.View(), m.running, time.Since(m.runStart).Round(time.Second), page.ProgressBrief(m.progress))
		return m.c.Styles.Dim.Render(status+" · ") + m.c.KeyLine(keys.Hint(k.Tabs.CancelCall.Help().Key, "cancels the call", k.Tabs.CancelCall))
	case m.status.text != "":
		return m.status.line(m.c.Styles)
	}
	return m.c.KeyLine(m.current().Help()...)
}

// tabsKey takes a key while the tabs are on top: the program's own keys,
// and the rest for the page shown.
func (m *Model) tabsKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.Keys.Tabs
	m.status = statusMsg{} // the status line stays until the next key
	if m.filtering() {
		if key.Matches(msg, m.c.Keys.Filter.Quit) {
			return m.askQuit()
		}
		return m.pageKey(msg)
	}
	if t, ok := k.JumpTo(msg); ok {
		m.show(t)
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Help):
		m.host(layer.NewHelpScreen(&m.c))
	case key.Matches(msg, k.Next):
		m.step(1)
	case key.Matches(msg, k.Prev):
		m.step(-1)
	case key.Matches(msg, k.Reconnect, k.Roots, k.Authorize, k.Apps, k.Tasks, k.Servers, k.Lock, k.Record):
		return m.connectionKey(msg)
	case key.Matches(msg, k.CancelCall) && m.cancelCall != nil:
		m.cancelCall()
	case key.Matches(msg, k.LogLevel):
		return m.openLevelPicker()
	case key.Matches(msg, k.Copy):
		return m.copyPane()
	case key.Matches(msg, k.Save):
		return m.askSave()
	case key.Matches(msg, k.SaveTest):
		return m.openSaveTest()
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
	if m.state == stateWatching {
		if key.Matches(msg, k.Servers) {
			m.watchNext()
		} else {
			m.watchOnly()
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Reconnect):
		return m.reconnect()
	case key.Matches(msg, k.Roots):
		m.host(layer.NewRoots(&m.c, connRoots(m.conn), func() bool { return m.conn != nil }))
	case key.Matches(msg, k.Authorize):
		return m.authorize()
	case key.Matches(msg, k.Apps):
		m.host(layer.NewApps(&m.c, appHostLine(m.opts), func() []layer.App { return m.apps.shown(&m.c) },
			func(i int) string { return widget.Redact(appText(&m.c, &m.opts, m.apps.list[i])) }))
	case key.Matches(msg, k.Tasks):
		m.host(layer.NewTasks(&m.c, func() []layer.Task { return m.tasks.shown() }, func() []mcpclient.Record { return m.records }))
	case key.Matches(msg, k.Servers):
		return m.openServers()
	case key.Matches(msg, k.Lock):
		m.host(layer.NewLock(&m.c, func() layer.LockCheck { return m.lock.of(m.conn, m.opts.Dir) }))
	case key.Matches(msg, k.Record):
		m.status = toggleRecording(m.opts.Recorder, m.conn, m.c.Keys.Tabs.Record.Help().Key)
	}
	return nil
}

// The tabs as a list of pages: the tab bar, the jump keys, the footer and
// the dispatch of keys come from it (Model.pages). The Requests, Log and
// Info tabs are pages of tui/page; the other tabs are still drawn by the
// Model, each standing in the list through tabPage until it is ported to
// tui/page.

package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
)

// newPages are the tabs in the order of the tab bar. Adding a tab is a
// page in tui/page and a line here (and its tab constant, while tabPage
// stands for the others).
func (m *Model) newPages() []page.Page {
	return []page.Page{
		tabPage{m, tabTools},
		page.NewResources(&m.c),
		tabPage{m, tabPrompts},
		page.NewRequests(&m.c),
		page.NewLog(&m.c),
		page.NewInfo(&m.c),
	}
}

// tabPage is a tab the Model still draws and keys itself (toolsView…),
// standing in the list of pages until it moves to tui/page: replace its
// line in newPages with the new page, and delete its case below.
type tabPage struct {
	m *Model
	t tab
}

func (p tabPage) Title() string { return tabNames[p.t] }

func (p tabPage) Help() []key.Binding {
	k := p.m.c.Keys.Tabs
	if p.m.focus[p.t] {
		return k.PaneHelp(true)
	}
	return k.ShortHelp()
}

// Update scrolls the pane with the wheel, and passes every key: the Model
// keys these tabs itself.
func (p tabPage) Update(msg tea.Msg) page.Action {
	if msg, ok := msg.(tea.MouseMsg); ok {
		p.m.panes[p.t].Wheel(msg)
	}
	return layer.Pass{}
}

func (p tabPage) View(_, h int) string {
	m := p.m
	switch p.t {
	case tabTools:
		return m.toolsView(h)
	case tabPrompts:
		return m.promptsView(h)
	case tabResources, tabRequests, tabLog, tabInfo, tabCount:
	}
	return m.paneView("")
}

func (tabPage) Focus(bool) {}

// syncPages gives the pages what they show of the connection; Update
// calls it after every message.
func (m *Model) syncPages() {
	m.pages[tabResources].Update(page.ResourcesStatus{Conn: m.conn != nil, Connected: m.state == stateConnected, CanSubscribe: canSubscribe(m.conn)})
	m.pages[tabRequests].Update(page.Records(m.records))
	if m.tab == tabInfo { // made only while it shows
		text := m.redact(m.withFailure(infoText(&m.c, m.conn)))
		m.pages[tabInfo].Update(page.Show{Text: text, Width: m.c.Width, Height: m.bodyHeight() - 1})
	}
	st := page.ServerLogStatus{Connected: m.conn != nil, Dropped: m.droppedEvents}
	if m.conn != nil {
		st.Logging, st.Level = offersLogging(m.conn), m.conn.LogLevel()
	}
	m.pages[tabLog].Update(st)
	m.pages[tabLog].Update(page.Wire(m.wire))
}

// newServerPages makes the pages afresh for another server: what they
// hold is the last server's.
func (m *Model) newServerPages() {
	m.pages = m.newPages()
	m.sizePages()
	m.pages[m.tab].Focus(true)
}

// wheel scrolls the current tab's pane with the mouse wheel, while the
// tabs are on top (the app card leaves them usable).
func (m *Model) wheel(msg tea.MouseMsg) {
	switch l := m.top().layer().(type) {
	case tabsLayer:
	case *hosted:
		if _, ok := l.l.(layer.Banner); !ok {
			return
		}
	default:
		return
	}
	m.pages[m.tab].Update(msg)
}

// sizePages tells every page the room of the body.
func (m *Model) sizePages() {
	for _, p := range m.pages {
		p.Update(m.bodySize())
	}
}

// show makes t the current tab, telling the pages.
func (m *Model) show(t tab) {
	if t == m.tab {
		return
	}
	m.pages[m.tab].Focus(false)
	m.tab = t
	m.pages[m.tab].Focus(true)
}

// pageKey gives a key to the current page when it is one of tui/page,
// reporting whether it is, and the command its action asks. A key the
// page passes ([layer.Pass]) does nothing.
func (m *Model) pageKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if _, ok := m.pages[m.tab].(tabPage); ok {
		return nil, false
	}
	return m.applyPage(m.pages[m.tab].Update(msg)), true
}

// applyPage carries out what a page asked, at once.
func (m *Model) applyPage(a page.Action) tea.Cmd {
	switch a := a.(type) {
	case layer.Open:
		m.host(a.Layer)
	case layer.Cmd:
		return a.Cmd
	case layer.Batch:
		cmds := make([]tea.Cmd, 0, len(a))
		for _, each := range a {
			cmds = append(cmds, m.applyPage(each))
		}
		return tea.Batch(cmds...)
	case layer.Quit:
		return m.askQuit()
	case page.Note:
		m.status = statusMsg{a.Text, a.Err}
	case page.ReadResource:
		return readResource(m.conn, a)
	case page.Subscribe:
		return subscribe(m.conn, a)
	case page.AskVariables:
		return m.openArgsCompleting(a.Title, prefill(a.Schema, a.Last), a.Ref, func(args map[string]any) tea.Cmd {
			return m.applyPage(a.Then(args))
		})
	}
	return nil
}

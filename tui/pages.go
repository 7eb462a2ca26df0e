// The tabs as a list of pages of tui/page: the tab bar, the jump keys,
// the footer and the dispatch of keys come from it (Model.pages).

package tui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// newPages are the tabs in the order of the tab bar: the one list of
// them. Adding a tab is a page in tui/page and a line here; the program
// finds each page by its type (pageOf), the bar and its jump keys by its
// place in this list.
func newPages(c *widget.Common, tools page.ToolsFrom, dir string) []page.Page {
	return []page.Page{
		page.NewTools(c, tools),
		page.NewResources(c),
		page.NewPrompts(c),
		page.NewRequests(c),
		page.NewLog(c),
		page.NewInfo(c),
		page.NewSuite(c, dir),
	}
}

// titles are the pages' titles, in their order.
func titles(pages []page.Page) []string {
	out := make([]string, len(pages))
	for i, p := range pages {
		out[i] = p.Title()
	}
	return out
}

// syncPages gives the pages what they show of the connection; Update
// calls it after every message.
func (m *Model) syncPages() {
	pageOf[*page.Resources](m).Update(page.ResourcesStatus{Conn: m.conn != nil, Connected: m.state == stateConnected, CanSubscribe: canSubscribe(m.conn)})
	pageOf[*page.Requests](m).Update(page.Records(m.records))
	switch p := m.current().(type) { // the text of a pane the model makes, made only while it shows
	case *page.Info:
		text := widget.Redact(m.withFailure(&m.c, m.opts.Target, infoText(&m.c, m.conn)))
		p.Update(page.Show{Text: text, Width: m.c.Width, Height: m.bodyHeight() - 1})
	case *page.Tools, *page.Prompts:
		p.Update(page.Show{Text: widget.Redact(m.paneText()), Width: m.c.Width, Height: m.bodyHeight() - 1})
	}
	st := page.ServerLogStatus{Connected: m.conn != nil, Dropped: m.droppedEvents}
	if m.conn != nil {
		st.Logging, st.Level = offersLogging(m.conn), m.conn.LogLevel()
	}
	log := pageOf[*page.Log](m)
	log.Update(st)
	log.Update(page.Wire(m.wire))
}

// wheel scrolls the current tab's pane with the mouse wheel, while the
// tabs are on top (the app card leaves them usable).
func (m *Model) wheel(msg tea.MouseMsg) {
	if l := m.top().layer(); l != nil {
		if _, ok := l.(layer.Banner); !ok {
			return
		}
	}
	m.current().Update(msg)
}

// pageKey gives a key to the current page, returning the command its
// action asks. A key the page passes ([layer.Pass]) does nothing.
func (m *Model) pageKey(msg tea.KeyMsg) tea.Cmd {
	return m.do(origin{}, m.current().Update(msg))
}

// pageOf is the page of type P in the list of pages (each tab is one type).
func pageOf[P page.Page](m *Model) P { return pageIn[P](m.pages) }

// pageIn is the page of type P in pages.
func pageIn[P page.Page](pages []page.Page) P { return pages[placeOf[P](pages)].(P) }

// placeOf is the place of the page of type P in pages: a page of a type
// newPages does not make is a bug.
func placeOf[P page.Page](pages []page.Page) int {
	for i, p := range pages {
		if _, ok := p.(P); ok {
			return i
		}
	}
	var none P
	panic(fmt.Sprintf("no page of type %T", none))
}

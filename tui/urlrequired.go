package tui

import (
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call the server refuses until the person opens a page
// (URLElicitationRequiredError, -32042): its result lists the pages, each
// page is shown on the URL consent card (mcpclient.Conn.AskURLs), and c
// calls the tool again, with the same arguments, once the person is done
// there: the Tools tab keeps the call (page.Refused) and asks for it
// (layer.CallTool) (docs/architecture.md, "URL elicitation required").

// urlsAnsweredMsg says the pages of a refused call were all answered (or
// that asking stopped).
type urlsAnsweredMsg struct {
	conn    *mcpclient.Conn
	tool    string
	answers []*mcp.ElicitResult
	err     error
}

// askURLs shows a refused call's pages, one consent card after the other,
// and gives the Tools tab the call for c; nil when the call was not
// refused so.
func askURLs(tools *page.Tools, msg callDoneMsg) tea.Cmd {
	u, ok, bad := mcpclient.URLRequiredOf(msg.err)
	if !ok || bad != nil || msg.conn == nil {
		return nil
	}
	tool := tools.Named(msg.tool)
	if tool == nil {
		return nil
	}
	tools.Update(page.Refused{Tool: tool, Args: msg.args, AsTask: msg.asTask}) // for c
	conn, name := msg.conn, msg.tool
	return func() tea.Msg {
		answers, err := conn.AskURLs(conn.Context(), "tools/call "+name, u)
		return urlsAnsweredMsg{conn, name, answers, err}
	}
}

func (msg urlsAnsweredMsg) update(m *Model) tea.Cmd {
	if msg.conn != m.conn || msg.tool != pageOf[*page.Tools](m).RefusedTool() {
		return nil
	}
	opened := 0
	for _, a := range msg.answers {
		if a.Action == "accept" {
			opened++
		}
	}
	k := m.c.Keys.Tabs.Retry.Help().Key
	switch {
	case msg.err != nil:
		m.status = statusMsg{"the pages were not all shown: " + widget.Clean(msg.err.Error()), true}
	case opened == len(msg.answers):
		m.status = statusMsg{fmt.Sprintf("once you are done on the page, %s on the Tools tab calls %s again", k, widget.Clean(msg.tool)), false}
	default:
		m.status = statusMsg{fmt.Sprintf("you did not open every page %s needs: %s calls it again anyway", widget.Clean(msg.tool), k), true}
	}
	return nil
}

// renderURLRequired is the result of a call the server refused until the
// person opens pages: each page whole, its host, the server's message, and
// what to do.
func renderURLRequired(c *widget.Common, u *mcpclient.URLRequired, took time.Duration) string {
	s := c.Styles
	var b strings.Builder
	b.WriteString(s.Warn.Render("the server needs a page opened first") +
		s.Dim.Render(fmt.Sprintf(" · URL elicitation required (-32042) · after %s", took.Round(time.Millisecond))) + "\n")
	for i, p := range u.Elicitations {
		fmt.Fprintf(&b, "%d. %s\n", i+1, widget.Clean(p.Message))
		b.WriteString("   " + widget.Clean(p.URL) + "\n")
		if id := widget.Clean(p.ElicitationID); id != "" {
			b.WriteString(s.Dim.Render("   elicitation id "+id) + "\n")
		}
	}
	if u.Dropped > 0 {
		b.WriteString(s.Warn.Render(fmt.Sprintf("and %d more, not shown", u.Dropped)) + "\n")
	}
	k := c.Keys.Tabs.Retry.Help().Key
	b.WriteString(s.Dim.Render("Each page is shown on a consent card (o opens it). Once you are done there, " + k + " calls the tool again with the same arguments."))
	return b.String()
}

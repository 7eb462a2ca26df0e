package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// resourcesView lists the resources and templates beside what enter read.
func (m *Model) resourcesView(h int) string {
	lw := m.listWidth()
	var names []string
	for _, r := range m.resources {
		names = append(names, r.URI)
	}
	for _, r := range m.templates {
		names = append(names, r.URITemplate+" (template)")
	}
	list := m.pick[tabResources].list(&m.c, names, m.listErr[tabResources], lw, h)
	return columns(&m.c, list, m.paneView(""), lw, m.focus[tabResources])
}

// readResource reads a resource into the Resources tab's detail pane.
func (m *Model) readResource(uri string) tea.Cmd {
	conn := m.conn
	return func() tea.Msg { return detailMsg{tabResources, readResource(conn, uri)} }
}

func readResource(conn *mcpclient.Conn, uri string) string {
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "error: " + clean(err.Error())
	}
	var b strings.Builder
	for _, c := range res.Contents {
		fmt.Fprintf(&b, "%s (%s)\n", clean(c.URI), clean(c.MIMEType))
		switch {
		case c.Text != "":
			b.WriteString(clean(prettyText(c.Text)) + "\n")
		case len(c.Blob) > 0:
			fmt.Fprintf(&b, "[binary, %d bytes]\n", len(c.Blob))
		}
	}
	return b.String()
}

//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// infoText is the Info tab: how mcpeek is authorized (URL servers), the
// roots offered, the negotiated capabilities of both sides and the
// server's instructions.
func infoText(c *widget.Common, conn *mcpclient.Conn) string {
	if conn == nil {
		return c.Styles.Dim.Render("not connected")
	}
	info := conn.ServerInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n", c.Styles.Title.Render("server"), widget.Clean(info.Name), widget.Clean(info.Version))
	fmt.Fprintf(&b, "%s %s\n\n", c.Styles.Title.Render("protocol"), conn.ProtocolVersion())
	if st := conn.AuthState(); st != nil {
		b.WriteString(authText(c, st, time.Now()) + "\n\n")
	}
	b.WriteString(rootsText(c, conn.Roots()) + "\n\n")
	var client any
	_ = json.Unmarshal(conn.SentCapabilities(), &client)
	fmt.Fprintf(&b, "%s\n%s\n\n", c.Styles.Title.Render("mcpeek's capabilities, as sent"), c.Styles.ColourJSON(widget.PrettyJSON(client)))
	fmt.Fprintf(&b, "%s\n%s\n", c.Styles.Title.Render("server capabilities"), c.Styles.ColourJSON(widget.Clean(widget.PrettyJSON(conn.ServerCapabilities()))))
	if ins := conn.Instructions(); ins != "" {
		fmt.Fprintf(&b, "\n%s\n%s\n", c.Styles.Title.Render("instructions"), widget.Clean(ins))
	}
	return b.String()
}

// rootsText lists the roots offered to the server, and the key that
// changes them.
func rootsText(c *widget.Common, roots []*mcp.Root) string {
	k := c.Keys.Tabs.Roots.Help().Key
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", c.Styles.Title.Render("roots offered"), c.Styles.Dim.Render("("+k+" adds or removes)"))
	if len(roots) == 0 {
		b.WriteString("\n  " + c.Styles.Dim.Render("none"))
	}
	for _, r := range roots {
		b.WriteString("\n  " + widget.Clean(r.URI))
		if r.Name != "" {
			b.WriteString(" " + c.Styles.Dim.Render(widget.Clean(r.Name)))
		}
	}
	return b.String()
}

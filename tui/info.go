//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// infoText is the Info tab: how mcpeek is authorized (URL servers), the
// roots offered, the negotiated capabilities of both sides and the
// server's instructions.
func infoText(c *common, conn *mcpclient.Conn) string {
	if conn == nil {
		return c.styles.dim.Render("not connected")
	}
	info := conn.ServerInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n", c.styles.title.Render("server"), clean(info.Name), clean(info.Version))
	fmt.Fprintf(&b, "%s %s\n\n", c.styles.title.Render("protocol"), conn.ProtocolVersion())
	if st := conn.AuthState(); st != nil {
		b.WriteString(authText(c, st, time.Now()) + "\n\n")
	}
	b.WriteString(rootsText(c, conn.Roots()) + "\n\n")
	var client any
	_ = json.Unmarshal(conn.SentCapabilities(), &client)
	fmt.Fprintf(&b, "%s\n%s\n\n", c.styles.title.Render("mcpeek's capabilities, as sent"), c.styles.colourJSON(prettyJSON(client)))
	fmt.Fprintf(&b, "%s\n%s\n", c.styles.title.Render("server capabilities"), c.styles.colourJSON(clean(prettyJSON(conn.ServerCapabilities()))))
	if ins := conn.Instructions(); ins != "" {
		fmt.Fprintf(&b, "\n%s\n%s\n", c.styles.title.Render("instructions"), clean(ins))
	}
	return b.String()
}

// rootsText lists the roots offered to the server, and the key that
// changes them.
func rootsText(c *common, roots []*mcp.Root) string {
	k := c.keys.tabs.roots.Help().Key
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", c.styles.title.Render("roots offered"), c.styles.dim.Render("("+k+" adds or removes)"))
	if len(roots) == 0 {
		b.WriteString("\n  " + c.styles.dim.Render("none"))
	}
	for _, r := range roots {
		b.WriteString("\n  " + clean(r.URI))
		if r.Name != "" {
			b.WriteString(" " + c.styles.dim.Render(clean(r.Name)))
		}
	}
	return b.String()
}

package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// infoText is the Info tab: the negotiated capabilities of both sides and
// the server's instructions.
func infoText(c *common, conn *mcpclient.Conn) string {
	if conn == nil {
		return c.styles.dim.Render("not connected")
	}
	info := conn.ServerInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n", c.styles.title.Render("server"), clean(info.Name), clean(info.Version))
	fmt.Fprintf(&b, "%s %s\n\n", c.styles.title.Render("protocol"), conn.ProtocolVersion())
	var client any
	_ = json.Unmarshal(conn.SentCapabilities(), &client)
	fmt.Fprintf(&b, "%s\n%s\n\n", c.styles.title.Render("mcpeek's capabilities, as sent"), c.styles.colourJSON(prettyJSON(client)))
	fmt.Fprintf(&b, "%s\n%s\n", c.styles.title.Render("server capabilities"), c.styles.colourJSON(clean(prettyJSON(conn.ServerCapabilities()))))
	if ins := conn.Instructions(); ins != "" {
		fmt.Fprintf(&b, "\n%s\n%s\n", c.styles.title.Render("instructions"), clean(ins))
	}
	return b.String()
}

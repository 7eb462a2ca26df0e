package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// picker is a filterable list cursor shared by the list tabs.
type picker struct {
	cursor    int
	filter    string
	filtering bool
}

// update moves the cursor or edits the filter; it reports whether it used
// the key.
func (p *picker) update(msg tea.KeyMsg, c *common, n int) bool {
	if p.filtering {
		switch msg.Type {
		case tea.KeyEnter, tea.KeyEsc:
			p.filtering = false
		case tea.KeyBackspace:
			if r := []rune(p.filter); len(r) > 0 {
				p.filter = string(r[:len(r)-1])
			}
		case tea.KeyRunes, tea.KeySpace:
			p.filter += string(msg.Runes)
		}
		p.cursor = 0
		return true
	}
	switch {
	case key.Matches(msg, c.keys.filter):
		p.filtering = true
	case key.Matches(msg, c.keys.up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, c.keys.down):
		p.cursor = min(p.cursor+1, max(n-1, 0))
	default:
		return false
	}
	return true
}

func (p *picker) matches(s string) bool {
	return p.filter == "" || strings.Contains(strings.ToLower(s), strings.ToLower(p.filter))
}

// list draws names with the cursor, scrolled to keep it visible.
func (p *picker) list(c *common, names []string, width, height int) string {
	var b strings.Builder
	head := "/ filter"
	if p.filtering || p.filter != "" {
		head = "filter: " + p.filter
		if p.filtering {
			head += "▏"
		}
	}
	b.WriteString(c.styles.dim.Render(line(head, width)) + "\n")
	height--
	if len(names) == 0 {
		b.WriteString(c.styles.dim.Render("(none)"))
		return b.String()
	}
	start := 0
	if p.cursor >= height {
		start = p.cursor - height + 1
	}
	for i := start; i < len(names) && i < start+height; i++ {
		row := line(names[i], width-2)
		if i == p.cursor {
			b.WriteString(c.styles.selected.Render("> "+row) + "\n")
		} else {
			b.WriteString("  " + row + "\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// columns lays out a list and a detail pane side by side.
func columns(c *common, left, right string, leftWidth int) string {
	l := lipgloss.NewStyle().Width(leftWidth).Render(left)
	sep := c.styles.dim.Render(strings.Repeat("│\n", max(lipgloss.Height(l), lipgloss.Height(right))-1) + "│")
	return lipgloss.JoinHorizontal(lipgloss.Top, l, " ", sep, " ", right)
}

func prettyJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// resultLines bounds a rendered result: more lines than a screen shows,
// so that a huge result is not wrapped in full.
const resultLines = 200

// renderResult draws a tool result: each content block, structured
// content as JSON, isError highlighted, and the call's duration.
func renderResult(c *common, res *mcp.CallToolResult, err error, took time.Duration, width int) string {
	var b strings.Builder
	if err != nil {
		b.WriteString(c.styles.err.Render("error: ") + clean(err.Error()) + "\n")
		b.WriteString(c.styles.dim.Render(fmt.Sprintf("after %s", took.Round(time.Millisecond))))
		return block(b.String(), width, resultLines)
	}
	status := c.styles.ok.Render("result")
	if res.IsError {
		status = c.styles.err.Render("isError: the tool reports a failure")
	}
	b.WriteString(status + c.styles.dim.Render(fmt.Sprintf(" · %s", took.Round(time.Millisecond))) + "\n")
	for _, content := range res.Content {
		switch v := content.(type) {
		case *mcp.TextContent:
			b.WriteString(clean(v.Text) + "\n")
		case *mcp.ImageContent:
			b.WriteString(c.styles.dim.Render(fmt.Sprintf("[image %s, %d bytes]", clean(v.MIMEType), len(v.Data))) + "\n")
		case *mcp.AudioContent:
			b.WriteString(c.styles.dim.Render(fmt.Sprintf("[audio %s, %d bytes]", clean(v.MIMEType), len(v.Data))) + "\n")
		case *mcp.ResourceLink:
			b.WriteString(c.styles.dim.Render("[resource link] ") + clean(v.URI) + "\n")
		case *mcp.EmbeddedResource:
			uri := ""
			if v.Resource != nil {
				uri = v.Resource.URI
			}
			b.WriteString(c.styles.dim.Render("[embedded resource] ") + clean(uri) + "\n")
		default:
			b.WriteString(c.styles.dim.Render(fmt.Sprintf("[%T]", content)) + "\n")
		}
	}
	if res.StructuredContent != nil {
		b.WriteString(c.styles.dim.Render("structuredContent:") + "\n" + clean(prettyJSON(res.StructuredContent)))
	}
	return block(strings.TrimRight(b.String(), "\n"), width, resultLines)
}

// infoView shows the negotiated capabilities of both sides.
func infoView(c *common, conn *mcpclient.Conn, width, height int) string {
	if conn == nil {
		return c.styles.dim.Render("not connected")
	}
	info := conn.ServerInfo()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s %s\n", c.styles.title.Render("server"), clean(info.Name), clean(info.Version))
	fmt.Fprintf(&b, "%s %s\n\n", c.styles.title.Render("protocol"), conn.ProtocolVersion())
	var client any
	_ = json.Unmarshal(conn.SentCapabilities(), &client)
	fmt.Fprintf(&b, "%s\n%s\n\n", c.styles.title.Render("mcpeek's capabilities, as sent"), prettyJSON(client))
	fmt.Fprintf(&b, "%s\n%s\n", c.styles.title.Render("server capabilities"), clean(prettyJSON(conn.ServerCapabilities())))
	if ins := conn.Instructions(); ins != "" {
		fmt.Fprintf(&b, "\n%s\n%s\n", c.styles.title.Render("instructions"), clean(ins))
	}
	return block(b.String(), width, height)
}

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptsView lists the prompts beside the last one got.
func (m *Model) promptsView(h int) string {
	lw := m.listWidth()
	var names []string
	for _, pr := range m.prompts {
		names = append(names, pr.Name)
	}
	list := m.pick[tabPrompts].list(&m.c, names, m.listErr[tabPrompts], lw, h)
	return columns(&m.c, list, m.paneView(""), lw, m.focus[tabPrompts])
}

// openPrompt gets a prompt, first asking for its arguments.
func (m *Model) openPrompt(pr *mcp.Prompt) tea.Cmd {
	conn, name := m.conn, pr.Name
	get := func(args map[string]any) tea.Cmd {
		strs := map[string]string{}
		for k, v := range args {
			strs[k] = fmt.Sprint(v)
		}
		return func() tea.Msg { return detailMsg{tabPrompts, getPrompt(conn, name, strs)} }
	}
	if len(pr.Arguments) == 0 {
		return get(nil)
	}
	props := map[string]any{}
	required := []string{} // never null: a schema whose required is null does not parse
	order := make([]string, 0, len(pr.Arguments))
	for _, a := range pr.Arguments {
		props[a.Name] = map[string]any{"type": "string", "description": a.Description}
		if a.Required {
			required = append(required, a.Name)
		}
		order = append(order, a.Name)
	}
	schema, err := formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": required}, order)
	if err != nil {
		return get(nil)
	}
	return m.openArgsCompleting("Arguments for the prompt "+name, schema, &mcp.CompleteReference{Type: "ref/prompt", Name: name}, get)
}

func getPrompt(conn *mcpclient.Conn, name string, args map[string]string) string {
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return "error: " + clean(err.Error())
	}
	var b strings.Builder
	for _, msg := range res.Messages {
		if t, ok := msg.Content.(*mcp.TextContent); ok {
			fmt.Fprintf(&b, "%s: %s\n", clean(string(msg.Role)), clean(t.Text))
		} else {
			fmt.Fprintf(&b, "%s: [%T]\n", msg.Role, msg.Content)
		}
	}
	return b.String()
}

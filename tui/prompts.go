// What the Prompts tab (tui/page) asks of the program: a prompt's
// arguments in a form, and getting it.

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptGotMsg brings what getting a prompt gave.
type promptGotMsg struct {
	conn *mcpclient.Conn
	name string
	text string
}

func (msg promptGotMsg) update(m *Model) tea.Cmd {
	if msg.conn == m.conn {
		pageOf[*page.Prompts](m).Update(page.PromptGot{Name: msg.name, Text: msg.text})
	}
	return nil
}

// getPromptCmd gets a prompt with the arguments given, which the Prompts
// tab remembers for the next time in this session.
func (m *Model) getPromptCmd(name string, args map[string]string) tea.Cmd {
	if m.conn == nil {
		return nil
	}
	pageOf[*page.Prompts](m).Update(page.PromptGetting{Name: name, Args: args})
	conn, c := m.conn, &m.c
	return func() tea.Msg { return promptGotMsg{conn, name, getPrompt(c, conn, name, args)} }
}

// openPrompt gets a prompt, first asking for its arguments with a form
// (whose fields the server may complete), starting from those last given.
func (m *Model) openPrompt(ask page.AskPrompt) tea.Cmd {
	pr := ask.Prompt
	name := pr.Name
	if m.conn == nil {
		return nil
	}
	schema, err := promptSchema(pr)
	if err != nil {
		return m.getPromptCmd(name, nil)
	}
	last := map[string]any{}
	for k, v := range ask.Last {
		last[k] = v
	}
	schema = prefill(schema, last)
	return m.openArgsCompleting("Arguments for the prompt "+name, schema, &mcp.CompleteReference{Type: "ref/prompt", Name: name}, func(args map[string]any) tea.Cmd {
		strs := map[string]string{}
		for k, v := range args {
			strs[k] = fmt.Sprint(v)
		}
		return m.getPromptCmd(name, strs)
	})
}

// promptSchema is a form's schema for a prompt's arguments: each a string,
// in the prompt's order.
func promptSchema(pr *mcp.Prompt) (*formschema.Schema, error) {
	props := map[string]any{}
	required := []string{} // never null: a schema whose required is null does not parse
	order := make([]string, 0, len(pr.Arguments))
	for _, a := range pr.Arguments {
		prop := map[string]any{"type": "string", "description": a.Description}
		if a.Title != "" {
			prop["title"] = a.Title
		}
		props[a.Name] = prop
		if a.Required {
			required = append(required, a.Name)
		}
		order = append(order, a.Name)
	}
	return formschema.ParseWithOrder(map[string]any{"type": "object", "properties": props, "required": required}, order)
}

// getPrompt gets a prompt and words what it gave: the prompt's description,
// then each message with its role.
func getPrompt(c *widget.Common, conn *mcpclient.Conn, name string, args map[string]string) string {
	s := c.Styles
	ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
	defer cancel()
	res, err := conn.Session().GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return s.Err.Render("error: ") + widget.Clean(err.Error())
	}
	var b strings.Builder
	b.WriteString(s.OK.Render("result") + s.Dim.Render(fmt.Sprintf(" · %d messages", len(res.Messages))) + "\n")
	if res.Description != "" {
		b.WriteString(s.Dim.Render("description: ") + widget.Clean(res.Description) + "\n")
	}
	for _, msg := range res.Messages {
		if msg == nil {
			continue
		}
		role := s.Accent.Render(widget.Clean(string(msg.Role)) + ":")
		if t, ok := msg.Content.(*mcp.TextContent); ok {
			b.WriteString(role + " " + widget.Clean(t.Text) + "\n")
			continue
		}
		b.WriteString(role + " " + s.Dim.Render(widget.Clean(mcpclient.ContentText(msg.Content, 200))) + "\n")
	}
	return b.String()
}

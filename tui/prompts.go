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
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// promptGotMsg brings what getting a prompt gave: the result (or the
// error) and the questions asked meanwhile, which + saves
// (savetest.go), and its text.
type promptGotMsg struct {
	conn   *mcpclient.Conn
	name   string
	args   map[string]string
	res    *mcp.GetPromptResult
	err    error
	asked  []suite.Question
	rounds int
	text   string
}

func (msg promptGotMsg) update(m *Model) tea.Cmd {
	if msg.conn == m.conn {
		m.saved.got(msg)
		pageOf[*page.Prompts](m).Update(page.PromptGot{Name: msg.name, Text: msg.text})
	}
	return nil
}

// getPrompt gets a prompt on conn with the arguments given, which the
// Prompts tab p remembers for the next time in this session; saved forgets
// the prompt's last result.
func getPrompt(conn *mcpclient.Conn, c *widget.Common, p *page.Prompts, saved *savedSteps, name string, args map[string]string) tea.Cmd {
	if conn == nil {
		return nil
	}
	p.Update(page.PromptGetting{Name: name, Args: args})
	saved.getting(name)
	before, start := len(conn.Records()), time.Now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		res, err := conn.GetPrompt(ctx, name, args)
		msg := promptGotMsg{conn: conn, name: name, args: args, res: res, err: err, text: promptText(c, res, err)}
		msg.asked, msg.rounds = suite.StepQuestions(conn, before, start)
		return msg
	}
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
		return getPrompt(m.conn, &m.c, pageOf[*page.Prompts](m), &m.saved, name, nil)
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
		return getPrompt(m.conn, &m.c, pageOf[*page.Prompts](m), &m.saved, name, strs)
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

// promptText words what getting a prompt gave: the prompt's description,
// then each message with its role.
func promptText(c *widget.Common, res *mcp.GetPromptResult, err error) string {
	s := c.Styles
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

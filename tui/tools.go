package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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

// openToolAs asks for a tool's arguments and calls it, as a task when
// asTask (a tool whose task support is optional, called with t): the
// Tools tab's enter ([page.OpenTool]) and t.
func (m *Model) openToolAs(t *mcp.Tool, asTask bool) tea.Cmd {
	schema, err := formschema.ParseArguments(m.inputSchema(t))
	title := "Arguments for " + t.Name
	if asTask {
		title += " (called as a task)"
	}
	switch {
	case err == nil && len(schema.Fields) == 0:
		return m.callAs(t, json.RawMessage(`{}`), asTask)
	case err == nil:
		// The form starts from the arguments of the tool's last call, its
		// secret fields (secret.go) marked as not remembered.
		schema = widget.MarkSecrets(prefill(schema, m.runs.lastArgs(t)), t.InputSchema)
		return m.openArgsCompleting(title, schema, nil, func(args map[string]any) tea.Cmd {
			b, _ := json.Marshal(args)
			return m.callAs(t, b, asTask)
		})
	}
	// A schema a form cannot show: edit the arguments as JSON.
	return m.openJSON(t, asTask)
}

// inputSchema is a tool's input schema as the server listed it, which
// keeps the order of its properties; the decoded one when mcpeek did not
// see it listed.
func (l *link) inputSchema(t *mcp.Tool) any {
	if l.conn != nil {
		if raw := l.conn.InputSchema(t.Name); raw != nil {
			return raw
		}
	}
	return t.InputSchema
}

// taskSupportMsg says whether a tool may be called as a task.
type taskSupportMsg struct {
	conn    *mcpclient.Conn
	tool    *mcp.Tool
	support string
	modern  bool
	err     error
}

// callAsTask calls a tool as a task (t on the Tools tab), once its
// listing says it may run as one.
func (m *Model) callAsTask(t *mcp.Tool) tea.Cmd {
	switch {
	case m.conn == nil || m.state != stateConnected:
		m.status = statusMsg{"not connected", true}
		return nil
	case m.running != "":
		m.status = statusMsg{"a call is running: esc cancels it", true}
		return nil
	}
	conn := m.conn
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		support, err := conn.TaskSupport(ctx, t.Name)
		return taskSupportMsg{conn, t, support, conn.ProtocolVersion() >= mcpclient.ProtocolModern, err}
	}
}

func (msg taskSupportMsg) update(m *Model) tea.Cmd {
	switch {
	case msg.conn != m.conn: // the inspector reconnected or switched servers meanwhile
	case msg.modern && !msg.conn.OffersTasksExtension():
		m.status = statusMsg{widget.Clean(mcpclient.ErrTasksUnsupported.Error()), true}
	case msg.modern: // the server decides whether the call becomes a task
		return m.openToolAs(msg.tool, true)
	case msg.err != nil:
		m.status = statusMsg{"reading the tool's task support failed: " + widget.Clean(msg.err.Error()), true}
	case msg.support == "":
		m.status = statusMsg{widget.Clean(msg.tool.Name) + " does not run as a task (its execution.taskSupport is forbidden or not given)", true}
	default:
		return m.openToolAs(msg.tool, true)
	}
	return nil
}

// prefill is a schema whose fields start from values given before, as
// their defaults. It is a copy: parsed schemas are shared.
func prefill(schema *formschema.Schema, last map[string]any) *formschema.Schema {
	if len(last) == 0 {
		return schema
	}
	own := *schema
	own.Fields = slices.Clone(schema.Fields)
	for i, f := range own.Fields {
		if v, ok := last[f.Key]; ok {
			own.Fields[i].Default = v
		}
	}
	return &own
}

// callAs calls a tool, as a task when asTask or when the tool requires it;
// its result shows in the Tools tab's pane while that tool is selected.
// The arguments are remembered for its next call, in this run and the
// next, but for its secret fields.
func (m *Model) callAs(tool *mcp.Tool, args json.RawMessage, asTask bool) tea.Cmd {
	if m.conn == nil || m.running != "" {
		return nil
	}
	save := m.runs.remember(tool, args)
	ctx, cancel := context.WithCancel(context.Background())
	track := &callTrack{ended: ctx.Done()}
	m.running, m.runStart, m.cancelCall, m.runTrack, m.progress, m.runConn = tool.Name, time.Now(), cancel, track, nil, m.conn
	m.tell(m.pages)
	conn, name, start, emit := m.conn, tool.Name, m.runStart, m.asker.OnEvent
	before := len(conn.Records())
	// A tool with an app opens it first (apps.go).
	return tea.Batch(save, m.withToolApp(tool, args, func() tea.Msg {
		defer cancel()
		res, err := callOrTask(ctx, conn, name, args, asTask, track, emit)
		// The context ends only by esc, before the call returns: then
		// notifications/cancelled (or tasks/cancel) went out.
		cancelled := err != nil && ctx.Err() != nil
		asked, rounds := suite.StepQuestions(conn, before, start)
		return callDoneMsg{conn: conn, tool: name, args: args, res: res, err: err, took: time.Since(start), cancelled: cancelled, asTask: asTask,
			asked: asked, rounds: rounds}
	}))
}

// tell tells the Tools tab (among pages) of the running call, after it
// changed.
func (c *call) tell(pages []page.Page) {
	pageIn[*page.Tools](pages).Update(page.Running{Tool: c.running, Start: c.runStart, Progress: c.progress})
}

// callOrTask calls a tool as a call or as a task ([mcpclient.Conn.CallOrTask]);
// a task's status shows in the running call's banner as progress without
// a total (docs/architecture.md, "Tasks").
func callOrTask(ctx context.Context, conn *mcpclient.Conn, name string, args json.RawMessage, asTask bool, track *callTrack, emit func(mcpclient.Event)) (*mcp.CallToolResult, error) {
	steps := 0.0
	return conn.CallOrTask(ctx, name, args, asTask, track.heard, func(st mcpclient.TaskStatus) {
		steps++
		e := mcpclient.ProgressEvent{Time: time.Now(), Token: "task " + st.TaskID, Progress: steps,
			Message: "task " + st.Status + ": " + st.StatusMessage}
		track.heard(e)
		emit(e)
	})
}

// update shows a call's result, or that it was cancelled, under its
// tool; a call the server refused until a page is opened shows its pages
// (urlrequired.go).
func (msg callDoneMsg) update(m *Model) tea.Cmd {
	if msg.conn != m.runConn { // a call of a server left since (S)
		return nil
	}
	last := m.progress
	m.running, m.cancelCall, m.runTrack, m.progress = "", nil, nil, nil
	m.tell(m.pages)
	var text string
	if u, ok, bad := mcpclient.URLRequiredOf(msg.err); msg.cancelled {
		text = renderCancelled(&m.c, msg.took, last)
	} else if ok && bad == nil {
		text = renderURLRequired(&m.c, u, msg.took)
	} else {
		text = renderResult(&m.c, msg.res, msg.err, msg.took)
	}
	tools := pageOf[*page.Tools](m)
	tools.Update(page.ToolResult{Tool: msg.tool, Text: text})
	m.saved.called(msg, tools.Named(msg.tool))
	return tea.Batch(m.apps.callDone(msg), askURLs(tools, msg))
}

// renderCancelled says that the person cancelled a call, what the server
// was told, and how far the call had come.
func renderCancelled(c *widget.Common, took time.Duration, last *mcpclient.ProgressEvent) string {
	s := c.Styles
	var b strings.Builder
	b.WriteString(s.Warn.Render("cancelled") + s.Dim.Render(fmt.Sprintf(" · after %s", took.Round(time.Millisecond))) + "\n")
	b.WriteString("You cancelled the call: mcpeek sent the server notifications/cancelled, and drops its reply if one still comes.")
	if last != nil {
		b.WriteString("\n" + s.Dim.Render("last progress: "))
		if last.Total > 0 {
			b.WriteString(page.Number(last.Progress) + "/" + page.Number(last.Total))
		} else {
			b.WriteString(page.Number(last.Progress))
		}
		if last.Message != "" {
			b.WriteString(s.Dim.Render(" · ") + widget.Clean(last.Message))
		}
	}
	return b.String()
}

// renderResult draws a tool result: each content block, structured
// content as JSON, isError highlighted, and the call's duration.
func renderResult(c *widget.Common, res *mcp.CallToolResult, err error, took time.Duration) string {
	var b strings.Builder
	if err != nil {
		b.WriteString(c.Styles.Err.Render("error: ") + widget.Clean(err.Error()) + "\n")
		b.WriteString(c.Styles.Dim.Render(fmt.Sprintf("after %s", took.Round(time.Millisecond))))
		return b.String()
	}
	status := c.Styles.OK.Render("result")
	if res.IsError {
		status = c.Styles.Err.Render("isError: the tool reports a failure")
	}
	b.WriteString(status + c.Styles.Dim.Render(fmt.Sprintf(" · %s", took.Round(time.Millisecond))) + "\n")
	for _, content := range res.Content {
		switch v := content.(type) {
		case *mcp.TextContent:
			b.WriteString(c.Styles.ColourJSON(widget.Clean(widget.PrettyText(v.Text))) + "\n")
		case *mcp.ImageContent:
			b.WriteString(c.Styles.Dim.Render(fmt.Sprintf("[image %s, %d bytes]", widget.Clean(v.MIMEType), len(v.Data))) + "\n")
		case *mcp.AudioContent:
			b.WriteString(c.Styles.Dim.Render(fmt.Sprintf("[audio %s, %d bytes]", widget.Clean(v.MIMEType), len(v.Data))) + "\n")
		case *mcp.ResourceLink:
			b.WriteString(c.Styles.Dim.Render("[resource link] ") + widget.Clean(v.URI) + "\n")
		case *mcp.EmbeddedResource:
			uri := ""
			if v.Resource != nil {
				uri = v.Resource.URI
			}
			b.WriteString(c.Styles.Dim.Render("[embedded resource] ") + widget.Clean(uri) + "\n")
		default:
			b.WriteString(c.Styles.Dim.Render(fmt.Sprintf("[%T]", content)) + "\n")
		}
	}
	if res.StructuredContent != nil {
		b.WriteString(c.Styles.Dim.Render("structuredContent:") + "\n" + c.Styles.ColourJSON(widget.Clean(widget.PrettyJSON(res.StructuredContent))))
	}
	return strings.TrimRight(b.String(), "\n")
}

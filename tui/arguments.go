// The arguments of a tool, a prompt or a resource template: the root
// opens the form (layer.ArgsForm), with the server's completions when it
// offers them, or for a tool whose input schema is more than a form can
// show the JSON editor (layer.JSONEditor).

package tui

import (
	"context"
	"encoding/json"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// openArgsCompleting shows a form for arguments; done gets what was
// submitted. Its text fields the server completes for ref (a prompt or a
// resource template; nil for a tool's), when it offers completions.
func (m *Model) openArgsCompleting(title string, schema *formschema.Schema, ref *mcp.CompleteReference, done func(map[string]any) tea.Cmd) tea.Cmd {
	return m.host(layer.NewArgsForm(&m.c, title, schema, m.opts.argsOptions(), completer(m.conn, ref), done))
}

// completer completes the fields of a form for ref, when the server
// offers completions; otherwise it is nil.
func completer(conn *mcpclient.Conn, ref *mcp.CompleteReference) layer.Completer {
	if conn == nil || ref == nil || conn.ServerCapabilities().Completions == nil {
		return nil
	}
	return func(arg mcp.CompleteParamsArgument, given map[string]string) (*mcpclient.Completion, error) {
		ctx, cancel := context.WithTimeout(conn.Context(), 10*time.Second)
		defer cancel()
		return conn.Complete(ctx, ref, arg, given)
	}
}

// openJSON opens the JSON editor for a tool's arguments: those of its
// last call, else a skeleton of the schema (its required properties and
// its defaults), the cursor in the first.
func (m *Model) openJSON(t *mcp.Tool, asTask bool) tea.Cmd {
	input := m.inputSchema(t)
	args := layer.JSONArgs{Tool: t, AsTask: asTask, Schema: indentedSchema(input), Secrets: secret.Fields(t.InputSchema), Check: argumentsCheck(input)}
	if _, err := formschema.ParseArguments(input); err != nil {
		args.Why = err.Error()
	}
	if args.Text = m.runs.lastArgsJSON(t); args.Text == "" {
		args.Text, args.Skeleton = skeleton(input), true
	}
	return m.host(layer.NewJSONEditor(&m.c, args))
}

// argumentsCheck validates a tool's arguments, as JSON, against its input
// schema (formats asserted, the draft it declares); nil when the schema
// cannot be read, which leaves the arguments to the server.
func argumentsCheck(input any) func([]byte) error {
	raw, err := json.Marshal(input)
	if err != nil {
		return nil
	}
	sch, err := formschema.Compile(raw)
	if err != nil {
		return nil
	}
	return func(args []byte) error { return formschema.ValidateJSON(sch, args) }
}

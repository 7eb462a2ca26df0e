// An app's own tools (a draft feature of MCP Apps): an app that declared
// appCapabilities.tools answers tools/list and tools/call from its host.
// From the Apps panel, t lists the selected app's tools over it; the
// person picks one, types its arguments and calls it: the call is theirs,
// as the draft asks a host to confirm such calls.

package layer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type (
	// ListAppTools asks the program for the App-th app's own tools; it
	// answers with [AppToolsListed].
	ListAppTools struct{ App int }
	// CallAppTool asks the program to call the App-th app's tool Name with
	// Args; it answers with [AppToolResult].
	CallAppTool struct {
		App  int
		Name string
		Args json.RawMessage
	}
	// AppToolsListed brings the app's own tools, or why there are none.
	AppToolsListed struct {
		Tools []*mcp.Tool
		Err   string
	}
	// AppToolResult brings the outcome of a call of the tool Name, drawn.
	AppToolResult struct{ Name, Text string }
)

// AppTools lists one app's own tools and calls them: enter calls the one
// selected with the arguments typed, ctrl+l lists them again.
type AppTools struct {
	c       *widget.Common
	app     int    // the app, by its place among the sessions
	name    string // its tool's name
	open    func() bool
	tools   []*mcp.Tool
	err     string // why the list is missing
	loading bool
	picked  widget.List // the tool selected
	args    textinput.Model
	calling string // the tool being called
	result  string // the last call's outcome, drawn
	detail  widget.Pane
}

// NewAppTools is the layer on the app-th session, of the tool name; open
// says whether its session is open. It asks for the app's tools with
// [AppTools.List].
func NewAppTools(c *widget.Common, app int, name string, open func() bool) *AppTools {
	in := textinput.New()
	in.Prompt = "arguments: "
	in.Placeholder = "{} (a JSON object)"
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Width = max(c.Width-16, 10)
	in.Focus()
	return &AppTools{c: c, app: app, name: name, open: open, args: in}
}

// App is the app the layer is on, by its place among the sessions.
func (l *AppTools) App() int { return l.app }

// TypesText: every key that is not the layer's is the arguments typed.
func (*AppTools) TypesText() bool { return true }

// List asks for the app's tools again, showing that it asks.
func (l *AppTools) List() ListAppTools {
	l.loading, l.err = true, ""
	return ListAppTools{l.app}
}

// Update takes the keys, the tools listed and the calls' outcomes.
func (l *AppTools) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case AppToolsListed:
		l.loading, l.tools, l.err = false, msg.Tools, msg.Err
		l.picked.SetLen(len(l.tools))
	case AppToolResult:
		if l.calling == msg.Name {
			l.calling, l.result = "", msg.Text
		}
	case tea.KeyMsg:
		return l.key(msg)
	}
	return nil
}

func (l *AppTools) key(msg tea.KeyMsg) Action {
	k := AppToolsKeys
	l.picked.SetLen(len(l.tools))
	switch {
	case key.Matches(msg, k.Quit):
		return AskQuit{}
	case key.Matches(msg, k.Back):
		return Close{}
	case key.Matches(msg, k.Up):
		l.picked.Move(-1)
	case key.Matches(msg, k.Down):
		l.picked.Move(1)
	case key.Matches(msg, k.PageUp):
		l.detail.Viewport.PageUp()
	case key.Matches(msg, k.PageDown):
		l.detail.Viewport.PageDown()
	case key.Matches(msg, k.Relist):
		if l.open() {
			return l.List()
		}
	case key.Matches(msg, k.Call):
		return l.call()
	default:
		var cmd tea.Cmd
		l.args, cmd = l.args.Update(msg)
		return Cmd{cmd}
	}
	return nil
}

// call calls the selected tool with the arguments typed, when they are a
// JSON object (empty: {}).
func (l *AppTools) call() Action {
	s := l.c.Styles
	switch {
	case !l.open():
		l.result = s.Err.Render("the app's session is not open")
		return nil
	case len(l.tools) == 0:
		return nil
	case l.calling != "":
		l.result = s.Warn.Render("still calling " + widget.Clean(l.calling))
		return nil
	}
	text := strings.TrimSpace(l.args.Value())
	if text == "" {
		text = "{}"
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
		l.result = s.Err.Render("the arguments must be a JSON object, like {\"q\": \"x\"}")
		return nil
	}
	name := l.tools[l.picked.Cursor()].Name
	l.calling, l.result = name, s.Dim.Render("calling "+widget.Clean(name)+"…")
	return CallAppTool{l.app, name, json.RawMessage(text)}
}

// View lists the tools over the arguments typed and the last outcome.
func (l *AppTools) View(width, height int) string {
	s := l.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Line("The app's own tools · "+l.name, width)) + "\n")
	b.WriteString(s.Dim.Render(widget.Line("Tools the app registered, called in the app (tools/call to it), not on the server.", width)) + "\n\n")
	switch {
	case l.loading:
		b.WriteString(s.Dim.Render("asking the app…") + "\n")
	case l.err != "":
		b.WriteString(widget.Block(s.Warn.Render(widget.Clean(l.err)), width, 3) + "\n")
	case len(l.tools) == 0:
		b.WriteString(s.Dim.Render("The app lists no tools.") + "\n")
	}
	rows := make([]widget.Row, len(l.tools))
	for i, t := range l.tools {
		rows[i] = widget.Row{Name: widget.Fit(fmt.Sprintf("%-24s  %s", widget.Line(t.Name, 24), widget.Line(t.Description, width)), max(width-2, 10)), Drawn: true}
	}
	if len(rows) > 0 {
		b.WriteString(l.picked.Rows(l.c, rows, width, max(min(len(l.tools), height/3), 1)) + "\n")
	}
	b.WriteString("\n" + l.args.View() + "\n\n")
	head := b.String()
	l.detail.Set(widget.Redact(l.result), width, max(height-strings.Count(head, "\n"), 1))
	return head + l.detail.View(l.c, "")
}

// Help is the layer's keys.
func (l *AppTools) Help() []key.Binding { return AppToolsKeys.ShortHelp() }

// AppToolsKeyMap holds the keys that work on the layer of an app's own
// tools; other keys are the arguments typed.
type AppToolsKeyMap struct {
	Up, Down, Call, Relist       key.Binding
	PageUp, PageDown, Back, Quit key.Binding
}

// AppToolsKeys are the bindings of [AppToolsKeyMap].
var AppToolsKeys = AppToolsKeyMap{
	Up:       keys.New("↑", "up", "up"),
	Down:     keys.New("↓", "down", "down"),
	Call:     keys.New("enter", "call it with the arguments typed", "enter"),
	Relist:   keys.New("ctrl+l", "ask the app for its tools again", "ctrl+l"),
	PageUp:   keys.New("pgup", "scroll the result up", "pgup"),
	PageDown: keys.New("pgdown", "scroll it down", "pgdown"),
	Back:     keys.New("esc", "back to the Apps panel", "esc"),
	Quit:     quitKey,
}

// ShortHelp is the footer of an app's own tools.
func (k AppToolsKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("↑↓", "select", k.Up, k.Down), keys.Hint("enter", "call", k.Call), keys.Hint("ctrl+l", "list again", k.Relist),
		keys.Hint("pgup/dn", "scroll", k.PageUp, k.PageDown), keys.Hint("esc", "back", k.Back), k.Quit}
}

// FullHelp lists the keys of an app's own tools.
func (k AppToolsKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Call, k.Relist, k.PageUp, k.PageDown, k.Back, k.Quit}}
}

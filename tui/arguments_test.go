package tui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// searchInput has a list of strings and a nested object of simple fields,
// its properties out of alphabetical order.
const searchInput = `{"type":"object","properties":{
	"query":{"type":"string"},
	"tags":{"type":"array","items":{"type":"string"}},
	"limits":{"type":"object","properties":{
		"max":{"type":"integer","minimum":1},
		"unit":{"type":"string","enum":["s","m"]}},"required":["max"]}},
	"required":["query"]}`

// searchServer's tool search says what arguments it got.
func searchServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "search", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(searchInput)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(req.Params.Arguments)}}}, nil
		})
	return s
}

// A tool with a list of strings and a nested object gets a form, in the
// schema's property order, not the JSON editor: items typed into the
// list and the group's field filled reach the server.
func TestToolFormFillsAListAndAGroup(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(searchServer, "")}, 100, 40).expect("input schema:") // listed and selected
	in.keys("enter").argsOpen("Arguments for search")
	in.typeText("q").keys("enter").typeText("red").keys("enter").typeText("blue").keys("enter")
	in.keys("enter").typeText("5") // an empty item moves on: Limits › Max
	in.keys("ctrl+s").expect("got {")
	wantOnScreen(t, in.screen(), `"query":"q"`, `"tags":["red","blue"]`, `"limits":{"max":5}`)
}

// The tool form shows the fields in the order the server listed them
// (query, tags, limits), not in the order of their keys, which decoding
// the listing leaves.
func TestToolFormKeepsTheSchemasOrder(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := inMemory(searchServer, "")(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	listed, err := conn.List(ctx, "tools")
	if err != nil {
		t.Fatal(err)
	}
	tool := listed["tools"].([]*mcp.Tool)[0]
	m := New(Options{})
	m.conn = conn
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	m.openToolAs(tool, false)
	// The list draws its title at once (huh's titles come in a command).
	if view := m.View(); strings.Index(view, "Tags") > strings.Index(view, "Limits") {
		t.Errorf("the fields are not in the schema's order (tags before limits):\n%s", view)
	}
	s, err := formschema.ParseArguments(m.inputSchema(tool))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range s.Fields {
		keys = append(keys, f.Key)
	}
	if want := []string{"query", "tags", "limits"}; !slices.Equal(keys, want) {
		t.Errorf("the form's fields are %q, want %q", keys, want)
	}
}

// deepTool's input schema is a oneOf of objects, which no form shows.
var deepTool = &mcp.Tool{Name: "deep", InputSchema: map[string]any{"type": "object",
	"properties": map[string]any{
		"shape": map[string]any{"oneOf": []any{
			map[string]any{"type": "object", "properties": map[string]any{"r": map[string]any{"type": "number"}}, "required": []any{"r"}},
			map[string]any{"type": "object", "properties": map[string]any{"w": map[string]any{"type": "number"}}, "required": []any{"w"}},
		}},
		"label":   map[string]any{"type": "string", "default": "unnamed"},
		"comment": map[string]any{"type": "string"},
	},
	"required": []any{"shape"}}}

// The JSON editor starts from a skeleton of the required keys and the
// defaults (the first alternative of a oneOf), says what a form cannot
// show, and shows the schema beside it, or under it on a narrow screen.
func TestJSONEditorStartsFromASkeleton(t *testing.T) {
	t.Parallel()
	for _, width := range []int{120, 80} {
		m := New(Options{})
		m.Update(tea.WindowSizeMsg{Width: width, Height: 40})
		m.openToolAs(deepTool, false)
		ed, ok := findTop[*layer.JSONEditor](m)
		if !ok {
			t.Fatalf("top %T, want the JSON editor", m.top().layer())
		}
		want := "{\n  \"label\": \"unnamed\",\n  \"shape\": {\n    \"r\": 0\n  }\n}"
		if got := ed.Editor().Value(); got != want {
			t.Errorf("%d columns: the editor starts from\n%s\nwant\n%s", width, got, want)
		}
		view := m.View()
		texts := []string{"input schema:", `field "shape": a oneOf of objects is more than a form can show`}
		if width >= layer.SideBySide {
			texts = append(texts, `"oneOf": [`) // under a narrow editor, the schema's first lines
		}
		for _, text := range texts {
			if !strings.Contains(view, text) {
				t.Errorf("%d columns: the editor's screen lacks %q:\n%s", width, text, view)
			}
		}
	}
}

// The tool form and the JSON editor, at each size.
func TestArgumentsGoldens(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run("form/"+size.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(searchServer, "")}, size.w, size.h).expect("input schema:")
			in.keys("enter").argsOpen("Arguments for search")
			in.typeText("q").keys("enter").typeText("red").keys("enter").expect("• red")
			checkGolden(t, in.screen())
		})
		t.Run("json/"+size.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(nestedServer, "")}, size.w, size.h).expect("deep")
			in.keys("enter").expect("as JSON")
			checkGolden(t, in.screen())
		})
	}
}

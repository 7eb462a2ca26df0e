// Every list of the inspector (the tabs' and the layers') on a short
// terminal: the selected row stays on the screen.

//lint:file-ignore SA1019 roots are deprecated from 2026-07-28 on, but servers still use them and mcpeek offers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// many is how many rows each list gets: more than a 12-row terminal shows.
const many = 30

// On a short terminal (80×12) every list keeps its selected row on the
// screen: select the last row with the keys, and it shows, marked, with
// the position line that says not all rows do.
func TestListsKeepTheSelectionVisibleAt80x12(t *testing.T) {
	t.Parallel()
	name := func(i int) string { return fmt.Sprintf("row_%02d", i) }
	for _, tc := range []struct {
		name  string
		setup func(m *Model) // fills the list and opens it
		keys  []string       // select the last row
		want  string
	}{
		{"the log level picker", func(m *Model) { m.host(layer.NewLevelPicker(&m.c, "", false)) }, downs(8), "> emergency"},
		{"the server picker", func(m *Model) {
			var servers []ServerEntry
			for i := range many {
				servers = append(servers, ServerEntry{Name: name(i), Transport: "stdio"})
			}
			m.Update(serversMsg{entries: servers})
		}, downs(many), "> " + name(many-1)},
		{"the roots", func(m *Model) {
			var roots []*mcp.Root
			for i := range many {
				roots = append(roots, &mcp.Root{URI: "file:///" + name(i)})
			}
			m.host(layer.NewRoots(&m.c, roots, func() bool { return false }))
		}, downs(many), "> file:///" + name(many-1)},
		{"the tasks", func(m *Model) {
			for i := range many {
				m.tasks = append(m.tasks, &taskRow{tool: name(i), st: mcpclient.TaskStatus{TaskID: "t"}})
			}
			m.Update(keyMsg("T"))
		}, downs(many), "> " + name(many-1)},
		{"an app's own tools", func(m *Model) {
			m.apps.list = append(m.apps.list, &toolApp{tool: &mcp.Tool{Name: "app"}})
			var tools []*mcp.Tool
			for i := range many {
				tools = append(tools, &mcp.Tool{Name: name(i)})
			}
			l := layer.NewAppTools(&m.c, 0, "app", func() bool { return false })
			m.host(l)
			l.Update(layer.AppToolsListed{Tools: tools})
		}, downs(many), "> " + name(many-1)},
		{"the apps panel", func(m *Model) {
			for i := range many {
				m.apps.list = append(m.apps.list, &toolApp{tool: &mcp.Tool{Name: name(i)}})
			}
			m.Update(keyMsg("A"))
		}, downs(many), "> " + name(0)}, // newest first: the oldest is last
		{"the Tools tab", func(m *Model) {
			var tools []*mcp.Tool
			for i := range many {
				tools = append(tools, &mcp.Tool{Name: name(i)})
			}
			setTools(m, tools...)
		}, downs(many), "> " + name(many-1)},
		{"the Resources tab", func(m *Model) {
			var list page.ResourceList
			for i := range many {
				list.Resources = append(list.Resources, &mcp.Resource{URI: "file:///" + name(i), Name: name(i)})
			}
			pageOf[*page.Resources](m).Update(list)
			m.Update(keyMsg("2"))
		}, downs(many), name(many - 1)},
		{"the Prompts tab", func(m *Model) {
			var prompts []*mcp.Prompt
			for i := range many {
				prompts = append(prompts, &mcp.Prompt{Name: name(i)})
			}
			setPrompts(m, prompts...)
			m.Update(keyMsg("3"))
		}, downs(many), "> " + name(many-1)},
		{"the Requests tab", func(m *Model) {
			for i := range many {
				m.records = append(m.records, mcpclient.Record{Key: name(i), Kind: "elicitation"})
			}
			m.Update(keyMsg("4"))
		}, downs(many), "> " + name(0)}, // newest first
		{"the Log tab", func(m *Model) {
			for i := range many {
				m.wire = append(m.wire, mcpclient.WireEntry{Dir: mcpclient.DirNote, Text: name(i)})
			}
			m.Update(keyMsg("5"))
		}, []string{"g"}, name(0)},
		{"the server's log", func(m *Model) {
			var logs []mcpclient.Event
			for i := range many {
				logs = append(logs, mcpclient.LogEvent{Level: "info", Data: []byte(`"` + name(i) + `"`)})
			}
			m.Update(eventsMsg{events: logs})
			m.Update(keyMsg("5"))
			m.Update(keyMsg("v"))
		}, []string{"g"}, name(0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := New(Options{})
			m.asker.stop()
			m.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
			tc.setup(m)
			for _, k := range tc.keys {
				m.Update(keyMsg(k))
			}
			view := ansi.Strip(m.View())
			if !strings.Contains(view, tc.want) {
				t.Errorf("the selected row %q does not show at 80×12:\n%s", tc.want, view)
			}
			if !strings.Contains(view, " of ") {
				t.Errorf("no position line says which rows show:\n%s", view)
			}
		})
	}
}

// downs are n presses of ↓.
func downs(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "down"
	}
	return keys
}

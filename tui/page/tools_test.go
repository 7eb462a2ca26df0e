package page

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func newTools(t *testing.T, from ToolsFrom, tools ...*mcp.Tool) *Tools {
	t.Helper()
	c := widget.NewCommon(keys.NewMap("Tools", "Resources", "Prompts", "Requests", "Log", "Info"))
	c.Width, c.Height = 100, 30
	p := NewTools(&c, from)
	p.Update(ToolList{Tools: tools})
	return p
}

func tools(names ...string) []*mcp.Tool {
	out := make([]*mcp.Tool, len(names))
	for i, n := range names {
		out[i] = &mcp.Tool{Name: n, Description: "Tool " + n + ".", InputSchema: map[string]any{"type": "object"}}
	}
	return out
}

// The Tools tab's keys: enter calls the selected tool and t calls it as a
// task (the program's to do: the page asks by its action); ↑↓ move, /
// filters; the keys that are not the page's (esc cancelling a call, y
// copying…) are passed to the program.
func TestToolsKeys(t *testing.T) {
	all := tools("alpha", "beta", "gamma")
	p := newTools(t, ToolsFrom{}, all...)
	for _, tc := range []struct {
		keys []string
		want Action
	}{
		{[]string{"enter"}, OpenTool{all[0]}},
		{[]string{"j", "t"}, CallAsTask{all[1]}},
		{[]string{"k", "enter"}, OpenTool{all[0]}},
		{[]string{"esc"}, layer.Pass{}},
		{[]string{"y"}, layer.Pass{}},
		{[]string{"r"}, layer.Pass{}},
		{[]string{"/", "g", "a", "enter", "enter"}, OpenTool{all[2]}},
	} {
		var got Action
		for _, k := range tc.keys {
			got = p.Update(keyMsg(k))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: action %#v, want %#v", tc.keys, got, tc.want)
		}
	}
	if v := p.Visible(); len(v) != 1 || v[0].Name != "gamma" {
		t.Errorf("the filter ga lets through %v", v)
	}
	if !strings.Contains(ansi.Strip(p.View(100, 20)), "filter: ga") {
		t.Errorf("the filter is not shown:\n%s", ansi.Strip(p.View(100, 20)))
	}
	p.Update(keyMsg("/"))
	if !p.Filtering() || p.Update(keyMsg("q")) != nil || p.List().Filter() != "q" {
		t.Errorf("while the filter is typed, q is text: filter %q", p.List().Filter())
	}
	p.Update(keyMsg("esc"))
	if p.Filtering() || len(p.Visible()) != 3 {
		t.Errorf("esc leaves the filter: filtering %v, %d visible", p.Filtering(), len(p.Visible()))
	}
	empty := newTools(t, ToolsFrom{})
	for _, k := range []string{"enter", "t", "c"} {
		if a := empty.Update(keyMsg(k)); a != nil {
			t.Errorf("%s with no tool: action %#v, want none", k, a)
		}
	}
}

// c calls again, with the same arguments, the call the server refused
// until a page was opened, once: only on its tool, and not while a call
// runs; a new connection forgets it.
func TestToolsRetryARefusedCall(t *testing.T) {
	all := tools("alpha", "beta")
	p := newTools(t, ToolsFrom{}, all...)
	refused := Refused{Tool: all[1], Args: json.RawMessage(`{"a":1}`), AsTask: true}
	wantStatus := func(a Action, want string) {
		t.Helper()
		if s, ok := a.(Note); !ok || !s.Err || s.Text != want {
			t.Errorf("action %#v, want the status %q", a, want)
		}
	}
	wantStatus(p.Update(keyMsg("c")), "c calls a tool again once the server asked for a page to be opened first; enter calls it")
	p.Update(refused)
	wantStatus(p.Update(keyMsg("c")), "c calls a tool again once the server asked for a page to be opened first; enter calls it")
	p.Update(keyMsg("j"))
	p.Update(Running{Tool: "alpha"})
	wantStatus(p.Update(keyMsg("c")), "a call is running: esc cancels it")
	p.Update(Running{})
	if a := p.Update(keyMsg("c")); !reflect.DeepEqual(a, layer.CallTool{Tool: refused.Tool, Args: refused.Args, AsTask: true}) {
		t.Errorf("c on the refused call's tool: %#v", a)
	}
	if p.RefusedTool() != "" {
		t.Error("the refused call is kept after it was called again")
	}
	p.Update(refused)
	p.Update(NewConnection{})
	wantStatus(p.Update(keyMsg("c")), "c calls a tool again once the server asked for a page to be opened first; enter calls it")
}

// A tool's results show in its pane, the latest first; [ and ] step
// through the earlier ones, and the pane's hint says so.
func TestToolsResults(t *testing.T) {
	p := newTools(t, ToolsFrom{AppText: func(t *mcp.Tool) string { return "app of " + t.Name + "\n" }}, tools("alpha", "beta")...)
	text := p.Text()
	for _, want := range []string{"alpha", "Tool alpha.", "input schema:", "app of alpha", "enter calls it"} {
		if !strings.Contains(ansi.Strip(text), want) {
			t.Errorf("the pane lacks %q:\n%s", want, text)
		}
	}
	p.Update(ToolResult{Tool: "alpha", Text: "first"})
	p.Update(ToolResult{Tool: "alpha", Text: "second"})
	p.Update(ToolResult{Tool: "beta", Text: "beta's"})
	show := func() string {
		p.Update(Show{Text: p.Text(), Width: 100, Height: 20})
		return ansi.Strip(p.View(100, 21))
	}
	if v := show(); !strings.Contains(v, "result 2 of 2") || !strings.Contains(v, "second") || !strings.Contains(v, "earlier/later result") {
		t.Errorf("the latest result, and the keys to the others:\n%s", v)
	}
	p.Update(keyMsg("["))
	p.Update(keyMsg("[")) // there is none earlier: it stays
	if v := show(); !strings.Contains(v, "result 1 of 2") || !strings.Contains(v, "first") {
		t.Errorf("after [:\n%s", v)
	}
	p.Update(keyMsg("]"))
	if v := show(); !strings.Contains(v, "result 2 of 2") {
		t.Errorf("after ]:\n%s", v)
	}
	p.Update(keyMsg("j"))
	if v := show(); !strings.Contains(v, "beta's") || strings.Contains(v, "result 1 of") || strings.Contains(v, "earlier/later") {
		t.Errorf("beta's one result:\n%s", v)
	}
}

// While the selected tool runs, a banner above its pane says for how long
// and how far it came, and its results wait under it.
func TestToolsRunningBanner(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p := newTools(t, ToolsFrom{Spinner: func() string { return "* " }, Now: func() time.Time { return start.Add(3 * time.Second) }},
		tools("alpha", "beta")...)
	p.Update(ToolResult{Tool: "alpha", Text: "an old result"})
	p.Update(Running{Tool: "alpha", Start: start, Progress: &mcpclient.ProgressEvent{Progress: 1, Total: 4, Message: "reading"}})
	p.Update(Show{Text: p.Text(), Width: 100, Height: 20})
	v := ansi.Strip(p.View(100, 21))
	for _, want := range []string{"* calling alpha… 3s · esc cancels", "1/4", "reading"} {
		if !strings.Contains(v, want) {
			t.Errorf("the banner lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(p.Text(), "an old result") {
		t.Errorf("the running tool's pane shows an old result:\n%s", p.Text())
	}
	if h := p.pane.Viewport.Height; h != 20-runBannerLines {
		t.Errorf("the pane under the banner is %d lines, want %d", h, 20-runBannerLines)
	}
	p.Update(keyMsg("j"))
	if v := ansi.Strip(p.View(100, 21)); strings.Contains(v, "calling alpha") {
		t.Errorf("another tool's pane shows the banner:\n%s", v)
	}
	p.Update(keyMsg("k"))
	p.Update(Running{Tool: "alpha", Start: start, Progress: &mcpclient.ProgressEvent{Progress: 7}})
	if v := ansi.Strip(p.View(100, 21)); !strings.Contains(v, "* 7 so far (the server names no total)") {
		t.Errorf("progress without a total:\n%s", v)
	}
	if got := ProgressBrief(&mcpclient.ProgressEvent{Progress: 2.5, Total: 5}); got != " · 2.5/5" {
		t.Errorf("ProgressBrief = %q", got)
	}
}

// A new list keeps the cursor on the tool it was on; an empty one (a
// connection being made) keeps its place for the list to come.
func TestToolsKeepTheSelection(t *testing.T) {
	p := newTools(t, ToolsFrom{}, tools("alpha", "beta", "gamma")...)
	p.Update(keyMsg("j"))
	p.Update(ToolList{Tools: tools("aardvark", "alpha", "beta", "gamma")})
	if s := p.Selected(); s == nil || s.Name != "beta" {
		t.Errorf("selected %v, want beta", s)
	}
	p.Update(ToolList{})
	p.Update(ToolList{Tools: tools("one", "two", "three")})
	if s := p.Selected(); s == nil || s.Name != "three" {
		t.Errorf("after reconnecting: selected %v, want the same place, three", s)
	}
	if p.Named("two") == nil || p.Named("beta") != nil {
		t.Error("Named finds the listed tools only")
	}
}

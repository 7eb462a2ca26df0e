//lint:file-ignore SA1019 roots are deprecated from 2026-07-28 on, but servers still use them and mcpeek offers them.

package layer

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func typed(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

var (
	enter = tea.KeyMsg{Type: tea.KeyEnter}
	esc   = tea.KeyMsg{Type: tea.KeyEsc}
)

// The level picker opens on the current level; enter asks for the one
// selected and closes.
func TestLevelPickerChoosesTheSelectedLevel(t *testing.T) {
	l := NewLevelPicker(common(), "info", false)
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "> info       (current)") {
		t.Errorf("the current level is not selected:\n%s", v)
	}
	l.Update(keyOf("down"))
	a, ok := l.Update(enter).(Batch)
	if !ok || len(a) != 2 || a[0] != (Close{}) || a[1] != (SetLogLevel{"notice"}) {
		t.Errorf("enter after ↓ from info: %#v, want Close then SetLogLevel notice", a)
	}
	if a := l.Update(esc); a != (Close{}) {
		t.Errorf("esc: %#v, want Close", a)
	}
}

// The server picker says why a server cannot be used, closes on the
// current one, and asks to connect to another.
func TestServerPickerPicks(t *testing.T) {
	p := NewServerPicker(common(), []Server{
		{Name: "broken", Note: "no command", Usable: false},
		{Name: "here", Transport: "stdio", Current: true, Usable: true},
		{Name: "there", Transport: "http", Usable: true},
	})
	if a := p.Update(enter).(Batch); a[1] != (Status{"already connected to here (r reconnects)", false}) {
		t.Errorf("enter on the current server: %#v", a)
	}
	p.Update(keyOf("down"))
	if a := p.Update(enter).(Batch); a[0] != (Close{}) || a[2] != (ServerPicked{2}) {
		t.Errorf("enter on another server: %#v, want Close … ServerPicked 2", a)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	p.Update(tea.KeyMsg{Type: tea.KeyUp})
	if a := p.Update(enter); a != (Status{"cannot connect to broken: no command", true}) {
		t.Errorf("enter on an unusable server: %#v", a)
	}
}

// a adds a root typed in, d removes the one selected, each at once and
// asked of the program; a root offered already, or typed while not
// connected, is not added and the layer says why.
func TestRootsAddAndRemove(t *testing.T) {
	connected := true
	l := NewRoots(common(), []*mcp.Root{{URI: "file:///b"}}, func() bool { return connected })
	l.Update(typed("a"))
	if !l.TypesText() {
		t.Fatal("a does not start typing a root")
	}
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("file:///a"), Paste: true})
	if a := l.Update(enter); a != (AddRoot{"file:///a"}) {
		t.Fatalf("enter: %#v, want AddRoot file:///a", a)
	}
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "> file:///a") || !strings.Contains(v, "file:///b") {
		t.Errorf("the root added is not listed, selected, before the other:\n%s", v)
	}
	l.Update(typed("a"))
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("file:///b"), Paste: true})
	if a := l.Update(enter); a != nil || !strings.Contains(ansi.Strip(l.View(80, 20)), "file:///b is offered already") {
		t.Errorf("a root offered already: %#v\n%s", a, ansi.Strip(l.View(80, 20)))
	}
	l.Update(esc)
	if a := l.Update(typed("d")); a != (RemoveRoot{"file:///a"}) {
		t.Errorf("d: %#v, want RemoveRoot file:///a", a)
	}
	l.Update(RootsListed{Roots: []*mcp.Root{{URI: "file:///b", Name: "bee"}}})
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "> file:///b bee") {
		t.Errorf("the roots the program listed do not show:\n%s", v)
	}
	connected = false
	if a := l.Update(typed("d")); a != nil {
		t.Errorf("d while not connected: %#v, want nothing", a)
	}
}

// The tasks layer shows the selected task's requests, asks the program to
// cancel or list, and shows what it learned of the list.
func TestTasksLayer(t *testing.T) {
	tasks := []Task{{Tool: "slow", Status: mcpclient.TaskStatus{TaskID: "t-1", Status: "working", StatusMessage: "halfway"}}}
	records := []mcpclient.Record{{Key: "e-1", Kind: "elicitation", Action: "accept", Message: "ok?", TaskID: "t-1"}, {Key: "e-2", TaskID: "t-2"}}
	l := NewTasks(common(), func() []Task { return tasks }, func() []mcpclient.Record { return records })
	v := ansi.Strip(l.View(80, 30))
	for _, want := range []string{"> slow t-1 working", "halfway", "e-1 elicitation accept: ok?"} {
		if !strings.Contains(v, want) {
			t.Errorf("no %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "e-2") {
		t.Errorf("another task's request shows:\n%s", v)
	}
	if a := l.Update(typed("c")); a != (CancelTask{}) {
		t.Errorf("c: %#v", a)
	}
	if a := l.Update(typed("l")); a != (ListTasks{}) {
		t.Errorf("l: %#v", a)
	}
	l.Update(TasksListed{"the server lists 0 tasks"})
	if v := ansi.Strip(l.View(80, 30)); !strings.Contains(v, "the server lists 0 tasks") {
		t.Errorf("tasks/list's answer does not show:\n%s", v)
	}
}

// The save prompt saves under the name typed, never under none.
func TestSavePrompt(t *testing.T) {
	l := NewSavePrompt(common(), "x.txt", []byte("data"))
	if f := ansi.Strip(l.Footer(80)); !strings.Contains(f, "save to: x.txt") {
		t.Errorf("footer %q", f)
	}
	l.Update(typed("t"))
	a, ok := l.Update(enter).(Batch)
	if !ok || a[0] != (Close{}) || a[1].(Save).Name != "x.txtt" || string(a[1].(Save).Data) != "data" {
		t.Errorf("enter: %#v, want Close then Save x.txtt", a)
	}
	for range 6 {
		l.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	if a := l.Update(enter); a != nil {
		t.Errorf("enter with no name: %#v, want nothing", a)
	}
}

// The app card takes n only, and not while a filter is typed.
func TestAppCardTakesOnlyN(t *testing.T) {
	filtering := false
	l := NewAppCard(common(), func() []mcpclient.Pending { return []mcpclient.Pending{{Key: "e-3", Path: mcpclient.PathApp}} },
		func() bool { return filtering }, nil, "")
	if a := l.Update(typed("n")); a != (AbandonApp{"e-3"}) {
		t.Errorf("n: %#v", a)
	}
	if a := l.Update(typed("j")); a != (Pass{}) {
		t.Errorf("j: %#v, want Pass", a)
	}
	filtering = true
	if a := l.Update(typed("n")); a != (Pass{}) {
		t.Errorf("n while filtering: %#v, want Pass", a)
	}
}

// The Apps panel lists the newest first and names the selected app in
// what it asks; y copies its URL, or says it has none.
func TestAppsPanel(t *testing.T) {
	apps := []App{{Tool: "old", State: "ended", Ended: true}, {Tool: "new", State: "t-2 open", URL: "http://x/t-2"}}
	l := NewApps(common(), "app host 127.0.0.1:1", func() []App { return apps }, func(i int) string { return "detail of " + apps[i].Tool })
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	l.Refresh()
	v := ansi.Strip(l.View(80, 20))
	if !strings.Contains(v, "2 opened, 1 open") || !strings.Contains(v, "> new") || !strings.Contains(v, "detail of new") {
		t.Errorf("the panel:\n%s", v)
	}
	if a := l.Update(typed("y")); a != (Copy{"http://x/t-2", "the app's URL"}) {
		t.Errorf("y: %#v", a)
	}
	l.Update(keyOf("down"))
	if a := l.Update(typed("c")); a != (AppDo{0, CloseApp}) {
		t.Errorf("c on the old one: %#v", a)
	}
	if a := l.Update(typed("y")); a != (Status{"this app has no URL: it did not open", true}) {
		t.Errorf("y on an app with no URL: %#v", a)
	}
}

// An app's own tools are called with the arguments typed, only when they
// are a JSON object; the outcome shows once it comes.
func TestAppToolsCall(t *testing.T) {
	l := NewAppTools(common(), 3, "app", func() bool { return true })
	if a := l.List(); a != (ListAppTools{3}) {
		t.Errorf("List: %#v", a)
	}
	l.Update(AppToolsListed{Tools: []*mcp.Tool{{Name: "echo"}}})
	l.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("[1]"), Paste: true})
	if a := l.Update(enter); a != nil || !strings.Contains(ansi.Strip(l.View(80, 20)), "must be a JSON object") {
		t.Errorf("arguments not an object: %#v", a)
	}
	for range 3 {
		l.Update(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	a, ok := l.Update(enter).(CallAppTool)
	if !ok || a.App != 3 || a.Name != "echo" || string(a.Args) != "{}" {
		t.Fatalf("enter: %#v, want CallAppTool echo {}", a)
	}
	if a := l.Update(enter); a != nil || !strings.Contains(ansi.Strip(l.View(80, 20)), "still calling echo") {
		t.Errorf("enter while calling: %#v", a)
	}
	l.Update(AppToolResult{Name: "echo", Text: "echoed"})
	if v := ansi.Strip(l.View(80, 20)); !strings.Contains(v, "echoed") {
		t.Errorf("the outcome does not show:\n%s", v)
	}
}

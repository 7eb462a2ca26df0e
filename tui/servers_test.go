package tui

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
)

// pickerEntries are three servers: the fixture (where the inspector
// starts), the mortal server, and one that cannot be chosen.
func pickerEntries(era string) func() ([]ServerEntry, error) {
	return func() ([]ServerEntry, error) {
		return []ServerEntry{
			{Name: "fixture", Transport: "memory", What: "embedded fixture", Source: "mcpeek (the demo)",
				Choose: func() (Switch, error) {
					return Switch{Target: "embedded fixture", Connect: inMemory(fixtureServer, era)}, nil
				}},
			{Name: "mortal", Transport: "stdio", What: "mortal --serve", Source: "./.mcp.json (Claude Code project)", Key: "@mortal in ./.mcp.json",
				Choose: func() (Switch, error) {
					return Switch{Target: "mortal --serve", Source: "@mortal in ./.mcp.json", Connect: inMemory(mortalServer, era)}, nil
				}},
			{Name: "asks", Transport: "http", What: "https://example.com/mcp", Source: "./.vscode/mcp.json (VS Code project)", Key: "@asks in ./.vscode/mcp.json",
				Choose: func() (Switch, error) { return Switch{}, errors.New("it asks for VS Code inputs") }},
			{Name: "both", What: "x", Source: "./.mcp.json", Note: "invalid: has both command and url"},
		}, nil
	}
}

// S lists the configs' servers with the current one marked; enter on
// another connects to it in place of the current server, whose tools and
// results go; the way back is the same. A server that cannot be chosen
// says why, and the inspector stays where it was.
func TestSwitchServers(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era), Servers: pickerEntries(era)}, 120, 30).expect("list_roots")
			in.selectTool("list_roots").keys("enter").expect("0 roots")
			in.press(k.Tabs.Servers).expectAll("Servers", "> fixture", "(current)")
			in.press(layer.ServerKeys.Down, layer.ServerKeys.Down, layer.ServerKeys.Down).expect("invalid: has both command and url")
			in.press(layer.ServerKeys.Choose).expect("cannot connect to both: invalid")
			in.press(layer.ServerKeys.Up).press(layer.ServerKeys.Choose).expect("cannot connect to asks: it asks for VS Code inputs")
			// The current server is still the fixture; mortal is chosen next.
			in.press(k.Tabs.Servers).expectAll("> fixture", "(current)").press(layer.ServerKeys.Down).press(layer.ServerKeys.Choose).expect("exit")
			in.press(k.Tabs.Servers).expectAll("> mortal", "(current)").press(layer.ServerKeys.Up, layer.ServerKeys.Choose).expect("list_roots")
			in.selectTool("list_roots")
			view := in.screen()
			if strings.Contains(view, "@mortal") || strings.Contains(view, "0 roots") || !strings.Contains(view, "embedded fixture") {
				t.Errorf("after switching back, the header should name the fixture alone and no earlier result show:\n%s", view)
			}
		})
	}
}

// Without a list of servers (no configs to read), S says so.
func TestNoServerPicker(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 30).expect("list_roots")
	in.press(keys.NewMap().Tabs.Servers).expect("no server picker")
}

// The picker, at each size.
func TestServerPickerGoldens(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Servers: pickerEntries("")}, size.w, size.h).expect("list_roots")
			in.press(keys.NewMap().Tabs.Servers).expect("(current)").press(layer.ServerKeys.Down).expect("Claude Code project")
			checkGolden(t, in.screen())
		})
	}
}

// After a switch the server log starts afresh: a line drawn of the old
// server's log is not what the new server's first message shows.
func TestSwitchForgetsTheServerLog(t *testing.T) {
	t.Parallel()
	m := New(Options{Target: "embedded fixture"})
	m.asker.stop()
	m.state = stateConnected
	m.Update(eventsMsg{events: []mcpclient.Event{mcpclient.LogEvent{Time: time.Now(), Level: "info", Data: json.RawMessage(`"OLD-SERVER"`)}}})
	if logs := serverLog(m); len(logs) != 1 || !strings.Contains(string(logs[0].Data), "OLD-SERVER") {
		t.Fatalf("the old server's log is %v", logs)
	}
	m.switchServer(Switch{Target: "other", Connect: inMemory(mortalServer, "")})
	m.Update(eventsMsg{events: []mcpclient.Event{mcpclient.LogEvent{Time: time.Now(), Level: "info", Data: json.RawMessage(`"NEW-SERVER"`)}}})
	if logs := serverLog(m); len(logs) != 1 || !strings.Contains(string(logs[0].Data), "NEW-SERVER") {
		t.Errorf("after the switch the server log is %v", logs)
	}
}

// TestSwitchReplacesTheServerState: a switch cancels the running call and
// leaves nothing of the last server's state but the new server's pages,
// whatever field the state gains.
func TestSwitchReplacesTheServerState(t *testing.T) {
	t.Parallel()
	m := New(Options{Target: "embedded fixture"})
	m.asker.stop()
	m.state = stateConnected
	cancelled := false
	m.running, m.runStart, m.cancelCall = "slow", time.Now(), func() { cancelled = true }
	m.progress = &mcpclient.ProgressEvent{Token: "1", Progress: 3, Total: 10}
	m.tasks.heard(mcpclient.TaskEvent{Tool: "slow"})
	before, n := pageOf[*page.Tools](m), len(m.pages)
	m.switchServer(Switch{Target: "other", Connect: inMemory(mortalServer, "")})
	if !cancelled {
		t.Error("the old server's call was not cancelled")
	}
	left := m.serverState
	if len(m.pages) != n || pageOf[*page.Tools](m) == before {
		t.Errorf("after the switch there are %d pages, the Tools page made afresh: %t", len(m.pages), pageOf[*page.Tools](m) != before)
	}
	if !reflect.ValueOf(left).IsZero() {
		t.Errorf("after the switch the server's state is not new (its call: %q, %d tasks)", left.running, len(left.tasks))
	}
	if m.opts.Target != "other" || m.state != stateConnecting {
		t.Errorf("after the switch the target is %q, the state %v", m.opts.Target, m.state)
	}
}

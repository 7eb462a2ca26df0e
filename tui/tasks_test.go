package tui

import (
	"context"
	"testing"

	"github.com/mcpeek/mcpeek/internal/tsservers"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// server-everything's simulate-research-query requires a task: the
// inspector calls it as one, shows its status in the running call's
// banner, and its clarification arrives as a native form; declining it
// there reaches the server, whose report says so.
func TestTaskClarifiedInTheInspector(t *testing.T) {
	t.Parallel()
	cmd := serverEverything(t)
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		cfg := mcpclient.Config{
			Target:       mcpclient.Target{Kind: mcpclient.TargetStdio, Command: cmd},
			Protocol:     "legacy",
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
			Asker:        asker, Records: mcpclient.NewRecorder(nil),
		}
		if l, ok := asker.(mcpclient.Listener); ok {
			cfg.OnEvent = l.OnEvent
		}
		return mcpclient.Connect(ctx, cfg)
	}
	in := open(t, Options{Connect: connect, Target: "server-everything"}, 120, 40).expect("simulate-research-query")
	in.selectTool("simulate-research-query").keys("enter").argsOpen("Arguments for simulate-research-query")
	in.tm.Type("go") // the topic, then ambiguous: yes
	in.keys("enter", "y")
	in.keys("ctrl+s")
	in.expect("task working")
	in.expect("Which interpretation of the topic do you mean?")
	in.keys("ctrl+d")
	in.expect("Research Report: go (User declined")
	// The Tasks layer lists it, ended, with the request it made.
	in.keys("T").expectAll("Tasks", "simulate-research-query", "completed", "e-1 elicitation decline")
	recs := in.m.conn.Records()
	if len(recs) != 1 || recs[0].Action != "decline" || recs[0].TaskID == "" {
		t.Errorf("records %+v, want one declined elicitation with its task id", recs)
	}
}

// t calls a tool whose task support is optional as a task: its status
// shows in the running call's banner and the Tasks layer lists it; on a
// tool that cannot run as one, t says so and calls nothing.
func TestOptionalTaskInTheInspector(t *testing.T) {
	t.Parallel()
	cmd := tsservers.OptionalTasks(t)
	k := keys.NewMap()
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		cfg := mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: cmd}, Protocol: "legacy",
			Asker: asker, Records: mcpclient.NewRecorder(nil)}
		if l, ok := asker.(mcpclient.Listener); ok {
			cfg.OnEvent = l.OnEvent
		}
		return mcpclient.Connect(ctx, cfg)
	}
	in := open(t, Options{Connect: connect, Target: "optional-tasks"}, 120, 40).expect("slow_sum")
	in.selectTool("plain_echo").press(k.Tabs.AsTask).expect("plain_echo does not run as a task")
	in.selectTool("slow_sum").press(k.Tabs.AsTask).argsOpen("Arguments for slow_sum (called as a task)")
	in.keys("2", "tab", "3", "ctrl+s")
	in.expect("sum 5")
	in.press(k.Tabs.Tasks).expectAll("Tasks", "slow_sum", "completed")
	in.press(layer.TasksKeys.List).expect("the server lists 1 tasks")
}

// A tool a 2026-07-28 server runs only as a task of the tasks extension
// is called as one on enter: its question mid-task comes as a native form,
// and the answer reaches the server, whose result says so.
func TestTasksExtensionInTheInspector(t *testing.T) {
	t.Parallel()
	cmd := tsservers.TasksExtension(t)
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		cfg := mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: cmd},
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: true}, Asker: asker, Records: mcpclient.NewRecorder(nil)}
		if l, ok := asker.(mcpclient.Listener); ok {
			cfg.OnEvent = l.OnEvent
		}
		return mcpclient.Connect(ctx, cfg)
	}
	in := open(t, Options{Connect: connect, Target: "tasks-ext"}, 120, 40).expect("confirm_delete")
	in.selectTool("confirm_delete").keys("enter").argsOpen("Arguments for confirm_delete")
	in.tm.Type("/x")
	in.keys("ctrl+s")
	in.expect("Delete /x?")
	in.keys("right", "ctrl+s") // Yes, on the segmented choice
	in.expect("deleted /x")
	in.keys("T").expectAll("Tasks", "confirm_delete", "completed")
}

package tui

import (
	"context"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// server-everything's simulate-research-query requires a task: the
// inspector calls it as one, shows its status in the running call's
// banner, and its clarification arrives as a native form; declining it
// there reaches the server, whose report says so.
func TestTaskClarifiedInTheInspector(t *testing.T) {
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
	in.keys("y") // ambiguous: yes
	in.tm.Type("go")
	in.keys("ctrl+s")
	in.expect("task working")
	in.expect("Which interpretation of the topic do you mean?")
	time.Sleep(450 * time.Millisecond) // the form's grace period
	in.keys("ctrl+d")
	in.expect("Research Report: go (User declined")
	// The Tasks layer lists it, ended, with the request it made.
	in.keys("T").expectAll("Tasks", "simulate-research-query", "completed", "e-1 elicitation decline")
	recs := in.m.conn.Records()
	if len(recs) != 1 || recs[0].Action != "decline" || recs[0].TaskID == "" {
		t.Errorf("records %+v, want one declined elicitation with its task id", recs)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The form's keys, as the help screen documents them, answer an
// elicitation in the inspector.
func TestCallToolsAndAnswerInTheInspector(t *testing.T) {
	t.Parallel()
	k := layer.FormKeys
	for _, tc := range []struct {
		name, tool string
		moves      []string // in the form's fields
		answer     key.Binding
		want       string
	}{
		{"choose option A", "choose_option", []string{"down"}, k.Submit, "accept: option-a"},
		{"decline", "choose_option", nil, k.Decline, `"action": "decline"`}, // the result's, not the footer's "decline"
		{"cancel", "choose_option", nil, k.Cancel, `"action": "cancel"`},
		{"all fields with their defaults", "all_fields", nil, k.Submit, "Lovelace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{}, 100, 30).expect("choose_option")
			in.selectTool(tc.tool).keys("enter").formOpen().keys(tc.moves...).press(tc.answer).expect(tc.want)
			if recs := in.m.conn.Records(); len(recs) != 1 || recs[0].Path != mcpclient.PathNative {
				t.Errorf("records = %+v", recs)
			}
		})
	}
}

// watchedServer reports what its elicitation got back.
func watchedServer(got chan<- string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "watched", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Well?",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)})
				if err != nil {
					got <- "error: " + err.Error()
				} else {
					got <- res.Action
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			})
		return s
	}
}

func TestQuitWithAPendingElicitationCancelsIt(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	in := open(t, Options{Connect: inMemory(watchedServer(got), "legacy")}, 100, 30).expect("ask")
	in.keys("enter").formOpen().press(layer.FormKeys.Interrupt).expect("quit and cancel them?").keys("y")
	select {
	case action := <-got:
		if action != "cancel" {
			t.Errorf("the server saw %q, want cancel", action)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server never heard back")
	}
	in.tm.WaitFinished(t)
}

// A question answered a moment ago is not pending: ctrl+c right after
// quits without asking, whenever the pending list was last polled.
func TestQuitRightAfterAnAnswerDoesNotAsk(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 30).expect("choose_option")
	in.selectTool("choose_option").keys("enter").formOpen()
	in.tm.Send(pollMsg{}) // polled while the question is open
	in.keys("down").press(layer.FormKeys.Submit).expect("accept: option-a")
	in.keys("ctrl+c")
	in.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// mortalServer has a tool that ends the server's side of the session as
// it answers (its answer may or may not get out first).
func mortalServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mortal", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "exit", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			go func() { _ = req.Session.Close() }()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "bye"}}}, nil
		})
	return s
}

func TestServerGoingAwayShowsDisconnected(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(mortalServer, "legacy")}, 100, 30).expect("exit")
	in.keys("enter").expect("disconnected")
	in.keys("1", "2", "3", "4", "5", "6", "1", "enter") // still usable: nothing panics
	view := in.screen()
	if !strings.Contains(view, "disconnected") || !strings.Contains(view, "r reconnects") {
		t.Errorf("screen:\n%s", view)
	}
}

// hostileServer puts escape sequences and long lines everywhere.
func hostileServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "\x1b[2J\x1b[Hevil", Title: "\x1b]0;pwned\x07Evil \x1b[31mred", Version: "1\x1b[5m"}, nil)
	long := strings.Repeat("wide-", 400)
	s.AddTool(&mcp.Tool{Name: "\x1b[31mred\x1b[0m_tool", Description: "clears \x1b[2J the screen " + long, InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "\x1b[1;1H\x1b[2Jgotcha\r\n" + long + "\n\x07bell\x9bcsi"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "zz_ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, _ = req.Session.Elicit(ctx, &mcp.ElicitParams{
				Message: "\x1b[2J\x1b[Hvia trusted-server\x1b]0;title\x07 " + long,
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","title":"\u001b[31mRed\u001b[0m field","description":"\u001b[2Jwipe"},` +
					`"c":{"type":"string","enum":["a"],"enumNames":["\u001b[5mblink"]}}}`),
			})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "asked"}}}, nil
		})
	return s
}

func TestHostileElicitationCannotCorruptTheForm(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(hostileServer, "legacy")}, 80, 24).expect("zz_ask")
	in.keys("/", "z", "z", "enter", "enter").expect("is asking for input")
	view := in.screen()
	for i, l := range strings.Split(view, "\n") {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
		if strings.ContainsAny(l, "\x1b\a\r\u009b") {
			t.Errorf("line %d carries a control character: %q", i+1, l)
		}
	}
	if !strings.Contains(view, "␛[2J") {
		t.Errorf("the message's escapes should show as text:\n%s", view)
	}
}

func TestHostileServerCannotCorruptTheScreen(t *testing.T) {
	t.Parallel()
	// The tool's row, not the server's title, which says "red" before the
	// tools are listed.
	in := open(t, Options{Connect: inMemory(hostileServer, "")}, 80, 24).expect("> ␛[31mred")
	in.keys("enter").expect("gotcha")
	view := in.screen()
	lines := strings.Split(view, "\n")
	if len(lines) > 24 {
		t.Errorf("the screen has %d lines, more than 24", len(lines))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
		if strings.ContainsAny(l, "\x1b\a\r\u009b") {
			t.Errorf("line %d carries a control character: %q", i+1, l)
		}
	}
	if !strings.Contains(view, "␛") {
		t.Errorf("escape sequences should show as ␛:\n%s", view)
	}
}

func TestElicitationHistoryShowsRequestAndResponse(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 100, 40).expect("choose_option")
	in.selectTool("choose_option").keys("enter").formOpen().keys("down", "ctrl+s").expect("accept: option-a")
	in.keys("4").expect("accept").keys("enter").expect("response:")
	view := in.screen()
	for _, want := range []string{`"message": "Choose option A or B."`, `"requestedSchema"`, `"action": "accept"`, `"choice": "option-a"`} {
		if !strings.Contains(view, want) {
			t.Errorf("the history lacks %s:\n%s", want, view)
		}
	}
}

// nestedServer has a tool whose input schema a form cannot show: a oneOf
// of objects.
func nestedServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "nested", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(`{"type":"object","properties":{"shape":{"oneOf":[
		{"type":"object","properties":{"r":{"type":"number"}},"required":["r"]},
		{"type":"object","properties":{"w":{"type":"number"},"h":{"type":"number"}},"required":["w","h"]}]}},"required":["shape"]}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "got " + string(req.Params.Arguments)}}}, nil
		})
	return s
}

// A schema a form cannot show is edited as JSON, starting from a skeleton
// of its required keys, with the schema beside the editor.
func TestJSONArgumentsForSchemasAFormCannotShow(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(nestedServer, "")}, 120, 30).expect("deep")
	in.keys("enter").expectAll("as JSON", "input schema:", `"oneOf"`)
	in.keys("down", "end", "backspace").typeText("2")
	in.keys("ctrl+s").expect(`got {`)
	if view := in.screen(); !strings.Contains(view, `{"shape":{"r":2}}`) {
		t.Errorf("the server did not get the arguments typed:\n%s", view)
	}
}

func TestReconnect(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(mortalServer, "legacy")}, 100, 30).expect("exit")
	in.keys("enter").expect("disconnected")
	in.keys("r")
	eventually(t, "connected again", func() bool {
		view := in.tm.View()
		return !strings.Contains(view, "disconnected") && strings.Contains(view, "exit")
	})
	if view := in.screen(); strings.Contains(view, "disconnected") || !strings.Contains(view, "exit") {
		t.Errorf("after r the inspector should be connected again:\n%s", view)
	}
}

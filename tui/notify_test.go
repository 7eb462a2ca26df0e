//lint:file-ignore SA1019 the test servers log, which is deprecated from 2026-07-28 on but still what servers do (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/internal/teasync"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// argsOpen waits for an arguments form.
func (in *inspector) argsOpen(title string) *inspector {
	in.t.Helper()
	in.expect(title)
	return in
}

// countDown calls the fixture's count_down with steps and delayMs typed
// into its form (a tool's form starts from its last arguments).
func (in *inspector) countDown(steps, delayMs int) *inspector {
	in.t.Helper()
	in.selectTool("count_down").keys("enter").argsOpen("Arguments for count_down")
	in.keys("ctrl+u") // its fields in the schema's order: steps, delayMs
	in.tm.Type(fmt.Sprint(steps))
	in.keys("enter", "ctrl+u")
	in.tm.Type(fmt.Sprint(delayMs))
	return in.keys("ctrl+s")
}

// eventually waits for a condition on something other than the screen.
func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// The running call shows a bar that moves with the server's progress,
// its count and its message.
func TestCountDownShowsItsProgress(t *testing.T) { // alone: each step is on screen for 300 ms only
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 100, 30).expect("count_down")
			in.countDown(4, 300)
			in.expectAll("calling count_down", "no progress reported yet")
			in.expectAll("1/4", "step 1 of 4", "█░")
			in.expectAll("3/4", "step 3 of 4")
			in.expect("counted down 4 steps")
			if view := in.screen(); strings.Contains(view, "calling count_down") || strings.Contains(view, "step 4 of 4") {
				t.Errorf("the banner outlived the call:\n%s", view)
			}
		})
	}
}

// Esc cancels the running call: notifications/cancelled goes out, and
// the result says that the call was cancelled, and how far it came.
func TestEscCancelsTheRunningCall(t *testing.T) { // alone: each step is on screen for 200 ms only
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, 100, 30).expect("count_down")
	in.countDown(50, 200).expect("2/50")
	in.press(keys.NewMap().Tabs.CancelCall).expect("cancelled")
	wire := in.m.conn.Wire()
	eventually(t, "notifications/cancelled on the wire", func() bool {
		for _, e := range wire.Entries() {
			if e.Dir == mcpclient.DirSend && e.Method == "notifications/cancelled" {
				return true
			}
		}
		return false
	})
	view := in.screen()
	for _, want := range []string{"cancelled · after", "You cancelled the call", "notifications/cancelled", "last progress: ", "/50 · step "} {
		if !strings.Contains(view, want) {
			t.Errorf("the result lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "counted down") || strings.Contains(view, "calling count_down") {
		t.Errorf("the call looks finished or still running:\n%s", view)
	}
}

// deliveries counts the event batches the program takes.
type deliveries struct {
	*Model
	n *atomic.Int64
}

func (d deliveries) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(eventsMsg); ok {
		d.n.Add(1)
	}
	_, cmd := d.Model.Update(msg)
	return d, cmd
}

// A flood of progress notifications (1000 as fast as the server can send
// them) reaches the screen as it comes, in at most 30 batches a second,
// and the keys still work while it lasts.
func TestProgressFloodStaysResponsive(t *testing.T) { // not in parallel: it measures how the flood is delivered
	m := New(Options{Connect: inMemory(fixtureServer, "legacy"), Target: "embedded fixture", Grace: noGrace, StateDir: t.TempDir()})
	var n atomic.Int64
	tm := teasync.New(t, deliveries{m, &n}, teatest.WithInitialTermSize(100, 30))
	in := &inspector{t: t, m: m, tm: tm}
	t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		if m.conn != nil {
			m.conn.Close()
		}
	})
	in.expect("count_down")
	start := time.Now()
	in.countDown(1000, 1)
	in.expect("/1000")
	in.keys("2").expect("Counter").keys("1") // another tab and back, while it floods
	in.expect("counted down 1000 steps")
	took := time.Since(start)
	if got, most := n.Load(), int64(took/eventInterval)+2; got > most {
		t.Errorf("%d deliveries in %s: more than one each %s", got, took, eventInterval)
	}
	if got := n.Load(); got < 2 {
		t.Errorf("%d deliveries: the screen did not follow the progress", got)
	}
}

// A level set with L reaches the server; the server's log then shows the
// messages at that level and above, each with its level, logger and data.
func TestLogLevelAndTheServerLog(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 110, 30).expect("log_burst")
			k := keys.NewMap()
			in.press(k.Tabs.LogLevel).expect("Server log level")
			in.keys("j", "j", "j").press(layer.LevelKeys.Choose).expect("now logs at warning")
			in.selectTool("log_burst").keys("enter").expect("logged 8 messages")
			in.keys("5").press(k.Tabs.LogView).expect("a emergency message")
			view := in.screen()
			for _, want := range []string{
				"warning    fixture  {\"n\":4,\"text\":\"a warning message\"}",
				"error      fixture  {\"n\":5,\"text\":\"a error message\"}",
				"critical   fixture  {\"n\":6,\"text\":\"a critical message\"}",
				"alert      fixture  {\"n\":7,\"text\":\"a alert message\"}",
				"emergency  fixture  {\"n\":8,\"text\":\"a emergency message\"}",
				"server log · level warning · following new messages · 5",
				"log warning · ", // the header
			} {
				if !strings.Contains(view, want) {
					t.Errorf("the server log lacks %q:\n%s", want, view)
				}
			}
			var levels []string
			for _, e := range serverLog(in.m) {
				levels = append(levels, e.Level)
			}
			if got := strings.Join(levels, " "); got != "warning error critical alert emergency" {
				t.Errorf("kept %q, want the five at warning and above", got)
			}
		})
	}
}

// The server's log is filtered like the other lists, and enter opens a
// message whole, its data pretty-printed.
func TestServerLogFiltersAndOpens(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, 100, 30).expect("log_burst")
	k := keys.NewMap()
	in.press(k.Tabs.LogLevel).expect("Server log level").press(layer.LevelKeys.Choose).expect("now logs at debug")
	in.selectTool("log_burst").keys("enter").expect("logged 8 messages")
	in.keys("5").press(k.Tabs.LogView).expect("a emergency message")
	in.keys("/", "n", "o", "t", "i", "c", "e", "enter").expect("filter: notice")
	in.keys("enter").expect(`"text": "a notice message"`)
	view := in.screen()
	if strings.Contains(view, "a warning message") || !strings.Contains(view, `"n": 3`) {
		t.Errorf("enter should show the notice alone, pretty-printed:\n%s", view)
	}
}

// noisyServer logs megabytes in one message once a level is set.
func noisyServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "noisy", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}},
	})
	s.AddTool(&mcp.Tool{Name: "shout", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "error", Logger: "big", Data: strings.Repeat("spam ", 3<<20/5)})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "shouted"}}}, nil
		})
	return s
}

// A log message with megabytes of data is kept cut, and shown bounded,
// saying how long it was.
func TestHugeLogMessageIsBounded(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(noisyServer, "legacy")}, 100, 30).expect("shout")
	k := keys.NewMap()
	in.press(k.Tabs.LogLevel).expect("Server log level").press(layer.LevelKeys.Choose).expect("now logs at debug")
	in.keys("enter").expect("shouted")
	in.keys("5").press(k.Tabs.LogView).expectAll("big  spam spam", "bytes)")
	in.keys("enter").expect("mcpeek kept the first")
	view := in.screen()
	// Cut, the data is a JSON string of the first MaxLogData bytes: a few
	// more for its quotes and escapes.
	if logs := serverLog(in.m); len(logs) != 1 || len(logs[0].Data) > mcpclient.MaxLogData+16 {
		t.Fatalf("kept %d messages; want the one, cut to about %d bytes", len(logs), mcpclient.MaxLogData)
	}
	lines := strings.Split(view, "\n")
	if len(lines) > 30 {
		t.Errorf("the screen has %d lines", len(lines))
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > 100 {
			t.Errorf("line %d is %d cells wide", i+1, w)
		}
	}
	want := fmt.Sprintf("… (%d bytes: mcpeek kept the first", len(`"`+strings.Repeat("spam ", 3<<20/5)+`"`))
	if !strings.Contains(view, want) {
		t.Errorf("the open message should say %q:\n%s", want, view)
	}
}

// serverLog is the server's log messages the Log tab keeps.
func serverLog(m *Model) []mcpclient.LogEvent { return pageOf[*page.Log](m).ServerLog() }

// Subscribing to the counter marks it; an update re-reads it in the open
// pane and says when it came.
func TestSubscribeMarksAndRereadsTheOpenResource(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 110, 30).expect("touch_counter")
			k := keys.NewMap()
			in.keys("2", "/", "c", "o", "u", "n", "t", "e", "r", "enter", "enter").expect("count: 0")
			in.press(k.Tabs.Subscribe).expect("subscribed to fixture://counter")
			in.keys("1").selectTool("touch_counter").keys("enter").expect("counter is 1")
			in.keys("2").expectAll("count: 1", "> ● Counter", "subscribed · s unsubscribes", "↻ updated ")
			// Unsubscribed, the counter hears of no more updates.
			in.press(k.Tabs.Subscribe).expect("unsubscribed from fixture://counter")
			in.keys("1").selectTool("touch_counter").keys("enter").expect("counter is 2")
			in.keys("2").expect("s subscribes to its updates")
			if view := in.screen(); strings.Contains(view, "count: 2") || strings.Contains(view, "updates)") || strings.Contains(view, "●") {
				t.Errorf("an update came after unsubscribing:\n%s", view)
			}
		})
	}
}

// An update of a resource that is not open marks it, until it is read.
func TestUpdateMarksAResourceNotOpen(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, 110, 30).expect("touch_counter")
	k := keys.NewMap()
	in.keys("2", "/", "c", "o", "u", "n", "t", "e", "r", "enter").press(k.Tabs.Subscribe).expect("subscribed to fixture://counter")
	// The second call once the first is done: enter does not call while a
	// call runs.
	in.keys("1").selectTool("touch_counter").keys("enter").expect("counter is 1").keys("enter").expect("result 2 of 2")
	in.keys("2").expectAll("↻ Counter", "(2 updates) · enter reads it again")
	in.keys("enter").expect("count: 2")
	if view := in.screen(); !strings.Contains(view, "> ● Counter") {
		t.Errorf("read again, the counter should be marked subscribed only:\n%s", view)
	}
}

// staticServer has a resource but no subscriptions.
func staticServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "static", Version: "1"}, nil)
	s.AddResource(&mcp.Resource{URI: "file:///still", Name: "still"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	})
	return s
}

func TestSubscribeSaysWhenTheServerOffersNone(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(staticServer, "legacy")}, 100, 30).expect("static")
	in.keys("2").expect("still").press(keys.NewMap().Tabs.Subscribe).expect("does not offer resource subscriptions")
}

// changingServer's tool list changes while the inspector watches.
func changingServer(s **mcp.Server) func() *mcp.Server {
	return func() *mcp.Server {
		srv := mcp.NewServer(&mcp.Implementation{Name: "changing", Version: "1"}, nil)
		for _, name := range []string{"bravo", "charlie"} {
			srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, noop)
		}
		*s = srv
		return srv
	}
}

func noop(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

// A tool added while the person watches shows at once (tools/list_changed),
// and the selection stays on the tool it was on.
func TestToolListChangesLiveAndTheSelectionStays(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			var srv *mcp.Server
			in := open(t, Options{Connect: inMemory(changingServer(&srv), era)}, 100, 30).expect("charlie")
			in.keys("j").expect("> charlie")
			add := func(name string) {
				srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)}, noop)
			}
			add("alpha") // before it
			in.expectAll("alpha", "> charlie")
			srv.RemoveTools("alpha", "bravo")
			add("delta")
			add("echo")
			in.expectAll("echo", "> charlie")
			view := in.screen()
			if !strings.Contains(view, "> charlie") || strings.Contains(view, "bravo") {
				t.Errorf("the selection left charlie, or bravo stayed:\n%s", view)
			}
		})
	}
}

// A prompt's argument completes as it is typed; tab puts the highlighted
// value in the field.
func TestPromptArgumentCompletes(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 100, 30).expect("touch_counter")
			in.keys("3").expect("greet").keys("enter").argsOpen("Arguments for the prompt greet")
			in.tm.Type("Fr")
			in.expectAll("› French", "1 of 1")
			in.press(layer.FormKeys.Accept).expect("> French")
			in.press(layer.FormKeys.Submit).expect(`Say "Bonjour" to world.`)
		})
	}
}

// A resource template's variable completes the same way.
func TestTemplateVariableCompletes(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(fixtureServer, "modern")}, 100, 30).expect("touch_counter")
	in.keys("2", "/", "g", "r", "e", "e", "t", "enter", "enter").argsOpen("Variables of fixture://greeting/{language}")
	in.tm.Type("S")
	in.expectAll("› Spanish", "Swedish", "1 of 2")
	in.keys("down").expect("› Swedish")
	in.press(layer.FormKeys.Accept, layer.FormKeys.Submit).expect("Hej")
}

// manyServer completes its prompt's argument with 150 values, and its
// template's with more than it says.
func manyServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			var values []string
			for i := range 150 {
				values = append(values, fmt.Sprintf("%s%03d", req.Params.Argument.Value, i))
			}
			if req.Params.Ref.Type == "ref/resource" {
				return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values[:3], HasMore: true}}, nil
			}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: 150}}, nil
		},
	})
	s.AddPrompt(&mcp.Prompt{Name: "pick", Arguments: []*mcp.PromptArgument{{Name: "item", Required: true}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "pick://{item}", Name: "item"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	return s
}

// Of a completion with more than 100 values, 100 are kept, and the
// rest counted.
func TestCompletionKeepsAHundred(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(manyServer, "legacy")}, 100, 30).expect("many")
	in.keys("3").expect("pick").keys("enter").argsOpen("Arguments for the prompt pick")
	in.tm.Type("x")
	in.expectAll("› x000", "1 of 100, and 50 more")
	in.keys("up", "up") // ↑ stops at the first
	in.screen()
	l, ok := findLayer[*layer.ArgsForm](&in.m.stack)
	if !ok {
		t.Fatal("the form closed")
	}
	list, cursor := l.Form().Suggested("item")
	if len(list.Values) != mcpclient.MaxCompletions || list.More != 50 || list.Values[99] != "x099" || cursor != 0 {
		t.Errorf("kept %d values, the last %q, %d more, on %d; want 100, x099, 50 more, on the first",
			len(list.Values), list.Values[len(list.Values)-1], list.More, cursor)
	}
}

// A completion that has more values than it sends, and does not say how
// many, says there are more.
func TestCompletionWithMoreUncounted(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(manyServer, "legacy")}, 100, 30).expect("many")
	in.keys("2").expect("pick://").keys("enter").argsOpen("Variables of pick://{item}")
	in.tm.Type("y")
	in.expectAll("› y000", "1 of 3, and more")
}

// slowCompletions answers the completion of "a" only once released, and
// any other at once.
type slowCompletions struct {
	asked, released chan struct{}
}

func (sc slowCompletions) server() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "slowcomplete", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			v := req.Params.Argument.Value
			if v == "a" {
				close(sc.asked)
				<-sc.released
				return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"STALE-a"}}}, nil
			}
			return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: []string{"fresh-" + v}}}, nil
		},
	})
	s.AddPrompt(&mcp.Prompt{Name: "pick", Arguments: []*mcp.PromptArgument{{Name: "item"}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	return s
}

// An answer that comes after the text changed is for an older text: it
// is dropped.
func TestStaleCompletionIsDropped(t *testing.T) {
	t.Parallel()
	sc := slowCompletions{asked: make(chan struct{}), released: make(chan struct{})}
	in := open(t, Options{Connect: inMemory(sc.server, "legacy")}, 100, 30).expect("slowcomplete")
	in.keys("3").expect("pick").keys("enter").argsOpen("Arguments for the prompt pick")
	in.tm.Type("a")
	<-sc.asked
	in.tm.Type("b")
	in.expect("› fresh-ab")
	close(sc.released)
	wire := in.m.conn.Wire()
	eventually(t, "the late answer on the wire", func() bool {
		for _, e := range wire.Entries() {
			if e.Dir == mcpclient.DirRecv && strings.Contains(string(e.Message), "STALE-a") {
				return true
			}
		}
		return false
	})
	in.tm.Type("c") // answered after the late one
	in.expect("› fresh-abc")
	if view := in.screen(); strings.Contains(view, "STALE") {
		t.Errorf("the answer for an older text shows:\n%s", view)
	}
}

// failingCompletions answers every completion with an error.
func failingCompletions() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "nocomplete", Version: "1"}, &mcp.ServerOptions{
		CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
			return nil, errors.New("the index is rebuilding")
		},
	})
	s.AddPrompt(&mcp.Prompt{Name: "pick", Arguments: []*mcp.PromptArgument{{Name: "item"}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{}, nil
		})
	return s
}

// A completion that fails says so under the field, in a line, and the
// field takes what is typed on.
func TestCompletionErrorIsQuiet(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(failingCompletions, "legacy")}, 100, 30).expect("nocomplete")
	in.keys("3").expect("pick").keys("enter").argsOpen("Arguments for the prompt pick")
	in.tm.Type("q")
	in.expectAll("no completions: ", "the index is rebuilding")
	in.tm.Type("r")
	in.expect("> qr")
	in.screen()
	l, ok := findLayer[*layer.ArgsForm](&in.m.stack)
	if !ok {
		t.Fatal("the form closed")
	}
	if got := l.Form().Texts()["item"]; got != "qr" {
		t.Errorf("the field holds %q, want what was typed", got)
	}
}

// The level chosen with L outlives a reconnection: the new connection is
// set to it too (the fixture logs nothing before a level is set).
func TestLogLevelOutlivesAReconnection(t *testing.T) {
	t.Parallel()
	connected := make(chan *mcpclient.Conn, 2)
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		conn, err := inMemory(fixtureServer, "legacy")(ctx, asker)
		connected <- conn
		return conn, err
	}
	in := open(t, Options{Connect: connect}, 110, 30).expect("log_burst")
	<-connected
	k := keys.NewMap()
	in.press(k.Tabs.LogLevel).expect("Server log level")
	in.keys("j", "j", "j").press(layer.LevelKeys.Choose).expect("now logs at warning")
	in.press(k.Tabs.Reconnect)
	sentBy(t, <-connected, "logging/setLevel") // the level kept, set on the new connection
	// The reconnection empties the tool list until the new one arrives: the
	// tool's description shows it is there to call.
	in.selectTool("log_burst").expect("Sends one notifications/message at each logging level")
	in.keys("enter").expect("logged 8 messages")
	in.keys("5").press(k.Tabs.LogView).expectAll("a emergency message", "server log · level warning · following new messages · 5")
}

// Progress that names no total shows a spinner and the count, not a bar.
func TestProgressWithoutTotalShowsACount(t *testing.T) { // alone: each step is on screen for 600 ms only
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, 100, 30).expect("count_down")
	in.selectTool("count_down").keys("enter").argsOpen("Arguments for count_down")
	in.keys("ctrl+u")
	in.tm.Type("3")
	in.keys("enter", "ctrl+u")
	in.tm.Type("600")
	in.keys("enter", "n") // total: no, and the form is submitted
	in.expectAll("1 so far (the server names no total)", "step 1 of 3")
	in.expectAll("2 so far", "step 2 of 3")
	view := in.screen()
	if strings.Contains(view, "█") || strings.Contains(view, "/3") {
		t.Errorf("a progress without a total shows a bar:\n%s", view)
	}
}

package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// shout is what a hostile server hides in every string it provides: a
// window title, a clipboard write (OSC 52), a screen clear, a cursor
// report request (the terminal answers by typing into mcpeek), a DCS
// query, a bell, a C1 CSI, and bytes that are not UTF-8.
const shout = "\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\x1b[6n\x1bP+q544e\x1b\\\a\u009b31m\xff\xfe"

// neverObeyed are the sequences the inspector itself never writes, so that
// any of them in its output came from the server.
var neverObeyed = []string{"\x1b]", "\x1b[6n", "\x1bP", "\a", "\u009b"}

func loud(s string) string { return s + shout }

// loudServer puts escape sequences in every string it provides. Its
// resource z-never is never answered.
func loudServer() *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}, Prompts: &mcp.PromptCapabilities{}}
	s := mcp.NewServer(&mcp.Implementation{Name: loud("loud"), Title: loud("Loud"), Version: loud("1")},
		&mcp.ServerOptions{Capabilities: caps, Instructions: loud("instructions")})
	text := func(t string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: t}}}
	}
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "echo", Title: loud("Echo"), Description: loud("Echoes."), InputSchema: obj,
		Annotations: &mcp.ToolAnnotations{Title: loud("annotation")}, Meta: mcp.Meta{"ui": map[string]any{"resourceUri": loud("ui://x/y")}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res := text(loud("Echo text.") + "\r\nsecond line")
			res.StructuredContent = map[string]any{loud("key"): loud("value")}
			return res, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", Description: loud("Fails."), InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("%s", loud("it broke"))
		})
	s.AddTool(&mcp.Tool{Name: "form", Description: loud("Asks."), InputSchema: obj},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: loud("Question."), RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"name":  map[string]any{"type": "string", "title": loud("Name"), "description": loud("Your name."), "default": loud("def")},
					"color": map[string]any{"type": "string", "enum": []any{"r", "g"}, "enumNames": []any{loud("Red"), loud("Green")}},
				},
			}})
			if err != nil {
				return nil, err
			}
			return text("answered " + r.Action), nil
		})
	s.AddTool(&mcp.Tool{Name: "url", Description: loud("Asks to open a page."), InputSchema: obj},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Mode: "url", Message: loud("Open it."), URL: "https://example.com/" + loud("p"), ElicitationID: "u1"})
			if err != nil {
				return nil, err
			}
			return text("url " + r.Action), nil
		})
	addText := func(uri string, body func(context.Context) (string, error)) {
		s.AddResource(&mcp.Resource{URI: uri, Name: loud("name"), Title: loud("title"), Description: loud("description"), MIMEType: "text/plain"},
			func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				t, err := body(ctx)
				if err != nil {
					return nil, err
				}
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: loud("text/plain"), Text: t}}}, nil
			})
	}
	addText("ui://loud/a-text", func(context.Context) (string, error) { return loud("Resource text."), nil })
	addText("ui://loud/z-never", func(ctx context.Context) (string, error) { <-ctx.Done(); return "", ctx.Err() })
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "ui://loud/{x}", Name: loud("template")},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, fmt.Errorf("no")
		})
	s.AddPrompt(&mcp.Prompt{Name: "prompt", Description: loud("A prompt."), Arguments: []*mcp.PromptArgument{{Name: "arg", Description: loud("An argument.")}}},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: loud("Prompt text.")}}}}, nil
		})
	return s
}

// recorded drives an inspector and keeps every byte it wrote to the
// terminal, to check all of it, not only the last frame.
type recorded struct {
	*inspector
	all bytes.Buffer
}

func record(in *inspector) *recorded {
	r := &recorded{inspector: in}
	in.keepWritten(&r.all)
	return r
}

func (r *recorded) expect(text string) *recorded {
	r.t.Helper()
	r.inspector.expect(text)
	return r
}

func (r *recorded) keys(keys ...string) *recorded {
	r.inspector.keys(keys...)
	return r
}

// pick selects a tool by name on the Tools tab, replacing any filter.
func (in *inspector) pick(name string) *inspector {
	in.keys("1", "/")
	for range 12 {
		in.tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	for _, r := range name {
		in.tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	return in.keys("enter")
}

// end quits, keeps the rest of the output, and returns the last frame.
func (r *recorded) end() string {
	r.t.Helper()
	view := r.screen()
	r.output()
	return view
}

// checkFrame checks a frame against the terminal: no line wider than w,
// no more than h lines, no escape or control character, valid UTF-8.
func checkFrame(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("the frame has %d lines, more than %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("line %d is %d cells wide: %q", i+1, lw, l)
		}
		if strings.ContainsAny(l, "\x1b\a\r\u009b") || !utf8.ValidString(l) {
			t.Errorf("line %d carries a control character or invalid UTF-8: %q", i+1, l)
		}
	}
}

// TestEscapesInEveryServerStringAreNeverObeyed walks every tab and every
// card of the inspector against a server that hides escape sequences in
// every string: its name, instructions, tools, results, errors, resources,
// prompts, questions, form labels, option names and URL. Nothing the
// inspector writes to the terminal carries one raw, at any moment, and
// they show as visible ␛ instead.
func TestEscapesInEveryServerStringAreNeverObeyed(t *testing.T) {
	t.Parallel()
	in := record(open(t, Options{Connect: inMemory(loudServer, "legacy")}, 100, 30)).expect("echo")
	in.pick("echo")
	in.keys("enter").expect("Echo text.")
	in.pick("fail")
	in.keys("enter").expect("broke")
	in.keys("2", "enter").expect("(text/plain")
	in.keys("3", "enter").expect("Arguments for the prompt")
	in.keys("ctrl+s").expect("user: Prompt")
	in.keys("1")
	in.pick("form")
	in.keys("enter").expect("is asking for input")
	in.keys("ctrl+d").expect("answered decline")
	in.keys("4", "enter").expect("e-1 decline")
	in.keys("x", "5", "enter").expect("x closes")
	in.keys("x", "6").expect("server capabilities")
	in.keys("1")
	in.pick("url")
	in.keys("enter").expect("asks you to open a page")
	in.keys("d").expect("url decline")
	view := in.end()

	checkFrame(t, view, 100, 30)
	out := in.all.String()
	for _, e := range neverObeyed {
		if i := strings.Index(out, e); i >= 0 {
			t.Errorf("the inspector wrote the server's %q raw: …%q…", e, out[max(i-80, 0):min(i+80, len(out))])
		}
	}
	if !utf8.ValidString(out) {
		t.Error("the inspector wrote bytes that are not UTF-8")
	}
	if !strings.Contains(out, "␛]0;pwned") {
		t.Error("the escapes should show as ␛, visibly")
	}
}

// manyToolsServer has n tools.
func manyToolsServer(n int) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, nil)
		for i := range n {
			name := fmt.Sprintf("tool_%04d", i)
			s.AddTool(&mcp.Tool{Name: name, Description: "Tool number " + name + ".", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "called " + name}}}, nil
				})
		}
		return s
	}
}

// frameTime is how long the model takes to draw one frame, at most, over
// a few tries.
func frameTime(m *Model) time.Duration {
	var worst time.Duration
	for range 5 {
		start := time.Now()
		_ = m.View()
		worst = max(worst, time.Since(start))
	}
	return worst
}

// TestFiveThousandTools: the inspector lists 5,000 tools, filters them,
// moves through them and calls one, each key answered promptly, and a
// frame takes well under a second to draw.
func TestFiveThousandTools(t *testing.T) {
	in := open(t, Options{Connect: inMemory(manyToolsServer(5000), "")}, 100, 30)
	start := time.Now()
	in.expect("tool_0000")
	loaded := time.Since(start)
	start = time.Now()
	in.pick("tool_4321")
	in.expect("Tool number tool_4321.")
	filtered := time.Since(start)
	start = time.Now()
	in.keys("enter").expect("called tool_4321")
	called := time.Since(start)
	view := in.screen()
	checkFrame(t, view, 100, 30)
	if got := len(toolsPage(in.m).All()); got != 5000 {
		t.Errorf("the inspector has %d tools, want 5000", got)
	}
	draw := frameTime(in.m)
	// The whole list, unfiltered, cursor at the end.
	tools := toolsPage(in.m)
	tools.Update(keyMsg("/")) // a new filter, and none
	tools.Update(keyMsg("esc"))
	for range 4999 {
		tools.Update(keyMsg("down"))
	}
	drawAll := frameTime(in.m)
	if v := in.m.View(); !strings.Contains(v, "tool_4999") {
		t.Errorf("the cursor's tool is not on screen:\n%s", v)
	}
	t.Logf("5,000 tools: listed in %s, filtered in %s, called in %s; a frame takes %s (filtered), %s (all, at the end)",
		loaded.Round(time.Millisecond), filtered.Round(time.Millisecond), called.Round(time.Millisecond), draw, drawAll)
	if drawAll > 500*time.Millisecond || draw > 500*time.Millisecond {
		t.Errorf("a frame takes %s / %s, want well under a second", draw, drawAll)
	}
}

// bigServer answers with a 2 MB result, has a tool with a 1 MB
// description, and one whose name is 64 KB long. (A 10 MB message is
// tested headless; under the race detector the in-memory round trip of
// 10 MB alone takes half a minute.)
func bigServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "big", Version: "1"}, nil)
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "a_big", Description: "Answers 2 MB.", InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("0123456789 abcdef ", 2<<20/18)}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "b_wordy", Description: strings.Repeat("word ", 1<<20/5), InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	s.AddTool(&mcp.Tool{Name: "c_" + strings.Repeat("n", 64<<10), InputSchema: obj},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	return s
}

// TestHugeStringsKeepTheInspectorResponsive: a 2 MB result, a 1 MB
// description and a 64 KB tool name are shown cut to the screen, and
// neither they nor the 2 MB message in the Log tab make a frame slow.
func TestHugeStringsKeepTheInspectorResponsive(t *testing.T) {
	// The floor is timed before the inspector's call and after it, the
	// larger kept: the machine's load may change between them.
	earlier := callTime(t, bigServer, "a_big")
	in := open(t, Options{Connect: inMemory(bigServer, "legacy")}, 100, 30).expect("a_big")
	start := time.Now()
	in.keys("enter").expect("0123456789 abcdef")
	shown := time.Since(start)
	start = time.Now()
	in.keys("6").expect("server capabilities")
	next := time.Since(start)
	in.keys("5").expect("tools/call")
	in.keys("6", "1")
	view := in.screen()
	checkFrame(t, view, 100, 30)

	frames := map[string]time.Duration{}
	for _, name := range []string{"a 1 MB description", "a 64 KB name"} {
		toolsPage(in.m).Update(keyMsg("down")) // the tool after a_big, then the next
		frames[name] = frameTime(in.m)
	}
	showPage[*page.Log](&in.m.tabs) // the Log, which holds the 2 MB message
	frames["the log"] = frameTime(in.m)
	for _, k := range []string{"end", "enter"} { // its last entry
		pageOf[*page.Log](in.m).Update(keyMsg(k))
	}
	frames["its last entry, expanded"] = frameTime(in.m)
	checkFrame(t, in.m.View(), 100, 30)
	t.Logf("the 2 MB result showed in %s, the next tab in %s; frames: %v", shown.Round(time.Millisecond), next.Round(time.Millisecond), frames)
	for name, d := range frames {
		if d > time.Second { // before the fix: minutes
			t.Errorf("a frame with %s takes %s, want well under a second", name, d)
		}
	}
	// The floor: the same call on a connection without the inspector,
	// timed in the same run (above and here), so that a machine that is
	// slow (or the race detector) slows both. Before the fix the inspector
	// took minutes.
	floor := max(callTime(t, bigServer, "a_big"), earlier)
	t.Logf("the same call without the inspector: %s", floor.Round(time.Millisecond))
	if shown > 3*floor+2*time.Second || next > 5*time.Second {
		t.Errorf("keys took %s and %s to show (the call alone %s), want within 3× the call and 2 s, and a few seconds", shown, next, floor)
	}
}

// callTime is how long a call of tool takes on a connection of mcpeek's to
// server (in memory, 2025-11-25) without the inspector: the result
// decoded, nothing drawn.
func callTime(t *testing.T, server func() *mcp.Server, tool string) time.Duration {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := inMemory(server, "legacy")(ctx, &mcpclient.HeadlessAsker{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	if _, err := conn.Call(ctx, tool, nil); err != nil {
		t.Fatal(err)
	}
	return time.Since(start)
}

// TestResourceReadThatNeverAnswers: while a resource read hangs, keys
// still work and frames keep coming; r reconnects and q quits at once,
// without waiting for the read's own timeout.
func TestResourceReadThatNeverAnswers(t *testing.T) {
	// teatest leaves one goroutine per program, waiting for a SIGINT; a
	// tick the program asked for before it quit (and the batch that waits
	// for it) ends on its own, within the tick.
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent(), goleak.IgnoreTopFunction("github.com/charmbracelet/x/exp/teatest.NewTestModel.func2"),
		goleak.IgnoreTopFunction("github.com/charmbracelet/bubbletea.Tick.func1"),
		goleak.IgnoreAnyFunction("github.com/charmbracelet/bubbletea.(*Program).execBatchMsg"))
	// Count the connections made: after r the screen may look exactly as
	// before, so the new connection itself is what to wait for.
	connected := make(chan struct{}, 4)
	connect := inMemory(loudServer, "")
	in := open(t, Options{Connect: func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		conn, err := connect(ctx, asker)
		if err == nil {
			connected <- struct{}{}
		}
		return conn, err
	}}, 100, 30).expect("echo")
	<-connected
	in.keys("2", "down", "enter") // z-never: no answer, ever
	var latencies []time.Duration
	for _, step := range []struct{ key, want string }{
		{"1", "Echoes."}, {"6", "server capabilities"}, {"3", "enter gets the prompt"}, {"2", "reading ui://loud/z-never"},
	} {
		start := time.Now()
		in.keys(step.key).expect(step.want)
		latencies = append(latencies, time.Since(start))
	}
	start := time.Now()
	in.pick("echo")
	in.keys("enter").expect("Echo text")
	call := time.Since(start)

	start = time.Now()
	in.keys("r")
	select {
	case <-connected:
	case <-time.After(20 * time.Second):
		t.Fatal("r did not connect again within 20s while a read hangs")
	}
	reconnect := time.Since(start)

	in.keys("2", "up", "down", "enter") // hang another read (z-never, wherever the cursor was), then quit
	start = time.Now()
	in.keys("q")
	in.tm.WaitFinished(t, teatest.WithFinalTimeout(20*time.Second))
	quit := time.Since(start)
	in.m.asker.stop() // as Run does once the program ends
	t.Logf("with a read hanging: keys answered in %v, a call in %s, r reconnected in %s, q quit in %s",
		latencies, call.Round(time.Millisecond), reconnect.Round(time.Millisecond), quit.Round(time.Millisecond))
	for _, l := range latencies {
		if l > 2*time.Second {
			t.Errorf("a key took %s to show while a read hangs", l)
		}
	}
	if reconnect > 5*time.Second || quit > 5*time.Second {
		t.Errorf("r took %s and q %s while a read hangs, want each within a few seconds", reconnect, quit)
	}
}

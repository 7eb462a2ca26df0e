package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkGolden checks a screen against its golden file, named from the
// test (testdata/<test>/<subtest>.golden; -update rewrites it), and that
// no escape sequence reached it.
func checkGolden(t *testing.T, view string) {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "\x1b") {
			t.Errorf("line %d carries an escape sequence: %q", i+1, l)
		}
	}
	golden.RequireEqual(t, []byte(view))
}

var sizes = []struct {
	name string
	w, h int
}{{"80x24", 80, 24}, {"120x40", 120, 40}}

// Each tab, at each size.
func TestTabGoldens(t *testing.T) {
	t.Parallel()
	for i, tab := range titles(testPages()) {
		for _, size := range sizes {
			t.Run(tab+"/"+size.name, func(t *testing.T) {
				t.Parallel()
				opts := Options{}
				if tab == "Log" {
					// In the modern era the subscriptions/listen stream's
					// acknowledgement races the first lists on the wire.
					opts.Connect = inMemory(fixtureServer, "legacy")
				}
				in := open(t, opts, size.w, size.h).expect("choose_option")
				in.keys(string(rune('1' + i)))
				if tab == "Log" {
					in.expect("← prompts/list")
				}
				if tab == "Requests" {
					// The call's result first: the tab's footer says "calling"
					// until the server has answered the decline.
					in.keys("1").selectTool("choose_option").keys("enter").formOpen().keys("ctrl+d").expect(`"action": "decline"`)
					in.keys("4").expect("decline native")
				}
				checkGolden(t, in.screen())
			})
		}
	}
}

// Each layer over the tabs, at each size.
func TestLayerGoldens(t *testing.T) {
	t.Parallel()
	appURL := func(key string) (string, bool) { return "http://127.0.0.1:8123/e/" + key + "#TOKEN", true }
	apps := newFakeApps() // its URLs name no real port or token
	appsOpts := Options{ToolApps: apps, AppHost: "127.0.0.1:8123", AppSSHHint: "ssh -L 8123:127.0.0.1:8123 user@host"}
	for _, tc := range []struct {
		name  string
		opts  Options
		ready string // on the screen once the server is there
		steps func(in *inspector)
	}{
		{"form", Options{}, "choose_option", func(in *inspector) {
			in.selectTool("choose_option").keys("enter").formOpen()
		}},
		{"queue", Options{Connect: inMemory(twoQuestions, "modern")}, "two", func(in *inspector) {
			in.keys("enter").expect("1 of 2 pending")
		}},
		{"sampling", Options{}, "ask_model", func(in *inspector) {
			in.selectTool("ask_model").keys("enter").sampleOpen().typeText("T-7 is about the login page.")
		}},
		{"url_consent", Options{}, "choose_option", func(in *inspector) {
			in.selectTool("url_consent").keys("enter").expect("asks you to open a page")
		}},
		{"url_required", Options{}, "choose_option", func(in *inspector) {
			in.selectTool("url_required").keys("enter").expect("The server refused tools/call url_required")
		}},
		{"prompt_arguments", Options{}, "choose_option", func(in *inspector) {
			in.keys("3").expect("Greet someone").keys("e").expect("Arguments for the prompt greet")
			in.tm.Type("French")
		}},
		{"app_card", Options{Connect: appConnect, AppHost: "127.0.0.1:8123", AppURL: appURL, AppSSHHint: "ssh -L 8123:127.0.0.1:8123 user@host"}, "choose_option", func(in *inspector) {
			in.selectTool("choose_option").keys("enter").expect("answering in the browser")
		}},
		{"help", Options{}, "choose_option", func(in *inspector) {
			in.keys("?").expect("closes this")
		}},
		{"apps_panel", appsOpts, "notes", func(in *inspector) {
			in.callNotes("first")
			app := apps.next(in.t)
			app.expectTold(in.t, `result notes: 1 notes, the last "first"`)
			app.app.Peer.Message("ui/message", json.RawMessage(`{"role":"user","content":[{"type":"text","text":"Summarize my notes, please."}]}`))
			app.app.Peer.Message("ui/update-model-context", json.RawMessage(`{"content":[{"type":"text","text":"1 note: first"}]}`))
			in.keys("A").expect("from the app (2)")
		}},
		{"app_link", appsOpts, "notes", func(in *inspector) {
			in.callNotes("first")
			app := apps.next(in.t)
			go func() { _ = app.app.Peer.OpenLink(in.t.Context(), "https://example.com/notes") }()
			in.expect("host: example.com")
		}},
	} {
		for _, size := range sizes {
			t.Run(tc.name+"/"+size.name, func(t *testing.T) {
				if tc.opts.ToolApps == nil { // the cases of the fake app host take its apps in turn
					t.Parallel()
				}
				in := open(t, tc.opts, size.w, size.h).expect(tc.ready)
				tc.steps(in)
				checkGolden(t, in.screen())
			})
		}
	}
}

// blockingRenderer keeps every app session open until the test ends.
type blockingRenderer struct{}

func (blockingRenderer) Render(ctx context.Context, _ *mcpclient.AppRequest) (*mcpclient.AppAnswer, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// appConnect connects to the fixture with an app renderer that keeps
// every app open.
func appConnect(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
	return mcpclient.Connect(ctx, mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: fixtureServer},
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        asker, Renderer: blockingRenderer{}, Records: mcpclient.NewRecorder(nil),
	})
}

// twoQuestions asks two things at once (the modern era delivers both).
func twoQuestions() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "two", Title: "Two questions", Version: "1"}, nil)
	schema := json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean","title":"OK?"}},"required":["ok"]}`)
	s.AddTool(&mcp.Tool{Name: "two", Description: "Asks two questions at once.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"a": &mcp.ElicitParams{Message: "Is this OK?", RequestedSchema: schema},
					"b": &mcp.ElicitParams{Message: "Is this OK?", RequestedSchema: schema}, // the same, so that either may come first
				}, RequestState: "two"}, nil
			}
			b, _ := json.Marshal(req.Params.InputResponses)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
		})
	return s
}

// Panes scrolled, at each size.
func TestPaneGoldens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		opts  Options
		ready string
		steps func(in *inspector)
	}{
		{"result_focused", Options{Connect: inMemory(pagerServer, "")}, "long", func(in *inspector) {
			in.selectTool("long").keys("enter").expect("row 001").keys("right", "j", "j", "pgdown")
		}},
		{"elicitation_end", Options{}, "all_fields", func(in *inspector) {
			in.selectTool("all_fields").keys("enter").formOpen().press(layer.FormKeys.Submit).expect("Lovelace")
			in.keys("4").expect("accept").keys("enter").expect("request:").keys("end")
		}},
	} {
		for _, size := range sizes {
			t.Run(tc.name+"/"+size.name, func(t *testing.T) {
				t.Parallel()
				in := open(t, tc.opts, size.w, size.h).expect(tc.ready)
				tc.steps(in)
				checkGolden(t, in.screen())
			})
		}
	}
}

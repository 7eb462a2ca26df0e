package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sdkToolsApp is an app built on the official SDK that registers a tool
// of its own (with a hand-written Standard Schema, as the bundle carries
// no schema library), registers a second one when the first is called
// (the SDK then sends notifications/tools/list_changed), and writes down
// each host context change it hears.
const sdkToolsApp = `
const say = (line) => { const p = document.createElement("p"); p.className = "log"; p.textContent = line; document.body.appendChild(p); };
const anyObject = { "~standard": { version: 1, vendor: "mcpeek-test",
  validate: (value) => ({ value }),
  jsonSchema: { input: () => ({ type: "object" }), output: () => ({ type: "object" }) } } };
const app = new App({ name: "sdk-tools", version: "1.0.0" }, { tools: { listChanged: true } }, { autoResize: false });
app.registerTool("app_echo", { description: "Echoes what it is given, in the app", inputSchema: anyObject }, async (args) => {
  say("app_echo called with " + JSON.stringify(args));
  if (!window.second) {
    window.second = app.registerTool("app_second", { description: "Registered later" }, async () => ({ content: [{ type: "text", text: "second" }] }));
  }
  return { content: [{ type: "text", text: "the app echoes " + JSON.stringify(args) }] };
});
app.addEventListener("hostcontextchanged", (params) => say("context " + JSON.stringify(params) + " theme now " + app.getHostContext().theme));
app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => { document.getElementById("status").textContent = "connected " + app.getHostContext().theme; },
  (err) => { document.getElementById("status").textContent = "failed: " + err; });
`

// openToolAppIn opens the notes tool's app of the server at target in a
// browser tab, through an app host whose theme is light; changed hears the
// app's list_changed.
func openToolAppIn(t *testing.T, target mcpclient.Target) (sess mcpclient.ToolAppSession, page context.Context, changed <-chan struct{}) {
	t.Helper()
	browser := chromium(t)
	o := newOpener(t)
	host, err := apphost.Start(apphost.Options{Launch: apphost.OpenWith(o.flag()), InitTimeout: 20 * time.Second, Theme: "light"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = host.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{Target: target})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	tool, err := conn.Tool(ctx, "notes")
	if err != nil || tool == nil {
		t.Fatalf("the notes tool: %v", err)
	}
	heard := make(chan struct{}, 8)
	sess, err = conn.OpenToolApp(ctx, host, tool, json.RawMessage(`{"text":"first"}`), mcpclient.ToolAppOptions{
		AppToolsChanged: func() { heard <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close(); <-sess.Done() })
	return sess, tab(t, browser, o.next(t)), heard
}

// appTools lists the app's own tools once it is live (the page loads, then
// the app initializes).
func appTools(t *testing.T, sess mcpclient.ToolAppSession) []*mcp.Tool {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		tools, err := sess.AppTools(context.Background())
		if err == nil {
			return tools
		}
		if time.Now().After(deadline) || errors.Is(err, mcpclient.ErrNoAppTools) {
			t.Fatalf("the app's tools: %v", err)
		}
	}
}

// The app host lists and calls an SDK app's own tools, hears when they
// change, and tells the app of a theme change, which the SDK merges into
// its host context.
func TestBrowserAppOwnToolsSDK(t *testing.T) {
	t.Parallel()
	srv := statelessHTTP(t, toolAppServer(sdkPage(t, extAppsBundle(t), "", sdkToolsApp)))
	sess, page, changed := openToolAppIn(t, mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL})
	inApp(t, page, `document.getElementById("status").textContent === "connected light"`)
	tools := appTools(t, sess)
	if len(tools) != 1 || tools[0].Name != "app_echo" || tools[0].Description != "Echoes what it is given, in the app" {
		t.Fatalf("the app's tools: %v", tools)
	}
	ctx := context.Background()
	res, err := sess.CallAppTool(ctx, "app_echo", json.RawMessage(`{"word":"hi"}`))
	if err != nil || len(res.Content) == 0 || res.Content[0].(*mcp.TextContent).Text != `the app echoes {"word":"hi"}` {
		t.Fatalf("calling app_echo: %v, %v", res, err)
	}
	inApp(t, page, `Array.from(document.querySelectorAll("p.log")).some(p => p.textContent === 'app_echo called with {"word":"hi"}')`)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("the app's list_changed never reached the host's peer")
	}
	if tools, err = sess.AppTools(ctx); err != nil || len(tools) != 2 {
		t.Errorf("after the change, the app's tools: %v, %v", tools, err)
	}
	if _, err := sess.CallAppTool(ctx, "app_nothing", nil); err == nil || !strings.Contains(err.Error(), "app_nothing") {
		t.Errorf("calling a tool the app does not have: %v", err)
	}
	sess.SetTheme("dark")
	inApp(t, page, `Array.from(document.querySelectorAll("p.log")).some(p => p.textContent === 'context {"theme":"dark"} theme now dark')`)
}

// The fixture's notes app has a tool of its own, which reports what the
// app shows, and follows the host's theme from its initialize result on.
func TestBrowserAppOwnToolsFixture(t *testing.T) {
	t.Parallel()
	sess, page, _ := openToolAppIn(t, mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }})
	inApp(t, page, `document.documentElement.dataset.theme === "light"`)
	tools := appTools(t, sess)
	if len(tools) != 1 || tools[0].Name != "notes_shown" {
		t.Fatalf("the notes app's tools: %v", tools)
	}
	res, err := sess.CallAppTool(context.Background(), "notes_shown", nil)
	if err != nil || len(res.Content) == 0 || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, `input: {"text":"first"}`) {
		t.Fatalf("calling notes_shown: %v, %v", res, err)
	}
	sess.SetTheme("dark")
	inApp(t, page, `document.documentElement.dataset.theme === "dark"`)
}

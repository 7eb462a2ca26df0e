package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolAppServer serves a notes tool whose app is html, the tool only apps
// may call, and the tool only the model may call.
func toolAppServer(html string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "tool-app-server", Version: "1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}})
	const uri = "ui://interop/notes.html"
	s.AddResource(&mcp.Resource{URI: uri, Name: "notes", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/html;profile=mcp-app", Text: html}}}, nil
		})
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "notes", InputSchema: obj, Meta: mcp.Meta{"ui": map[string]any{"resourceUri": uri}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("notes called with " + string(req.Params.Arguments)), nil
		})
	s.AddTool(&mcp.Tool{Name: "add_note", InputSchema: obj, Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{"app"}}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("note added"), nil
		})
	s.AddTool(&mcp.Tool{Name: "reset_notes", InputSchema: obj, Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{"model"}}}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("RESET RAN"), nil
		})
	return s
}

// sdkToolApp is the notes app built on the official SDK: it records what
// its host tells it and asks of the host everything a tool app may.
const sdkToolApp = `
const app = new App({ name: "sdk-notes", version: "1.0.0" }, {});
const say = (line) => { const p = document.createElement("p"); p.className = "log"; p.textContent = line; document.body.appendChild(p); };
app.ontoolinput = (params) => say("input " + JSON.stringify(params.arguments));
app.ontoolresult = (result) => {
  say("result " + result.content[0].text);
  (async () => {
    const added = await app.callServerTool({ name: "add_note", arguments: { text: "x" } });
    say("add_note " + added.content[0].text);
    try {
      const reset = await app.callServerTool({ name: "reset_notes", arguments: {} });
      say("reset_notes ran " + JSON.stringify(reset));
    } catch (e) { say("reset_notes refused " + e.message); }
    await app.sendMessage({ role: "user", content: [{ type: "text", text: "hello from the SDK app" }] });
    say("message sent");
    const link = await app.openLink({ url: "https://example.com/from-the-app" });
    say("link " + (link.isError ? "not opened" : "opened"));
    try { await app.openLink({ url: "javascript:alert(1)" }); say("javascript link opened"); }
    catch (e) { say("javascript link refused"); }
    say("done");
  })();
};
app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => { document.getElementById("status").textContent = "connected"; },
  (err) => { document.getElementById("status").textContent = "failed: " + err; });
`

// A tool app built on the official SDK gets the call's input and result,
// calls an app-visible tool, is refused a model-only one (which never
// reaches the server), sends a message and asks to open a link (printed,
// not opened, without --open-links; a javascript: link is refused); closing
// its tab ends mcpeek call with exit 0.
func TestBrowserToolAppSDK(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := statelessHTTP(t, toolAppServer(sdkPage(t, extAppsBundle(t), "", sdkToolApp)))
	o := newOpener(t)
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	done := make(chan result, 1)
	go func() {
		done <- inProcess(context.Background(), []string{"call", "notes", "--args", `{"text":"hi"}`, "--app-host",
			"--open-with", o.flag(), "--app-init-timeout", "20s", "--wire-log", wire, srv.URL})
	}()
	page := tab(t, browser, o.next(t))
	for _, want := range []string{
		`input {"text":"hi"}`, `result notes called with {"text":"hi"}`, "add_note note added",
		"reset_notes refused", "message sent", "link not opened", "javascript link refused", "done",
	} {
		inApp(t, page, `Array.from(document.querySelectorAll("p.log")).some(p => p.textContent.startsWith(`+jsString(want)+`))`)
	}
	closeTab(t, page)
	r := <-done
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{`"text": "notes called with {\"text\":\"hi\"}"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %s: %s", want, r.stdout)
		}
	}
	for _, want := range []string{"the app sent ui/message", "hello from the SDK app", "the app asks to open https://example.com/from-the-app (not opened"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q: %s", want, r.stderr)
		}
	}
	log, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(log)), "\n") {
		var e struct {
			Dir     string `json:"dir"`
			Method  string `json:"method"`
			Message struct {
				Params struct {
					Name string `json:"name"`
				} `json:"params"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &e) == nil && e.Dir == "send" && e.Method == "tools/call" {
			calls[e.Message.Params.Name]++
		}
	}
	if calls["reset_notes"] != 0 || strings.Contains(string(log), "RESET RAN") {
		t.Error("the model-only tool reached the server")
	}
	if calls["add_note"] != 1 || calls["notes"] != 1 {
		t.Errorf("tools/call sent: %v, want notes and add_note once each", calls)
	}
}

// The fixture's own notes app, over stdio: its buttons reach the same
// places, and asking to close ends mcpeek call.
func TestBrowserToolAppFixture(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	o := newOpener(t)
	done := make(chan result, 1)
	go func() {
		done <- inProcess(context.Background(), []string{"call", "notes", "--args", `{"text":"first"}`, "--app-host",
			"--open-with", o.flag(), "--app-init-timeout", "20s"})
	}()
	page := tab(t, browser, o.next(t))
	inApp(t, page, `document.getElementById("input").textContent === 'input: {"text":"first"}'`)
	inApp(t, page, `document.getElementById("result").textContent.startsWith('result: notes: 1 notes')`)
	for _, step := range []struct{ button, log string }{
		{"add", "add_note: add_note: 2 notes"},
		{"reset", "reset_notes refused: "},
		{"message", "message sent"},
		{"link", "link not opened"},
	} {
		click(t, page, step.button)
		inApp(t, page, `Array.from(document.querySelectorAll("#log li")).some(li => li.textContent.startsWith(`+jsString(step.log)+`))`)
	}
	click(t, page, "close")
	r := <-done
	if r.code != exitOK || !strings.Contains(r.stdout, "notes: 1 notes") || !strings.Contains(r.stderr, "Hello from the notes app.") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// closeTab closes the browser tab of ctx, as a person closing it would.
func closeTab(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Cancel(ctx); err != nil {
		t.Logf("close the tab: %v", err)
	}
}

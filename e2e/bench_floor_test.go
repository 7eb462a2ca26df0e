package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floorQuestion is what both the server (through mcpeek) and the floor's
// host ask the app: the fixture's choose_option question.
var floorQuestion = map[string]any{
	"message": "Pick one.",
	"requestedSchema": map[string]any{"type": "object", "required": []string{"choice"},
		"properties": map[string]any{"choice": map[string]any{"type": "string", "enum": []string{"option-a", "option-b"}}}},
}

// sdkQuestionApp is the large app: one built on the official Apps SDK
// (its whole bundle inlined, as an app built with it ships), which shows
// the question with an Option A button, as the fixture's app does, and
// answers with the button pressed.
const sdkQuestionApp = `
document.body.insertAdjacentHTML("beforeend", '<p id="message">Waiting for a question</p><button id="option-a" disabled>Option A</button>');
const app = new App({ name: "floor-app", version: "1.0.0" }, { elicitation: {} });
app.setRequestHandler("elicitation/create", (request) => new Promise((resolve) => {
  const params = request.params || request;
  document.getElementById("message").textContent = params.message;
  const a = document.getElementById("option-a");
  a.onclick = () => { a.disabled = true; resolve({ action: "accept", content: { choice: "option-a" } }); };
  a.disabled = false;
}));
app.connect(new PostMessageTransport(window.parent, window.parent));
`

// floorHostPage is the floor's host: a minimal MCP Apps host, the least a
// browser page can do to show an app the way mcpeek does (a cross-origin
// sandbox page that relays, the app in its srcdoc frame) with nothing of
// mcpeek's (no MCP, no WebSocket, no token, no launch page). The app's
// HTML and the question are in the page; it answers ui/initialize at once
// and sends elicitation/create right after ui/notifications/initialized.
const floorHostPage = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body>
<script type="application/json" id="app">%s</script>
<script type="application/json" id="question">%s</script>
<iframe id="sandbox" sandbox="allow-scripts allow-same-origin allow-forms" style="width:100%%;height:600px;border:0" src="%s"></iframe>
<script>
(function () {
  var frame = document.getElementById("sandbox");
  var origin = new URL(frame.src).origin;
  var html = JSON.parse(document.getElementById("app").textContent);
  var question = JSON.parse(document.getElementById("question").textContent);
  function send(m) { frame.contentWindow.postMessage(m, origin); }
  window.addEventListener("message", function (e) {
    if (e.source !== frame.contentWindow || e.origin !== origin) return;
    var m = e.data;
    if (m.method === "ui/notifications/sandbox-proxy-ready") {
      send({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: { html: html, sandbox: "allow-scripts allow-forms" } });
    } else if (m.method === "ui/initialize") {
      send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "floor", version: "1" },
        hostCapabilities: { elicitation: {} }, hostContext: { theme: "light", displayMode: "inline", platform: "web" } } });
    } else if (m.method === "ui/notifications/initialized") {
      send({ jsonrpc: "2.0", id: "floor-elicit", method: "elicitation/create", params: question });
    } else if (m.id === "floor-elicit" && m.result) {
      console.log("mcpeek-bench answered " + (performance.timeOrigin + performance.now()));
    } else if (m.method && m.id !== undefined) {
      send({ jsonrpc: "2.0", id: m.id, result: {} });
    }
  });
})();
</script></body></html>`

// floorSandboxPage relays between its parent and the app, as mcpeek's
// sandbox page does.
const floorSandboxPage = `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%}</style></head><body><script>
(function () {
  var inner = null, parentOrigin = "http://127.0.0.1:" + location.port;
  window.addEventListener("message", function (e) {
    if (e.source === window.parent) {
      var m = e.data;
      if (m && m.method === "ui/notifications/sandbox-resource-ready") {
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", "allow-scripts allow-forms");
        inner.srcdoc = m.params.html;
        document.body.appendChild(inner);
        return;
      }
      if (inner) inner.contentWindow.postMessage(m, "*");
      return;
    }
    if (inner && e.source === inner.contentWindow) window.parent.postMessage(e.data, parentOrigin);
  });
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, parentOrigin);
})();
</script></body></html>`

// floorHost serves the floor's pages on loopback, the host on 127.0.0.1
// and the sandbox on localhost at the same port (two origins, as mcpeek
// has), listening on [::1] too so that localhost costs the same as for
// mcpeek.
func floorHost(b *testing.B, apps map[string]string) (hostURL func(app string) string) {
	b.Helper()
	ln4, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	port := ln4.Addr().(*net.TCPAddr).Port
	listeners := []net.Listener{ln4}
	if ln6, err := net.Listen("tcp6", net.JoinHostPort("::1", strconv.Itoa(port))); err == nil {
		listeners = append(listeners, ln6)
	}
	question, _ := json.Marshal(floorQuestion)
	sandbox := "http://localhost:" + strconv.Itoa(port) + "/sandbox"
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		if r.URL.Path == "/sandbox" {
			_, _ = w.Write([]byte(floorSandboxPage))
			return
		}
		app, ok := apps[strings.TrimPrefix(r.URL.Path, "/host/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		text, _ := json.Marshal(app)
		// In a script data block only "</script" needs escaping.
		escaped := strings.ReplaceAll(string(text), "</", `<\/`)
		fmt.Fprintf(w, floorHostPage, escaped, question, html.EscapeString(sandbox))
	})}
	for _, l := range listeners {
		go func() { _ = srv.Serve(l) }()
	}
	b.Cleanup(func() { _ = srv.Close() })
	return func(app string) string { return "http://127.0.0.1:" + strconv.Itoa(port) + "/host/" + app }
}

// floorServer serves one tool per app, each asking floorQuestion through
// it; answered (if not nil) receives the moment each answer arrives.
func floorServer(apps map[string]string, answered chan<- time.Time) func() *mcp.Server {
	return func() *mcp.Server {
		caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		caps.AddExtension(mcpclient.UIExtension, map[string]any{"elicitation": map[string]any{}})
		s := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
		schema, _ := json.Marshal(floorQuestion["requestedSchema"])
		for name, app := range apps {
			uri := "ui://floor/" + name + ".html"
			s.AddResource(&mcp.Resource{URI: uri, Name: name, MIMEType: mcpclient.AppMIMEType},
				func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mcpclient.AppMIMEType, Text: app}}}, nil
				})
			s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					if len(req.Params.InputResponses) == 0 {
						return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{
							Message: floorQuestion["message"].(string), RequestedSchema: json.RawMessage(schema),
							Meta: mcp.Meta{"ui": map[string]any{"resourceUri": uri}}}}, RequestState: "q"}, nil
					}
					if answered != nil {
						select {
						case answered <- time.Now():
						default:
						}
					}
					r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
					if r == nil || r.Action != "accept" || fmt.Sprint(r.Content["choice"]) != "option-a" {
						return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("answer %+v", r)}}}, nil
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
				})
		}
		return s
	}
}

// selfAnswering is appended to each app in a browser with site isolation:
// the app's frame is then in a process of its own, out of the test's
// reach, so the app presses Option A itself once it is enabled (as
// questionProbe does elsewhere).
const selfAnswering = `<script>
new MutationObserver(function () {
  var a = document.getElementById("option-a");
  if (a && !a.disabled && !a.dataset.pressed) { a.dataset.pressed = "1"; a.click(); }
}).observe(document, { childList: true, subtree: true, attributes: true });
</script>`

// BenchmarkAppFloor measures mcpeek's app path against the browser floor,
// in one warm headless Chromium, runs interleaved: from the moment the
// server's request reaches mcpeek (for the floor, the moment its tab is
// asked for) to the app showing the question by its own clock (its Option
// A button enabled, noted by a script in the app's frame, which presses
// it). mcpeek runs as in real use: the browser is handed what a launcher
// would be (on Linux the launch URL, which the app host redirects to the
// bridge page for a connection of this user's; elsewhere the file:// URL
// of a launch page, which sends the tab on). The floor is a new tab of the same browser with a
// minimal Apps host (floorHostPage). Each runs two apps: the fixture's
// choose-option app (small) and one built on the official Apps SDK
// (large). mcpeek/floor is the ratio of the medians; direct/floor is
// mcpeek with the tab's URL handed to the browser directly (as only the
// in-process opener of tests may), which shows what the way in costs.
//
// This Chromium runs without site isolation, so that the probe reaches the
// app's frame; BenchmarkAppFloorIsolated is the same with site isolation
// on, as in a person's browser.
//
//	go test -run '^$' -bench BenchmarkAppFloor -benchtime 20x -count 3 ./e2e
func BenchmarkAppFloor(b *testing.B) { benchAppFloor(b, chromium(b), false) }

// BenchmarkAppFloorIsolated is BenchmarkAppFloor in a Chromium with site
// isolation on, as a person's browser has it (each site's frames in a
// process of their own: the bridge page and the sandbox page each get
// one, and a launch page where there is one; the floor's host and sandbox
// pages one each). The app
// frame is then out of the probe's reach, so each app presses its own
// button, and the time is measured to the answer's arrival: at the server
// for mcpeek, at the host page for the floor (which counts mcpeek's trip
// back through its WebSocket against it, a few milliseconds).
//
//	go test -run '^$' -bench BenchmarkAppFloorIsolated -benchtime 20x -count 3 ./e2e
func BenchmarkAppFloorIsolated(b *testing.B) { benchAppFloor(b, isolatedChromium(b), true) }

func benchAppFloor(b *testing.B, browser context.Context, isolated bool) {
	apps := map[string]string{
		"small": fixture.ChooseOptionHTML(),
		"large": sdkPage(b, extAppsBundle(b), "", sdkQuestionApp),
	}
	event := "question"
	if isolated {
		event = "answered"
		for name, html := range apps {
			apps[name] = html + selfAnswering
		}
	}
	names := []string{"small", "large"}
	hostURL := floorHost(b, apps)

	type openedTab struct {
		questions <-chan float64
		close     context.CancelFunc
		err       error
	}
	tabs := make(chan openedTab, 1)
	openTab := func(u string) {
		ctx, cancel, q, err := probedTab(browser, event)
		tabs <- openedTab{q, cancel, err}
		if err == nil {
			_ = chromedp.Do(ctx, chromedp.Navigate(u))
		}
	}
	// mcpeek as in real use (a launch URL or page), and opened directly
	// (the tab's URL handed to the browser, as no launcher may be given
	// it): the difference is what the way in costs.
	type client struct {
		conn     *mcpclient.Conn
		records  *mcpclient.Recorder
		answered chan time.Time
	}
	connect := func(opts apphost.Options) client {
		host, err := apphost.Start(opts)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = host.Close() })
		records := mcpclient.NewRecorder(nil)
		answered := make(chan time.Time, 1)
		conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
			Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: floorServer(apps, answered)},
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: true}, Renderer: host, Records: records,
		})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = conn.Close() })
		return client{conn, records, answered}
	}
	open := func(u string) error { go openTab(u); return nil }
	launched, direct := connect(apphost.Options{Launch: open}), connect(apphost.Options{Open: open})

	await := func(who string) (float64, context.CancelFunc) {
		tab := <-tabs
		if tab.err != nil {
			b.Fatal(tab.err)
		}
		if isolated && strings.HasPrefix(who, "mcpeek") {
			return 0, tab.close // the server notes the answer
		}
		return awaitQuestion(b, tab.questions, who), tab.close
	}
	runMcpeek := func(c client, app string) float64 {
		done := make(chan error, 1)
		go func() {
			res, err := c.conn.Call(context.Background(), app, nil)
			if err == nil && res.IsError {
				err = fmt.Errorf("tool error: %v", res.Content)
			}
			done <- err
		}()
		shown, closeTab := await("mcpeek " + app)
		defer closeTab()
		if err := <-done; err != nil {
			b.Fatalf("mcpeek %s: %v", app, err)
		}
		if isolated {
			shown = epochMs(<-c.answered)
		}
		recs := c.records.Records()
		rec := recs[len(recs)-1]
		if rec.Path != mcpclient.PathApp {
			b.Fatalf("mcpeek %s: the request took the %s path (%s)", app, rec.Path, rec.Fallback)
		}
		return shown - epochMs(rec.ReceivedAt)
	}
	runFloor := func(app string) float64 {
		t0 := epochMs(time.Now())
		go openTab(hostURL(app))
		shown, closeTab := await("floor " + app)
		closeTab()
		return shown - t0
	}

	for _, app := range names { // warm each up once
		runMcpeek(launched, app)
		runMcpeek(direct, app)
		runFloor(app)
	}
	mine, viaURL, floor := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	round := 0
	b.ResetTimer()
	for b.Loop() {
		for _, app := range names {
			runs := []func(){
				func() { mine[app] = append(mine[app], runMcpeek(launched, app)) },
				func() { viaURL[app] = append(viaURL[app], runMcpeek(direct, app)) },
				func() { floor[app] = append(floor[app], runFloor(app)) },
			}
			for i := range runs { // each first in turn
				runs[(round+i)%len(runs)]()
			}
		}
		round++
	}
	b.StopTimer()
	for _, app := range names {
		m, d, f := percentile(mine[app], 50), percentile(viaURL[app], 50), percentile(floor[app], 50)
		b.ReportMetric(m, "ms-mcpeek-"+app+"-p50")
		b.ReportMetric(d, "ms-direct-"+app+"-p50")
		b.ReportMetric(f, "ms-floor-"+app+"-p50")
		b.ReportMetric(m/f, "mcpeek/floor-"+app)
		b.ReportMetric(d/f, "direct/floor-"+app)
	}
	b.ReportMetric(float64(len(apps["large"]))/1024, "KiB-large-app")
}

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// quickApp answers every elicitation at once, noting when it received it.
const quickApp = `<!doctype html><html><body><script>
var next = 1;
function post(m) { window.parent.postMessage(m, "*"); }
window.addEventListener("message", function (e) {
  if (e.source !== window.parent) return;
  var m = e.data;
  if (m.id === 1 && m.result) { post({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}}); return; }
  if (m.method === "elicitation/create") {
    post({jsonrpc: "2.0", id: m.id, result: {action: "accept", content: {choice: "option-a"}, _meta: {receivedAt: Date.now()}}});
    return;
  }
  if (m.method && m.id !== undefined) post({jsonrpc: "2.0", id: m.id, result: {}});
});
post({jsonrpc: "2.0", id: next++, method: "ui/initialize", params: {protocolVersion: "2026-01-26", appInfo: {name: "quick", version: "1"}, appCapabilities: {elicitation: {}}}});
</script></body></html>`

// timedRenderer notes when the app received each request.
type timedRenderer struct {
	*apphost.Host
	mu       sync.Mutex
	received map[string]time.Time
}

func (r *timedRenderer) Render(ctx context.Context, req *mcpclient.AppRequest) (*mcpclient.AppAnswer, error) {
	ans, err := r.Host.Render(ctx, req)
	if err == nil {
		var res struct {
			Meta struct {
				ReceivedAt int64 `json:"receivedAt"`
			} `json:"_meta"`
		}
		if json.Unmarshal(ans.Result, &res) == nil {
			r.mu.Lock()
			r.received[req.Key] = time.UnixMilli(res.Meta.ReceivedAt)
			r.mu.Unlock()
		}
	}
	return ans, err
}

// BenchmarkAppPath measures the app path with a warm headless browser, one
// new tab per request as in real use: from the request reaching the router
// to the app receiving elicitation/create, and to the answer returning.
// Run it with -benchtime=20x or more for the percentiles.
func BenchmarkAppPath(b *testing.B) {
	browser := chromium(b)
	urls := make(chan string, 1)
	host, err := apphost.Start(apphost.Options{Open: func(url string) error { urls <- url; return nil }})
	if err != nil {
		b.Fatal(err)
	}
	defer host.Close()
	r := &timedRenderer{Host: host, received: map[string]time.Time{}}
	server := func() *mcp.Server {
		caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		caps.AddExtension(mcpclient.UIExtension, map[string]any{"elicitation": map[string]any{}})
		s := mcp.NewServer(&mcp.Implementation{Name: "quick", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
		s.AddResource(&mcp.Resource{URI: "ui://quick/app.html", Name: "quick", MIMEType: mcpclient.AppMIMEType},
			func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "ui://quick/app.html", MIMEType: mcpclient.AppMIMEType, Text: quickApp}}}, nil
			})
		s.AddTool(&mcp.Tool{Name: "quick", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 {
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{Message: "Quick",
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]}},"required":["choice"]}`),
						Meta:            mcp.Meta{"ui": map[string]any{"resourceUri": "ui://quick/app.html"}}}}, RequestState: "q"}, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
			})
		return s
	}
	records := mcpclient.NewRecorder(nil)
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: server},
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true}, Renderer: r, Records: records,
	})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	tabsDone := make(chan struct{})
	go func() { // one tab per request; the previous one closes when the next opens
		defer close(tabsDone)
		closePrev := func() {}
		for url := range urls {
			ctx, cancel := chromedp.NewContext(browser)
			_ = chromedp.Do(ctx, chromedp.Navigate(url))
			closePrev()
			closePrev = cancel
		}
		closePrev()
	}()
	defer func() { close(urls); <-tabsDone }()
	b.ResetTimer()
	for b.Loop() {
		res, err := conn.Call(context.Background(), "quick", nil)
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
	}
	b.StopTimer()
	var toApp, total []float64
	for _, rec := range records.Records() {
		if rec.Path != mcpclient.PathApp {
			b.Fatalf("request %s took the %s path (%s)", rec.Key, rec.Path, rec.Fallback)
		}
		r.mu.Lock()
		got := r.received[rec.Key]
		r.mu.Unlock()
		toApp = append(toApp, float64(got.Sub(rec.ReceivedAt).Microseconds())/1000)
		total = append(total, float64(rec.AnsweredMs))
	}
	b.ReportMetric(percentile(toApp, 50), "ms-to-app-p50")
	b.ReportMetric(percentile(toApp, 95), "ms-to-app-p95")
	b.ReportMetric(percentile(total, 50), "ms-answered-p50")
	b.ReportMetric(percentile(total, 95), "ms-answered-p95")
}

func percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(min(i, len(s))-1, 0)]
}

// tabApp answers each elicitation with the value the test gave its tab
// (window.benchAnswer, set from outside the page) and the message it was
// shown.
const tabApp = `<!doctype html><html><body><script>
function post(m) { window.parent.postMessage(m, "*"); }
function answer(id, message) {
  var given = window.benchAnswer;
  if (!given) { setTimeout(function () { answer(id, message); }, 10); return; }
  post({jsonrpc: "2.0", id: id, result: {action: "accept", content: {answer: given, seen: message}}});
}
window.addEventListener("message", function (e) {
  if (e.source !== window.parent) return;
  var m = e.data;
  if (m.id === 1 && m.result) { post({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}}); return; }
  if (m.method === "elicitation/create") { answer(m.id, m.params.message); return; }
  if (m.method && m.id !== undefined) post({jsonrpc: "2.0", id: m.id, result: {}});
});
post({jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {protocolVersion: "2026-01-26", appInfo: {name: "tab", version: "1"}, appCapabilities: {elicitation: {}}}});
</script></body></html>`

// tabServer's tool "tab" asks "request N" (N from its arguments) through
// tabApp and returns the content it got back as JSON text.
func tabServer() *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension(mcpclient.UIExtension, map[string]any{"elicitation": map[string]any{}})
	s := mcp.NewServer(&mcp.Implementation{Name: "tabs", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	const uri = "ui://tabs/app.html"
	s.AddResource(&mcp.Resource{URI: uri, Name: "tab", MIMEType: mcpclient.AppMIMEType},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mcpclient.AppMIMEType, Text: tabApp}}}, nil
		})
	schema := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"},"seen":{"type":"string"}},"required":["answer","seen"]}`)
	s.AddTool(&mcp.Tool{Name: "tab", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				var args struct {
					N int `json:"n"`
				}
				_ = json.Unmarshal(req.Params.Arguments, &args)
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"q": &mcp.ElicitParams{
					Message: fmt.Sprintf("request %d", args.N), RequestedSchema: schema,
					Meta: mcp.Meta{"ui": map[string]any{"resourceUri": uri}}}}, RequestState: "tab"}, nil
			}
			r, _ := req.Params.InputResponses["q"].(*mcp.ElicitResult)
			if r == nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no answer"}}}, nil
			}
			b, _ := json.Marshal(r.Content)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
		})
	return s
}

// BenchmarkAppConcurrent runs 50 tool calls at once, each asking one
// question through the app path, in one headless Chromium: 50 tabs, each
// opened as mcpeek asks for it and told through the DevTools protocol,
// before it loads, which value to answer ("tab:" and its request key). It checks that every call got the answer
// of the tab opened for its own request, to the question it asked (zero
// swaps), and reports the time until all 50 returned, when mcpeek had
// asked for the last tab and when the last tab had loaded (the browser's
// share), and per request the time to answer and the app's start-up time
// (from the tab being asked for to ui/notifications/initialized). It takes
// tens of seconds on two cores: run it alone.
//
//	go test -run '^$' -bench BenchmarkAppConcurrent -benchtime 1x -count 3 ./e2e
func BenchmarkAppConcurrent(b *testing.B) {
	const n = 50
	browser := chromium(b)
	for _, protocol := range []string{"legacy", "modern"} {
		b.Run(protocol, func(b *testing.B) {
			urls := make(chan string, n)
			host, err := apphost.Start(apphost.Options{InitTimeout: 2 * time.Minute, Open: func(url string) error { urls <- url; return nil }})
			if err != nil {
				b.Fatal(err)
			}
			defer host.Close()
			records := mcpclient.NewRecorder(nil)
			conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
				Target: mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: tabServer}, Protocol: protocol,
				Capabilities: mcpclient.CapabilityOptions{FormElicitation: true}, Renderer: host, Records: records,
			})
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			var total roundPhases
			var answered, appInit []float64
			for b.Loop() {
				before := len(records.Records())
				p := concurrentRound(b, browser, conn, urls, n, before)
				total.lastURL, total.lastTab, total.all = total.lastURL+p.lastURL, total.lastTab+p.lastTab, total.all+p.all
				for _, rec := range records.Records()[before:] {
					answered = append(answered, float64(rec.AnsweredMs))
					appInit = append(appInit, float64(rec.AppInitMs))
				}
				if got := len(records.Records()) - before; got != n {
					b.Fatalf("%d records, want %d", got, n)
				}
			}
			perRound := func(d time.Duration) float64 { return float64(d.Milliseconds()) / float64(b.N) }
			b.ReportMetric(perRound(total.all), fmt.Sprintf("ms-all-%d", n))
			b.ReportMetric(perRound(total.lastURL), "ms-last-tab-asked")
			b.ReportMetric(perRound(total.lastTab), "ms-last-tab-loaded")
			b.ReportMetric(percentile(answered, 50), "ms-answered-p50")
			b.ReportMetric(percentile(answered, 95), "ms-answered-p95")
			b.ReportMetric(percentile(appInit, 50), "ms-app-init-p50")
			b.ReportMetric(percentile(appInit, 95), "ms-app-init-p95")
			b.ReportMetric(0, "swaps") // any swap has failed the benchmark
		})
	}
}

// concurrentRound makes n calls at once, answers each in its own tab,
// checks every answer against its request (the connection's records from
// before on) and returns how long it took.
func concurrentRound(b *testing.B, browser context.Context, conn *mcpclient.Conn, urls <-chan string, n, before int) (phases roundPhases) {
	b.Helper()
	done := make(chan struct{})
	var tabs sync.WaitGroup
	var mu sync.Mutex
	var closeTabs []context.CancelFunc
	var tabErrs []error
	start := time.Now()
	tabs.Go(func() { // a tab for each URL mcpeek opens, each opened at once
		for range n {
			var url string
			select {
			case url = <-urls:
			case <-done:
				return
			}
			mu.Lock()
			phases.lastURL = time.Since(start)
			mu.Unlock()
			tabs.Go(func() {
				cancel, err := answerInTab(browser, url)
				mu.Lock()
				defer mu.Unlock()
				phases.lastTab = time.Since(start)
				closeTabs = append(closeTabs, cancel)
				if err != nil {
					tabErrs = append(tabErrs, err)
				}
			})
		}
	})
	got := make([]map[string]string, n)
	callErrs := make([]error, n)
	var calls sync.WaitGroup
	for i := range n {
		calls.Go(func() {
			res, err := conn.Call(context.Background(), "tab", json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)))
			switch {
			case err != nil:
				callErrs[i] = err
			case res.IsError || len(res.Content) == 0:
				callErrs[i] = fmt.Errorf("tool error: %v", res.Content)
			default:
				text, _ := res.Content[0].(*mcp.TextContent)
				if text == nil || json.Unmarshal([]byte(text.Text), &got[i]) != nil {
					callErrs[i] = fmt.Errorf("unexpected result: %v", res.Content)
				}
			}
		})
	}
	calls.Wait()
	phases.all = time.Since(start)
	close(done)
	tabs.Wait()
	for _, cancel := range closeTabs {
		cancel()
	}
	for _, err := range append(tabErrs, callErrs...) {
		if err != nil {
			b.Fatal(err)
		}
	}
	keyOf := map[string]string{} // question → the request key it went out under
	for _, rec := range conn.Records()[before:] {
		if rec.Path != mcpclient.PathApp {
			b.Fatalf("request %s took the %s path (%s)", rec.Key, rec.Path, rec.Fallback)
		}
		keyOf[rec.Message] = rec.Key
	}
	swaps := 0
	for i, ans := range got {
		question := fmt.Sprintf("request %d", i)
		if ans["seen"] != question || ans["answer"] != "tab:"+keyOf[question] {
			swaps++
			b.Errorf("call %d asked %q under %s, and got the answer %q to %q", i, question, keyOf[question], ans["answer"], ans["seen"])
		}
	}
	if swaps > 0 {
		b.Fatalf("%d of %d answers went to the wrong call", swaps, n)
	}
	return phases
}

// roundPhases are the times, from the start of a round, when mcpeek had
// asked for the last tab, when the last tab had loaded, and when the last
// call returned.
type roundPhases struct{ lastURL, lastTab, all time.Duration }

// answerInTab opens url in a new tab, having told every frame it will load
// which value to answer with: "tab:" and the request key in the URL.
func answerInTab(browser context.Context, url string) (context.CancelFunc, error) {
	ctx, cancel := chromedp.NewContext(browser)
	key := path.Base(strings.SplitN(url, "#", 2)[0])
	script := fmt.Sprintf(`window.benchAnswer = %q;`, "tab:"+key)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		return cancel, fmt.Errorf("tab %s: %w", key, err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return cancel, fmt.Errorf("open %s: %w", url, err)
	}
	return cancel, nil
}

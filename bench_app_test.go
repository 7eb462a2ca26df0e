package main

import (
	"context"
	"encoding/json"

	"slices"
	"sync"
	"testing"
	"time"

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

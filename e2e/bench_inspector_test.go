package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// questionProbe runs in every document of a tab. In the app's frame (the
// srcdoc frame, in mcpeek as in the Inspector) it notes the moment the app
// shows the question (its first button becomes enabled), reports it on the
// console, and presses that button, so that every run answers itself.
const questionProbe = `(() => {
  if (location.href !== "about:srcdoc") return;
  const now = () => performance.timeOrigin + performance.now();
  let done = false;
  new MutationObserver(() => {
    const a = document.getElementById("option-a");
    if (done || !a || a.disabled) return;
    done = true;
    console.log("mcpeek-bench question " + now());
    a.click();
  }).observe(document, { childList: true, subtree: true, attributes: true });
})()`

// probedTab is a browser tab with questionProbe in every document; its
// questions channel receives the epoch milliseconds of each question shown
// (each console line "mcpeek-bench EVENT TIME" of the event named).
func probedTab(browser context.Context, event string) (context.Context, context.CancelFunc, <-chan float64, error) {
	ctx, cancel := chromedp.NewContext(browser)
	questions := make(chan float64, 16)
	listen := chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*runtime.EventConsoleAPICalled)
		if !ok || len(e.Args) == 0 {
			return
		}
		s, err := strconv.Unquote(string(e.Args[0].Value))
		if ts, ok := strings.CutPrefix(s, "mcpeek-bench "+event+" "); err == nil && ok {
			if v, err := strconv.ParseFloat(ts, 64); err == nil {
				select {
				case questions <- v:
				default:
				}
			}
		}
	})
	if listen != nil {
		cancel()
		return nil, nil, nil, fmt.Errorf("listen to a tab: %w", listen)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: questionProbe}); err != nil {
		cancel()
		return nil, nil, nil, fmt.Errorf("probe a tab: %w", err)
	}
	return ctx, cancel, questions, nil
}

func epochMs(t time.Time) float64 { return float64(t.UnixNano()) / 1e6 }

func awaitQuestion(b *testing.B, questions <-chan float64, who string) float64 {
	b.Helper()
	select {
	case ts := <-questions:
		return ts
	case <-time.After(30 * time.Second):
		b.Fatalf("%s: the app never showed the question", who)
		return 0
	}
}

// freePort is a port nobody listens on, for a server that takes no port
// 0 (the Inspector, server-everything, the TypeScript SDK's example). It
// is taken outside the range the kernel hands out for port 0, and
// never twice in a run: a server given it (a Node server, listening on
// every interface) cannot find that another test's server, listening on
// 127.0.0.1:0 meanwhile, was given the same port — a connection to
// 127.0.0.1 would reach that one instead.
func freePort(b testing.TB) int {
	b.Helper()
	lo, hi := ephemeralPorts()
	portsMu.Lock()
	defer portsMu.Unlock()
	for range 1000 {
		// Below the range when there is room, else above it.
		port := 10000 + rand.IntN(max(lo-10000, 1))
		if lo <= 10000 {
			port = hi + 1 + rand.IntN(max(65535-hi, 1))
		}
		if portsGiven[port] || !portFree(port) {
			continue
		}
		portsGiven[port] = true
		return port
	}
	b.Fatal("no free port outside the ephemeral range")
	return 0
}

var (
	portsMu    sync.Mutex
	portsGiven = map[int]bool{} // ports freePort handed out in this run
)

// ephemeralPorts is the range the kernel hands out for port 0 (Linux's
// ip_local_port_range; its default where that cannot be read).
func ephemeralPorts() (lo, hi int) {
	lo, hi = 32768, 60999
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			l, err1 := strconv.Atoi(f[0])
			h, err2 := strconv.Atoi(f[1])
			if err1 == nil && err2 == nil && l <= h {
				lo, hi = l, h
			}
		}
	}
	return lo, hi
}

// portFree tells whether port can be listened on, on 127.0.0.1 and on
// every interface.
func portFree(port int) bool {
	for _, addr := range []string{"127.0.0.1", ""} {
		ln, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(port)))
		if err != nil {
			return false
		}
		ln.Close()
	}
	return true
}

// startInspector runs the official Inspector's web client and returns the
// URL that connects it to server (streamable HTTP).
func startInspector(b *testing.B, node, dir, server string) string {
	b.Helper()
	const token = "mcpeek-bench-token"
	home := b.TempDir()
	client := freePort(b)
	cmd := exec.Command(node, filepath.Join(dir, "clients", "launcher", "build", "index.js"), "--web")
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_STORAGE_DIR="+filepath.Join(home, "storage"),
		"MCP_INSPECTOR_SECRET_STORE=file", "MCP_AUTO_OPEN_ENABLED=false", "MCP_INSPECTOR_API_TOKEN="+token,
		"CLIENT_PORT="+strconv.Itoa(client), "MCP_SANDBOX_PORT="+strconv.Itoa(freePort(b)),
		"MCP_APP_ORIGIN_PORT="+strconv.Itoa(freePort(b)))
	if err := cmd.Start(); err != nil {
		b.Fatalf("start the Inspector: %v", err)
	}
	b.Cleanup(func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() })
	base := "http://127.0.0.1:" + strconv.Itoa(client)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(base + "/"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			b.Fatal("the Inspector did not start within a minute")
		}
	}
	return base + "/?" + url.Values{"serverUrl": {server}, "transport": {"http"}, "autoConnect": {token}}.Encode()
}

// inspectorTab drives the Inspector's web client in one tab: choose_option
// on the Tools tab, run once per call of run.
type inspectorTab struct {
	ctx       context.Context
	questions <-chan float64
}

func openInspectorTab(b *testing.B, browser context.Context, link string, closeSidebar bool) *inspectorTab {
	b.Helper()
	ctx, cancel, questions, err := probedTab(browser, "question")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(cancel)
	poll := func(expr string) {
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
			b.Fatalf("Inspector: waiting for %s: %v", expr, err)
		}
	}
	do := func(expr string) {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr)); err != nil {
			b.Fatalf("Inspector: %s: %v", expr, err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		b.Fatalf("open the Inspector: %v", err)
	}
	poll(`!!document.querySelector('[data-testid="connection-status"][data-status="connected"]')`)
	if closeSidebar {
		poll(`!!document.querySelector('[aria-label="Close monitoring sidebar"]')`)
		do(`document.querySelector('[aria-label="Close monitoring sidebar"]').click()`)
	}
	do(`document.querySelector('input.mantine-SegmentedControl-input[value="Tools"] + label').click()`)
	row := `[...document.querySelectorAll("button")].find((b) => [...b.querySelectorAll("p")].some((p) => p.textContent === "choose_option"))`
	poll(`!!` + row)
	do(row + `.click()`)
	return &inspectorTab{ctx: ctx, questions: questions}
}

// run clicks Execute Tool (clearing the message history first, which would
// otherwise make every run slower than the last) and returns the
// milliseconds to the question shown in the app.
func (r *inspectorTab) run(b *testing.B) float64 {
	b.Helper()
	execute := `[...document.querySelectorAll("button")].find((b) => b.textContent === "Execute Tool" && !b.disabled)`
	if _, err := chromedp.Run(r.ctx, chromedp.Poll[bool](`!!`+execute+` && !document.querySelector('[data-testid="app-elicitation"]')`,
		chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		b.Fatalf("Inspector: %v", err)
	}
	if _, err := chromedp.Run(r.ctx, chromedp.Evaluate[any](`[...document.querySelectorAll("button")].find((b) => b.textContent === "Clear")?.click()`)); err != nil {
		b.Fatalf("Inspector: clear the history: %v", err)
	}
	time.Sleep(300 * time.Millisecond)
	t0, err := chromedp.Run(r.ctx, chromedp.Evaluate[float64](`(() => { const t = performance.timeOrigin + performance.now(); (`+execute+`).click(); return t; })()`))
	if err != nil {
		b.Fatalf("Inspector: Execute Tool: %v", err)
	}
	ms := awaitQuestion(b, r.questions, "Inspector") - t0
	closeResults := `document.querySelector('[aria-label="Close results"]')`
	if _, err := chromedp.Run(r.ctx, chromedp.Poll[bool](`!!`+closeResults, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		b.Fatalf("Inspector: waiting for the result: %v", err)
	}
	if _, err := chromedp.Run(r.ctx, chromedp.Evaluate[any](closeResults+`.click()`)); err != nil {
		b.Fatalf("Inspector: close the result: %v", err)
	}
	return ms
}

// BenchmarkAppElicitationVsInspector compares, in one warm browser and one
// run, the time from calling the fixture's choose_option to its app showing
// the question: mcpeek (a new tab for the request, as in real use) against
// the official Inspector's web client (which renders the same app in a
// modal of the page it is in), once in its default layout and once with its
// monitoring sidebar closed. The runs interleave, so all share the
// machine's state.
//
// It needs the Inspector and a Node 22 to run it, and skips otherwise:
//
//	npm install --prefix ~/.cache/mcpeek-ci/npm @modelcontextprotocol/inspector@2.12.0 node@22
//	MCPEEK_INSPECTOR=~/.cache/mcpeek-ci/npm/node_modules/@modelcontextprotocol/inspector \
//	MCPEEK_NODE22=~/.cache/mcpeek-ci/npm/node_modules/node/bin/node \
//	go test -run '^$' -bench BenchmarkAppElicitationVsInspector -benchtime 10x ./e2e
func BenchmarkAppElicitationVsInspector(b *testing.B) {
	dir, node := os.Getenv("MCPEEK_INSPECTOR"), os.Getenv("MCPEEK_NODE22")
	if dir == "" || node == "" {
		b.Skip("needs the official Inspector: set MCPEEK_INSPECTOR (its package folder) and MCPEEK_NODE22 (a Node 22 binary)")
	}
	browser := chromium(b)
	// The fixture in a process of its own (mcpeek fixture --http), which
	// both clients reach over streamable HTTP.
	serverURL := "http://127.0.0.1:" + strconv.Itoa(freePort(b))
	fx := exec.Command(mcpeekBin, "fixture", "--http", strings.TrimPrefix(serverURL, "http://"))
	if err := fx.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = fx.Process.Signal(os.Interrupt); _ = fx.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp4", strings.TrimPrefix(serverURL, "http://")); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("the fixture did not start")
		}
	}
	link := startInspector(b, node, dir, serverURL)

	// mcpeek, as `mcpeek call choose_option --app-host` would: each request
	// opens a new tab (here one of the warm browser's).
	type openedTab struct {
		questions <-chan float64
		close     context.CancelFunc
		err       error
	}
	tabs := make(chan openedTab, 1)
	host, err := apphost.Start(apphost.Options{Open: func(u string) error {
		go func() {
			ctx, cancel, q, err := probedTab(browser, "question")
			tabs <- openedTab{q, cancel, err}
			if err == nil {
				_ = chromedp.Do(ctx, chromedp.Navigate(u))
			}
		}()
		return nil
	}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = host.Close() })
	target, err := mcpclient.ParseTarget([]string{serverURL}, nil, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	conn, err := mcpclient.Connect(context.Background(), mcpclient.Config{
		Target: target, Capabilities: mcpclient.CapabilityOptions{FormElicitation: true}, Renderer: host,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.Close() })
	runMcpeek := func() float64 {
		t0 := epochMs(time.Now())
		done := make(chan error, 1)
		go func() {
			res, err := conn.Call(context.Background(), "choose_option", nil)
			if err == nil && (res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "option-a")) {
				err = fmt.Errorf("result %v", res.StructuredContent)
			}
			done <- err
		}()
		tab := <-tabs
		if tab.err != nil {
			b.Fatal(tab.err)
		}
		ms := awaitQuestion(b, tab.questions, "mcpeek") - t0
		if err := <-done; err != nil {
			b.Fatalf("mcpeek: %v", err)
		}
		tab.close()
		return ms
	}

	byDefault := openInspectorTab(b, browser, link, false)
	sidebarClosed := openInspectorTab(b, browser, link, true)
	runMcpeek() // warm up each once
	byDefault.run(b)
	sidebarClosed.run(b)
	var mine, theirs, theirsBare []float64
	b.ResetTimer()
	for b.Loop() {
		mine = append(mine, runMcpeek())
		theirs = append(theirs, byDefault.run(b))
		theirsBare = append(theirsBare, sidebarClosed.run(b))
	}
	b.StopTimer()
	med := func(xs []float64) float64 { return percentile(xs, 50) }
	b.ReportMetric(med(mine), "ms-mcpeek-p50")
	b.ReportMetric(med(theirs), "ms-inspector-p50")
	b.ReportMetric(med(theirsBare), "ms-inspector-nosidebar-p50")
	b.ReportMetric(med(mine)/med(theirs), "ratio-vs-inspector")
	b.ReportMetric(med(mine)/med(theirsBare), "ratio-vs-inspector-nosidebar")
}

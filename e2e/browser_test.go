package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chromium returns the headless Chromium the tests share, started on first
// use and stopped after the last test; each test opens its own tabs. It
// skips (fails with MCPEEK_REQUIRE_BROWSER=1) when the machine has none.
func chromium(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatal("Chromium is required (MCPEEK_REQUIRE_BROWSER=1) but /usr/bin/chromium is missing: apt-get install chromium")
		}
		t.Skip("needs Chromium (apt-get install chromium) for browser tests")
	}
	shared.once.Do(func() { shared.ctx, shared.stop, shared.err = startChromium(path, false) })
	if shared.err != nil {
		t.Fatalf("start Chromium: %v", shared.err)
	}
	return shared.ctx
}

// isolatedChromium is a second shared headless Chromium that keeps site
// isolation on, as a person's browser does: every site's frames in a
// process of their own. Tests cannot reach into its out-of-process frames,
// so only the benchmarks that measure from outside them use it.
func isolatedChromium(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		t.Skip("needs Chromium (apt-get install chromium)")
	}
	isolated.once.Do(func() { isolated.ctx, isolated.stop, isolated.err = startChromium(path, true) })
	if isolated.err != nil {
		t.Fatalf("start Chromium: %v", isolated.err)
	}
	return isolated.ctx
}

// shared is the one Chromium of the test run: starting one costs about a
// second, and tabs of one browser keep their own state.
var shared, isolated struct {
	once sync.Once
	ctx  context.Context
	err  error
	stop func()
}

func chromiumPath() string {
	if path := os.Getenv("MCPEEK_CHROMIUM"); path != "" {
		return path
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

func startChromium(path string, siteIsolation bool) (context.Context, func(), error) {
	dir, err := os.MkdirTemp("", "mcpeek-e2e-chromium-")
	if err != nil {
		return nil, nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(dir),
	}
	if !siteIsolation {
		// Keep the app's frames in one process so the test can reach into them.
		opts = append(opts, chromedp.Flag("disable-site-isolation-trials", true),
			chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	stop := func() {
		cancelBrowser()
		cancelAlloc()
		_ = os.RemoveAll(dir)
	}
	if err := chromedp.Do(bctx); err != nil {
		stop()
		return nil, nil, err
	}
	return bctx, stop, nil
}

// stopChromium ends the shared Chromium, if a test started it.
func stopChromium() {
	for _, c := range []func(){shared.stop, isolated.stop} {
		if c != nil {
			c()
		}
	}
}

// opener is an --open-with command that writes each URL to a file, which
// the test reads to open the tab in its own browser.
type opener struct {
	file string
	mu   sync.Mutex
	seen int
}

func newOpener(t *testing.T) *opener {
	return &opener{file: filepath.Join(t.TempDir(), "urls")}
}

func (o *opener) flag() string { return fmt.Sprintf(`printf '%%s\n' >> %q`, o.file) }

// next waits for the next URL mcpeek opened: where the kernel shows who
// owns a connection (Linux), a launch URL (http://127.0.0.1:PORT/r/ID),
// which leads to the tab's URL only for a connection of this user's,
// elsewhere the file:// URL of a launch page, which redirects to it. The opener's argv never holds the session's token
// (other local users could read it in /proc).
func (o *opener) next(t *testing.T) string {
	t.Helper()
	u := o.nextArg(t)
	launchURL := regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/r/[A-Za-z0-9_-]{43}$`).MatchString(u)
	if !launchURL && (!strings.HasPrefix(u, "file:///") || strings.ContainsAny(u, "#?")) {
		t.Fatalf("mcpeek ran --open-with with %q, want a launch URL (Linux) or the file:// URL of a launch page, and no token", u)
	}
	return u
}

// nextLink is the tab URL (token included) that the next launch URL or
// page leads to, for tests that play the page themselves.
func (o *opener) nextLink(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(o.next(t))
	if err != nil {
		t.Fatal(err)
	}
	if u.Scheme == "http" {
		hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := hc.Get(u.String())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("the launch URL answered %s, want 303", resp.Status)
		}
		return resp.Header.Get("Location")
	}
	page, err := os.ReadFile(u.Path)
	if err != nil {
		t.Fatalf("read the launch page: %v", err)
	}
	m := regexp.MustCompile(`url=(http://127\.0\.0\.1:[0-9]+/e/[^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("the launch page %q redirects nowhere", page)
	}
	return html.UnescapeString(string(m[1]))
}

// nextArg waits for the next argument mcpeek gave --open-with.
func (o *opener) nextArg(t *testing.T) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		o.mu.Lock()
		f, err := os.Open(o.file)
		if err == nil {
			var lines []string
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			f.Close()
			if len(lines) > o.seen {
				o.seen++
				o.mu.Unlock()
				return lines[o.seen-1]
			}
		}
		o.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("mcpeek opened no tab")
	return ""
}

// tab opens url in a new tab of the browser.
func tab(t *testing.T, browser context.Context, url string) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	return ctx
}

// inApp evaluates JavaScript inside the app's frame (the srcdoc frame
// within the sandbox frame), retrying until it returns true.
func inApp(t *testing.T, ctx context.Context, script string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := evalInApp(ctx, script)
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("in the app, %s never held (last error: %v)", script, last)
}

// evalInApp runs script in an isolated world of the app's frame, which
// shares the app's DOM.
func evalInApp(ctx context.Context, script string) (bool, error) {
	tree, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return false, err
	}
	frame := findFrame(tree.FrameTree, "about:srcdoc")
	if frame == nil {
		return false, fmt.Errorf("no app frame yet")
	}
	world, err := chromedp.Call(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame.ID})
	if err != nil {
		return false, err
	}
	yes := true
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: script, ContextID: world.ExecutionContextID, ReturnByValue: &yes})
	if err != nil {
		return false, err
	}
	if res.ExceptionDetails != nil {
		return false, fmt.Errorf("script: %s", res.ExceptionDetails.Text)
	}
	return res.Result != nil && string(res.Result.Value) == "true", nil
}

func findFrame(tree *page.FrameTree, url string) *cdp.Frame {
	if tree == nil {
		return nil
	}
	if tree.Frame.URL == url {
		return tree.Frame
	}
	for _, c := range tree.ChildFrames {
		if f := findFrame(c, url); f != nil {
			return f
		}
	}
	return nil
}

// click presses a button of the fixture's app once the question is shown.
func click(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	inApp(t, ctx, fmt.Sprintf(`(function(){var b=document.getElementById(%q); if(!b||b.disabled) return false; b.click(); return true})()`, id))
}

// bridgeText reads the bridge page's status line.
func bridgeText(t *testing.T, ctx context.Context, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var text string
	for time.Now().Before(deadline) {
		got, err := chromedp.Run(ctx, chromedp.Text("#status"))
		text = got
		if err == nil && strings.Contains(text, want) {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Errorf("bridge status = %q, want it to contain %q", text, want)
}

// statelessHTTP serves an MCP server over session-less streamable HTTP, as
// a 2026-07-28 server would be, for the test's lifetime.
func statelessHTTP(t *testing.T, server *mcp.Server) *httptest.Server {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	t.Cleanup(srv.Close)
	return srv
}

// appCall runs `mcpeek call TOOL --app-host` in-process, its tabs opened by
// the test: against the embedded fixture, or the server a trailing URL names.
func appCall(ctx context.Context, o *opener, log string, args ...string) chan result {
	done := make(chan result, 1)
	go func() {
		full := []string{"call", args[0], "--app-host", "--open-with", o.flag(), "--elicit-log", log, "--app-init-timeout", "10s"}
		full = append(full, args[1:]...) // later flags win
		done <- inProcess(ctx, full)
	}()
	return done
}

func TestBrowserChooseOption(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	for _, tc := range []struct {
		button, wantAction string
		wantChoice         any
	}{
		{"option-a", "accept", "option-a"},
		{"decline", "decline", nil},
		{"cancel", "cancel", nil},
	} {
		t.Run(tc.button, func(t *testing.T) {
			t.Parallel()
			o := newOpener(t)
			log := filepath.Join(t.TempDir(), "elicit.jsonl")
			done := appCall(context.Background(), o, log, "choose_option")
			page := tab(t, browser, o.next(t))
			bridgeText(t, page, "Answer in the app")
			click(t, page, tc.button)
			r := <-done
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			sc := r.structured(t)
			if sc["action"] != tc.wantAction || sc["choice"] != tc.wantChoice {
				t.Errorf("the server got %v, want %s %v", sc, tc.wantAction, tc.wantChoice)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["path"] != "app" || recs[0]["fallback"] != "" || recs[0]["resourceUri"] != "ui://fixture/choose-option.html" {
				t.Errorf("records = %v, want one on the app path", recs)
			}
			bridgeText(t, page, "You can close this tab")
		})
	}
}

func TestBrowserFallbacks(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	for _, tc := range []struct {
		tool, fallback string
		click          string // a button to press in the app, if it shows one
		opensTab       bool
	}{
		{"app_no_elicitation", "app_no_elicitation", "", true},
		{"app_invalid_action", "invalid_result", "option-a", true},
		{"app_schema_mismatch", "schema_mismatch", "option-a", true},
		{"app_never_initializes", "init_timeout", "", true},
		{"app_missing_resource", "resource_read_failed", "", false},
		{"app_not_html", "resource_not_html", "", false},
		{"app_not_ui_uri", "invalid_resource_uri", "", false},
		{"app_relative_uri", "invalid_resource_uri", "", false},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel()
			o := newOpener(t)
			log := filepath.Join(t.TempDir(), "elicit.jsonl")
			args := []string{tc.tool, "--on-elicit", "decline"}
			if tc.tool == "app_never_initializes" {
				// Long enough for a busy machine's browser to open the tab
				// before the app is given up (the launch page goes with it).
				args = append(args, "--app-init-timeout", "6s")
			}
			done := appCall(context.Background(), o, log, args...)
			if tc.opensTab {
				page := tab(t, browser, o.next(t))
				if tc.click != "" {
					click(t, page, tc.click)
				}
			}
			r := <-done
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if got := r.structured(t)["action"]; got != "decline" {
				t.Errorf("the server got %v, want the native answer (decline)", got)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["path"] != "native" || recs[0]["fallback"] != tc.fallback {
				t.Errorf("records = %v, want native with fallback %s", recs, tc.fallback)
			}
		})
	}
}

// twoChoicesServer asks two questions in one round, each rendered by the
// fixture's app, and checks that each got the option its message names.
func twoChoicesServer() *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension("io.modelcontextprotocol/ui", map[string]any{"elicitation": map[string]any{}})
	s := mcp.NewServer(&mcp.Implementation{Name: "two-choices", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	const uri = "ui://two/choose.html"
	s.AddResource(&mcp.Resource{URI: uri, Name: "choose", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/html;profile=mcp-app", Text: fixture.ChooseOptionHTML()}}}, nil
		})
	schema := json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]}},"required":["choice"]}`)
	want := map[string]string{"first": "option-a", "second": "option-b"}
	s.AddTool(&mcp.Tool{Name: "two_choices", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				irs := mcp.InputRequestMap{}
				for id, choice := range want {
					irs[id] = &mcp.ElicitParams{Message: "Press " + choice, RequestedSchema: schema,
						Meta: mcp.Meta{"ui": map[string]any{"resourceUri": uri}}}
				}
				return &mcp.CallToolResult{InputRequests: irs, RequestState: "two"}, nil
			}
			for id, choice := range want {
				r, _ := req.Params.InputResponses[id].(*mcp.ElicitResult)
				if r == nil || r.Content["choice"] != choice {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("%s got %+v", id, r)}}}, nil
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "both matched"}}}, nil
		})
	return s
}

func TestBrowserTwoTabsAnsweredInReverse(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := statelessHTTP(t, twoChoicesServer())
	o := newOpener(t)
	log := filepath.Join(t.TempDir(), "elicit.jsonl")
	done := appCall(context.Background(), o, log, "two_choices", srv.URL)
	first := tab(t, browser, o.next(t))
	second := tab(t, browser, o.next(t))
	for _, page := range []context.Context{second, first} { // the later tab first
		bridgeText(t, page, "Answer in the app")
		msg, err := chromedp.Run(page, chromedp.Text("#message"))
		if err != nil {
			t.Fatal(err)
		}
		click(t, page, strings.TrimPrefix(msg, "Press "))
	}
	r := <-done
	if r.code != 0 || !strings.Contains(r.stdout, "both matched") {
		t.Fatalf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
	if recs := readRecords(t, log); len(recs) != 2 || recs[0]["path"] != "app" || recs[1]["path"] != "app" {
		t.Errorf("records = %v, want two on the app path", recs)
	}
}

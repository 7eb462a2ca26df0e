package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rewriting sends what handler writes with each old string replaced by its
// new one: a stand-in for servers written with other SDKs, which write
// requests the Go SDK would not.
func rewriting(handler http.Handler, oldNew ...string) http.Handler {
	r := strings.NewReplacer(oldNew...)
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		handler.ServeHTTP(&rewriter{ResponseWriter: w, r: r}, req)
	})
}

type rewriter struct {
	http.ResponseWriter
	r *strings.Replacer
}

func (w *rewriter) WriteHeader(code int) {
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(code)
}

func (w *rewriter) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write([]byte(w.r.Replace(string(b)))); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (w *rewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// TestBrowserSDKAppGetsTheServersBytes: a server that omits mode (legal:
// omitted means form) and sends a member the Go SDK does not know, with its
// properties out of alphabetical order, is answered by an app built with
// the official Apps SDK, on the app path; the app received the request
// exactly as the server wrote it.
func TestBrowserSDKAppGetsTheServersBytes(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	// The app notes the raw params of the request it is sent, before the
	// SDK reads them, and answers with that note in the free-text field.
	const prelude = `window.addEventListener("message", (e) => {
  if (e.data && e.data.method === "elicitation/create") window.rawParams = e.data.params;
});
window.extraContent = () => {
  const p = window.rawParams || {};
  return { aside: JSON.stringify({ mode: "mode" in p ? p.mode : "absent", vendor: p["x-vendor"],
    order: Object.keys((p.requestedSchema || {}).properties || {}) }) };
};
`
	server := sdkAppServer(sdkAppHTMLWith(t, extAppsBundle(t), prelude))
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(rewriting(handler,
		`"mode":"form",`, ``,
		`"properties":{"choice":{"type":"string","enum":["sdk-a","sdk-b"]}}`, `"properties":{"choice":{"type":"string","enum":["sdk-a","sdk-b"]},"aside":{"type":"string"}}`,
		`"method":"elicitation/create","params":{`, `"method":"elicitation/create","params":{"x-vendor":{"kept":true},`,
	))
	t.Cleanup(srv.Close)
	o := newOpener(t)
	log := filepath.Join(t.TempDir(), "elicit.jsonl")
	wire := filepath.Join(t.TempDir(), "wire.jsonl")
	done := appCall(context.Background(), o, log, "sdk_choose", "--app-init-timeout", "20s", "--wire-log", wire, srv.URL)
	tab(t, browser, o.next(t))
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(wire)
			t.Logf("wire log:\n%s", b)
		}
	}()
	r := <-done
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	const seen = `{\"mode\":\"absent\",\"vendor\":{\"kept\":true},\"order\":[\"choice\",\"aside\"]}`
	if !strings.Contains(r.stdout, `\"choice\":\"sdk-a\"`) || !strings.Contains(r.stdout, strings.ReplaceAll(seen, `\"`, `\\\"`)) {
		t.Errorf("the SDK app's answer, with what it saw of the request, did not reach the server; want it to have seen %s:\n%s", seen, r.stdout)
	}
	recs := readRecords(t, log)
	if len(recs) != 1 || recs[0]["path"] != "app" || recs[0]["fallback"] != "" || recs[0]["mode"] != "form" {
		t.Errorf("records = %v, want one form elicitation answered on the app path", recs)
	}
}

// TestBrowserNoBrowserTabOpenedLate: with --no-browser (as over SSH) the
// person opens the printed URL by hand, perhaps only after setting up a
// tunnel. A tab opened well after --app-init-timeout still gets the app,
// because the init time starts when the tab connects.
func TestBrowserNoBrowserTabOpenedLate(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	log := filepath.Join(t.TempDir(), "elicit.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const initTimeout = 3 * time.Second
	cmd := exec.CommandContext(ctx, mcpeekBin, "call", "choose_option", "--app-host", "--no-browser",
		"--app-init-timeout", initTimeout.String(), "--on-elicit", "decline", "--elicit-log", log)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	var lines []string
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/e/\S+#\S+`).FindString(sc.Text()); u != "" {
				urls <- u
			}
		}
	}()
	var link string
	select {
	case link = <-urls:
	case <-ctx.Done():
		t.Fatal("no URL was printed")
	}
	// The tab is opened only once the init time has run out since the URL
	// was printed: had it started then, mcpeek would have fallen back to
	// the native answer by now and ended (its stderr closing).
	select {
	case <-scanned:
		t.Fatalf("mcpeek ended before the tab was opened:\n%s", strings.Join(lines, "\n"))
	case <-time.After(initTimeout + time.Second):
	}
	page := tab(t, browser, link)
	click(t, page, "option-a")
	err = cmd.Wait()
	<-scanned
	if err != nil {
		t.Fatalf("mcpeek: %v\n%s", err, strings.Join(lines, "\n"))
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "option-a") {
		t.Errorf("result %s, want option-a chosen in the app", stdout.String())
	}
	recs := readRecords(t, log)
	if len(recs) != 1 || recs[0]["path"] != "app" {
		t.Errorf("records = %v, want the question answered in the app", recs)
	}
}

// spamApp posts the sandbox's own notification many times before it
// starts, then answers the request with the first option.
const spamApp = `<!doctype html><html><body><script>
function post(m) { window.parent.postMessage(m, "*"); }
for (let i = 0; i < 50; i++) post({jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {}});
window.addEventListener("message", function (e) {
  if (e.source !== window.parent) return;
  var m = e.data;
  if (m.id === 1 && m.result) { post({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}}); return; }
  if (m.method === "elicitation/create") { post({jsonrpc: "2.0", id: m.id, result: {action: "accept", content: {choice: "sdk-a"}}}); return; }
  if (m.method && m.id !== undefined) post({jsonrpc: "2.0", id: m.id, result: {}});
});
post({jsonrpc: "2.0", id: 1, method: "ui/initialize", params: {protocolVersion: "2026-01-26", appInfo: {name: "spam", version: "1"}, appCapabilities: {elicitation: {}}}});
</script></body></html>`

// TestBrowserSandboxKeepsItsOwnWord: the sandbox-* notifications are the
// sandbox page's own word to mcpeek; an app posting them is not relayed
// (mcpeek would otherwise note each one it ignores), and it is answered as
// usual.
func TestBrowserSandboxKeepsItsOwnWord(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := statelessHTTP(t, sdkAppServer(spamApp))
	o := newOpener(t)
	dir := t.TempDir()
	log, wire := filepath.Join(dir, "elicit.jsonl"), filepath.Join(dir, "wire.jsonl")
	done := appCall(context.Background(), o, log, "sdk_choose", "--wire-log", wire, srv.URL)
	tab(t, browser, o.next(t))
	r := <-done
	if r.code != 0 || !strings.Contains(r.stdout, `\"choice\":\"sdk-a\"`) {
		t.Fatalf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
	}
	if recs := readRecords(t, log); len(recs) != 1 || recs[0]["path"] != "app" {
		t.Errorf("records = %v, want the question answered in the app", recs)
	}
	b, err := os.ReadFile(wire)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "ignored a repeated ui/notifications/sandbox-proxy-ready"); n != 0 {
		t.Errorf("the app's sandbox-proxy-ready reached mcpeek %d times", n)
	}
}

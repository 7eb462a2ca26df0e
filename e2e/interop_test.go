package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// extAppsVersion is the pinned official MCP Apps SDK the interop test
// builds its app with.
const extAppsVersion = "2.0.4"

// extAppsBundle returns the SDK's self-contained browser bundle
// (app-with-deps.js): from $MCPEEK_EXT_APPS (a node_modules/@modelcontextprotocol/ext-apps
// folder, as CI provides), else installed with npm into the user cache.
func extAppsBundle(t testing.TB) string {
	t.Helper()
	dir := npmPackage(t, "MCPEEK_EXT_APPS", "@modelcontextprotocol/ext-apps", extAppsVersion, filepath.Join("dist", "src", "app-with-deps.js"))
	b, err := os.ReadFile(filepath.Join(dir, "dist", "src", "app-with-deps.js"))
	if err != nil {
		t.Fatalf("the MCP Apps SDK bundle: %v", err)
	}
	return string(b)
}

// npmInstalls orders the tests' installs of npm packages.
var npmInstalls sync.Mutex

// npmPackage is the folder of a pinned npm package: $env when set (CI
// sets it), else the package installed with npm into the user cache once
// (probe, a file in it, says whether it is there). Without npm the test
// skips, or fails under MCPEEK_REQUIRE_BROWSER=1.
func npmPackage(t testing.TB, env, pkg, version, probe string) string {
	t.Helper()
	if dir := os.Getenv(env); dir != "" {
		return dir
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("%s is required (MCPEEK_REQUIRE_BROWSER=1) but neither $%s nor npm is available", pkg, env)
		}
		t.Skipf("needs npm to install %s, or $%s", pkg, env)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	prefix := filepath.Join(cache, "mcpeek-test", "npm")
	dir := filepath.Join(prefix, "node_modules", filepath.FromSlash(pkg))
	npmInstalls.Lock() // tests side by side install into one prefix, one at a time
	defer npmInstalls.Unlock()
	if _, err := os.Stat(filepath.Join(dir, probe)); err != nil {
		out, err := exec.Command(npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error",
			pkg+"@"+version).CombinedOutput()
		if err != nil {
			t.Fatalf("npm install %s@%s: %v\n%s", pkg, version, err, out)
		}
	}
	return dir
}

// sdkAppHTML is an MCP App built with the official SDK: the ES module
// bundle inlined (its export clause turned into local names), an App that
// declares elicitation support, and a handler for elicitation/create that
// accepts the first option of the requested enum.
func sdkAppHTML(t *testing.T, bundle string) string {
	t.Helper()
	return sdkAppHTMLWith(t, bundle, "")
}

// sdkAppHTMLWith is [sdkAppHTML] with a script of the test's own run
// before the SDK connects.
func sdkAppHTMLWith(t *testing.T, bundle, prelude string) string {
	t.Helper()
	return sdkPage(t, bundle, prelude, `
const app = new App({ name: "interop-app", version: "1.0.0" }, { elicitation: {} });
app.setRequestHandler("elicitation/create", async (request) => {
  const params = request.params || request;
  const schema = params.requestedSchema || {};
  const choice = schema.properties.choice.enum[0];
  document.getElementById("status").textContent = "answered " + choice;
  const content = window.extraContent ? Object.assign({ choice }, window.extraContent()) : { choice };
  return { action: "accept", content };
});
app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => { document.getElementById("status").textContent = "connected"; },
  (err) => { document.getElementById("status").textContent = "failed: " + err; });
`)
}

// sdkPage is an app page built on the official SDK: the ES module bundle
// inlined, its export clause turned into the local names App and
// PostMessageTransport, then script; prelude runs before the bundle.
func sdkPage(t testing.TB, bundle, prelude, script string) string {
	t.Helper()
	exports := regexp.MustCompile(`export\s*\{([^}]*)\}\s*;?\s*(//[^\n]*)?\s*$`)
	m := exports.FindStringSubmatchIndex(bundle)
	if m == nil {
		t.Fatal("the SDK bundle has no export clause where expected")
	}
	names := map[string]string{}
	for _, part := range strings.Split(bundle[m[2]:m[3]], ",") {
		local, exported, ok := strings.Cut(strings.TrimSpace(part), " as ")
		if !ok {
			local, exported = strings.TrimSpace(part), strings.TrimSpace(part)
		}
		names[strings.TrimSpace(exported)] = strings.TrimSpace(local)
	}
	if names["App"] == "" || names["PostMessageTransport"] == "" {
		t.Fatalf("the SDK bundle exports no App or PostMessageTransport")
	}
	code := prelude + bundle[:m[0]] + fmt.Sprintf("\nconst App = %s, PostMessageTransport = %s;\n", names["App"], names["PostMessageTransport"]) + script
	code = strings.ReplaceAll(code, "</script", `<\/script`)
	return `<!doctype html><html><body><p id="status">starting</p><script type="module">` + code + `</script></body></html>`
}

// sdkAppServer serves one tool that asks, through the SDK-built app, to
// choose between two options.
func sdkAppServer(html string) *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension("io.modelcontextprotocol/ui", map[string]any{"elicitation": map[string]any{}})
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk-app-server", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
	const uri = "ui://interop/sdk-app.html"
	s.AddResource(&mcp.Resource{URI: uri, Name: "sdk-app", MIMEType: "text/html;profile=mcp-app"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/html;profile=mcp-app", Text: html}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "sdk_choose", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"choose": &mcp.ElicitParams{
					Message:         "Choose through the SDK app.",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["sdk-a","sdk-b"]}},"required":["choice"]}`),
					Meta:            mcp.Meta{"ui": map[string]any{"resourceUri": uri}},
				}}, RequestState: "sdk"}, nil
			}
			r, _ := req.Params.InputResponses["choose"].(*mcp.ElicitResult)
			b, _ := json.Marshal(r)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
		})
	return s
}

func TestBrowserInteropWithTheAppsSDK(t *testing.T) {
	t.Parallel()
	browser := chromium(t)
	srv := statelessHTTP(t, sdkAppServer(sdkAppHTML(t, extAppsBundle(t))))
	o := newOpener(t)
	log := filepath.Join(t.TempDir(), "elicit.jsonl")
	done := appCall(context.Background(), o, log, "sdk_choose", "--app-init-timeout", "20s", srv.URL)
	page := tab(t, browser, o.next(t))
	r := <-done
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, `{\"action\":\"accept\",\"content\":{\"choice\":\"sdk-a\"}}`) {
		t.Errorf("the server did not get the SDK app's answer:\n%s", r.stdout)
	}
	recs := readRecords(t, log)
	if len(recs) != 1 || recs[0]["path"] != "app" || recs[0]["fallback"] != "" {
		t.Errorf("records = %v, want one answered on the app path", recs)
	}
	bridgeText(t, page, "You can close this tab")
}

package proxy

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// appResource answers the app script's resources/read: an app at
// ui://script/app.html, an error for any other URI.
func appResource(m rpc, send func(any)) {
	if string(getPath(m.Params, "uri")) != `"ui://script/app.html"` {
		send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "error": map[string]any{"code": -32002, "message": "no such resource"}})
		return
	}
	send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"contents": []any{map[string]any{
		"uri": "ui://script/app.html", "mimeType": mcpclient.AppMIMEType, "text": "<p>the app</p>"}}}})
}

// fakeApps is an app host whose apps answer with answer, once read.
type fakeApps struct {
	answer string
	mu     sync.Mutex
	shown  []string // the HTML of each app read
}

func (f *fakeApps) Render(ctx context.Context, req *mcpclient.AppRequest) (*mcpclient.AppAnswer, error) {
	c, err := req.Content(ctx)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.shown = append(f.shown, c.HTML)
	f.mu.Unlock()
	return &mcpclient.AppAnswer{Result: json.RawMessage(f.answer)}, nil
}

// A question that names an app is answered in it: the server is told
// the host renders apps' elicitations, the app is read by a request of
// the proxy's that the host never sees, and the host gets the result.
func TestAnswerInTheServersApp(t *testing.T) {
	t.Parallel()
	apps := &fakeApps{answer: `{"action":"accept","content":{"choice":"a"}}`}
	h := startProxy(t, "app", Options{Answer: AnswerMissing, Apps: apps, Askers: []NamedAsker{{"the test", choiceAsker("b")}}})
	init := h.initialize(`{"roots":{}}`)
	want := `{"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"],"elicitation":{}}},"elicitation":{"form":{},"url":{}},"roots":{}}`
	if got := string(getPath(init.Result, "instructions")); got != mustString(t, want) {
		t.Errorf("the server was told the host advertises %s", got)
	}
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{"app":"ui://script/app.html"}}}`)
	res := h.next()
	if string(res.ID) != "1" || !strings.Contains(string(res.Result), `\"choice\":\"a\"`) {
		t.Errorf("the host got %s %s, want the call's result with the app's answer", res.ID, res.Result)
	}
	if rest := h.end(); rest != "" {
		t.Errorf("the host got more: %s", rest)
	}
	if len(apps.shown) != 1 || apps.shown[0] != "<p>the app</p>" {
		t.Errorf("the app host was shown %q", apps.shown)
	}
	if !strings.Contains(h.errOut.String(), "itself (by the server's app (--app-host)): accept") {
		t.Errorf("stderr does not say the app answered:\n%s", h.errOut.String())
	}
	if w := h.wire.String(); !strings.Contains(w, `"method":"resources/read"`) || strings.Contains(w, "which the proxy did not ask") {
		t.Errorf("the wire log does not pair the proxy's resources/read:\n%s", w)
	}
}

// An app that cannot answer (it is missing, or answers off the schema)
// hands the question to the next asker, and stderr says why; a question
// that names no app never reaches the app host.
func TestAnswerAppFallsBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, script, app, answer, why string }{
		{"missing", "app", `"ui://script/missing.html"`, `{"action":"accept","content":{"choice":"a"}}`, "the app resource could not be read from the server: resources/read ui://script/missing.html: -32002 no such resource"},
		{"off the schema", "app", `"ui://script/app.html"`, `{"action":"accept","content":{"choice":"z"}}`, "the app's answer does not match the requested schema"},
		{"not a ui URI", "app", `"https://example.com/app.html"`, `{"action":"accept","content":{"choice":"a"}}`, "the request's app URI is not an absolute ui:// URI"},
		{"no app", "legacy", `""`, `{"action":"accept","content":{"choice":"a"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			apps := &fakeApps{answer: tc.answer}
			h := startProxy(t, tc.script, Options{Answer: AnswerMissing, Apps: apps, Askers: []NamedAsker{{"the test", choiceAsker("b")}}})
			h.initialize(`{}`)
			h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{"app":` + tc.app + `}}}`)
			if res := h.next(); !strings.Contains(string(res.Result), `\"choice\":\"b\"`) {
				t.Errorf("the host got %s %s, want the next asker's answer", res.Result, res.Error)
			}
			h.end()
			said := h.errOut.String()
			if tc.why == "" {
				if len(apps.shown) != 0 || strings.Contains(said, "could not answer") {
					t.Errorf("a question without an app went to the app host: %q\n%s", apps.shown, said)
				}
				return
			}
			if !strings.Contains(said, "the server's app (--app-host) could not answer") || !strings.Contains(said, tc.why) {
				t.Errorf("stderr does not say why the app did not answer (%s):\n%s", tc.why, said)
			}
		})
	}
}

// A question that names no app was not the app host's to answer: when
// nobody answers it, stderr names only those asked.
func TestAnswerNoAppIsNotAsked(t *testing.T) {
	t.Parallel()
	h := startProxy(t, "legacy", Options{Answer: AnswerMissing, Apps: &fakeApps{}, Askers: []NamedAsker{{"the watcher", nobody}}, OnElicit: mcpclient.PolicyDecline})
	h.initialize(`{}`)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"pick","arguments":{}}}`)
	if res := h.next(); !strings.Contains(string(res.Result), `\"action\":\"decline\"`) {
		t.Errorf("the host got %s", res.Result)
	}
	h.end()
	if said := h.errOut.String(); !strings.Contains(said, `"Pick one" (asked the watcher): --on-elicit decline`) {
		t.Errorf("stderr:\n%s", said)
	}
}

// With --app-host the proxy claims app-rendered elicitation where the
// host's capabilities do not, adding only what they lack.
func TestAnswerAdvertisesApps(t *testing.T) {
	t.Parallel()
	a := newAnswerer(context.Background(), Options{Apps: &fakeApps{}, Wire: mcpclient.NewWireLog(0, nil), ErrOut: io.Discard}, nil, nil, nil)
	ui := `"io.modelcontextprotocol/ui"`
	for _, tc := range []struct{ caps, want string }{
		{`{}`, `{"extensions":{` + ui + `:{"mimeTypes":["text/html;profile=mcp-app"],"elicitation":{}}}}`},
		{`{"extensions":{"x":{}}}`, `{"extensions":{` + ui + `:{"mimeTypes":["text/html;profile=mcp-app"],"elicitation":{}},"x":{}}}`},
		{`{"extensions":{` + ui + `:{"mimeTypes":["text/html;profile=mcp-app"]}}}`, `{"extensions":{` + ui + `:{"elicitation":{},"mimeTypes":["text/html;profile=mcp-app"]}}}`},
		{`{"extensions":{` + ui + `:{"mimeTypes":["text/html;profile=mcp-app"],"elicitation":{}}}}`, `{"extensions":{` + ui + `:{"mimeTypes":["text/html;profile=mcp-app"],"elicitation":{}}}}`},
	} {
		got := string(a.withApps([]byte(`{"params":{"capabilities":`+tc.caps+`}}`), "params", "capabilities"))
		if want := `{"params":{"capabilities":` + tc.want + `}}`; got != want {
			t.Errorf("%s became\n%s, want\n%s", tc.caps, got, want)
		}
	}
	none := newAnswerer(context.Background(), Options{Wire: mcpclient.NewWireLog(0, nil)}, nil, nil, nil)
	if got := string(none.withApps([]byte(`{"c":{}}`), "c")); got != `{"c":{}}` {
		t.Errorf("without an app host: %s", got)
	}
}

func mustString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A request of the proxy's own over a 2026-07-28 host's headers names
// its own method and target, and none of the host's parameters.
func TestOwnHeaderNamesTheProxysRequest(t *testing.T) {
	t.Parallel()
	host := http.Header{"Mcp-Method": {"tools/call"}, "Mcp-Name": {"pick"}, "Mcp-Param-Region": {"eu"}, "Mcp-Protocol-Version": {"2026-07-28"}}
	got := ownHeader(host, []byte(`{"jsonrpc":"2.0","id":"mcpeek-proxy-1","method":"resources/read","params":{"uri":"ui://app/é.html"}}`))
	if got.Get("Mcp-Method") != "resources/read" || got.Get("Mcp-Name") != "=?base64?dWk6Ly9hcHAvw6kuaHRtbA==?=" || got.Get("Mcp-Param-Region") != "" ||
		got.Get("Mcp-Protocol-Version") != "2026-07-28" || host.Get("Mcp-Method") != "tools/call" {
		t.Errorf("the proxy's request carries %v (the host's became %v)", got, host)
	}
	legacy := http.Header{"Mcp-Session-Id": {"s"}}
	if got := ownHeader(legacy, []byte(`{"method":"resources/read","params":{"uri":"ui://app/a.html"}}`)); len(got) != 1 || got.Get("Mcp-Session-Id") != "s" {
		t.Errorf("a 2025-11-25 host's headers became %v", got)
	}
	if got := headerValue("ui://app/a.html"); got != "ui://app/a.html" {
		t.Errorf("a plain URI became %q", got)
	}
}

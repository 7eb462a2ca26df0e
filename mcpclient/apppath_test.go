package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeRenderer plays the app: it answers through answer, and records every
// request it was given.
type fakeRenderer struct {
	answer func(ctx context.Context, req *AppRequest) (*AppAnswer, error)

	mu    sync.Mutex
	seen  []*AppRequest
	ended atomic.Int32 // renders that returned because their context ended
}

func (f *fakeRenderer) Render(ctx context.Context, req *AppRequest) (*AppAnswer, error) {
	// Like a real renderer, read the app first; keep what was read on the
	// request seen, for the tests to inspect.
	content, err := req.Content(ctx)
	if err != nil {
		return nil, err
	}
	seen := *req
	seen.Load = nil
	seen.HTML, seen.MIMEType, seen.CSP, seen.Permissions = content.HTML, content.MIMEType, content.CSP, content.Permissions
	req = &seen
	f.mu.Lock()
	f.seen = append(f.seen, req)
	f.mu.Unlock()
	if f.answer == nil {
		return answerRaw(`{"action":"accept","content":{"choice":"option-a"}}`), nil
	}
	ans, err := f.answer(ctx, req)
	if ctx.Err() != nil {
		f.ended.Add(1)
	}
	return ans, err
}

func (f *fakeRenderer) requests() []*AppRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*AppRequest(nil), f.seen...)
}

func answerRaw(s string) *AppAnswer {
	return &AppAnswer{Result: json.RawMessage(s), InitTime: 5 * time.Millisecond}
}

// countingAsker is the native path: it records each request and answers
// accept with the given content.
type countingAsker struct {
	mu      sync.Mutex
	got     []*NativeRequest
	content map[string]any
}

func (a *countingAsker) Ask(_ context.Context, req *NativeRequest) (*mcp.ElicitResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.got = append(a.got, req)
	return &mcp.ElicitResult{Action: "accept", Content: a.content}, nil
}

func (a *countingAsker) calls() []*NativeRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*NativeRequest(nil), a.got...)
}

const appHTML = `<!doctype html><html data-app="%s"><body>app</body></html>`

// gateServer is a server whose tool "ask" elicits choose-option style with
// whatever _meta the call's arguments say, MRTR-style so that both eras
// work. It reports what came back as JSON text: {"action","content"}.
func gateServer(uiExtension bool) func() *mcp.Server {
	return func() *mcp.Server {
		caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		if uiExtension {
			caps.AddExtension(UIExtension, map[string]any{"elicitation": map[string]any{}})
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "gates", Title: "Gate test", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
		// A request the client never answers (a failed test) must not hold
		// the server's close, and with it the test's cleanup, for ever.
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
				defer cancel()
				return next(ctx, method, req)
			}
		})
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 {
					var args struct {
						Meta   mcp.Meta        `json:"meta"`
						Schema json.RawMessage `json:"schema"`
					}
					_ = json.Unmarshal(req.Params.Arguments, &args)
					schema := args.Schema
					if schema == nil {
						schema = choiceSchema
					}
					return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
						"q": &mcp.ElicitParams{Message: "Pick one", RequestedSchema: schema, Meta: args.Meta},
					}, RequestState: "state-1"}, nil
				}
				if req.Params.RequestState != "state-1" {
					return nil, fmt.Errorf("requestState came back as %q", req.Params.RequestState)
				}
				b, _ := json.Marshal(req.Params.InputResponses["q"])
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
			})
		addApp := func(uri, mimeType string, contentCSP, listedCSP map[string]any) {
			var listMeta mcp.Meta
			if listedCSP != nil {
				listMeta = mcp.Meta{"ui": map[string]any{"csp": listedCSP}}
			}
			s.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: mimeType, Meta: listMeta},
				func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					var meta mcp.Meta
					if contentCSP != nil {
						meta = mcp.Meta{"ui": map[string]any{"csp": contentCSP}}
					}
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
						{URI: uri, MIMEType: mimeType, Text: fmt.Sprintf(appHTML, uri), Meta: meta},
					}}, nil
				})
		}
		addApp("ui://test/app.html", AppMIMEType,
			map[string]any{"connectDomains": []any{"https://content.example"}},
			map[string]any{"connectDomains": []any{"https://listing.example"}})
		addApp("ui://test/listed-csp.html", AppMIMEType, nil, map[string]any{"resourceDomains": []any{"https://cdn.example"}})
		addApp("ui://test/plain-html.html", "text/html", nil, nil)
		addApp("ui://test/text.txt", "text/plain", nil, nil)
		return s
	}
}

func uiMeta(uri any) map[string]any { return map[string]any{"ui": map[string]any{"resourceUri": uri}} }

type outcome struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

// ask calls the gate server's tool and returns what the server received.
func ask(t *testing.T, conn *Conn, args map[string]any) outcome {
	t.Helper()
	b, _ := json.Marshal(args)
	res, err := conn.Call(context.Background(), "ask", b)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("tool error: %v", res.Content)
	}
	var o outcome
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &o); err != nil {
		t.Fatal(err)
	}
	return o
}

var protocols = []string{"legacy", "modern"}

type setup struct {
	uiExtension bool
	form        bool
	renderer    *fakeRenderer // nil: no app host
}

func connectGate(t *testing.T, protocol string, s setup, asker NativeAsker) (*Conn, *Recorder) {
	t.Helper()
	records := NewRecorder(nil)
	cfg := Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: gateServer(s.uiExtension)},
		Protocol:     protocol,
		Capabilities: CapabilityOptions{FormElicitation: s.form},
		Asker:        asker,
		Records:      records,
	}
	if s.renderer != nil {
		cfg.Renderer = s.renderer
	}
	conn, err := Connect(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn, records
}

func TestGatesRouteEachRequest(t *testing.T) {
	good := uiMeta("ui://test/app.html")
	for _, protocol := range protocols {
		for _, tc := range []struct {
			name         string
			setup        setup
			meta         map[string]any
			wantPath     Path
			wantFallback FallbackReason
		}{
			{"all four hold", setup{true, true, &fakeRenderer{}}, good, PathApp, FallbackNone},
			{"no app host: the nested capability is not advertised", setup{true, true, nil}, good, PathNative, FallbackAppHostOff},
			{"server did not negotiate", setup{false, true, &fakeRenderer{}}, good, PathNative, FallbackServerNotNegotiated},
			{"no resource URI", setup{true, true, &fakeRenderer{}}, nil, PathNative, FallbackNoResourceURI},
			{"ui without resourceUri", setup{true, true, &fakeRenderer{}}, map[string]any{"ui": map[string]any{}}, PathNative, FallbackNoResourceURI},
			{"resourceUri not a string", setup{true, true, &fakeRenderer{}}, uiMeta(42), PathNative, FallbackInvalidResourceURI},
			{"relative", setup{true, true, &fakeRenderer{}}, uiMeta("app.html"), PathNative, FallbackInvalidResourceURI},
			{"not ui:", setup{true, true, &fakeRenderer{}}, uiMeta("https://example.com/app.html"), PathNative, FallbackInvalidResourceURI},
			{"empty host", setup{true, true, &fakeRenderer{}}, uiMeta("ui:///x"), PathNative, FallbackInvalidResourceURI},
			{"opaque", setup{true, true, &fakeRenderer{}}, uiMeta("ui:x"), PathNative, FallbackInvalidResourceURI},
			{"whitespace", setup{true, true, &fakeRenderer{}}, uiMeta("ui://test/app.html "), PathNative, FallbackInvalidResourceURI},
		} {
			t.Run(protocol+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				native := &countingAsker{content: map[string]any{"choice": "option-b"}}
				conn, records := connectGate(t, protocol, tc.setup, native)
				got := ask(t, conn, map[string]any{"meta": tc.meta})
				recs := records.Records()
				if len(recs) != 1 || recs[0].Path != tc.wantPath || recs[0].Fallback != tc.wantFallback {
					t.Fatalf("records = %+v, want path %s fallback %q", recs, tc.wantPath, tc.wantFallback)
				}
				if s, ok := asObject(tc.meta["ui"])["resourceUri"].(string); ok && recs[0].ResourceURI != s {
					t.Errorf("record resourceUri = %q, want %q", recs[0].ResourceURI, s)
				}
				calls := native.calls()
				if tc.wantPath == PathApp {
					if len(calls) != 0 || got.Content["choice"] != "option-a" {
						t.Errorf("app path: native asked %d times, server got %+v", len(calls), got)
					}
					if recs[0].AppInitMs != 5 {
						t.Errorf("appInitMs = %d, want the renderer's 5", recs[0].AppInitMs)
					}
					return
				}
				if len(calls) != 1 || calls[0].Fallback != tc.wantFallback || got.Content["choice"] != "option-b" {
					t.Fatalf("native asked %d times (want once, with reason %q); server got %+v", len(calls), tc.wantFallback, got)
				}
				if tc.wantFallback == FallbackInvalidResourceURI {
					raw, _ := json.Marshal(asObject(tc.meta["ui"])["resourceUri"])
					if !wireHas(conn, string(raw)) {
						t.Errorf("the offending resourceUri %s was not logged", raw)
					}
				}
			})
		}
	}
}

func wireHas(conn *Conn, text string) bool {
	for _, e := range conn.Wire().Entries() {
		if e.Dir == DirNote && strings.Contains(e.Text, text) {
			return true
		}
	}
	return false
}

func TestEveryFallbackReason(t *testing.T) {
	appErr := func(r FallbackReason) func(context.Context, *AppRequest) (*AppAnswer, error) {
		return func(context.Context, *AppRequest) (*AppAnswer, error) {
			return nil, &AppError{Reason: r, Err: errors.New("simulated")}
		}
	}
	raw := func(s string) func(context.Context, *AppRequest) (*AppAnswer, error) {
		return func(context.Context, *AppRequest) (*AppAnswer, error) { return answerRaw(s), nil }
	}
	emailSchema := json.RawMessage(`{"type":"object","properties":{"email":{"type":"string","format":"email"}},"required":["email"]}`)
	for _, protocol := range protocols {
		for _, tc := range []struct {
			name   string
			uri    string
			schema json.RawMessage
			answer func(context.Context, *AppRequest) (*AppAnswer, error)
			want   FallbackReason
		}{
			{"resource missing", "ui://test/missing.html", nil, nil, FallbackResourceReadFailed},
			{"resource not html", "ui://test/text.txt", nil, nil, FallbackResourceNotHTML},
			{"renderer failed untyped", "ui://test/app.html", nil, func(context.Context, *AppRequest) (*AppAnswer, error) {
				return nil, errors.New("no browser")
			}, FallbackBridgeUnavailable},
			{"bridge unavailable", "ui://test/app.html", nil, appErr(FallbackBridgeUnavailable), FallbackBridgeUnavailable},
			{"init timeout", "ui://test/app.html", nil, appErr(FallbackInitTimeout), FallbackInitTimeout},
			{"app without elicitation", "ui://test/app.html", nil, appErr(FallbackAppNoElicitation), FallbackAppNoElicitation},
			{"bridge closed", "ui://test/app.html", nil, appErr(FallbackBridgeClosed), FallbackBridgeClosed},
			{"answer timeout", "ui://test/app.html", nil, appErr(FallbackAnswerTimeout), FallbackAnswerTimeout},
			{"unknown action", "ui://test/app.html", nil, raw(`{"action":"maybe"}`), FallbackInvalidResult},
			{"no action", "ui://test/app.html", nil, raw(`{"content":{"choice":"option-a"}}`), FallbackInvalidResult},
			{"not JSON", "ui://test/app.html", nil, raw(`nonsense`), FallbackInvalidResult},
			{"accept without content", "ui://test/app.html", nil, raw(`{"action":"accept"}`), FallbackInvalidResult},
			{"accept with array content", "ui://test/app.html", nil, raw(`{"action":"accept","content":["option-a"]}`), FallbackInvalidResult},
			{"no answer at all", "ui://test/app.html", nil, func(context.Context, *AppRequest) (*AppAnswer, error) { return nil, nil }, FallbackInvalidResult},
			{"content outside the enum", "ui://test/app.html", nil, raw(`{"action":"accept","content":{"choice":"option-z"}}`), FallbackSchemaMismatch},
			{"content missing a required field", "ui://test/app.html", nil, raw(`{"action":"accept","content":{}}`), FallbackSchemaMismatch},
			{"content failing a format", "ui://test/app.html", emailSchema, raw(`{"action":"accept","content":{"email":"not-an-email"}}`), FallbackSchemaMismatch},
		} {
			t.Run(protocol+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				native := &countingAsker{content: map[string]any{"choice": "option-b"}}
				if tc.schema != nil {
					native.content = map[string]any{"email": "a@example.com"}
				}
				conn, records := connectGate(t, protocol, setup{true, true, &fakeRenderer{answer: tc.answer}}, native)
				meta := uiMeta(tc.uri)
				args := map[string]any{"meta": meta}
				if tc.schema != nil {
					args["schema"] = tc.schema
				}
				got := ask(t, conn, args)
				calls := native.calls()
				if len(calls) != 1 {
					t.Fatalf("native asked %d times, want once", len(calls))
				}
				if calls[0].Fallback != tc.want || calls[0].Params.Message != "Pick one" ||
					fmt.Sprint(calls[0].Params.Meta["ui"]) != fmt.Sprint(meta["ui"]) {
					t.Errorf("native got reason %q and params %+v; want %q and the original params", calls[0].Fallback, calls[0].Params, tc.want)
				}
				if got.Action != "accept" || len(got.Content) == 0 {
					t.Errorf("server got %+v, want the native answer", got)
				}
				if recs := records.Records(); len(recs) != 1 || recs[0].Fallback != tc.want || recs[0].Path != PathNative || recs[0].ResourceURI != tc.uri {
					t.Errorf("records = %+v", recs)
				}
			})
		}
	}
}

func TestAppAnswersReachTheServerUnchanged(t *testing.T) {
	for _, protocol := range protocols {
		for _, tc := range []struct{ name, answer, wantAction, wantContent string }{
			{"decline", `{"action":"decline"}`, "decline", "null"},
			{"cancel", `{"action":"cancel"}`, "cancel", "null"},
			{"accept", `{"action":"accept","content":{"choice":"option-b"}}`, "accept", `{"choice":"option-b"}`},
			{"accept with extra fields of the form", `{"action":"accept","content":{"choice":"option-a","note":"fine","n":3.5}}`, "accept",
				`{"choice":"option-a","n":3.5,"note":"fine"}`},
		} {
			t.Run(protocol+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				schema := json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]},"note":{"type":"string"},"n":{"type":"number"}},"required":["choice"]}`)
				native := &countingAsker{}
				r := &fakeRenderer{answer: func(context.Context, *AppRequest) (*AppAnswer, error) { return answerRaw(tc.answer), nil }}
				conn, records := connectGate(t, protocol, setup{true, true, r}, native)
				got := ask(t, conn, map[string]any{"meta": uiMeta("ui://test/app.html"), "schema": schema})
				content, _ := json.Marshal(got.Content)
				if got.Action != tc.wantAction || string(content) != tc.wantContent {
					t.Errorf("server got %s %s, want %s %s", got.Action, content, tc.wantAction, tc.wantContent)
				}
				if n := len(native.calls()); n != 0 {
					t.Errorf("the native form was asked %d times after a valid app answer", n)
				}
				if recs := records.Records(); len(recs) != 1 || recs[0].Path != PathApp || recs[0].Action != tc.wantAction {
					t.Errorf("records = %+v", recs)
				}
			})
		}
	}
}

func TestRendererGetsTheRequestAndItsApp(t *testing.T) {
	for _, tc := range []struct {
		uri, wantMIME string
		wantCSP       string
		wantWarning   bool
	}{
		{"ui://test/app.html", AppMIMEType, "https://content.example", false}, // the content item's CSP wins
		{"ui://test/listed-csp.html", AppMIMEType, "https://cdn.example", false},
		{"ui://test/plain-html.html", "text/html", "", true},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			r := &fakeRenderer{}
			conn, _ := connectGate(t, "modern", setup{true, true, r}, &countingAsker{})
			meta := uiMeta(tc.uri)
			meta["other"] = "kept"
			ask(t, conn, map[string]any{"meta": meta})
			reqs := r.requests()
			if len(reqs) != 1 {
				t.Fatalf("renderer saw %d requests", len(reqs))
			}
			req := reqs[0]
			if req.Key != "e-1" || req.ResourceURI != tc.uri || req.MIMEType != tc.wantMIME ||
				req.HTML != fmt.Sprintf(appHTML, tc.uri) || req.Connection != "embedded fixture" || req.Server.Title != "Gate test" {
				t.Errorf("renderer got %+v", req)
			}
			if fmt.Sprint(req.CSP) != "map[]" && !strings.Contains(fmt.Sprint(req.CSP), tc.wantCSP) || tc.wantCSP == "" && req.CSP != nil {
				t.Errorf("CSP = %v, want one naming %q", req.CSP, tc.wantCSP)
			}
			if req.Params.Message != "Pick one" || req.Params.Meta["other"] != "kept" {
				t.Errorf("params were changed: %+v", req.Params)
			}
			if got := wireHas(conn, "rendering it anyway"); got != tc.wantWarning {
				t.Errorf("text/html warning logged = %v, want %v", got, tc.wantWarning)
			}
		})
	}
}

// manyServer asks n questions in one round, each naming its own app
// ui://many/app-I.html, and checks that answer I carries I: an answer that
// went through another request's app would carry another number.
func manyServer(n int) func() *mcp.Server {
	return func() *mcp.Server {
		caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
		caps.AddExtension(UIExtension, map[string]any{"elicitation": map[string]any{}})
		s := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{Capabilities: caps})
		schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)
		s.AddTool(&mcp.Tool{Name: "many", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if len(req.Params.InputResponses) == 0 {
					irs := mcp.InputRequestMap{}
					for i := range n {
						irs[fmt.Sprint(i)] = &mcp.ElicitParams{Message: fmt.Sprintf("question %d", i), RequestedSchema: schema,
							Meta: mcp.Meta{"ui": map[string]any{"resourceUri": fmt.Sprintf("ui://many/app-%d.html", i)}}}
					}
					return &mcp.CallToolResult{InputRequests: irs, RequestState: "many"}, nil
				}
				for i := range n {
					r, _ := req.Params.InputResponses[fmt.Sprint(i)].(*mcp.ElicitResult)
					if r == nil || r.Action != "accept" || r.Content["n"] != float64(i) {
						return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("answer %d: %+v", i, r)}}}, nil
					}
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "all matched"}}}, nil
			})
		s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "ui://many/app-{n}.html", Name: "app", MIMEType: AppMIMEType},
			func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
					{URI: req.Params.URI, MIMEType: AppMIMEType, Text: fmt.Sprintf(appHTML, req.Params.URI)}}}, nil
			})
		return s
	}
}

// TestConcurrentAppSessionsDoNotCrossWires holds every app until all have
// arrived, then answers them in reverse order; each app answers with the
// number of the app it was given.
func TestConcurrentAppSessionsDoNotCrossWires(t *testing.T) {
	appNumber := regexp.MustCompile(`app-(\d+)\.html`)
	for _, n := range []int{2, 100} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var arrived sync.WaitGroup
			arrived.Add(n)
			turns := make([]chan struct{}, n)
			for i := range turns {
				turns[i] = make(chan struct{})
			}
			var answered []int
			var mu sync.Mutex
			took := make(chan struct{}, n)
			r := &fakeRenderer{answer: func(ctx context.Context, req *AppRequest) (*AppAnswer, error) {
				var i int
				fmt.Sscan(appNumber.FindStringSubmatch(req.HTML)[1], &i)
				arrived.Done()
				select {
				case <-turns[i]:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				mu.Lock()
				answered = append(answered, i)
				mu.Unlock()
				took <- struct{}{}
				return answerRaw(fmt.Sprintf(`{"action":"accept","content":{"n":%d}}`, i)), nil
			}}
			records := NewRecorder(nil)
			conn, err := Connect(context.Background(), Config{
				Target: Target{Kind: TargetEmbedded, Embedded: manyServer(n)}, Protocol: "modern",
				Capabilities: CapabilityOptions{FormElicitation: true}, Renderer: r, Asker: &countingAsker{}, Records: records,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			go func() {
				arrived.Wait()
				// Each app answers only once the one after it has: the
				// order is the reverse of arrival by construction.
				for i := n - 1; i >= 0; i-- {
					close(turns[i])
					<-took
				}
			}()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := conn.Call(ctx, "many", nil)
			if err != nil {
				t.Fatal(err)
			}
			if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || text != "all matched" {
				t.Fatalf("server: %s", text)
			}
			keys := map[string]bool{}
			for _, req := range r.requests() {
				if keys[req.Key] {
					t.Errorf("the renderer saw key %s twice", req.Key)
				}
				keys[req.Key] = true
				if !strings.Contains(req.HTML, req.ResourceURI) {
					t.Errorf("request %s for %s was given the app %s", req.Key, req.ResourceURI, req.HTML)
				}
			}
			if len(keys) != n || len(records.Records()) != n {
				t.Errorf("renderer saw %d keys and %d records settled, want %d", len(keys), len(records.Records()), n)
			}
			if n == 2 && fmt.Sprint(answered) != "[1 0]" {
				t.Errorf("answered in order %v, want the reverse [1 0]", answered)
			}
			if len(conn.Pending()) != 0 {
				t.Errorf("requests left pending: %+v", conn.Pending())
			}
		})
	}
}

// cancellingServer elicits directly (legacy era) and gives up after a
// short time, as a server whose user walked away would.
func cancellingServer() *mcp.Server {
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Resources: &mcp.ResourceCapabilities{}}
	caps.AddExtension(UIExtension, map[string]any{"elicitation": map[string]any{}})
	s := gateServer(true)()
	s.AddTool(&mcp.Tool{Name: "impatient", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			defer cancel()
			_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Quick", RequestedSchema: choiceSchema,
				Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://test/app.html"}}})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprint(err)}}}, nil
		})
	return s
}

func TestServerCancelTearsDownTheAppWithoutNativeForm(t *testing.T) {
	tornDown := make(chan struct{})
	r := &fakeRenderer{answer: func(ctx context.Context, _ *AppRequest) (*AppAnswer, error) {
		<-ctx.Done()
		close(tornDown)
		return nil, ctx.Err()
	}}
	native := &countingAsker{}
	records := NewRecorder(nil)
	conn, err := Connect(context.Background(), Config{
		Target: Target{Kind: TargetEmbedded, Embedded: cancellingServer}, Protocol: "legacy",
		Capabilities: CapabilityOptions{FormElicitation: true}, Renderer: r, Asker: native, Records: records,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Call(context.Background(), "impatient", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-tornDown:
	case <-time.After(5 * time.Second):
		t.Fatal("the app session was not torn down when the server cancelled")
	}
	if n := len(native.calls()); n != 0 {
		t.Errorf("a cancelled request opened the native form %d times", n)
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(records.Records()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if recs := records.Records(); len(recs) != 1 || recs[0].Action != "cancel" || recs[0].Fallback != FallbackNone || recs[0].Error == "" {
		t.Errorf("records = %+v, want one cancel with its error and no fallback", recs)
	}
}

func TestAbandonAppAnswersNatively(t *testing.T) {
	inApp := make(chan string, 1)
	r := &fakeRenderer{answer: func(ctx context.Context, req *AppRequest) (*AppAnswer, error) {
		inApp <- req.Key
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	native := &countingAsker{content: map[string]any{"choice": "option-b"}}
	conn, records := connectGate(t, "modern", setup{true, true, r}, native)
	go func() {
		key := <-inApp
		if p := conn.Pending(); len(p) != 1 || p[0].Path != PathApp || p[0].Key != key {
			t.Errorf("pending = %+v, want %s on the app path", p, key)
		}
		if !conn.AbandonApp(key) {
			t.Error("AbandonApp found no app session")
		}
	}()
	got := ask(t, conn, map[string]any{"meta": uiMeta("ui://test/app.html")})
	if got.Content["choice"] != "option-b" || len(native.calls()) != 1 {
		t.Errorf("server got %+v after %d native asks", got, len(native.calls()))
	}
	if recs := records.Records(); len(recs) != 1 || recs[0].Path != PathNative || recs[0].Fallback != FallbackChoseNative {
		t.Errorf("records = %+v", recs)
	}
}

// fixtureRenderer behaves like each of the fixture's app variants, read
// from the HTML the fixture serves: a stand-in for the browser only.
func fixtureRenderer() *fakeRenderer {
	return &fakeRenderer{answer: func(_ context.Context, req *AppRequest) (*AppAnswer, error) {
		switch {
		case strings.Contains(req.HTML, `data-behaviour="no-elicitation"`):
			return nil, &AppError{Reason: FallbackAppNoElicitation}
		case strings.Contains(req.HTML, `data-behaviour="never-initializes"`):
			return nil, &AppError{Reason: FallbackInitTimeout}
		case strings.Contains(req.HTML, `data-behaviour="invalid-action"`):
			return answerRaw(`{"action":"maybe"}`), nil
		case strings.Contains(req.HTML, `data-behaviour="schema-mismatch"`):
			return answerRaw(`{"action":"accept","content":{"choice":"option-z"}}`), nil
		}
		return answerRaw(`{"action":"accept","content":{"choice":"option-b"}}`), nil
	}}
}

func TestFixtureToolsThroughTheRouter(t *testing.T) {
	for _, protocol := range protocols {
		for _, tc := range []struct {
			tool         string
			wantPath     Path
			wantFallback FallbackReason
			wantChoice   string
		}{
			{"choose_option", PathApp, FallbackNone, "option-b"},
			{"app_no_elicitation", PathNative, FallbackAppNoElicitation, "option-a"},
			{"app_invalid_action", PathNative, FallbackInvalidResult, "option-a"},
			{"app_schema_mismatch", PathNative, FallbackSchemaMismatch, "option-a"},
			{"app_never_initializes", PathNative, FallbackInitTimeout, "option-a"},
			{"app_missing_resource", PathNative, FallbackResourceReadFailed, "option-a"},
			{"app_not_html", PathNative, FallbackResourceNotHTML, "option-a"},
			{"app_not_ui_uri", PathNative, FallbackInvalidResourceURI, "option-a"},
			{"app_relative_uri", PathNative, FallbackInvalidResourceURI, "option-a"},
		} {
			t.Run(protocol+"/"+tc.tool, func(t *testing.T) {
				t.Parallel()
				records := NewRecorder(nil)
				conn, err := Connect(context.Background(), Config{
					Target: Target{Kind: TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }}, Protocol: protocol,
					Capabilities: CapabilityOptions{FormElicitation: true}, Renderer: fixtureRenderer(),
					Asker: &countingAsker{content: map[string]any{"choice": "option-a"}}, Records: records,
				})
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				res, err := conn.Call(context.Background(), tc.tool, nil)
				if err != nil {
					t.Fatal(err)
				}
				sc, _ := res.StructuredContent.(map[string]any)
				if res.IsError || sc["choice"] != tc.wantChoice {
					t.Errorf("result %+v, want choice %s", res, tc.wantChoice)
				}
				if recs := records.Records(); len(recs) != 1 || recs[0].Path != tc.wantPath || recs[0].Fallback != tc.wantFallback || recs[0].Era != map[string]string{"legacy": ProtocolLegacy, "modern": ProtocolModern}[protocol] {
					t.Errorf("records = %+v, want path %s fallback %q", recs, tc.wantPath, tc.wantFallback)
				}
			})
		}
	}
}

func TestNoRendererNoClaim(t *testing.T) {
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: bareServer},
		Capabilities: CapabilityOptions{FormElicitation: true, AppHostUp: true}, // asked for, but nothing to honour it
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if strings.Contains(string(conn.SentCapabilities()), `"elicitation":{}`) {
		t.Errorf("claimed app-rendered elicitation without a renderer: %s", conn.SentCapabilities())
	}
}

// holdingRenderer keeps its one app session open until its context ends;
// inApp closes once the session has started.
func holdingRenderer() (r *fakeRenderer, inApp <-chan struct{}) {
	started := make(chan struct{})
	return &fakeRenderer{answer: func(ctx context.Context, _ *AppRequest) (*AppAnswer, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}}, started
}

func TestCloseTearsDownAppSessions(t *testing.T) {
	r, inApp := holdingRenderer()
	native := &countingAsker{}
	conn, _ := connectGate(t, "modern", setup{true, true, r}, native)
	done := make(chan error, 1)
	go func() {
		_, err := conn.Call(context.Background(), "ask", json.RawMessage(`{"meta":{"ui":{"resourceUri":"ui://test/app.html"}}}`))
		done <- err
	}()
	<-inApp
	conn.Close()
	if err := <-done; err == nil {
		t.Error("the call succeeded although mcpeek closed the connection under it")
	}
	if r.ended.Load() != 1 || len(native.calls()) != 0 {
		t.Errorf("app sessions torn down: %d (want 1); native forms opened: %d (want 0)", r.ended.Load(), len(native.calls()))
	}
}

// slowAppServer's app takes its time to read, so a person can give up on
// the app while mcpeek is still loading it.
func slowAppServer() *mcp.Server {
	s := gateServer(true)()
	s.AddResource(&mcp.Resource{URI: "ui://test/slow.html", Name: "slow", MIMEType: AppMIMEType},
		func(ctx context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(5 * time.Second):
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "ui://test/slow.html", MIMEType: AppMIMEType, Text: "<p>slow</p>"}}}, nil
		})
	return s
}

func TestAbandonWhileTheAppLoads(t *testing.T) {
	native := &countingAsker{content: map[string]any{"choice": "option-b"}}
	records := NewRecorder(nil)
	conn, err := Connect(context.Background(), Config{
		Target: Target{Kind: TargetEmbedded, Embedded: slowAppServer}, Protocol: "modern",
		Capabilities: CapabilityOptions{FormElicitation: true}, Renderer: &fakeRenderer{}, Asker: native, Records: records,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	go func() {
		for {
			if p := conn.Pending(); len(p) == 1 && p[0].Path == PathApp {
				conn.AbandonApp(p[0].Key)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	got := ask(t, conn, map[string]any{"meta": uiMeta("ui://test/slow.html")})
	if got.Content["choice"] != "option-b" || len(native.calls()) != 1 {
		t.Errorf("server got %+v; native asked %d times", got, len(native.calls()))
	}
	if recs := records.Records(); len(recs) != 1 || recs[0].Fallback != FallbackChoseNative {
		t.Errorf("records = %+v", recs)
	}
}

func TestDismissPendingAnswersCancel(t *testing.T) {
	r, inApp := holdingRenderer()
	native := &countingAsker{}
	conn, records := connectGate(t, "modern", setup{true, true, r}, native)
	drained := make(chan (<-chan struct{}), 1)
	go func() {
		<-inApp
		done := conn.PendingDone()
		select {
		case <-done:
			t.Error("PendingDone was closed while a request was pending")
		default:
		}
		conn.DismissPending()
		drained <- done
	}()
	got := ask(t, conn, map[string]any{"meta": uiMeta("ui://test/app.html")})
	if got.Action != "cancel" || len(native.calls()) != 0 {
		t.Errorf("server got %+v after dismissing; native asked %d times", got, len(native.calls()))
	}
	select { // the quit path waits on it for the answers to go out
	case <-<-drained:
	case <-time.After(5 * time.Second):
		t.Fatalf("PendingDone not closed once the request was answered; pending: %+v", conn.Pending())
	}
	if recs := records.Records(); len(recs) != 1 || recs[0].Action != "cancel" || recs[0].Error != "" {
		t.Errorf("records = %+v", recs)
	}
}

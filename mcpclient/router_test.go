package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestValidateResourceURI(t *testing.T) {
	for _, tc := range []struct {
		uri string
		ok  bool
	}{
		{"ui://fixture/choose-option.html", true},
		{"ui://example/choose-option", true},
		{"ui://x", true},
		{"", false},
		{"ui:///x", false},
		{"ui:x", false},
		{"choose-option.html", false},
		{"/choose-option.html", false},
		{"https://example.com/app.html", false},
		{"UI://x/y", true}, // schemes are case-insensitive
		{"ui://fix ture/app", false},
		{" ui://fixture/app", false},
		{"ui://fixture/app\n", false},
		{"ui://%zz/app", false},
	} {
		err := ValidateResourceURI(tc.uri)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateResourceURI(%q) = %v, want ok=%v", tc.uri, err, tc.ok)
		}
	}
}

func TestAppGate(t *testing.T) {
	appCaps := Capabilities(CapabilityOptions{FormElicitation: true, AppHostUp: true})
	serverApp := &mcp.ServerCapabilities{Extensions: map[string]any{UIExtension: map[string]any{"elicitation": map[string]any{}}}}
	withURI := func(v any) *mcp.ElicitParams {
		return &mcp.ElicitParams{Message: "m", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": v}}}
	}
	good := withURI("ui://fixture/choose-option.html")
	for _, tc := range []struct {
		name    string
		client  *mcp.ClientCapabilities
		server  *mcp.ServerCapabilities
		params  *mcp.ElicitParams
		want    FallbackReason
		wantURI string
	}{
		{"all four hold", appCaps, serverApp, good, FallbackNone, "ui://fixture/choose-option.html"},
		{"form not advertised", Capabilities(CapabilityOptions{FormElicitation: false, AppHostUp: true}), serverApp, good, FallbackFormDisabled, ""},
		{"nested capability not advertised", Capabilities(CapabilityOptions{FormElicitation: true}), serverApp, good, FallbackAppHostOff, ""},
		{"server silent", appCaps, &mcp.ServerCapabilities{}, good, FallbackServerNotNegotiated, ""},
		{"server extension without elicitation", appCaps, &mcp.ServerCapabilities{Extensions: map[string]any{UIExtension: map[string]any{}}}, good, FallbackServerNotNegotiated, ""},
		{"no meta", appCaps, serverApp, &mcp.ElicitParams{Message: "m"}, FallbackNoResourceURI, ""},
		{"ui without resourceUri", appCaps, serverApp, &mcp.ElicitParams{Meta: mcp.Meta{"ui": map[string]any{}}}, FallbackNoResourceURI, ""},
		{"number", appCaps, serverApp, withURI(42), FallbackInvalidResourceURI, ""},
		{"relative", appCaps, serverApp, withURI("choose-option.html"), FallbackInvalidResourceURI, ""},
		{"not ui", appCaps, serverApp, withURI("https://example.com/app.html"), FallbackInvalidResourceURI, ""},
		{"empty host", appCaps, serverApp, withURI("ui:///x"), FallbackInvalidResourceURI, ""},
		// Several failing: the first in the gates' order wins.
		{"all four fail", Capabilities(CapabilityOptions{}), &mcp.ServerCapabilities{}, withURI("x"), FallbackFormDisabled, ""},
		{"host off and bad uri", Capabilities(CapabilityOptions{FormElicitation: true}), &mcp.ServerCapabilities{}, withURI("x"), FallbackAppHostOff, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, uri := AppGate(tc.client, tc.server, tc.params)
			if got != tc.want || uri != tc.wantURI {
				t.Errorf("AppGate = %q, %q; want %q, %q", got, uri, tc.want, tc.wantURI)
			}
			if got != FallbackNone && got.Describe() == "" {
				t.Errorf("reason %q has no description", got)
			}
		})
	}
}

// TestAppGateOnWireCapabilities checks that the gates read capabilities as
// they come back from JSON (generic maps), not only as built in Go.
func TestAppGateOnWireCapabilities(t *testing.T) {
	b, _ := json.Marshal(Capabilities(CapabilityOptions{FormElicitation: true, AppHostUp: true}))
	var client mcp.ClientCapabilities
	if err := json.Unmarshal(b, &client); err != nil {
		t.Fatal(err)
	}
	var server mcp.ServerCapabilities
	if err := json.Unmarshal([]byte(`{"extensions":{"io.modelcontextprotocol/ui":{"elicitation":{}}}}`), &server); err != nil {
		t.Fatal(err)
	}
	var p mcp.ElicitParams
	if err := json.Unmarshal([]byte(`{"message":"m","_meta":{"ui":{"resourceUri":"ui://a/b"}}}`), &p); err != nil {
		t.Fatal(err)
	}
	if got, uri := AppGate(&client, &server, &p); got != FallbackNone || uri != "ui://a/b" {
		t.Errorf("AppGate = %q, %q; want all gates open", got, uri)
	}
}

var choiceSchema = json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":["option-a","option-b"]}},"required":["choice"]}`)

// twoAtOnce is a server whose tool asks two questions in one round, which
// the SDK answers concurrently in the modern era.
func twoAtOnce() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "two", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "two", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
					"first":  &mcp.ElicitParams{Message: "first question", RequestedSchema: choiceSchema},
					"second": &mcp.ElicitParams{Message: "second question", RequestedSchema: choiceSchema},
				}, RequestState: "s"}, nil
			}
			var parts []string
			for _, id := range []string{"first", "second"} {
				r, _ := req.Params.InputResponses[id].(*mcp.ElicitResult)
				if r == nil {
					return nil, fmt.Errorf("no response for %s", id)
				}
				parts = append(parts, fmt.Sprintf("%s=%s/%v", id, r.Action, r.Content["choice"]))
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: strings.Join(parts, " ")}}}, nil
		})
	return s
}

// gatedAsker holds both questions until both have arrived, so that they are
// truly in flight together, then answers each from the answers file.
type gatedAsker struct {
	HeadlessAsker
	wg sync.WaitGroup
}

func (g *gatedAsker) Ask(ctx context.Context, req *NativeRequest) (*mcp.ElicitResult, error) {
	g.wg.Done()
	g.wg.Wait()
	return g.HeadlessAsker.Ask(ctx, req)
}

func TestConcurrentInputRequestsDoNotCrossWires(t *testing.T) {
	answers, err := ParseAnswers([]byte(`[
		{"match":{"message":"second"},"action":"accept","content":{"choice":"option-b"}},
		{"match":{"message":"first"},"action":"decline"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	asker := &gatedAsker{HeadlessAsker: HeadlessAsker{Answers: answers}}
	asker.wg.Add(2)
	records := NewRecorder(nil)
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: twoAtOnce},
		Protocol:     "modern",
		Capabilities: CapabilityOptions{FormElicitation: true},
		Asker:        asker,
		Records:      records,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Call(context.Background(), "two", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "first=decline/<nil> second=accept/option-b" {
		t.Errorf("server saw %q", got)
	}
	recs := records.Records()
	keys := map[string]string{}
	for _, r := range recs {
		keys[r.Key] = r.Message + ":" + r.Action
	}
	if len(recs) != 2 || len(keys) != 2 {
		t.Fatalf("records = %+v, want two with distinct keys", recs)
	}
	for _, r := range recs {
		want := map[string]string{"first question": "decline", "second question": "accept"}[r.Message]
		if r.Action != want || r.Era != ProtocolModern || r.Path != PathNative {
			t.Errorf("record %+v: action %q, want %q", r, r.Action, want)
		}
	}
}

func TestFormElicitationRefusedWhenDisabled(t *testing.T) {
	records := NewRecorder(nil)
	asked := false
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: twoAtOnce},
		Protocol:     "modern",
		Capabilities: CapabilityOptions{FormElicitation: false},
		Asker:        askerFunc(func(context.Context, *NativeRequest) (*mcp.ElicitResult, error) { asked = true; return nil, nil }),
		Records:      records,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Call(context.Background(), "two", nil); err == nil || !strings.Contains(err.Error(), "form elicitation is disabled") {
		t.Errorf("call error = %v, want the refusal", err)
	}
	if asked {
		t.Error("the native asker was asked a form elicitation with forms disabled")
	}
	for _, r := range records.Records() {
		if r.Fallback != FallbackFormDisabled || r.Error == "" {
			t.Errorf("record %+v, want form_disabled with an error", r)
		}
	}
	if len(records.Records()) == 0 {
		t.Error("the refused elicitation was not recorded")
	}
}

type askerFunc func(context.Context, *NativeRequest) (*mcp.ElicitResult, error)

func (f askerFunc) Ask(ctx context.Context, r *NativeRequest) (*mcp.ElicitResult, error) {
	return f(ctx, r)
}

func TestCloseCancelsPendingElicitation(t *testing.T) {
	started := make(chan struct{})
	var once sync.Once
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: twoAtOnce},
		Protocol:     "legacy",
		Capabilities: CapabilityOptions{FormElicitation: true},
		Asker: askerFunc(func(ctx context.Context, _ *NativeRequest) (*mcp.ElicitResult, error) {
			once.Do(func() { close(started) })
			<-ctx.Done()
			return nil, ctx.Err()
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := conn.Call(context.Background(), "two", nil)
		done <- err
	}()
	<-started
	conn.Close()
	if err := <-done; err == nil {
		t.Error("the call succeeded after the connection closed under it")
	}
}

package record

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMatcher: one rule for requests and questions. _meta, the order of
// members and a retry's inputResponses do not tell two messages apart;
// the method, any other param and the requestState do; the methods
// matched by method alone match whatever their params.
func TestMatcher(t *testing.T) {
	t.Parallel()
	m := NewMatcher(MatchByMethod(mcpclient.MethodInitialize))
	tests := []struct {
		name              string
		method, live      string
		recorded, method2 string
		match             bool
	}{
		{"the same", "tools/call", `{"name":"a","arguments":{"x":1}}`, `{"name":"a","arguments":{"x":1}}`, "", true},
		{"_meta and member order aside", "tools/call", `{"_meta":{"progressToken":3},"arguments":{"x":1.0},"name":"a"}`, `{"name":"a","arguments":{"x":1},"_meta":{"progressToken":"p"}}`, "", true},
		{"inputResponses aside", "tools/call", `{"name":"a","inputResponses":{"k":{"action":"decline"}},"requestState":"s"}`, `{"name":"a","inputResponses":{"k":{"action":"accept"}},"requestState":"s"}`, "", true},
		{"no params is {}", "tools/list", ``, `{}`, "", true},
		{"null params is {}", "tools/list", `null`, `{"_meta":{}}`, "", true},
		{"another param", "tools/call", `{"name":"a","arguments":{"x":2}}`, `{"name":"a","arguments":{"x":1}}`, "", false},
		{"a _meta below the params is the request's own", "tools/call", `{"name":"a","arguments":{"_meta":1}}`, `{"name":"a","arguments":{"_meta":2}}`, "", false},
		{"another requestState", "tools/call", `{"name":"a","requestState":"s2"}`, `{"name":"a","requestState":"s1"}`, "", false},
		{"a requestState where none was", "tools/call", `{"name":"a","requestState":"s1"}`, `{"name":"a"}`, "", false},
		{"another method", "tools/call", `{"name":"a"}`, `{"name":"a"}`, "prompts/get", false},
		{"by method alone", mcpclient.MethodInitialize, `{"clientInfo":{"name":"x"}}`, `{"clientInfo":{"name":"y"}}`, "", true},
		{"a question", mcpclient.MethodElicit, `{"message":"Sure?","_meta":{"k":1}}`, `{"message":"Sure?"}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tt.method
			if tt.method2 != "" {
				rec = tt.method2
			}
			live, recorded := m.Key(tt.method, json.RawMessage(tt.live)), m.Key(rec, json.RawMessage(tt.recorded))
			if got := m.Match(live, recorded); got != tt.match {
				t.Errorf("Match(%+v, %+v) = %v, want %v", live, recorded, got, tt.match)
			}
		})
	}
	k := m.Key("tools/call", json.RawMessage(`{"requestState":"s","name":"a","_meta":{}}`))
	if k.Params != `{"name":"a"}` || k.State != "s" {
		t.Errorf("Key = %+v", k)
	}
	if m.Key("x", json.RawMessage(`{bad`)).Params != `{bad` {
		t.Error("malformed params are not kept as they are")
	}
}

// TestReplayAskerTakesEachAnswerOnce: a question gets the recorded answer
// to the same question, each once and in order; a sampling request, whose
// params go-sdk decoded, the first left of its method; an elicitation the
// recording has no answer for is cancelled and reported.
func TestReplayAskerTakesEachAnswerOnce(t *testing.T) {
	t.Parallel()
	q := func(method, params, answer string) Question {
		return Question{Method: method, Params: json.RawMessage(params), Answer: json.RawMessage(answer)}
	}
	s := Session{
		Stray: []Question{q("roots/list", `{}`, `{"roots":[{"uri":"file:///r","name":"r"}]}`)},
		Exchanges: []Exchange{{Method: "tools/call", Questions: []Question{
			q(mcpclient.MethodElicit, `{"message":"Name?"}`, `{"action":"accept","content":{"n":"first"}}`),
			q(mcpclient.MethodSample, `{"messages":[],"maxTokens":5}`, `{"role":"assistant","content":{"type":"text","text":"sampled"},"model":"m"}`),
			q(mcpclient.MethodElicit, `{"message":"Name?"}`, `{"action":"accept","content":{"n":"second"}}`),
		}}},
	}
	a := NewReplayAsker(s)
	ctx := context.Background()
	for _, want := range []string{"first", "second"} {
		res, err := a.Ask(ctx, &mcpclient.NativeRequest{RawParams: json.RawMessage(`{"_meta":{"x":1},"message":"Name?"}`)})
		if err != nil || res.Action != "accept" || res.Content["n"] != want {
			t.Fatalf("Ask = %+v, %v; want the answer %q", res, err, want)
		}
	}
	if res, err := a.Ask(ctx, &mcpclient.NativeRequest{RawParams: json.RawMessage(`{"message":"Name?"}`)}); err != nil || res.Action != "cancel" {
		t.Errorf("a third Ask = %+v, %v; want cancel", res, err)
	}
	res, err := a.Sample(ctx, &mcpclient.SampleRequest{Params: &mcp.CreateMessageWithToolsParams{MaxTokens: 9}})
	if err != nil || res.Model != "m" {
		t.Errorf("Sample = %+v, %v; want the recorded one", res, err)
	}
	if _, err := a.Sample(ctx, &mcpclient.SampleRequest{Params: &mcp.CreateMessageWithToolsParams{}}); err != mcpclient.ErrSampleRejected {
		t.Errorf("a second Sample: %v, want rejected", err)
	}
	if missed := a.unmatched(); len(missed) != 2 || missed[0].method != mcpclient.MethodElicit || missed[1].method != mcpclient.MethodSample {
		t.Errorf("unmatched = %+v", missed)
	}
	if roots := RecordedRoots(s); len(roots) != 1 || roots[0].URI != "file:///r" {
		t.Errorf("RecordedRoots = %+v", roots)
	}
}

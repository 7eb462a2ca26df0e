//lint:file-ignore SA1019 a replay answers sampling as recorded: servers still ask it.

package record

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

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

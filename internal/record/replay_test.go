//lint:file-ignore SA1019 a replay answers sampling as recorded: servers still ask it.

package record

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
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

// A list result that differs is reported at the item, named by its key
// (a tool by name, a resource by uri), not at the whole list or an index;
// the same items in another order are still a difference, at the first
// index; what is not a list is reported where it differs.
func TestReplayNamesTheListItem(t *testing.T) {
	t.Parallel()
	tools := `{"tools":[{"name":"list_directory","description":"d"},{"name":"read_file","description":"Reads","inputSchema":{"type":"object"}}]}`
	tests := []struct {
		name      string
		recorded  string
		live      string
		redact    []string
		wantAt    string
		wantValue string
	}{
		{"a tool removed", tools, `{"tools":[{"name":"list_directory","description":"d"}]}`, nil,
			"differs at /tools/read_file: recorded {", ", got nothing"},
		{"a tool added, a description redacted", tools,
			`{"tools":[{"name":"list_directory","description":"other"},{"name":"read_file","description":"Reads","inputSchema":{"type":"object"}},{"name":"write_file"}]}`,
			[]string{"$.tools[*].description"}, "differs at /tools/write_file: recorded nothing", `got {"name":"write_file"}`},
		{"a member of a tool", tools,
			`{"tools":[{"name":"read_file","description":"Reads","inputSchema":{"type":"string"}},{"name":"list_directory","description":"d"}]}`, nil,
			`differs at /tools/read_file/inputSchema/type: recorded "object"`, `got "string"`},
		{"a resource by its uri", `{"resources":[{"uri":"file:///a","name":"a"},{"uri":"file:///b","name":"b"}]}`,
			`{"resources":[{"uri":"file:///b","name":"b"}]}`, nil, "differs at /resources/file:~1~1~1a: recorded {", ", got nothing"},
		{"another order", tools,
			`{"tools":[{"name":"read_file","description":"Reads","inputSchema":{"type":"object"}},{"name":"list_directory","description":"d"}]}`, nil,
			`differs at /tools/0/description: recorded "d"`, `got "Reads"`},
		{"not a list", `{"content":[{"type":"text","text":"a"}]}`, `{"content":[{"type":"text","text":"b"}]}`, nil,
			`differs at /content/0/text: recorded "a"`, `got "b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			redactions, err := suite.ParseRedactions(tt.redact)
			if err != nil {
				t.Fatal(err)
			}
			r := &replayer{Replay: &Replay{Redactions: redactions}}
			got := r.compare(Exchange{Result: json.RawMessage(tt.recorded)}, Exchange{Result: json.RawMessage(tt.live)})
			if !strings.HasPrefix(got, tt.wantAt) || !strings.Contains(got, tt.wantValue) {
				t.Errorf("compare = %q, want %q … %q", got, tt.wantAt, tt.wantValue)
			}
		})
	}
}

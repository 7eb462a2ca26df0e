package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastMCPServer asks, for each call of its tool "ask", with the requested
// schema FastMCP writes (testdata/fastmcp/NAME), as the server wrote it: as
// an elicitation/create request in the legacy era, as an input request of
// an input_required result in 2026-07-28.
func fastMCPServer(t *testing.T, name string) func() *mcp.Server {
	t.Helper()
	schema, err := os.ReadFile("../testdata/fastmcp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return askingServer(schema)
}

// askingServer asks, for each call of its tool "ask", with the requested
// schema as written: as an elicitation/create request in the legacy era,
// as an input request of an input_required result in 2026-07-28.
func askingServer(schema json.RawMessage) func() *mcp.Server {
	params := func() *mcp.ElicitParams {
		return &mcp.ElicitParams{Message: "Book it", RequestedSchema: schema}
	}
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "fastmcp-shaped", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if init := req.Session.InitializeParams(); init == nil || init.ProtocolVersion >= mcpclient.ProtocolModern {
					if len(req.Params.InputResponses) == 0 {
						return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"book": params()}, RequestState: "asked"}, nil
					}
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "asked"}}}, nil
				}
				_, err := req.Session.Elicit(ctx, params())
				text := "asked"
				if err != nil {
					text = "the answer was refused: " + err.Error()
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			})
		return s
	}
}

// sentContent is the content of each accepted elicitation answer mcpeek
// wrote on the wire, in order: a legacy request's response, or the input
// responses of a 2026-07-28 retry.
func sentContent(t *testing.T, wire *mcpclient.WireLog) []map[string]any {
	t.Helper()
	type answer struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	var out []map[string]any
	for _, e := range wire.Entries() {
		var m struct {
			Result *answer `json:"result"`
			Params *struct {
				InputResponses map[string]answer `json:"inputResponses"`
			} `json:"params"`
		}
		if e.Dir != mcpclient.DirSend || json.Unmarshal(e.Message, &m) != nil {
			continue
		}
		answers := []answer{}
		if m.Result != nil {
			answers = append(answers, *m.Result)
		}
		if m.Params != nil {
			for _, a := range m.Params.InputResponses {
				answers = append(answers, a)
			}
		}
		for _, a := range answers {
			if a.Action == "accept" {
				out = append(out, a.Content)
			}
		}
	}
	return out
}

// askFastMCP calls the tool of a FastMCP-shaped server once per answer,
// in the era protocol names ("legacy", FastMCP's, or "modern"), answering
// from answers, and returns what went out and what mcpeek said on stderr.
func askFastMCP(t *testing.T, protocol, schema, answers string) (sent []map[string]any, stderr string) {
	t.Helper()
	var errOut syncBuffer
	asker := &mcpclient.HeadlessAsker{Answers: mustAnswers(t, answers), Stderr: &errOut}
	return askFastMCPWith(t, protocol, schema, asker, len(asker.Answers)), errOut.String()
}

// askFastMCPWith calls the tool of a FastMCP-shaped server calls times, in
// the era protocol names, answering with asker, and returns what went out.
func askFastMCPWith(t *testing.T, protocol, schema string, asker mcpclient.NativeAsker, calls int) []map[string]any {
	t.Helper()
	return askWith(t, protocol, fastMCPServer(t, schema), asker, calls)
}

// askWith calls the tool "ask" of the server newServer makes calls times,
// in the era protocol names, answering with asker, and returns what went
// out.
func askWith(t *testing.T, protocol string, newServer func() *mcp.Server, asker mcpclient.NativeAsker, calls int) []map[string]any {
	t.Helper()
	wire := mcpclient.NewWireLog(1000, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: newServer},
		Protocol:     protocol,
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        asker,
		Wire:         wire,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for range calls {
		// The text is not read: go-sdk's server checks a legacy answer
		// against the schema itself, and refuses the shorthand's.
		if _, _, err := callText(t, conn, "ask", ""); err != nil {
			t.Fatal(err)
		}
	}
	return sentContent(t, wire)
}

// An answers-file entry starts from the schema's defaults, but only those
// a field may send: FastMCP's empty date default and a date default that
// is no date are never sent, and mcpeek says why the second is left out;
// "defaults": false sends the content as written, a missing optional
// field missing. In both eras: in 2026-07-28 go-sdk answers the input
// requests itself and would add the defaults back.
func TestFastMCPAnswersSendNoDefaultThatFailsItsSchema(t *testing.T) {
	for _, protocol := range []string{"legacy", "modern"} {
		t.Run(protocol, func(t *testing.T) {
			sent, stderr := askFastMCP(t, protocol, "booking.json", `[
				{"action":"accept","content":{"name":"Ada"}},
				{"action":"accept","content":{"name":"Ada"},"defaults":false}]`)
			want := []map[string]any{
				{"name": "Ada", "nights": float64(1), "includeTests": true},
				{"name": "Ada"},
			}
			if !reflect.DeepEqual(sent, want) {
				t.Errorf("sent %v\nwant %v", sent, want)
			}
			if !strings.Contains(stderr, `End: the server's default "tomorrow" is not used`) {
				t.Errorf("stderr does not say why end's default is left out:\n%s", stderr)
			}
			if strings.Contains(stderr, "Start") {
				t.Errorf("stderr speaks of start's empty default, which is simply no value:\n%s", stderr)
			}
		})
	}
}

// The form (its plain prompts here) sends what it shows, in both eras: a
// submit with the name alone sends the defaults that fit and neither the
// empty date default nor the one that is no date.
func TestFastMCPFormSendsNoDefaultThatFailsItsSchema(t *testing.T) {
	for _, protocol := range []string{"legacy", "modern"} {
		t.Run(protocol, func(t *testing.T) {
			asker := &tui.FormAsker{Plain: true, In: strings.NewReader("a\nAda\n\n\n\n\n"), Out: io.Discard}
			sent := askFastMCPWith(t, protocol, "booking.json", asker, 1)
			if want := []map[string]any{{"name": "Ada", "nights": float64(1), "includeTests": true}}; !reflect.DeepEqual(sent, want) {
				t.Errorf("sent %v\nwant %v", sent, want)
			}
		})
	}
}

// FastMCP's multi-select shorthand ({"items":{"enum":[…]}}, no item type)
// is answered, not refused before mcpeek is asked, in both eras, from an
// answers file and from the form.
func TestFastMCPMultiSelectShorthandIsAnswered(t *testing.T) {
	for _, protocol := range []string{"legacy", "modern"} {
		t.Run(protocol, func(t *testing.T) {
			sent, stderr := askFastMCP(t, protocol, "labels.json", `[{"action":"accept","content":{"value":["bug","docs"]}}]`)
			if want := []map[string]any{{"value": []any{"bug", "docs"}}}; !reflect.DeepEqual(sent, want) {
				t.Errorf("answers file: sent %v, want %v (stderr: %s)", sent, want, stderr)
			}
			var out strings.Builder
			asker := &tui.FormAsker{Plain: true, In: strings.NewReader("a\n1,3\n"), Out: &out}
			sent = askFastMCPWith(t, protocol, "labels.json", asker, 1)
			if want := []map[string]any{{"value": []any{"bug", "docs"}}}; !reflect.DeepEqual(sent, want) {
				t.Errorf("form: sent %v, want %v\n%s", sent, want, out.String())
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the asker's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

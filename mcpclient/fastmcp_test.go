package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fastMCPServer asks, for each call of its tool "ask", with the requested
// schema FastMCP writes (testdata/fastmcp/NAME), as the server wrote it.
func fastMCPServer(t *testing.T, name string) func() *mcp.Server {
	t.Helper()
	schema, err := os.ReadFile("../testdata/fastmcp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "fastmcp-shaped", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: map[string]any{"type": "object"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				_, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Book it", RequestedSchema: json.RawMessage(schema)})
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
// wrote on the wire, in order.
func sentContent(t *testing.T, wire *mcpclient.WireLog) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range wire.Entries() {
		var m struct {
			Result *struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			} `json:"result"`
		}
		if e.Dir != mcpclient.DirSend || json.Unmarshal(e.Message, &m) != nil || m.Result == nil || m.Result.Action != "accept" {
			continue
		}
		out = append(out, m.Result.Content)
	}
	return out
}

// askFastMCP calls the tool of a FastMCP-shaped server once per answer,
// over the legacy revision FastMCP speaks, answering from answers, and
// returns what went out and what mcpeek said on stderr.
func askFastMCP(t *testing.T, schema, answers string) (sent []map[string]any, stderr string) {
	t.Helper()
	var errOut syncBuffer
	asker := &mcpclient.HeadlessAsker{Answers: mustAnswers(t, answers), Stderr: &errOut}
	wire := mcpclient.NewWireLog(1000, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: fastMCPServer(t, schema)},
		Protocol:     "legacy",
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        asker,
		Wire:         wire,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for range asker.Answers {
		if _, _, err := callText(t, conn, "ask", ""); err != nil {
			t.Fatal(err)
		}
	}
	return sentContent(t, wire), errOut.String()
}

// An answers-file entry starts from the schema's defaults, but only those
// a field may send: FastMCP's empty date default and a date default that
// is no date are never sent, and mcpeek says why the second is left out;
// "defaults": false sends the content as written, a missing optional
// field missing.
func TestFastMCPAnswersSendNoDefaultThatFailsItsSchema(t *testing.T) {
	sent, stderr := askFastMCP(t, "booking.json", `[
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
}

// FastMCP's multi-select shorthand ({"items":{"enum":[…]}}, no item type)
// is answered, not refused before mcpeek is asked.
func TestFastMCPMultiSelectShorthandIsAnswered(t *testing.T) {
	sent, stderr := askFastMCP(t, "labels.json", `[{"action":"accept","content":{"value":["bug","docs"]}}]`)
	if want := []map[string]any{{"value": []any{"bug", "docs"}}}; !reflect.DeepEqual(sent, want) {
		t.Errorf("sent %v, want %v (stderr: %s)", sent, want, stderr)
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

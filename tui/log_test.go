package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slowServer has a tool that answers once release is closed, so that its
// answer arrives while the person looks at the Log tab.
func slowServer(release <-chan struct{}) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			})
		return s
	}
}

// The Log tab follows new messages: a response that arrives while it is
// shown is on the screen, under the cursor, named by the method it
// answers and its outcome.
func TestLogFollowsNewMessagesAndNamesResponses(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	in := open(t, Options{Connect: inMemory(slowServer(release), "")}, 100, 10).expect("> slow") // the tool, not the server's name
	in.keys("enter", "5").expect("→ tools/call")
	close(release)
	in.expect("← tools/call")
	var row string
	for _, l := range strings.Split(in.screen(), "\n") {
		if strings.HasPrefix(l, "> ") {
			row = l
		}
	}
	if !strings.Contains(row, "← tools/call #") || !strings.Contains(row, " result ") {
		t.Errorf("the cursor is on %q, want the response to tools/call", row)
	}
}

package mcpclient

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListKeepsTheServersPropertyOrder: `mcpeek list tools` shows a tool's
// input schema with its properties in the order the server wrote them,
// which is the order a person reads the arguments in, in both eras.
func TestListKeepsTheServersPropertyOrder(t *testing.T) {
	schema := `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"boolean"}},"required":["zeta"]}`
	server := func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "ordered", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "ordered", InputSchema: json.RawMessage(schema)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{}, nil
			})
		return s
	}
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			conn, err := Connect(context.Background(), Config{Target: Target{Kind: TargetEmbedded, Embedded: server}, Protocol: era})
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			out, err := conn.List(context.Background(), "tools")
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			z, a, m := strings.Index(string(b), `"zeta"`), strings.Index(string(b), `"alpha"`), strings.Index(string(b), `"mid"`)
			if z < 0 || !(z < a && a < m) {
				t.Errorf("properties not in the server's order (zeta, alpha, mid): %s", b)
			}
		})
	}
}

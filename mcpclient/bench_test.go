package mcpclient

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scripted answers every elicitation at once, as an answers file would.
type scripted struct{}

func (scripted) Ask(context.Context, *NativeRequest) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "option-a"}}, nil
}

// BenchmarkElicitationRoundTrip is one tool call that asks one question,
// answered natively by a script, over in-memory transports: the whole round
// trip through the SDK and the router.
func BenchmarkElicitationRoundTrip(b *testing.B) {
	for _, protocol := range protocols {
		b.Run(protocol, func(b *testing.B) {
			conn, err := Connect(context.Background(), Config{
				Target: Target{Kind: TargetEmbedded, Embedded: gateServer(true)}, Protocol: protocol,
				Capabilities: CapabilityOptions{FormElicitation: true}, Asker: scripted{},
			})
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			args := json.RawMessage(`{}`)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := conn.Call(context.Background(), "ask", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRouterHandle is the router's own work per elicitation: key,
// record, schema, gates, and the native asker, without the transport.
func BenchmarkRouterHandle(b *testing.B) {
	conn, err := Connect(context.Background(), Config{
		Target:       Target{Kind: TargetEmbedded, Embedded: gateServer(true)},
		Capabilities: CapabilityOptions{FormElicitation: true}, Asker: scripted{},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	var schema any
	_ = json.Unmarshal(choiceSchema, &schema)
	req := &mcp.ElicitRequest{Params: &mcp.ElicitParams{Mode: "form", Message: "Pick one", RequestedSchema: schema}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := conn.router.handle(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bareServer is a go-sdk server with nothing on it.
func bareServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, nil)
}

// TestCapabilityTable checks each row of the advertisement table (docs/architecture.md, "Capability advertisement",
// written out by hand in testdata/caps) against what actually goes on the
// wire, in both protocol eras.
func TestCapabilityTable(t *testing.T) {
	rows := []struct {
		golden string
		opts   CapabilityOptions
	}{
		{"default.json", CapabilityOptions{FormElicitation: true}},
		{"app-host-up.json", CapabilityOptions{FormElicitation: true, AppHostUp: true}},
		{"no-form-elicitation.json", CapabilityOptions{FormElicitation: false}},
		// The nested capability follows form elicitation: off with it.
		{"no-form-elicitation-app-host-up.json", CapabilityOptions{FormElicitation: false, AppHostUp: true}},
	}
	for _, row := range rows {
		for _, protocol := range []string{"legacy", "modern"} {
			t.Run(row.golden+"/"+protocol, func(t *testing.T) {
				t.Parallel()
				cfg := Config{
					Target:       Target{Kind: TargetEmbedded, Embedded: bareServer},
					Protocol:     protocol,
					Capabilities: row.opts,
				}
				if row.opts.AppHostUp { // only a running app host makes the claim
					cfg.Renderer = &fakeRenderer{}
				}
				conn, err := Connect(context.Background(), cfg)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				var got bytes.Buffer
				if err := json.Indent(&got, conn.SentCapabilities(), "", "  "); err != nil {
					t.Fatalf("sent capabilities %q: %v", conn.SentCapabilities(), err)
				}
				got.WriteByte('\n')
				path := filepath.Join("testdata", "caps", row.golden)
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got.String() != string(want) {
					t.Errorf("sent capabilities:\n%s\nwant (%s):\n%s", got.String(), path, want)
				}
			})
		}
	}
}

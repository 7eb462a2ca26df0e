package suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cacheServer serves one resource; in the 2026-07-28 era its read says
// cacheScope "private" and a ttlMs, as mcp-go's does, while the
// 2025-11-25 era's says the defaults.
func cacheDialer() Dialer {
	server := func(private bool) func() *mcp.Server {
		return func() *mcp.Server {
			opts := &mcp.ServerOptions{}
			if private {
				opts.SetCacheable = func(_ context.Context, _ mcp.Request, c *mcp.Cacheable) {
					c.CacheScope, c.TTLMs = "private", 60000
				}
			}
			s := mcp.NewServer(&mcp.Implementation{Name: "cache", Version: "1"}, opts)
			s.AddResource(&mcp.Resource{URI: "test://note", Name: "note", MIMEType: "text/plain"},
				func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: "test://note", MIMEType: "text/plain", Text: "hello"}}}, nil
				})
			return s
		}
	}
	legacy, modern := dialer(server(false)), dialer(server(true))
	return func(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error) {
		if d.Revision == mcpclient.ProtocolModern {
			return modern(ctx, d)
		}
		return legacy(ctx, d)
	}
}

// A resource test saved in the 2026-07-28 era, whose result carries the
// era's cache hints, passes its snapshot in both eras and their parity:
// the hints are the era's envelope, not the server's answer.
func TestEnvelopeLeftOutOfSnapshotsAndParity(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "cache.mcpeek.yaml")
	run := func(protocol string, update bool) *Report {
		text := "version: 1\nserver: fixture\nprotocol: " + protocol + `
tests:
  - name: note
    steps:
      - read: test://note
        expect: {snapshot: note}
`
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := Load(path, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: cacheDialer(), Update: update})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if got := failures(run("[2026-07-28]", true)); len(got) != 0 {
		t.Fatalf("-u: %v", got)
	}
	snap, err := os.ReadFile(SnapshotPath(path))
	if err != nil {
		t.Fatal(err)
	}
	for _, hint := range []string{"cacheScope", "ttlMs", "resultType"} {
		if strings.Contains(string(snap), hint) {
			t.Errorf("the snapshot keeps the era's %s:\n%s", hint, snap)
		}
	}
	rep := run("[2025-11-25, 2026-07-28]", false)
	if got := failures(rep); len(got) != 0 {
		t.Fatalf("the snapshot saved in one era fails: %v", got)
	}
	passed, _, _ := rep.Counts()
	if passed != 3 {
		t.Errorf("%d passed, want 3 (each era and their parity)", passed)
	}
}

// A snapshot written with the envelope (before it was left out), and a
// result without it, are the same answer; so are two eras' results, one
// with cache hints and one with none.
func TestEnvelopeInStoredSnapshotAndParity(t *testing.T) {
	t.Parallel()
	withHints := map[string]any{"contents": []any{map[string]any{"uri": "test://note", "text": "hello"}},
		"cacheScope": "private", "ttlMs": float64(60000), "resultType": "complete",
		"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "x"}}}
	without := map[string]any{"contents": []any{map[string]any{"uri": "test://note", "text": "hello"}}}
	sn := &snapshots{path: "x.snap.yaml", stored: map[string]any{"note": withHints}}
	if f := sn.check("note", comparable(without), false); f != nil {
		t.Errorf("a stored snapshot with the envelope: %s", f.String())
	}
	a := &TestResult{Revision: mcpclient.ProtocolModern, docs: []parityDoc{keepForParity(comparable(withHints))}}
	b := &TestResult{Revision: mcpclient.ProtocolLegacy, docs: []parityDoc{keepForParity(comparable(without))}}
	if f := parityDiff(a, b); f != nil {
		t.Errorf("parity: %s", f.String())
	}
	if withHints["cacheScope"] != "private" {
		t.Error("comparable changed the result it was given")
	}
}

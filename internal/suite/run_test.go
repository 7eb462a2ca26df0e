package suite

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// dialFixture connects to the embedded fixture in memory.
func dialFixture(ctx context.Context, d Dial) (*mcpclient.Conn, func(), error) {
	var roots []*mcp.Root
	for _, r := range d.Suite.Roots {
		uri, err := mcpclient.RootURI(r)
		if err != nil {
			return nil, nil, err
		}
		roots = append(roots, &mcp.Root{URI: uri})
	}
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:         mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
		Protocol:       d.Revision,
		ConnectTimeout: 5 * time.Second,
		Capabilities:   mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:          d.Asker,
		Sampler:        d.Asker,
		Records:        d.Records,
		Wire:           mcpclient.NewWireLog(0, nil),
		Roots:          roots,
	})
	return conn, nil, err
}

func TestRepositorySuite(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "suites", "fixture.mcpeek.yaml")
	s, err := Load(path, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: dialFixture})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteText(&b, rep)
	t.Log(b.String())
	if _, failed, _ := rep.Counts(); failed > 0 {
		t.Fatal("failed")
	}
}

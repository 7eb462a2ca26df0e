package mcpclient_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a session knows of the eras its server speaks: what a test saved
// from it names as its protocol:.
func TestRevisionsKnown(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		era, protocol string
		want          []string
	}{
		{"", "auto", []string{"2025-11-25", "2026-07-28"}}, // discover lists both
		{"legacy", "auto", []string{"2025-11-25"}},         // discover refused: legacy alone
		{"", "legacy", nil},                                // never asked about the other era
		{"modern", "modern", []string{"2026-07-28"}},       // discover lists it alone
		{"legacy", "2025-11-25", nil},                      // required, never asked
	} {
		conn, err := mcpclient.Connect(t.Context(), mcpclient.Config{
			Target:   mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{Era: c.era}) }},
			Protocol: c.protocol, ConnectTimeout: 5 * time.Second,
		})
		if err != nil {
			t.Fatalf("%s server, --protocol %s: %v", c.era, c.protocol, err)
		}
		if got := conn.Revisions(); !slices.Equal(got, c.want) {
			t.Errorf("%q server, --protocol %s: Revisions %v, want %v", c.era, c.protocol, got, c.want)
		}
		_ = conn.Close()
	}
}

// A server that does not speak the revision required says so as a
// RevisionError, whichever era it speaks.
func TestRevisionErrorEitherEra(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ era, protocol string }{{"legacy", "modern"}, {"modern", "2025-11-25"}} {
		_, err := mcpclient.Connect(t.Context(), mcpclient.Config{
			Target:   mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{Era: c.era}) }},
			Protocol: c.protocol, ConnectTimeout: 5 * time.Second,
		})
		var rev *mcpclient.RevisionError
		if !errors.As(err, &rev) {
			t.Errorf("%s server, --protocol %s: %v, want a RevisionError", c.era, c.protocol, err)
		}
	}
}

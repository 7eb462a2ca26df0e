package proxy

import (
	"os"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// BenchmarkTrackRoundTrip is what the proxy does to one round trip's
// messages besides reading and writing them: a tools/list request and the
// fixture's answer, read for their heads and logged.
func BenchmarkTrackRoundTrip(b *testing.B) {
	resp, err := os.ReadFile("testdata/tools-list.json")
	if err != nil {
		b.Fatal(err)
	}
	req := []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n")
	tr := newTracker(mcpclient.NewWireLog(0, nil), nil, "stdio")
	b.SetBytes(int64(len(req) + len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		tr.fromHost(req)
		tr.fromServer(resp)
	}
}

// BenchmarkReadHead reads the fixture's tools/list answer's head.
func BenchmarkReadHead(b *testing.B) {
	resp, err := os.ReadFile("testdata/tools-list.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(resp)))
	b.ReportAllocs()
	for b.Loop() {
		readHead(resp)
	}
}

package e2e

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkProxyRoundTrip measures a small request's round trip (a
// tools/list of the fixture, over stdio) from the same go-sdk client
// directly and through mcpeek proxy, alternating the two in one run so
// that both see the same machine; it reports each one's median and their
// ratio (docs/performance.md, "The proxy's round trip").
func BenchmarkProxyRoundTrip(b *testing.B) {
	ctx := context.Background()
	connect := func(words ...string) *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench-host", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(words[0], words[1:]...)}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cs.Close() })
		return cs
	}
	direct := connect(mcpeekBin, "fixture")
	through := connect(mcpeekBin, "proxy", "--", mcpeekBin, "fixture")
	timed := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for range 20 { // warm both up
		timed(direct)
		timed(through)
	}
	var d, p []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			d, p = append(d, timed(direct)), append(p, timed(through))
		} else {
			p, d = append(p, timed(through)), append(d, timed(direct))
		}
	}
	b.StopTimer()
	md, mp := medianDuration(d), medianDuration(p)
	b.ReportMetric(float64(md.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(mp.Microseconds()), "proxy-p50-µs")
	b.ReportMetric(float64(mp)/float64(md), "p50-ratio")
}

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scripted answers every elicitation at once, as an answers file would.
type scripted struct{}

func (scripted) Ask(context.Context, *NativeRequest) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "option-a"}}, nil
}

// scriptedConn connects mcpeek to the gate server in the given era, with
// every question answered by [scripted]; the benchmark's end closes it.
func scriptedConn(b *testing.B, protocol string) *Conn {
	b.Helper()
	conn, err := Connect(context.Background(), Config{
		Target: Target{Kind: TargetEmbedded, Embedded: gateServer(true)}, Protocol: protocol,
		Capabilities: CapabilityOptions{FormElicitation: true}, Asker: scripted{},
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	return conn
}

// BenchmarkElicitationRoundTrip is one tool call that asks one question,
// answered natively by a script, over in-memory transports: the whole round
// trip through the SDK and the router. Besides ns/op it reports cpu-ns/op,
// the CPU the process spent per round trip, which a loaded machine disturbs
// less.
func BenchmarkElicitationRoundTrip(b *testing.B) {
	for _, protocol := range protocols {
		b.Run(protocol, func(b *testing.B) {
			conn := scriptedConn(b, protocol)
			args := json.RawMessage(`{}`)
			b.ReportAllocs()
			cpu := startCPU(b)
			for b.Loop() {
				if _, err := conn.Call(context.Background(), "ask", args); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report()
		})
	}
}

// BenchmarkElicitationRoundTripBare is BenchmarkElicitationRoundTrip with a
// bare go-sdk client in mcpeek's place: the same server, era and answer,
// but no router, wire log or records. The difference between the two is
// all that mcpeek adds to a round trip.
func BenchmarkElicitationRoundTripBare(b *testing.B) {
	for _, protocol := range protocols {
		b.Run(protocol, func(b *testing.B) {
			version, _, err := protocolRequest(protocol)
			if err != nil {
				b.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := gateServer(true)().Connect(context.Background(), st, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer ss.Close()
			client := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ClientOptions{
				Capabilities: Capabilities(CapabilityOptions{FormElicitation: true}),
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "option-a"}}, nil
				},
			})
			cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &mcp.CallToolParams{Name: "ask", Arguments: json.RawMessage(`{}`)}
			b.ReportAllocs()
			cpu := startCPU(b)
			for b.Loop() {
				if _, err := cs.CallTool(context.Background(), params); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report()
		})
	}
}

// BenchmarkRouterHandle is the router's own work per elicitation: key,
// record, schema, gates, and the native asker, without the transport, on a
// connection of each era.
func BenchmarkRouterHandle(b *testing.B) {
	for _, protocol := range protocols {
		b.Run(protocol, func(b *testing.B) {
			conn := scriptedConn(b, protocol)
			var schema any
			_ = json.Unmarshal(choiceSchema, &schema)
			req := &mcp.ElicitRequest{Params: &mcp.ElicitParams{Mode: "form", Message: "Pick one", RequestedSchema: schema}}
			b.ReportAllocs()
			cpu := startCPU(b)
			for b.Loop() {
				if _, err := conn.router.handle(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
			cpu.report()
		})
	}
}

// cpuClock reports the CPU time the process spent per iteration, all
// goroutines and the garbage collector included: on a loaded machine it
// moves much less than the wall time, which includes waiting for a CPU.
type cpuClock struct {
	b     *testing.B
	start time.Duration
}

func startCPU(b *testing.B) cpuClock { return cpuClock{b, processCPU()} }

func (c cpuClock) report() {
	c.b.ReportMetric(float64(processCPU()-c.start)/float64(c.b.N), "cpu-ns/op")
}

// processCPU is the user and system CPU time of this process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heldAsker holds every elicitation pending until release closes.
type heldAsker struct {
	arrived chan struct{}
	release chan struct{}
}

func (h *heldAsker) Ask(ctx context.Context, _ *NativeRequest) (*mcp.ElicitResult, error) {
	h.arrived <- struct{}{}
	select {
	case <-h.release:
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "option-a"}}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// heldRenderer holds every app-path elicitation pending until release
// closes, as an app that takes its time would.
type heldRenderer struct{ heldAsker }

func (h *heldRenderer) Render(ctx context.Context, _ *AppRequest) (*AppAnswer, error) {
	h.arrived <- struct{}{}
	select {
	case <-h.release:
		return answerRaw(`{"action":"accept","content":{"choice":"option-a"}}`), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// BenchmarkPendingElicitations holds pendingN elicitations pending at once,
// each from its own tool call, over in-memory transports, and reports what
// each costs while it waits: Go heap in use, and heap plus goroutine stacks,
// per pending request. (The process's resident set moves too little and
// too late with a garbage-collected heap to be read per request.) Both
// sides of the connection live in this process, so the figures include the
// server's and the SDK's share of each call: the "sdk" path is a bare go-sdk
// client whose handler blocks, the baseline for mcpeek's two paths. The
// native path waits in the asker; the app path reads the app resource and
// waits in the renderer.
//
//	go test -run '^$' -bench BenchmarkPendingElicitations -benchtime 3x -count 5 ./mcpclient
func BenchmarkPendingElicitations(b *testing.B) {
	const pendingN = 1000
	for _, protocol := range protocols {
		for _, path := range []Path{"sdk", PathNative, PathApp} {
			b.Run(protocol+"/"+string(path), func(b *testing.B) {
				var heap, heapStack float64
				for b.Loop() {
					var m pendingCost
					if path == "sdk" {
						m = holdPendingBare(b, protocol, pendingN)
					} else {
						m = holdPending(b, protocol, path, pendingN)
					}
					heap, heapStack = heap+m.heap, heapStack+m.heapStack
				}
				n := float64(b.N)
				b.ReportMetric(heap/n, "heap-B/pending")
				b.ReportMetric(heapStack/n, "heap+stack-B/pending")
			})
		}
	}
}

// pendingCost is the memory per pending elicitation.
type pendingCost struct{ heap, heapStack float64 }

// holdPending connects mcpeek, holds n elicitations pending on the path,
// measures, then releases them and checks that each call completed.
func holdPending(b *testing.B, protocol string, path Path, n int) pendingCost {
	b.Helper()
	held := &heldRenderer{heldAsker{arrived: make(chan struct{}, n), release: make(chan struct{})}}
	cfg := Config{
		Target: Target{Kind: TargetEmbedded, Embedded: gateServer(true)}, Protocol: protocol,
		Capabilities: CapabilityOptions{FormElicitation: true}, Asker: &held.heldAsker,
	}
	args := json.RawMessage(`{}`)
	if path == PathApp {
		cfg.Renderer = held
		args, _ = json.Marshal(map[string]any{"meta": uiMeta("ui://test/app.html")})
	}
	conn, err := Connect(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	call := func() (*mcp.CallToolResult, error) { return conn.Call(context.Background(), "ask", args) }
	cost := measurePending(b, n, &held.heldAsker, call, func() int { return len(conn.Pending()) })
	for _, rec := range conn.Records() {
		if rec.Path != path {
			b.Fatalf("%s took the %s path (%s), want %s", rec.Key, rec.Path, rec.Fallback, path)
		}
	}
	return cost
}

// holdPendingBare is holdPending with a bare go-sdk client.
func holdPendingBare(b *testing.B, protocol string, n int) pendingCost {
	b.Helper()
	version, _, err := protocolRequest(protocol)
	if err != nil {
		b.Fatal(err)
	}
	held := &heldAsker{arrived: make(chan struct{}, n), release: make(chan struct{})}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := gateServer(true)().Connect(context.Background(), st, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ss.Close()
	var waiting atomic.Int32
	client := mcp.NewClient(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ClientOptions{
		Capabilities: Capabilities(CapabilityOptions{FormElicitation: true}),
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			waiting.Add(1)
			defer waiting.Add(-1)
			return held.Ask(ctx, nil)
		},
	})
	cs, err := client.Connect(context.Background(), ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	call := func() (*mcp.CallToolResult, error) {
		return cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ask", Arguments: json.RawMessage(`{}`)})
	}
	return measurePending(b, n, held, call, func() int { return int(waiting.Load()) })
}

// measurePending makes one warm-up call, then n calls that all wait in
// held, measures memory before and while they wait, releases them and
// checks that each got option-a through.
func measurePending(b *testing.B, n int, held *heldAsker, call func() (*mcp.CallToolResult, error), pending func() int) pendingCost {
	b.Helper()
	check := func(res *mcp.CallToolResult, err error) error {
		switch {
		case err != nil:
			return err
		case res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "option-a"):
			return fmt.Errorf("the server got %v", res.Content)
		}
		return nil
	}
	// One warm-up round trip so that lazily built state is not counted.
	close(held.release)
	if err := check(call()); err != nil {
		b.Fatal(err)
	}
	<-held.arrived
	held.release = make(chan struct{})

	before := memNow()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			if err := check(call()); err != nil {
				errs <- err
			}
		})
	}
	for range n {
		<-held.arrived
	}
	if got := pending(); got != n {
		b.Fatalf("%d elicitations pending, want %d", got, n)
	}
	after := memNow()
	close(held.release)
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	per := func(f func(memFigures) uint64) float64 { return (float64(f(after)) - float64(f(before))) / float64(n) }
	return pendingCost{
		heap:      per(func(m memFigures) uint64 { return m.heap }),
		heapStack: per(func(m memFigures) uint64 { return m.heap + m.stack }),
	}
}

type memFigures struct{ heap, stack uint64 }

// memNow collects garbage and reads the heap and the stacks in use.
func memNow() memFigures {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return memFigures{heap: ms.HeapInuse, stack: ms.StackInuse}
}

// BenchmarkWireLogAdd is the cost of logging one message once the wire log
// holds its most entries, as it does in a long session: every message then
// evicts the oldest entry.
func BenchmarkWireLogAdd(b *testing.B) {
	w := NewWireLog(0, nil)
	msg := json.RawMessage(`{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"choice":"option-a"}}}`)
	for range w.max {
		w.add(WireEntry{Dir: DirRecv, Message: msg})
	}
	b.ReportAllocs()
	for b.Loop() {
		w.add(WireEntry{Dir: DirRecv, Message: msg})
	}
	if got := len(w.Entries()); got != w.max {
		b.Fatalf("the log holds %d entries, want %d", got, w.max)
	}
}

// TestWireLogKeepsTheNewestInOrder checks the ring behind
// BenchmarkWireLogAdd: a full log keeps its newest entries, oldest first.
func TestWireLogKeepsTheNewestInOrder(t *testing.T) {
	w := NewWireLog(3, nil)
	for i := range 7 {
		w.Note(strconv.Itoa(i))
	}
	var got []string
	for _, e := range w.Entries() {
		got = append(got, e.Text)
	}
	if strings.Join(got, ",") != "4,5,6" {
		t.Errorf("entries = %v, want 4,5,6", got)
	}
}

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/cli"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkProxyRoundTrip measures a small request's round trip (a
// tools/list of the fixture, over stdio) from the same go-sdk client
// directly, through a bare relay (a process that only copies bytes both
// ways, as cat would: the floor of any process in the middle), and
// through mcpeek proxy, the three taking turns call by call, each first in
// turn, so that all see the same machine; it reports each one's median,
// the proxy's ratio to direct and the time it adds, and the relay's
// (docs/performance.md, "The proxy's round trip").
//
// With MCPEEK_BENCH_CPUPROFILE=FILE the proxy runs in this test binary
// and writes its CPU profile there.
func BenchmarkProxyRoundTrip(b *testing.B) {
	ctx := context.Background()
	cmds := []*exec.Cmd{exec.Command(mcpeekBin, "fixture"), relayCommand(mcpeekBin, "fixture"), proxyCommand("--", mcpeekBin, "fixture")}
	var paths []*mcp.ClientSession
	var pids []int
	for _, cmd := range cmds {
		paths = append(paths, benchConnect(b, cmd))
		pids = append(pids, cmd.Process.Pid)
	}
	timed := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	for range 50 { // warm all up
		for _, cs := range paths {
			timed(cs)
		}
	}
	times := make([][]time.Duration, len(paths))
	relayCPU, proxyCPU := cpuTime(pids[1]), cpuTime(pids[2])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k := range paths {
			j := (i + k) % len(paths)
			times[j] = append(times[j], timed(paths[j]))
		}
	}
	b.StopTimer()
	relayCPU, proxyCPU = cpuTime(pids[1])-relayCPU, cpuTime(pids[2])-proxyCPU
	direct, relay, proxy := medianDuration(times[0]), medianDuration(times[1]), medianDuration(times[2])
	b.ReportMetric(float64(direct.Microseconds()), "direct-p50-µs")
	b.ReportMetric(float64(relay.Microseconds()), "relay-p50-µs")
	b.ReportMetric(float64(proxy.Microseconds()), "proxy-p50-µs")
	b.ReportMetric(float64(proxy)/float64(direct), "p50-ratio")
	b.ReportMetric(float64((proxy - direct).Microseconds()), "added-µs")
	b.ReportMetric(float64(relay)/float64(direct), "relay-ratio")
	if proxyCPU > 0 {
		b.ReportMetric(float64(relayCPU.Microseconds())/float64(b.N), "relay-cpu-µs/call")
		b.ReportMetric(float64(proxyCPU.Microseconds())/float64(b.N), "proxy-cpu-µs/call")
	}
}

// cpuTime is the CPU time the process pid has used, all its threads
// (Linux's schedstat; 0 where there is none).
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var sum time.Duration
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err != nil {
			continue
		}
		if ns, err := strconv.ParseInt(strings.Fields(string(data))[0], 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}

// benchConnect connects a go-sdk client to the server cmd starts.
func benchConnect(b *testing.B, cmd *exec.Cmd) *mcp.ClientSession {
	client := mcp.NewClient(&mcp.Implementation{Name: "bench-host", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// proxyCommand is mcpeek proxy with args; with MCPEEK_BENCH_CPUPROFILE
// set, it is this test binary running the proxy under the CPU profiler.
func proxyCommand(args ...string) *exec.Cmd {
	args = append([]string{"proxy"}, args...)
	profile := os.Getenv("MCPEEK_BENCH_CPUPROFILE")
	if profile == "" {
		return exec.Command(mcpeekBin, args...)
	}
	cmd := exec.Command(testBinary, args...)
	cmd.Env = append(os.Environ(), "MCPEEK_TEST_SERVER=profiled", "MCPEEK_E2E_CPUPROFILE="+profile)
	return cmd
}

// profiledRun is the child of proxyCommand under the profiler: mcpeek
// with args, its CPU profile written when it ends.
func profiledRun(args []string) int {
	f, err := os.Create(os.Getenv("MCPEEK_E2E_CPUPROFILE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 99
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 99
	}
	defer pprof.StopCPUProfile()
	return cli.Run(context.Background(), args, os.Stdout, os.Stderr)
}

// relayCommand is this test binary relaying the bytes of the server
// command words starts, both ways, and nothing else (relayRun).
func relayCommand(words ...string) *exec.Cmd {
	cmd := exec.Command(testBinary, words...)
	cmd.Env = append(os.Environ(), "MCPEEK_TEST_SERVER=relay")
	return cmd
}

// relayRun is the bare relay: it starts the command args and copies its
// stdin to the command's and the command's stdout to its own, a read and
// a write at a time, each way on a goroutine of its own as the proxy
// does.
func relayRun(args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return 99
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 99
	}
	if err := cmd.Start(); err != nil {
		return 99
	}
	relay := func(w io.Writer, r io.Reader) {
		buf := make([]byte, 64<<10)
		for {
			n, err := r.Read(buf)
			if n > 0 {
				if _, werr := w.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}
	go func() {
		relay(in, os.Stdin)
		_ = in.Close()
	}()
	relay(os.Stdout, out)
	_ = cmd.Wait()
	return 0
}

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// streamedCheckpoints are the counts of calls after which
// BenchmarkProxyStreamedCalls reads the proxy's resident set.
var streamedCheckpoints = []int64{1000, 10000, 20000, 40000}

// BenchmarkProxyStreamedCalls streams 40,000 small calls (touch_counter
// of the fixture, four at a time) through mcpeek proxy and reads the
// proxy's resident set (VmRSS) after 1,000, 10,000, 20,000 and 40,000 of
// them, and its peak (VmHWM) at the end: the wire log's ring (10,000
// entries, full after 5,000 calls) is the only thing that may grow, so
// the set grows from 1,000 to 10,000 calls by the ring's filling at most,
// and no further after. Linux only (/proc).
//
//	go test -run '^$' -bench ProxyStreamedCalls -benchtime 1x -count 3 ./e2e
func BenchmarkProxyStreamedCalls(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc")
	}
	for b.Loop() {
		cmd := proxyCommand("--", mcpeekBin, "fixture")
		cs := benchConnect(b, cmd)
		status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
		rss := func() int64 {
			kb, ok := procKB(status, "VmRSS:")
			if !ok {
				b.Fatal("no VmRSS in " + status)
			}
			return kb
		}
		var done atomic.Int64
		calls := func(n int64) {
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					for done.Add(1) <= n {
						if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "touch_counter"}); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			done.Store(n)
		}
		var at []int64
		for _, n := range streamedCheckpoints {
			calls(n)
			at = append(at, rss())
		}
		hwm, _ := procKB(status, "VmHWM:")
		for i, n := range streamedCheckpoints {
			b.ReportMetric(mb(at[i]), fmt.Sprintf("rss-%dk-MB", n/1000))
		}
		b.ReportMetric(mb(at[1]-at[0]), "growth-1k-10k-MB")
		b.ReportMetric(mb(at[len(at)-1]-at[1]), fmt.Sprintf("growth-10k-%dk-MB", streamedCheckpoints[len(at)-1]/1000))
		b.ReportMetric(mb(hwm), "peak-MB")
		_ = cs.Close()
	}
}

// BenchmarkProxyBigResult forwards a 10 MB result (the hostile server's
// big tool) through mcpeek proxy to a host that writes and reads raw
// lines, and reports the proxy's peak resident set (VmHWM) above what it
// held before the call (VmRSS), against the message's size. Linux only.
//
//	go test -run '^$' -bench ProxyBigResult -benchtime 1x -count 3 ./e2e
func BenchmarkProxyBigResult(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("reads /proc")
	}
	for b.Loop() {
		cmd := exec.Command(mcpeekBin, "proxy", "-e", "MCPEEK_TEST_SERVER=hostile", "--", testBinary)
		in, err := cmd.StdinPipe()
		if err != nil {
			b.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		out := bufio.NewReaderSize(stdout, 1<<20)
		// call sends a request and reads up to its answer (the hostile
		// server logs on the way), whose size it returns.
		call := func(id int, line string) int {
			if _, err := io.WriteString(in, line+"\n"); err != nil {
				b.Fatal(err)
			}
			for {
				got, err := out.ReadBytes('\n')
				if err != nil {
					b.Fatal(err)
				}
				var m struct {
					ID     json.RawMessage
					Method string
				}
				if json.Unmarshal(got, &m) == nil && m.Method == "" && string(m.ID) == strconv.Itoa(id) {
					return len(got)
				}
			}
		}
		call(1, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-host","version":"1"}}}`)
		_, _ = io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		call(2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)
		status := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"
		before, ok := procKB(status, "VmRSS:")
		if !ok {
			b.Fatal("no VmRSS in " + status)
		}
		size := call(3, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"big","arguments":{}}}`)
		peak, _ := procKB(status, "VmHWM:")
		_ = in.Close()
		_ = cmd.Wait()
		b.ReportMetric(float64(size)/1e6, "message-MB")
		b.ReportMetric(mb(before), "before-MB")
		b.ReportMetric(mb(peak-before), "peak-above-MB")
		b.ReportMetric(float64(peak-before)*1024/float64(size), "peak-ratio")
	}
}

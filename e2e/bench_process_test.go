package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// inspectorVersion is the pinned official MCP Inspector the process
// benchmark compares with:
//
//	npm install --prefix ~/.cache/mcpeek-ci/npm @modelcontextprotocol/inspector@2.12.0
const inspectorVersion = "2.12.0"

// competitor is one command the process benchmark runs.
type competitor struct {
	name  string // metric prefix: mcpeek-list, floor-list, …
	argv  []string
	env   []string
	check func(stdout []byte) error

	walls     []float64     // ms, one per timed run
	cpu       time.Duration // user+system, the process and the children it waited for, summed
	treeRSS   int64         // largest rusage ru_maxrss (KiB): the process or a child it waited for
	ownPeak   int64         // largest VmHWM (KiB) of the process itself, polled
	toolCount int
}

// sample is what one run of a command measured.
type sample struct {
	wall, cpu time.Duration
	maxRSS    int64 // KiB
}

// BenchmarkProcessListTools runs whole processes side by side, interleaved
// in every iteration (the order rotates), and reports each one's mean wall
// time (*-ms) and the ratios of the means to the floor, so that one run
// gives the comparison:
//
//   - mcpeek-call: mcpeek call choose_option --answers … -- mcpeek fixture
//   - floor-call: testdata/perf/floor calling the same tool of the same server
//   - mcpeek-fixlist: mcpeek list tools -- mcpeek fixture
//   - floorval-fixlist: the floor built with -tags validator, which links
//     the JSON Schema validator mcpeek's design requires
//     (santhosh-tekuri/jsonschema/v6, whose init compiles its drafts'
//     metaschemas), listing the same server's tools
//   - floor-fixlist: the bare floor listing the same server's tools
//   - mcpeek-list: mcpeek list tools -- mcp-server-everything stdio
//   - floor-list: testdata/perf/floor listing the same server's tools: a
//     minimal go-sdk client that waits for the server as long as mcpeek does
//   - inspector-list: the official Inspector's CLI, run by node directly
//     (not npx), doing tools/list against the same server
//
// The floor is the go-sdk with the validator the design requires: mcpeek's
// promise is to stay within 1.15× of it (mcpeek-fixlist/floorval-fixlist),
// and within 1.6× of the go-sdk alone (mcpeek-fixlist/floor-fixlist).
// Against server-everything, whose own start-up is most of a run, the
// bare floor is the yardstick (mcpeek/floor-list). On a loaded machine a few slow runs move the means: *-p50-ms is
// each command's median, and the *-p50 ratios are the medians of the
// per-iteration ratios, each of two runs made side by side. *-cpu-ms is the
// CPU time (user+system) of the command and the children it waited for,
// the server included, which waiting for a CPU does not inflate. After the
// timed runs, each command runs rssRuns more times with
// its own peak resident set (VmHWM) polled from /proc: *-peak-MB. The
// *-rusage-MB figures are rusage's ru_maxrss, which /usr/bin/time -v calls
// "Maximum resident set size": the largest of the process and the children
// it waited for, so for the list commands it is mostly the Node.js server's.
//
// server-everything comes from $MCPEEK_SERVER_EVERYTHING, else from the
// folder CI installs it into; without it the list commands are left out
// (a failure with MCPEEK_REQUIRE_BROWSER=1, as CI installs it). The
// Inspector comes from $MCPEEK_INSPECTOR (its package folder), else from
// beside server-everything; without it, it is left out with a message (CI
// does not install it: it is a comparison, not a gate).
//
//	go test -run '^$' -bench BenchmarkProcessListTools -benchtime 20x -count 5 ./e2e
func BenchmarkProcessListTools(b *testing.B) {
	const rssRuns = 3
	floorBin := buildFloor(b, "")
	floorValBin := buildFloor(b, "validator")
	answers, err := filepath.Abs("testdata/answers/choose-option-a.json")
	if err != nil {
		b.Fatal(err)
	}
	cs := []*competitor{
		{name: "mcpeek-call", argv: []string{mcpeekBin, "call", "choose_option", "--answers", answers, "--", mcpeekBin, "fixture"}, check: choseOptionA},
		{name: "floor-call", argv: []string{floorBin, "-call", "choose_option", "-content", `{"choice":"option-a"}`, "--", mcpeekBin, "fixture"}, check: choseOptionA},
		{name: "mcpeek-fixlist", argv: []string{mcpeekBin, "list", "tools", "--", mcpeekBin, "fixture"}},
		{name: "floorval-fixlist", argv: []string{floorValBin, "--", mcpeekBin, "fixture"}},
		{name: "floor-fixlist", argv: []string{floorBin, "--", mcpeekBin, "fixture"}},
	}
	if everything := findServerEverything(b); everything != "" {
		// Every command finds the same Node.js first on PATH, so the server
		// runs alike under each.
		env := append(os.Environ(), "PATH="+filepath.Dir(everything)+string(os.PathListSeparator)+os.Getenv("PATH"))
		cs = append(cs,
			&competitor{name: "mcpeek-list", argv: []string{mcpeekBin, "list", "tools", "--", everything, "stdio"}, env: env},
			&competitor{name: "floor-list", argv: []string{floorBin, "--", everything, "stdio"}, env: env})
		if node, launcher := findInspector(b, everything, env); launcher != "" {
			cs = append(cs, &competitor{name: "inspector-list", argv: []string{node, launcher, "--cli", everything, "stdio", "--method", "tools/list"}, env: env})
		}
	}
	for _, c := range cs {
		if c.check == nil {
			c.check = c.countTools
		}
	}

	round := 0
	for b.Loop() {
		for i := range cs {
			c := cs[(round+i)%len(cs)]
			got, err := c.run(nil)
			if err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
			c.walls = append(c.walls, float64(got.wall.Microseconds())/1000)
			c.cpu += got.cpu
			c.treeRSS = max(c.treeRSS, got.maxRSS)
		}
		round++
	}
	b.StopTimer()
	for _, c := range cs {
		for range rssRuns {
			if _, err := c.run(&c.ownPeak); err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
		}
	}

	byName := map[string]*competitor{}
	for _, c := range cs {
		byName[c.name] = c
		b.ReportMetric(meanOf(c.walls), c.name+"-ms")
		b.ReportMetric(median(c.walls), c.name+"-p50-ms")
		b.ReportMetric(float64(c.cpu.Microseconds())/1000/float64(len(c.walls)), c.name+"-cpu-ms")
		b.ReportMetric(mb(c.ownPeak), c.name+"-peak-MB")
		b.ReportMetric(mb(c.treeRSS), c.name+"-rusage-MB")
	}
	for _, r := range [][2]string{
		{"mcpeek-call", "floor-call"}, {"mcpeek-fixlist", "floorval-fixlist"}, {"mcpeek-fixlist", "floor-fixlist"},
		{"floorval-fixlist", "floor-fixlist"}, {"mcpeek-list", "floor-list"}, {"inspector-list", "floor-list"},
	} {
		x, floor := byName[r[0]], byName[r[1]]
		if x == nil || floor == nil {
			continue
		}
		unit := strings.TrimSuffix(r[0], "-list") + "/" + r[1]
		b.ReportMetric(meanOf(x.walls)/meanOf(floor.walls), unit)
		paired := make([]float64, len(x.walls))
		for i := range paired {
			paired[i] = x.walls[i] / floor.walls[i]
		}
		b.ReportMetric(median(paired), unit+"-p50")
	}
	counts := map[string]int{}
	for _, c := range cs {
		if c.toolCount > 0 {
			counts[c.name] = c.toolCount
		}
	}
	for _, same := range [][]string{{"mcpeek-list", "floor-list"}, {"mcpeek-fixlist", "floorval-fixlist", "floor-fixlist"}} {
		for _, name := range same[1:] {
			if counts[same[0]] != counts[name] {
				b.Errorf("%s listed %d tools, %s %d: they did not do the same work", same[0], counts[same[0]], name, counts[name])
			}
		}
	}
	if len(counts) > 0 {
		b.Logf("tools listed: %v (the Inspector advertises no URL elicitation, so the server offers it one tool fewer)", counts)
	}
}

// buildFloor builds the floor program, with the build tags given, into a
// temporary folder.
func buildFloor(b *testing.B, tags string) string {
	b.Helper()
	floorBin := filepath.Join(b.TempDir(), "floor")
	if out, err := exec.Command("go", "build", "-tags", tags, "-o", floorBin, "./testdata/perf/floor").CombinedOutput(); err != nil {
		b.Fatalf("go build -tags %q ./testdata/perf/floor: %v\n%s", tags, err, out)
	}
	return floorBin
}

func meanOf(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// run runs the command once and returns its wall time and rusage; with
// peak set it also polls the process's own VmHWM into it.
func (c *competitor) run(peak *int64) (sample, error) {
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Env = c.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	polled := make(chan struct{})
	if peak != nil {
		go func() {
			defer close(polled)
			status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
			for {
				kb, ok := procKB(status, "VmHWM:")
				if !ok {
					return // gone (or no /proc)
				}
				*peak = max(*peak, kb)
				time.Sleep(time.Millisecond)
			}
		}()
	} else {
		close(polled)
	}
	err := cmd.Wait()
	got := sample{wall: time.Since(start)}
	<-polled
	if err != nil {
		return sample{}, fmt.Errorf("%v\n%s", err, stderr.Bytes())
	}
	if err := c.check(stdout.Bytes()); err != nil {
		return sample{}, err
	}
	got.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		got.maxRSS = ru.Maxrss
	}
	return got, nil
}

// countTools checks that stdout is {"tools":[…]} and notes how many.
func (c *competitor) countTools(stdout []byte) error {
	var out struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(stdout, &out); err != nil || len(out.Tools) == 0 {
		return fmt.Errorf("no tools listed (%v): %.300s", err, stdout)
	}
	c.toolCount = len(out.Tools)
	return nil
}

// choseOptionA checks that the fixture's choose_option got option-a.
func choseOptionA(stdout []byte) error {
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal(stdout, &res); err != nil || res.StructuredContent["choice"] != "option-a" {
		return fmt.Errorf("the fixture did not get option-a (%v): %.300s", err, stdout)
	}
	return nil
}

// mb converts KiB, as /proc and rusage count, to MB (10⁶ bytes), the unit
// benchstat reads "MB" as.
func mb(kib int64) float64 { return float64(kib) * 1024 / 1e6 }

// procKB reads a "Name:   123 kB" line of a /proc status file.
func procKB(path, name string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, name); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}

// npmCache is the folder testdata/interop/run.sh and CI install the pinned
// Node packages into.
func npmCache() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "mcpeek-ci", "npm")
}

// findServerEverything returns the installed mcp-server-everything, or ""
// after saying why it is missing.
func findServerEverything(b testing.TB) string {
	b.Helper()
	path := os.Getenv("MCPEEK_SERVER_EVERYTHING")
	if path == "" {
		path = filepath.Join(npmCache(), "node_modules", ".bin", "mcp-server-everything")
	}
	if _, err := os.Stat(path); err != nil {
		msg := "server-everything is missing (" + path + "): set MCPEEK_SERVER_EVERYTHING or run testdata/interop/run.sh; the list commands are left out"
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			b.Fatal(msg)
		}
		b.Log(msg)
		return ""
	}
	return path
}

// inspectorProblem says why the package folder pkg is not the pinned
// Inspector ("": it is).
func inspectorProblem(pkg string) string {
	var meta struct {
		Version string `json:"version"`
	}
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err == nil {
		err = json.Unmarshal(data, &meta)
	}
	switch {
	case err != nil:
		return err.Error()
	case meta.Version != inspectorVersion:
		return fmt.Sprintf("%s is version %s, not the pinned %s", pkg, meta.Version, inspectorVersion)
	}
	return ""
}

// findInspector returns the Node.js to run the pinned Inspector with (the
// one beside server-everything, which run.sh installs, else node on PATH)
// and its launcher script, or "" after saying why it cannot run.
func findInspector(b *testing.B, everything string, env []string) (node, launcher string) {
	b.Helper()
	pkg := os.Getenv("MCPEEK_INSPECTOR")
	if pkg == "" {
		pkg = filepath.Join(filepath.Dir(filepath.Dir(everything)), "@modelcontextprotocol", "inspector")
	}
	skip := func(why string) (string, string) {
		b.Logf("the Inspector is left out: %s (npm install --prefix %s @modelcontextprotocol/inspector@%s, or set MCPEEK_INSPECTOR to its package folder)",
			why, npmCache(), inspectorVersion)
		return "", ""
	}
	if why := inspectorProblem(pkg); why != "" {
		return skip(why)
	}
	node = filepath.Join(filepath.Dir(everything), "node")
	if _, err := os.Stat(node); err != nil {
		if node, err = exec.LookPath("node"); err != nil {
			return skip("no node on PATH")
		}
	}
	launcher = filepath.Join(pkg, "clients", "launcher", "build", "index.js")
	probe := exec.Command(node, launcher, "--cli", "--version")
	probe.Env = env
	out, err := probe.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return skip(err.Error())
		}
		return skip(fmt.Sprintf("%s %s --cli --version: %v: %s", node, launcher, err, bytes.TrimSpace(out)))
	}
	b.Logf("Inspector %s run as: %s %s --cli SERVER... --method tools/list", bytes.TrimSpace(out), node, launcher)
	return node, launcher
}

// BenchmarkTUIIdleMemory starts the inspector, the built binary, in a
// detached tmux session (a real terminal, 120×40), waits for its first
// frame to list the fixture's tools, lets it sit idle, and reads from /proc
// the inspector's resident set (VmRSS), its peak (VmHWM) and the CPU it
// used while idle. "stdio" inspects `mcpeek fixture` as a child process
// (whose own VmRSS is server-rss-MB); "embedded" is the demo, the fixture
// in-process. Without tmux it skips.
//
//	go test -run '^$' -bench BenchmarkTUIIdleMemory -benchtime 3x -count 3 ./e2e
func BenchmarkTUIIdleMemory(b *testing.B) {
	const idle = 3 * time.Second
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		b.Skip("needs tmux to give the inspector a terminal (apt-get install tmux)")
	}
	bin := mcpeekBin
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"--", bin, "fixture"}},
		{"embedded", nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var sum struct{ rss, hwm, server, cpu, frame float64 }
			for b.Loop() {
				socket := filepath.Join(b.TempDir(), "tmux")
				tm := func(args ...string) ([]byte, error) {
					return exec.Command(tmux, append([]string{"-S", socket, "-f", "/dev/null"}, args...)...).Output()
				}
				start := time.Now()
				if _, err := tm(append([]string{"new-session", "-d", "-x", "120", "-y", "40", bin}, tc.args...)...); err != nil {
					b.Fatalf("tmux new-session: %v: %s", err, stderrOf(err))
				}
				killed := false
				kill := func() {
					if !killed {
						killed = true
						_, _ = tm("kill-server")
					}
				}
				defer kill()
				out, err := tm("list-panes", "-F", "#{pane_pid}")
				if err != nil {
					b.Fatalf("tmux list-panes: %v", err)
				}
				pid := strings.TrimSpace(string(out))
				for !strings.Contains(string(out), "choose_option") { // the first frame with the tools
					if time.Since(start) > 30*time.Second {
						b.Fatalf("the inspector drew no tools within 30s:\n%s", out)
					}
					time.Sleep(10 * time.Millisecond)
					if out, err = tm("capture-pane", "-p"); err != nil {
						b.Fatalf("tmux capture-pane: %v", err)
					}
				}
				sum.frame += float64(time.Since(start).Microseconds()) / 1000
				cpu0 := cpuTicks(pid)
				time.Sleep(idle)
				rss, ok1 := procKB("/proc/"+pid+"/status", "VmRSS:")
				hwm, ok2 := procKB("/proc/"+pid+"/status", "VmHWM:")
				if !ok1 || !ok2 {
					b.Fatalf("the inspector (pid %s) is gone", pid)
				}
				sum.cpu += float64(cpuTicks(pid)-cpu0) * 10 / float64(idle.Milliseconds()) * 100 // ticks are 10ms
				sum.rss, sum.hwm = sum.rss+mb(rss), sum.hwm+mb(hwm)
				if len(tc.args) > 0 {
					child := childOf(pid)
					kb, ok := procKB("/proc/"+child+"/status", "VmRSS:")
					if !ok {
						b.Fatalf("no fixture process under the inspector (pid %s)", pid)
					}
					sum.server += mb(kb)
				}
				kill()
			}
			n := float64(b.N)
			b.ReportMetric(sum.rss/n, "idle-rss-MB")
			b.ReportMetric(sum.hwm/n, "peak-rss-MB")
			b.ReportMetric(sum.cpu/n, "idle-cpu-%")
			b.ReportMetric(sum.frame/n, "ms-to-tools-shown")
			if len(tc.args) > 0 {
				b.ReportMetric(sum.server/n, "server-rss-MB")
			}
		})
	}
}

// childOf returns the first child process of pid, whichever of its threads
// started it, or "".
func childOf(pid string) string {
	tasks, _ := filepath.Glob("/proc/" + pid + "/task/*/children")
	for _, t := range tasks {
		children, _ := os.ReadFile(t)
		if f := strings.Fields(string(children)); len(f) > 0 {
			return f[0]
		}
	}
	return ""
}

// cpuTicks is the user and system CPU time of a process, in clock ticks.
func cpuTicks(pid string) int64 {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses.
	_, rest, _ := strings.Cut(string(data), ") ")
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return utime + stime
}

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/cli"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"
)

// The exit codes mcpeek promises (docs/architecture.md, "Headless runs and
// exit codes").
const (
	exitOK          = 0
	exitToolError   = 1
	exitUsage       = 2
	exitConnection  = 3
	exitTimeout     = 124
	exitInterrupted = 130
)

var (
	// mcpeekBin is the mcpeek binary, built once for the tests that need a
	// real process.
	mcpeekBin string
	// testBinary is this test binary, which doubles as the misbehaving
	// servers the tests need (see TestMain).
	testBinary string
)

// TestMain doubles as the misbehaving servers the tests need: run with
// MCPEEK_TEST_SERVER set, this binary is a stdio MCP server instead; run
// with MCPEEK_E2E_MEASURE set, it is mcpeek measuring its own heap (see
// mcpeekMeasured). Otherwise it builds mcpeek and runs the tests from the repository's
// root, as a person runs mcpeek there (the README's commands, the demo's
// suggestions): paths like testdata/answers/… mean what they say.
func TestMain(m *testing.M) {
	if mode := os.Getenv("MCPEEK_TEST_SERVER"); mode != "" {
		os.Exit(testServer(mode))
	}
	if report := os.Getenv("MCPEEK_E2E_LAUNCH"); report != "" {
		os.Exit(launchMeasured(report, os.Args[1:]))
	}
	if report := os.Getenv("MCPEEK_E2E_MEASURE"); report != "" {
		os.Exit(measuredRun(report, os.Args[1:]))
	}
	waitingParallel()
	dir, err := setUp()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	goleak.VerifyTestMain(browserStopping{m}, goleak.Cleanup(func(code int) {
		_ = os.RemoveAll(dir)
		os.Exit(code)
	}))
}

// waitingParallel lets more tests run at once than there are CPUs, unless
// -parallel says otherwise: these tests mostly wait, on a browser, a
// server process or a timeout they check.
func waitingParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

// browserStopping stops the shared Chromium once the tests have run, before
// goleak looks for goroutines left behind.
type browserStopping struct{ m *testing.M }

func (b browserStopping) Run() int {
	defer stopChromium()
	return b.m.Run()
}

// setUp moves to the repository's root and builds mcpeek into a new
// temporary folder, which it returns.
func setUp() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	testBinary = self
	if err := os.Chdir(".."); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "mcpeek-e2e-")
	if err != nil {
		return "", err
	}
	// The inspector remembers tool arguments there: not in the person's.
	if err := os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state")); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	mcpeekBin = filepath.Join(dir, "mcpeek")
	if out, err := exec.Command("go", "build", "-o", mcpeekBin, ".").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return dir, nil
}

func testServer(mode string) int {
	switch mode {
	case "legacy-only":
		return legacyOnlyServer()
	case "fault":
		return faultServer()
	case "hostile":
		return hostileServer()
	case "browser":
		return browserServer()
	case "forged":
		return forgedServer()
	case "bare-asks":
		return bareAsksServer()
	case "relay":
		return relayRun(os.Args[1:])
	case "profiled":
		return profiledRun(os.Args[1:])
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "crash", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			fmt.Fprintln(os.Stderr, "fatal: out of cheese")
			os.Exit(3)
			return nil, nil
		})
	s.AddTool(&mcp.Tool{Name: "fail", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "it failed"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "leak_env", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := fmt.Sprintf("API_TOKEN=%s DB_PASSWORD=%s PIN_KEY=%s", os.Getenv("API_TOKEN"), os.Getenv("DB_PASSWORD"), os.Getenv("PIN_KEY"))
			fmt.Fprintln(os.Stderr, "started with "+text)
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// legacyOnlyServer speaks just enough of 2025-11-25 by hand: it refuses
// server/discover and answers initialize.
func legacyOnlyServer() int {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(in.Bytes(), &msg) != nil || msg.ID == nil {
			continue
		}
		var reply string
		switch msg.Method {
		case "initialize":
			reply = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", msg.ID, reply)
		default:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`+"\n", msg.ID)
		}
	}
	return 0
}

type result struct {
	code           int
	stdout, stderr string
}

// mcpeek runs the program in-process, as a person would from a shell.
func mcpeek(t *testing.T, args ...string) result {
	t.Helper()
	return mcpeekCtx(t, context.Background(), args...)
}

func mcpeekCtx(t *testing.T, ctx context.Context, args ...string) result {
	t.Helper()
	return inProcess(ctx, args)
}

// inProcess runs mcpeek through cli.Run, the seam main uses.
func inProcess(ctx context.Context, args []string) result {
	var out, errb bytes.Buffer
	code := cli.Run(ctx, args, &out, &errb)
	return result{code, out.String(), errb.String()}
}

func (r result) structured(t *testing.T) map[string]any {
	t.Helper()
	var res struct {
		StructuredContent map[string]any `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		t.Fatalf("stdout is not a CallToolResult: %v\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return res.StructuredContent
}

func testServerArgs(mode string) []string {
	return []string{"-e", "MCPEEK_TEST_SERVER=" + mode, "--", testBinary}
}

var eras = []struct{ name, flag, want string }{
	{"legacy", "legacy", "2025-11-25"},
	{"modern", "modern", "2026-07-28"},
}

func readRecords(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		recs = append(recs, m)
	}
	return recs
}

func compact(t *testing.T, raw []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}

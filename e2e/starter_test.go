package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// needServer is the installed server at $env, else at the path the
// interop script installs it to; a test without it is skipped, unless
// MCPEEK_REQUIRE_BROWSER=1 says every interop server must be there.
func needServer(t *testing.T, env, bin string) string {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		path = filepath.Join(npmCache(), "node_modules", ".bin", bin)
	}
	_, err := exec.LookPath("node")
	if _, statErr := os.Stat(path); statErr != nil || err != nil {
		msg := fmt.Sprintf("needs Node and %s (set %s or run testdata/interop/run.sh)", bin, env)
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return path
}

// mcpGoServer is testdata/mcpgo built ($MCPEEK_MCPGO when given): a
// mark3labs/mcp-go server, a module of its own.
func mcpGoServer(t *testing.T) string {
	t.Helper()
	bin, out, err := buildMcpGo()
	if err != nil {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("build testdata/mcpgo: %v\n%s", err, out)
		}
		t.Skipf("testdata/mcpgo does not build here (its module may be out of reach): %v", err)
	}
	return bin
}

// buildMcpGo is testdata/mcpgo built ($MCPEEK_MCPGO when given), once for
// the whole run, beside the mcpeek binary: from the module cache alone
// first, so that a machine offline does not wait on the network for what
// it holds. out is what a failed build printed.
func buildMcpGo() (bin string, out []byte, err error) {
	if bin := os.Getenv("MCPEEK_MCPGO"); bin != "" {
		return bin, nil, nil
	}
	built := mcpGoBuilt()
	return built.bin, built.out, built.err
}

// mcpGoBuilt builds testdata/mcpgo the first time a test needs it.
var mcpGoBuilt = sync.OnceValue(func() (r struct {
	bin string
	out []byte
	err error
}) {
	r.bin = filepath.Join(filepath.Dir(mcpeekBin), "mcpgo")
	for _, env := range [][]string{{"GOPROXY=off"}, nil} {
		cmd := exec.Command("go", "build", "-o", r.bin, ".")
		cmd.Dir = filepath.Join("testdata", "mcpgo") // the tests run from the repository's root
		cmd.Env = append(os.Environ(), env...)
		if r.out, r.err = cmd.CombinedOutput(); r.err == nil {
			return r
		}
	}
	r.bin = ""
	return r
})

// tsExampleServer runs the TypeScript SDK's example streamable HTTP
// server (no authorization) and returns its URL.
func tsExampleServer(t *testing.T) string {
	t.Helper()
	port := freePort(t)
	startTSExample(t, tsSDK(t), []string{fmt.Sprintf("MCP_PORT=%d", port)})
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// skipLine is a test the report skipped, and why.
var skipLine = regexp.MustCompile(`(?m)^skip +\S+ +\S+:\d+ (\S+)(: .*)?$`)

// A starter written by test init passes untouched against servers nobody
// here wrote: its arguments fit their schemas, a tool that asks is
// answered, and a tool that may change data is skipped with the reason
// printed.
func TestStarterFirstRunIsGreen(t *testing.T) {
	t.Parallel()
	servers := []struct {
		name   string
		server func(t *testing.T) []string
	}{
		{"server-everything", func(t *testing.T) []string {
			return []string{needServer(t, "MCPEEK_SERVER_EVERYTHING", "mcp-server-everything"), "stdio"}
		}},
		{"server-filesystem", func(t *testing.T) []string {
			return []string{needServer(t, "MCPEEK_SERVER_FILESYSTEM", "mcp-server-filesystem"), t.TempDir()}
		}},
		{"mcp-go", func(t *testing.T) []string { return []string{mcpGoServer(t)} }},
		{"typescript-sdk", func(t *testing.T) []string { return []string{tsExampleServer(t)} }},
		// mcpeek's own fixture speaks both eras: the starter runs in each,
		// with era parity, which a result that differs call to call
		// (url_consent names a new elicitation each time) is spared.
		{"mcpeek fixture", func(t *testing.T) []string { return []string{mcpeekBin, "fixture"} }},
	}
	for _, s := range servers {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			words := s.server(t)
			file := filepath.Join(t.TempDir(), "starter.mcpeek.yaml")
			args := append([]string{"test", "init", "--out", file}, words...)
			if !strings.HasPrefix(words[0], "http") {
				args = append([]string{"test", "init", "--out", file, "--"}, words...)
			}
			if r := mcpeek(t, args...); r.code != exitOK {
				t.Fatalf("test init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			starter, _ := os.ReadFile(file)
			r := mcpeek(t, "test", file)
			if r.code != exitOK || !regexp.MustCompile(`(?m)^\d+ passed, 0 failed, \d+ skipped$`).MatchString(r.stdout) {
				t.Fatalf("the starter's first run: exit %d\n%s%s\nthe starter:\n%s", r.code, r.stdout, r.stderr, starter)
			}
			for _, m := range skipLine.FindAllStringSubmatch(r.stdout, -1) {
				if m[2] == "" {
					t.Errorf("%s is skipped without a reason:\n%s", m[1], r.stdout)
				}
			}
		})
	}
}

// + saves a call to a server nobody here wrote, answered in its form, and
// `mcpeek test` passes the saved test at once: server-everything's
// trigger-elicitation-request, in the one era it speaks.
func TestInspectorSavedTestOfServerEverythingPasses(t *testing.T) {
	t.Parallel()
	everything := needServer(t, "MCPEEK_SERVER_EVERYTHING", "mcp-server-everything")
	dir := t.TempDir()
	in := startTerminalInspector(t, dir, "--", everything, "stdio").expect("trigger-elicitation-request")
	// The server asks the inspector's roots 350ms after it starts, as a
	// question of its own: the call comes after it (the wire log, tab 5,
	// shows it), as a person's does.
	in.keys("5").expect("← roots/list")
	in.call("trigger-elicitation-request").expect("is asking for input")
	// The form ignores keys for a moment after it appears: the name's
	// first letter is typed until it shows. A slow frame can let a second
	// one in, so once the form takes keys the field is emptied and the
	// name typed once.
	in.keyUntil("Z", "> Z").keys(strings.Repeat("\x7f", 8), "Z", "ctrl+s").expect(`"name": "Z"`)
	file := in.saveTest(dir, "call trigger-elicitation-request", notRunAgain)
	r := mcpeek(t, "test", file)
	if saved, _ := os.ReadFile(file); r.code != exitOK || !strings.Contains(r.stdout, "1 passed, 0 failed") {
		t.Fatalf("mcpeek test: exit %d\n%s%s\nthe suite:\n%s", r.code, r.stdout, r.stderr, saved)
	}
}

// + saves a read of an mcp-go resource in the 2026-07-28 era, whose result
// carries the era's cache hints (ttlMs, cacheScope) and the other era's
// none, and `mcpeek test` passes it at once in both eras and their parity.
func TestInspectorSavedReadOfMcpGoPasses(t *testing.T) {
	t.Parallel()
	server := mcpGoServer(t)
	dir := t.TempDir()
	in := startTerminalInspector(t, dir, "--protocol", "modern", "--", server).expect("register")
	in.keys("2", "/", "greeting", "enter", "enter").expect("hello from mcp-go")
	in.keys("+").expect("Save as a test: read mcpgo://greeting", "no value changed").keys("enter").expect("saved the test")
	testPasses(t, filepath.Join(dir, "mcpeek", "session.yaml"))
}

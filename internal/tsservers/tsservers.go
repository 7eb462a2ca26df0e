// Package tsservers names, for the tests, the MCP servers in testdata/tasks
// and testdata/servers that are written for them on the TypeScript SDKs:
// the command that runs one, or a skip (a failure under
// MCPEEK_REQUIRE_BROWSER=1) when Node or the SDK is missing.
package tsservers

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// OptionalTasks is the server whose slow_sum may run as a 2025-11-25 task
// ($MCPEEK_TS_SDK names @modelcontextprotocol/sdk).
func OptionalTasks(t testing.TB) []string {
	t.Helper()
	return command(t, "optional-server.mjs", "MCPEEK_TS_SDK", "@modelcontextprotocol/sdk")
}

// TasksExtension is the 2026-07-28 server offering the tasks extension
// ($MCPEEK_TS_SERVER names @modelcontextprotocol/server).
func TasksExtension(t testing.TB) []string {
	t.Helper()
	return command(t, "ext-server.mjs", "MCPEEK_TS_SERVER", "@modelcontextprotocol/server")
}

// Asks is the server whose tools ask mcpeek without params, or outside
// a tool's input rounds ($MCPEEK_TS_SERVER names
// @modelcontextprotocol/server); --http serves it over streamable HTTP.
func Asks(t testing.TB) []string {
	t.Helper()
	return commandIn(t, "servers", "asks.mjs", "MCPEEK_TS_SERVER", "@modelcontextprotocol/server")
}

// Resumable is a streamable HTTP server with an event store, so with
// resumability ($MCPEEK_TS_SDK names @modelcontextprotocol/sdk): it
// prints its URL as its first line.
func Resumable(t testing.TB) []string {
	t.Helper()
	return commandIn(t, "servers", "resumable.mjs", "MCPEEK_TS_SDK", "@modelcontextprotocol/sdk")
}

func command(t testing.TB, script, env, pkg string) []string {
	t.Helper()
	return commandIn(t, "tasks", script, env, pkg)
}

func commandIn(t testing.TB, dir, script, env, pkg string) []string {
	t.Helper()
	_, noNode := exec.LookPath("node")
	if os.Getenv(env) == "" || noNode != nil {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("Node and %s are required (MCPEEK_REQUIRE_BROWSER=1): set %s to its folder", pkg, env)
		}
		t.Skipf("needs Node and %s: set %s to its folder", pkg, env)
	}
	return Script(dir, script)
}

// Script is the command that runs testdata/<dir>/<script> with Node, for
// a test that has checked for Node and tells the server where its SDK is
// in the server's own environment (mcpeek's -e), not the tests' process.
func Script(dir, script string) []string {
	_, here, _, _ := runtime.Caller(0)
	return []string{"node", filepath.Join(filepath.Dir(here), "..", "..", "testdata", dir, script)}
}

// HTTP starts a server command that serves HTTP and prints its URL as its
// first line, and returns the URL; the server is stopped when the test
// ends.
func HTTP(t testing.TB, cmd []string) string {
	t.Helper()
	proc := exec.Command(cmd[0], cmd[1:]...)
	out, err := proc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	var mu sync.Mutex
	proc.Stderr = writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return stderr.Write(p)
	})
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proc.Process.Kill(); _ = proc.Wait() })
	urls := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		urls <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case u := <-urls:
		if !strings.HasPrefix(u, "http://") {
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s said %q, not its URL (stderr: %s)", strings.Join(cmd, " "), u, stderr.String())
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not start within 30s", strings.Join(cmd, " "))
		return ""
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

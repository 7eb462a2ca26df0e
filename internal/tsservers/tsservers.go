// Package tsservers names, for the tests, the MCP servers in testdata/tasks
// that are written for them on the TypeScript SDKs: the command that runs
// one, or a skip (a failure under MCPEEK_REQUIRE_BROWSER=1) when Node or
// the SDK is missing.
package tsservers

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
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

func command(t testing.TB, script, env, pkg string) []string {
	t.Helper()
	_, noNode := exec.LookPath("node")
	if os.Getenv(env) == "" || noNode != nil {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("Node and %s are required (MCPEEK_REQUIRE_BROWSER=1): set %s to its folder", pkg, env)
		}
		t.Skipf("needs Node and %s: set %s to its folder", pkg, env)
	}
	_, here, _, _ := runtime.Caller(0)
	return []string{"node", filepath.Join(filepath.Dir(here), "..", "..", "testdata", "tasks", script)}
}

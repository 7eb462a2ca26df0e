package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// optionalTaskServer is the command of a server built on the TypeScript
// SDK whose slow_sum may run as a task and whose plain_echo may not.
func optionalTaskServer(t *testing.T) []string {
	t.Helper()
	t.Setenv("MCPEEK_TS_SDK", tsSDK(t))
	server, err := filepath.Abs(filepath.Join("testdata", "tasks", "optional-server.mjs")) // the tests run at the repository root
	if err != nil {
		t.Fatal(err)
	}
	return []string{"--", "node", server}
}

// A tool whose task support is optional runs as a task with --task (its
// status on stderr, the result on stdout as a call's), and as a plain
// call without; --task on a tool that cannot run as one is a usage error
// saying why, not the server's confusion.
func TestOptionalTaskHeadless(t *testing.T) {
	server := optionalTaskServer(t)
	r := mcpeek(t, append([]string{"call", "slow_sum", "--args", `{"a":2,"b":3}`, "--task", "--protocol", "legacy"}, server...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "sum 5"`) || !strings.Contains(r.stderr, "completed") || !strings.Contains(r.stderr, "mcpeek: task ") {
		t.Errorf("--task: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = mcpeek(t, append([]string{"call", "slow_sum", "--args", `{"a":2,"b":3}`, "--protocol", "legacy"}, server...)...)
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "sum 5"`) || strings.Contains(r.stderr, "mcpeek: task ") {
		t.Errorf("without --task: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = mcpeek(t, append([]string{"call", "plain_echo", "--args", `{"text":"hi"}`, "--task", "--protocol", "legacy"}, server...)...)
	if r.code != exitUsage || !strings.Contains(r.stderr, "plain_echo does not run as a task") {
		t.Errorf("--task on a tool without task support: exit %d, stderr %s", r.code, r.stderr)
	}
}

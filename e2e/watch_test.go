package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// watchEnv is an environment whose proxies' socket directory is the
// test's own: a private XDG_RUNTIME_DIR, short enough for a socket's path.
func watchEnv(t *testing.T) []string {
	t.Helper()
	rt, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	return append(os.Environ(), "XDG_RUNTIME_DIR="+rt)
}

// mcpeekIn runs mcpeek with env and returns its stdout, stderr and exit
// status.
func mcpeekIn(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(mcpeekBin, args...)
	cmd.Env = env
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// A host's session through mcpeek proxy shows in mcpeek watch: --list
// names the proxy, and the watcher on a terminal shows the tools/call and
// the server's question to the host (a legacy elicitation/create) as they
// go by, and + saves the call as a test that passes.
func TestWatchAProxyAHostUses(t *testing.T) {
	t.Parallel()
	env := watchEnv(t)
	if _, errOut, code := mcpeekIn(t, env, "watch"); code != 3 || !strings.Contains(errOut, "no mcpeek proxy of yours is running") {
		t.Fatalf("watch with no proxy: exit %d, stderr %q", code, errOut)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	proxy := exec.Command(mcpeekBin, "proxy", "--name", "fx", "--", mcpeekBin, "fixture", "--era", "legacy")
	proxy.Env = env
	client := mcp.NewClient(&mcp.Implementation{Name: "go-host", Version: "1"}, &mcp.ClientOptions{
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"choice": "option-a"}}, nil
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: proxy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	out, errOut, code := mcpeekIn(t, env, "watch", "--list")
	if code != 0 || !strings.Contains(out, "fx") || !strings.Contains(out, "fixture") {
		t.Fatalf("watch --list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	dir := t.TempDir()
	w := startTerminalInspectorWith(t, dir, env[len(env)-1:], "watch", "fx")
	w.expect("watching", "fx")
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "choose_option"}); err != nil {
		t.Fatal(err)
	}
	w.keys("5").expect("tools/call #3", "choose_option")
	w.keys("4").expect("elicitation", "accept")

	// + on the question saves the call it was asked during, with the
	// host's answer, as a test the proxied server passes.
	file := w.saveTest(dir, "call choose_option")
	r := mcpeek(t, "test", file)
	if r.code != exitOK || !strings.Contains(r.stdout, "1 passed, 0 failed") {
		suite, _ := os.ReadFile(file)
		t.Fatalf("mcpeek test: exit %d\nstdout:\n%s\nstderr:\n%s\nthe suite:\n%s", r.code, r.stdout, r.stderr, suite)
	}
}

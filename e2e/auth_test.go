package e2e

import (
	"bufio"
	"context"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/oauthtest"
)

// tsSDKVersion is the pinned TypeScript MCP SDK whose example server, with
// its demo authorization server, the OAuth test logs in to.
const tsSDKVersion = "1.32.2"

// tsSDK returns the SDK's folder: $MCPEEK_TS_SDK (as CI provides), else
// installed with npm into the user cache.
func tsSDK(t *testing.T) string {
	t.Helper()
	return nodePackage{"MCPEEK_TS_SDK", "@modelcontextprotocol/sdk", tsSDKVersion}.dir(t)
}

// nodePackage is a pinned npm package a test runs with Node.js: the
// environment variable that names its folder, its name and version.
type nodePackage struct{ env, name, version string }

// dir is the package's folder, as [npmPackage] finds it; without node on
// PATH the test skips, or fails under MCPEEK_REQUIRE_BROWSER=1.
func (p nodePackage) dir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
			t.Fatalf("Node and %s are required (MCPEEK_REQUIRE_BROWSER=1): node is not on PATH", p.name)
		}
		t.Skipf("needs Node and %s (or $%s): node is not on PATH", p.name, p.env)
	}
	return npmPackage(t, p.env, p.name, p.version, "package.json")
}

// browserServer is this test binary as mcpeek's browser (--open-with): it
// notes its arguments and the URL its launch page sends it to, one line
// per run (arguments, a tab, the URL), opens it and follows the redirect
// to mcpeek's callback.
func browserServer() int {
	authURL, err := launchTarget(os.Args[len(os.Args)-1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		return 1
	}
	if f, err := os.OpenFile(os.Getenv("MCPEEK_TEST_EVENTS"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		fmt.Fprintf(f, "%s\t%s\n", strings.Join(os.Args, " "), authURL)
		f.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	loc, err := oauthtest.Browser(ctx, authURL)
	if err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		return 1
	}
	if _, err := oauthtest.Follow(ctx, loc); err != nil {
		fmt.Fprintln(os.Stderr, "browser:", err)
		return 1
	}
	return 0
}

// launchTarget is where a browser given u ends: a file:// launch page's
// refresh target, or u itself.
func launchTarget(u string) (string, error) {
	path, ok := strings.CutPrefix(u, "file://")
	if !ok {
		return u, nil
	}
	page, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	target := between(string(page), `content="0;url=`, `"`)
	if target == "" {
		return "", fmt.Errorf("%s is not a launch page", u)
	}
	return html.UnescapeString(target), nil
}

// The TypeScript SDK's example server behind its demo authorization
// server: the first run logs in through the browser and stores the token
// (0600); the second reuses it without opening anything; --stored-auth-only
// with an empty store fails with exit 3; logout forgets.
func TestOAuthAgainstTheTypeScriptSDK(t *testing.T) {
	t.Parallel()
	mcpPort := startOAuthExample(t, tsSDK(t))
	config := t.TempDir()
	events := filepath.Join(t.TempDir(), "opened")
	url := fmt.Sprintf("http://localhost:%d/mcp", mcpPort)
	run := func(args ...string) result {
		t.Helper()
		cmd := exec.Command(mcpeekBin, append(args, "--timeout", "60s", url)...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return result{code: code, stdout: stdout.String(), stderr: stderr.String()}
	}
	opener := fmt.Sprintf("MCPEEK_TEST_SERVER=browser MCPEEK_TEST_EVENTS=%s %s", events, testBinary)
	opened := func() int {
		b, _ := os.ReadFile(events)
		return strings.Count(string(b), "\n")
	}

	r := run("call", "greet", "--args", `{"name":"OAuth"}`, "--open-with", opener, "--wire-log", filepath.Join(config, "wire.jsonl"))
	if r.code != exitOK || !strings.Contains(r.stdout, "Hello, OAuth!") {
		t.Fatalf("first run: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if opened() != 1 {
		t.Fatalf("the first run opened the browser %d times", opened())
	}
	store := filepath.Join(config, "mcpeek", "auth.json")
	info, err := os.Stat(store)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token store: %v %v", err, info)
	}
	stored, _ := os.ReadFile(store)
	wire, _ := os.ReadFile(filepath.Join(config, "wire.jsonl"))
	if tok := between(string(stored), `"accessToken": "`, `"`); tok == "" || strings.Contains(string(wire), tok) || strings.Contains(r.stderr, tok) {
		t.Errorf("the access token is missing from the store, or shows in the wire log or stderr")
	}
	if !strings.Contains(string(wire), "auth: signed in to") {
		t.Errorf("the wire log does not narrate the login")
	}

	r = run("call", "greet", "--args", `{"name":"again"}`, "--open-with", opener, "--stored-auth-only")
	if r.code != exitOK || !strings.Contains(r.stdout, "Hello, again!") || opened() != 1 {
		t.Fatalf("second run: exit %d, opened %d times\nstdout %s\nstderr %s", r.code, opened(), r.stdout, r.stderr)
	}

	r = run("auth", "status")
	if r.code != exitOK || !strings.Contains(r.stdout, url) || strings.Contains(r.stdout, between(string(stored), `"accessToken": "`, `"`)) {
		t.Errorf("auth status: exit %d\n%s", r.code, r.stdout)
	}
	if r = run("auth", "logout"); r.code != exitOK || !strings.Contains(r.stdout, "forgot 1 stored token") {
		t.Errorf("auth logout: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	r = run("call", "greet", "--args", `{"name":"x"}`, "--stored-auth-only")
	if r.code != exitConnection || !strings.Contains(r.stderr, "no usable stored token") || strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
		t.Errorf("stored-only without a token: exit %d, stderr %q", r.code, r.stderr)
	}
}

// startOAuthExample starts the TypeScript SDK's example server with its
// demo authorization server and returns the MCP port.
func startOAuthExample(t *testing.T, sdk string) int {
	t.Helper()
	mcpPort, authPort := freePort(t), freePort(t)
	startTSExample(t, sdk, []string{fmt.Sprintf("MCP_PORT=%d", mcpPort), fmt.Sprintf("MCP_AUTH_PORT=%d", authPort)}, "--oauth")
	return mcpPort
}

// startTSExample runs the TypeScript SDK's example streamable HTTP server
// with env added and args, until the test ends, and returns once it
// listens.
func startTSExample(t *testing.T, sdk string, env []string, args ...string) {
	t.Helper()
	server := exec.Command("node", append([]string{filepath.Join(sdk, "dist", "esm", "examples", "server", "simpleStreamableHttp.js")}, args...)...)
	server.Env = append(os.Environ(), env...)
	out, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "MCP Streamable HTTP Server listening") {
				close(ready)
				break
			}
		}
		for sc.Scan() { // keep draining
		}
	}()
	select {
	case <-ready:
	case <-time.After(30 * time.Second):
		t.Fatal("the TypeScript SDK's example server did not start")
	}
}

func between(s, start, end string) string {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return ""
	}
	v, _, _ := strings.Cut(rest, end)
	return v
}

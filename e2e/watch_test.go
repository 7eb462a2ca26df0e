package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/watch"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// watchEnv is an environment whose proxies' socket directory is the
// test's own: a private XDG_RUNTIME_DIR, short enough for a socket's path;
// runtime is that entry alone, for a terminal inspector's environment.
func watchEnv(t *testing.T) (env []string, runtime string) {
	t.Helper()
	rt, err := os.MkdirTemp("", "mw")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	runtime = "XDG_RUNTIME_DIR=" + rt
	return append(os.Environ(), runtime), runtime
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
	env, runtime := watchEnv(t)
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
	w := startTerminalInspectorWith(t, dir, []string{runtime}, "watch", "fx")
	w.expect("watching", "fx")
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "choose_option"}); err != nil {
		t.Fatal(err)
	}
	w.keys("5").expect("tools/call #3", "choose_option")
	w.keys("4").expect("elicitation", "accept")

	// + on the question saves the call it was asked during, with the
	// host's answer, as a test the proxied server passes.
	file := w.saveTest(dir, "call choose_option", notRunAgain)
	r := mcpeek(t, "test", file)
	if r.code != exitOK || !strings.Contains(r.stdout, "1 passed, 0 failed") {
		suite, _ := os.ReadFile(file)
		t.Fatalf("mcpeek test: exit %d\nstdout:\n%s\nstderr:\n%s\nthe suite:\n%s", r.code, r.stdout, r.stderr, suite)
	}
}

// A proxy's question (Hub.Ask, what --answer asks first) opens the form
// of the real mcpeek watch on a terminal, and the keys typed there are
// its answer; a watcher that goes while asked ends the question at once.
func TestWatchAnswersAProxysQuestion(t *testing.T) {
	t.Parallel()
	env, runtime := watchEnv(t)
	dir := filepath.Join(strings.TrimPrefix(env[len(env)-1], "XDG_RUNTIME_DIR="), "mcpeek")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	hub, err := watch.Start(watch.Options{Dir: dir, Info: watch.Info{Name: "asker", Server: "a server"}, Wire: mcpclient.NewWireLog(0, nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	params := json.RawMessage(`{"message":"Pick one.","requestedSchema":{"type":"object","properties":{"choice":{"type":"string","enum":["a","b"]}},"required":["choice"]}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := hub.Ask(ctx, params); !errors.Is(err, watch.ErrNoWatcher) {
		t.Fatalf("Ask with no watcher: %v", err)
	}

	w := startTerminalInspectorWith(t, t.TempDir(), []string{runtime}, "watch", "asker")
	w.expect("watching", "asker")
	type answer struct {
		res json.RawMessage
		err error
	}
	ask := func(params json.RawMessage) chan answer {
		got := make(chan answer, 1)
		go func() {
			for hub.Watchers() == 0 { // attached once its hello is read; asked right after
				select {
				case <-ctx.Done():
					got <- answer{err: ctx.Err()}
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
			res, err := hub.Ask(ctx, params)
			got <- answer{res, err}
		}()
		return got
	}
	got := ask(params)
	w.expect("is asking for input", "Pick one.")
	w.keyUntil("down", "● b").keys("ctrl+s")
	a := <-got
	if a.err != nil || string(a.res) != `{"action":"accept","content":{"choice":"b"}}` {
		t.Fatalf("Ask = %s, %v; want choice b", a.res, a.err)
	}

	// The watcher goes while asked: the question ends at once.
	got = ask(json.RawMessage(`{"message":"And now?","requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}`))
	w.expect("And now?")
	if err := w.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if a := <-got; a.err == nil || ctx.Err() != nil {
		t.Fatalf("Ask after the watcher went = %s, %v; want an error at once", a.res, a.err)
	}
}

// A host that advertises no elicitation, through mcpeek proxy --answer:
// the fixture's question opens the form of the mcpeek watch attached, on
// a terminal, and the host gets the call completed with the choice typed
// there, in either era.
func TestProxyAnswersInTheWatchersForm(t *testing.T) {
	t.Parallel()
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			env, runtime := watchEnv(t)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			proxy := exec.Command(mcpeekBin, "proxy", "--answer", "--name", "fx-"+era, "--", mcpeekBin, "fixture", "--era", era)
			proxy.Env = env
			var stderr lockedBuffer // the proxy writes it while the test may read it
			proxy.Stderr = &stderr
			client := mcp.NewClient(&mcp.Implementation{Name: "go-host", Version: "1"}, nil) // no elicitation
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: proxy}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()

			w := startTerminalInspectorWith(t, t.TempDir(), []string{runtime}, "watch", "fx-"+era)
			w.expect("watching", "fx-"+era)
			// Attached once the watcher's Log shows the proxy's traffic so far.
			w.expect("server/discover #1")
			type called struct {
				res *mcp.CallToolResult
				err error
			}
			got := make(chan called, 1)
			go func() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "choose_option"})
				got <- called{res, err}
			}()
			w.expect("is asking for input", "Choose option A or B.")
			w.keyUntil("down", "● option-b").keys("ctrl+s")
			c := <-got
			if c.err != nil {
				t.Fatalf("tools/call: %v; the proxy said:\n%s", c.err, stderr.String())
			}
			text, _ := json.Marshal(c.res)
			if !strings.Contains(string(text), "option-b") {
				t.Fatalf("the host got %s, want option-b chosen; the proxy said:\n%s", text, stderr.String())
			}
		})
	}
}

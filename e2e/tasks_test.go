package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/tsservers"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// countedSome is slow_count's status as mcpeek shows it: which step the
// first poll sees depends on the machine's speed.
var countedSome = regexp.MustCompile(`counted \d+ of 100`)

// optionalTaskServer is the command of a server built on the TypeScript
// SDK whose slow_sum may run as a task and whose plain_echo may not. The
// SDK's folder (installed when not given) is in the server's environment
// alone, so that the tests that run it can run side by side.
func optionalTaskServer(t *testing.T) []string {
	t.Helper()
	return append([]string{"-e", "MCPEEK_TS_SDK=" + tsSDK(t), "--"}, tsservers.Script("tasks", "optional-server.mjs")...)
}

// A tool whose task support is optional runs as a task with --task (its
// status on stderr, the result on stdout as a call's), and as a plain
// call without; --task on a tool that cannot run as one is a usage error
// saying why, not the server's confusion.
func TestOptionalTaskHeadless(t *testing.T) {
	t.Parallel()
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

// tasksExtServer is the command of a 2026-07-28 server, built on the
// TypeScript SDK's v2 server package, that offers the tasks extension.
func tasksExtServer(t *testing.T) []string {
	return append([]string{"--"}, tsservers.TasksExtension(t)...)
}

// lockedBuffer is a buffer a process writes while a test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// tasksExtHTTP starts the tasks extension server over streamable HTTP and
// returns its URL and what it says on stderr.
func tasksExtHTTP(t *testing.T) (string, *lockedBuffer) {
	t.Helper()
	cmd := tasksExtServer(t)
	proc := exec.Command(cmd[1], append(cmd[2:], "--http")...)
	out, err := proc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &lockedBuffer{}
	proc.Stderr = stderr
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
		if !strings.HasPrefix(u, "http://127.0.0.1:") {
			t.Fatalf("the server said %q, not its URL (stderr: %s)", u, stderr)
		}
		return u, stderr
	case <-time.After(20 * time.Second):
		t.Fatalf("the tasks extension server did not start (stderr: %s)", stderr)
		return "", nil
	}
}

// Over streamable HTTP too, the side channel's requests (with the
// 2026-07-28 transport's Mcp-Method and Mcp-Name headers, which the
// server checks against the body) carry a task from its call to its
// answer and its cancellation.
func TestTasksExtensionOverHTTP(t *testing.T) {
	t.Parallel()
	url, stderr := tasksExtHTTP(t)
	answers := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(answers, []byte(`[{"match":{"message":"Delete"},"action":"accept","content":{"ok":true}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := mcpeek(t, "call", "confirm_delete", "--args", `{"path":"/h"}`, "--answers", answers, url)
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "deleted /h"`) || !strings.Contains(r.stderr, "completed") {
		t.Errorf("confirm_delete: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = mcpeek(t, "call", "slow_count", "--args", `{"to":100}`, "--timeout", "5s", url) // a busy machine's time included
	if r.code != exitTimeout || !countedSome.MatchString(r.stderr) {
		t.Errorf("slow_count: exit %d, stderr %s", r.code, r.stderr)
	}
	// Node writes stderr to a pipe asynchronously: the line may follow the
	// answer to tasks/cancel.
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(stderr.String(), " cancelled"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server never cancelled the task: %s", stderr)
		}
	}
}

// Against a server offering the 2026-07-28 tasks extension: a tool that
// runs only as a task is called as one without asking (its question
// answered from the answers file and recorded with the task's id, or
// declined); input asked before the task exists is answered and the call
// retried; --timeout cancels a task (tasks/cancel); --task on a tool the
// server runs at once gets its result; and a server without the extension
// is told apart.
func TestTasksExtensionHeadless(t *testing.T) {
	t.Parallel()
	server := tasksExtServer(t)
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.json")
	if err := os.WriteFile(answers, []byte(`[{"match":{"message":"Delete"},"action":"accept","content":{"ok":true}},
		{"match":{"message":"Your name"},"action":"accept","content":{"name":"Ada"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) result { return mcpeek(t, append(args, server...)...) }

	log := filepath.Join(dir, "requests.jsonl")
	r := run("call", "confirm_delete", "--args", `{"path":"/x"}`, "--answers", answers, "--elicit-log", log)
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "deleted /x"`) || !strings.Contains(r.stderr, "input_required") || !strings.Contains(r.stderr, "completed") {
		t.Errorf("confirm_delete: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if recs := readRecords(t, log); len(recs) != 1 || recs[0]["action"] != "accept" || recs[0]["taskId"] == nil || recs[0]["taskId"] == "" {
		t.Errorf("records %v, want the accepted question with its task id", recs)
	}
	r = run("call", "confirm_delete", "--args", `{"path":"/y"}`, "--on-elicit", "decline")
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "kept /y (decline)"`) {
		t.Errorf("declined: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = run("call", "ask_first", "--task", "--answers", answers)
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "hello Ada, in a task"`) {
		t.Errorf("ask_first: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	wire := filepath.Join(dir, "wire.jsonl")
	// The time covers starting Node and the task's first steps too, slow on
	// a busy machine; the count takes 20 s.
	r = run("call", "slow_count", "--args", `{"to":100}`, "--timeout", "10s", "--wire-log", wire)
	if r.code != exitTimeout || !countedSome.MatchString(r.stderr) {
		t.Errorf("slow_count: exit %d, stderr %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(wire); err != nil || !strings.Contains(string(b), `"method":"tasks/cancel"`) {
		t.Errorf("no tasks/cancel went out when the time was up (%v)", err)
	}
	r = run("call", "greet", "--args", `{"name":"Bo"}`, "--task")
	if r.code != exitOK || !strings.Contains(r.stdout, `"text": "hello Bo"`) || strings.Contains(r.stderr, "mcpeek: task ") {
		t.Errorf("greet --task: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = mcpeek(t, "call", "list_roots", "--task")
	if r.code == exitOK || !strings.Contains(r.stderr, "does not offer the 2026-07-28 tasks extension") {
		t.Errorf("--task on the fixture: exit %d, stderr %s", r.code, r.stderr)
	}
}

// Tasks mcpeek cannot follow, or answer, are cancelled, not left running,
// and the error says why; a task that fails says how.
func TestTasksExtensionRefusals(t *testing.T) {
	t.Parallel()
	server := tasksExtServer(t)
	dir := t.TempDir()
	run := func(args ...string) result { return mcpeek(t, append(args, server...)...) }
	var r result
	for _, tc := range []struct {
		tool, want string
		code       int
	}{
		{"reuse_key", `the server reused the input key "q" for another request (mcpeek cancelled it)`, exitConnection},
		{"needs_sampling", "the user rejected the sampling request (mcpeek cancelled it)", exitToolError},
	} {
		wire := filepath.Join(dir, tc.tool+".jsonl")
		r = run("call", tc.tool, "--on-elicit", "decline", "--wire-log", wire)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %s", tc.tool, r.code, r.stderr)
		}
		if b, _ := os.ReadFile(wire); !cancelAnswered(b) {
			t.Errorf("%s: the task was not cancelled (no tasks/cancel answered in the wire log)", tc.tool)
		}
	}
	r = run("call", "fail_job")
	if r.code != exitConnection || !strings.Contains(r.stderr, "failed: the job broke (-32603)") {
		t.Errorf("fail_job: exit %d, stderr %s", r.code, r.stderr)
	}
}

// Closing the connection while a task runs (the person quits the
// inspector, or switches servers) cancels the task first: the server hears
// tasks/cancel and answers it before the connection goes.
func TestTasksExtensionCancelledOnClose(t *testing.T) {
	t.Parallel()
	server := tasksExtServer(t)[1:]
	wirePath := filepath.Join(t.TempDir(), "wire.jsonl")
	f, err := os.Create(wirePath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetStdio, Command: server},
		Wire: mcpclient.NewWireLog(0, f)})
	if err != nil {
		t.Fatal(err)
	}
	working := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		_, err := conn.CallTask(ctx, "slow_count", json.RawMessage(`{"to":100}`), func(st mcpclient.TaskStatus) {
			if st.Status == "working" {
				select {
				case working <- struct{}{}:
				default:
				}
			}
		})
		done <- err
	}()
	select {
	case <-working:
	case <-ctx.Done():
		t.Fatal("the task never started")
	}
	_ = conn.Close()
	if err := <-done; err == nil {
		t.Error("the call of a task cut short by Close returned no error")
	}
	log, err := os.ReadFile(wirePath)
	if err != nil {
		t.Fatal(err)
	}
	if !cancelAnswered(log) {
		t.Error("no tasks/cancel was sent and answered before the connection closed")
	}
}

// cancelAnswered reports whether a wire log shows a tasks/cancel sent and
// the server's result for that very request.
func cancelAnswered(log []byte) bool {
	var id any
	for _, line := range strings.Split(string(log), "\n") {
		var e struct {
			Dir, Method string
			ID          any
			Message     struct {
				Result json.RawMessage
			}
		}
		if json.Unmarshal([]byte(line), &e) != nil {
			continue
		}
		switch {
		case e.Dir == "send" && e.Method == "tasks/cancel":
			id = e.ID
		case id != nil && e.Dir == "recv" && e.ID == id && e.Message.Result != nil:
			return true
		}
	}
	return false
}

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smokeSuite is a cloned repository's test: named read-only, it calls a
// tool the server does not annotate read-only, then accepts a question
// with a value it reads from the person's environment.
// It is written as a repository would commit it, in block style.
const smokeSuite = `version: 1
server: fixture
tests:
  - name: list files (read-only smoke test)
    steps:
      - call: touch_counter
      - call: choose_option
        answers:
          - match:
              message: Choose option
            action: accept
            content:
              choice: "{{env.DANGER_CHOICE}}"
        expect:
          text: "accept: option-b"
`

// The mcpeek binary's inspector in a clone: 7, enter on a project's test
// shows what it will do and runs nothing unless the person says y (the
// wire log holds no call); a yes runs it and is remembered in the
// person's store of approved project servers (0600), so the next
// inspector runs it at once. Run as root (as CI does), the clone is
// made by another user (see clone), as a repository a stranger committed
// (issue 36, item 2). It guards the Suite tab's approval: before it, Enter
// ran the test at once, answering the tool's form with the person's
// environment, and the row said only "✓ passed".
func TestSuiteTabRunsAProjectTestOnlyOnceApproved(t *testing.T) {
	t.Parallel()
	// As root, the clone's suite is another user's (see clone): the
	// approval is the person's whoever committed the suite.
	dir := clone(t, map[string]string{"mcpeek/smoke.yaml": smokeSuite}, nil)
	config, logs := t.TempDir(), t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + config, "DANGER_CHOICE=option-b"}
	wire := filepath.Join(logs, "wire.jsonl")
	calls := func() int {
		data, err := os.ReadFile(wire)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(data), `"tools/call"`) // the request's line, and its answer's

	}

	in := startTerminalInspectorWith(t, dir, env, "--protocol", "legacy", "--wire-log", wire).expect("choose_option")
	in.keys("7").expect("list files (read-only smoke test)")
	in.keys("enter").expect("Run a project's test?", "call touch_counter", "no annotations: not read-only", "call choose_option",
		`"choice":"{{env.DANGER_CHOICE}}"`, "DANGER_CHOICE")
	in.keys("n").expect("you did not approve it")
	if n := calls(); n != 0 {
		t.Fatalf("the server was sent %d call(s) of a test the person declined", n)
	}
	in.keys("enter").expect("Run a project's test?").keys("y").expect("✓ passed")
	if calls() == 0 {
		t.Fatal("no call reached the server after the approved run")
	}
	store := filepath.Join(config, "mcpeek", "approved-servers.json")
	info, err := os.Stat(store)
	if err != nil {
		t.Fatalf("the approval was not remembered: %v", err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("the store is %04o, want 0600", perm)
	}

	// Another inspector in the same clone: approved, it runs at once
	// (the review would cover the row's mark).
	again := startTerminalInspectorWith(t, dir, env, "--protocol", "legacy").expect("choose_option")
	again.keys("7").expect("list files (read-only smoke test)").keys("enter").expect("✓ passed")
}

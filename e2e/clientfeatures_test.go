package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ask_model's sampling request is answered from the answers file in both
// eras; the record names its kind.
func TestSamplingFromAnswersFile(t *testing.T) {
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "requests.jsonl")
			r := mcpeek(t, "call", "ask_model", "--protocol", era.flag,
				"--answers", "testdata/answers/sampling.json", "--elicit-log", log)
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			sc := r.structured(t)
			if sc["model"] != "answers-file" || sc["text"] != "T-7 is the login page that forgets the user." || sc["role"] != "assistant" {
				t.Errorf("structuredContent = %v", sc)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["kind"] != "sampling" || recs[0]["action"] != "accept" || recs[0]["key"] != "s-1" {
				t.Errorf("records = %v", recs)
			}
		})
	}
}

// Without an answer a sampling request is rejected, and stderr says so: a
// legacy server hears the rejection; in the modern era the call ends.
func TestSamplingRejected(t *testing.T) {
	for _, tc := range []struct {
		name, era string
		args      []string
		code      int
		stderr    string
	}{
		{"legacy, no answer", "legacy", nil, exitOK, "no answers-file entry matched (--on-sample reject)"},
		{"legacy, answers file rejects", "legacy", []string{"--answers", "testdata/answers/sampling-reject.json"}, exitOK, "rejected by answers file entry 1"},
		{"modern, no answer", "modern", nil, exitToolError, "rejected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mcpeek(t, append([]string{"call", "ask_model", "--protocol", tc.era}, tc.args...)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d; stderr: %s", r.code, tc.code, r.stderr)
			}
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr %q does not say %q", r.stderr, tc.stderr)
			}
			if tc.era == "legacy" && r.structured(t)["action"] != "reject" {
				t.Errorf("the server did not hear a rejection: %s", r.stdout)
			}
		})
	}
}

// --root offers roots: a path as its absolute file:// URI, a URI as given.
func TestRootsFromFlags(t *testing.T) {
	abs, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "requests.jsonl")
			r := mcpeek(t, "call", "list_roots", "--protocol", era.flag, "--root", "testdata",
				"--root", "file:///srv/repo", "--elicit-log", log)
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			// The SDK lists roots by URI, so the order depends on where the checkout is.
			want := []string{"file:///srv/repo", "file://" + filepath.ToSlash(abs)}
			slices.Sort(want)
			roots, _ := r.structured(t)["roots"].([]any)
			if fmt.Sprint(roots) != fmt.Sprint(want) {
				t.Errorf("roots = %v, want %v", roots, want)
			}
			recs := readRecords(t, log)
			if len(recs) != 1 || recs[0]["kind"] != "roots" || recs[0]["action"] != "answered" {
				t.Errorf("records = %v", recs)
			}
		})
	}
}

// --log-level warning: the five messages at warning and above go to stderr,
// one line each; stdout holds only the result.
func TestLogLevelHeadless(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			r := mcpeek(t, "call", "log_burst", "--protocol", era.flag, "--log-level", "warning")
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			var lines []string
			for _, l := range strings.Split(r.stderr, "\n") {
				if strings.HasPrefix(l, "mcpeek: server log ") {
					lines = append(lines, l)
				}
			}
			want := []string{"warning", "error", "critical", "alert", "emergency"}
			if len(lines) != len(want) {
				t.Fatalf("stderr log lines %q, want %d", lines, len(want))
			}
			for i, l := range lines {
				if !strings.HasPrefix(l, "mcpeek: server log "+want[i]+" [fixture]: ") || !strings.Contains(l, `"a `+want[i]+` message"`) {
					t.Errorf("line %d = %q", i, l)
				}
			}
			if strings.Contains(r.stdout, "server log") {
				t.Errorf("log lines on stdout: %s", r.stdout)
			}
		})
	}
}

// Bad flags and bad answers files are usage errors that say what is wrong.
func TestClientFeatureUsageErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"log level", []string{"--log-level", "loud"}, `unknown log level "loud"`},
		{"on-sample", []string{"--on-sample", "accept"}, `unknown --on-sample policy "accept"`},
		{"unknown key", []string{"--answers", write("k.json", `[{"method":"sampling/createMessage","result":{"content":{"type":"text","text":"x"}},"temperature":1}]`)}, `unknown field "temperature"`},
		{"unknown method", []string{"--answers", write("m.json", `[{"method":"roots/list","action":"accept"}]`)}, `unknown method "roots/list"`},
		{"sampling without result", []string{"--answers", write("r.json", `[{"method":"sampling/createMessage"}]`)}, "result is missing"},
		{"bad content", []string{"--answers", write("c.json", `[{"method":"sampling/createMessage","result":{"content":{"type":"video"}}}]`)}, "result.content"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mcpeek(t, append([]string{"call", "ask_model"}, tc.args...)...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d stderr %q, want exit 2 saying %q", r.code, r.stderr, tc.want)
			}
		})
	}
}

// complete prints the server's completions of a prompt argument and of a
// template variable.
func TestCompleteCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"prompt", "greet", "language", "F"}, `["Finnish","French"]`},
		{[]string{"resource", "fixture://greeting/{language}", "language", "Sw"}, `["Swedish"]`},
		{[]string{"prompt", "greet", "language", "--protocol", "legacy"}, `["Dutch","English","Esperanto","Finnish","French","German","Greek","Italian","Japanese","Spanish","Swedish"]`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := mcpeek(t, append([]string{"complete"}, tc.args...)...)
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			var got struct{ Values json.RawMessage }
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
				t.Fatal(err)
			}
			if compact(t, got.Values) != tc.want {
				t.Errorf("values %s, want %s", got.Values, tc.want)
			}
		})
	}
	r := mcpeek(t, "complete", "tool", "x", "y")
	if r.code != exitUsage || !strings.Contains(r.stderr, `cannot complete "tool"`) {
		t.Errorf("complete tool: exit %d, %s", r.code, r.stderr)
	}
}

// --subscribe: the update touch_counter causes is shown on stderr, and
// --updates waits for it; in both eras.
func TestSubscribeShowsUpdates(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era.name, func(t *testing.T) {
			t.Parallel()
			r := mcpeek(t, "call", "touch_counter", "--protocol", era.flag,
				"--subscribe", "fixture://counter", "--updates", "1", "--timeout", "20s")
			if r.code != exitOK {
				t.Fatalf("exit %d, stderr: %s", r.code, r.stderr)
			}
			if !strings.Contains(r.stderr, "mcpeek: resource updated: fixture://counter") {
				t.Errorf("stderr %q", r.stderr)
			}
		})
	}
	r := mcpeek(t, "call", "touch_counter", "--subscribe", "fixture://counter", "--updates", "2", "--timeout", "2s")
	if r.code != exitTimeout || !strings.Contains(r.stderr, "1 of 2 seen") {
		t.Errorf("a second update that never comes: exit %d, stderr %q", r.code, r.stderr)
	}
}

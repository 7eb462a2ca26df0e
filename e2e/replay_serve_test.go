package e2e

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
)

// recordFixture records (call --record) a call of choose_option,
// answered option-a, made against the fixture over transport in era.
func recordFixture(t *testing.T, eraFlag, revision, transport string) string {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	args := []string{"call", "choose_option", "--protocol", eraFlag, "--answers", "testdata/answers/choose-option-a.json", "--record", rec}
	if transport == "http" {
		// go-sdk serves 2026-07-28 over HTTP without sessions only.
		srv := httptest.NewServer(fixture.HTTPHandler(fixture.Options{}, revision == "2026-07-28"))
		defer srv.Close()
		args = append(args, srv.URL)
	} else {
		args = append(args, "--", mcpeekBin, "fixture")
	}
	if r := mcpeek(t, args...); r.code != exitOK {
		t.Fatalf("recording: exit %d: %s", r.code, r.stderr)
	}
	return rec
}

// served is what one run of `mcpeek replay --serve` said and how it
// ended, and what the client's call got.
type served struct {
	code   int
	stderr string
	call   result
	asked  []map[string]any
}

// callServedStdio runs `mcpeek call choose_option` answering with
// answers against `mcpeek replay REC --serve` as its stdio server.
func callServedStdio(t *testing.T, rec, eraFlag, answers string) served {
	t.Helper()
	dir := t.TempDir()
	errFile, codeFile, asked := filepath.Join(dir, "stderr"), filepath.Join(dir, "code"), filepath.Join(dir, "asked.jsonl")
	script := `"$0" replay "$1" --serve 2>"$2"; echo $? >"$3"`
	call := mcpeek(t, "call", "choose_option", "--protocol", eraFlag, "--answers", answers, "--elicit-log", asked,
		"--", "sh", "-c", script, mcpeekBin, rec, errFile, codeFile)
	code := waitForFile(t, codeFile)
	stderr, _ := os.ReadFile(errFile)
	var n int
	fmt.Sscan(code, &n)
	return served{code: n, stderr: string(stderr), call: call, asked: readRecords(t, asked)}
}

// callServedHTTP serves rec with `mcpeek replay REC --serve --http :0`,
// runs the call against it, interrupts the server and reads its summary.
func callServedHTTP(t *testing.T, rec, eraFlag, answers string) served {
	t.Helper()
	asked := filepath.Join(t.TempDir(), "asked.jsonl")
	srv := exec.Command(mcpeekBin, "replay", rec, "--serve", "--http", ":0")
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill() }()
	br := bufio.NewReader(stderr)
	line, err := br.ReadString('\n')
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
	if err != nil || url == "" {
		t.Fatalf("the server did not say where it listens (%v): %q", err, line)
	}
	call := mcpeek(t, "call", "choose_option", "--protocol", eraFlag, "--answers", answers, "--elicit-log", asked, url)
	if err := srv.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	rest, _ := readAll(br)
	err = srv.Wait()
	code := 0
	if ee := (*exec.ExitError)(nil); err != nil {
		if !asExitError(err, &ee) {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	return served{code: code, stderr: rest, call: call, asked: readRecords(t, asked)}
}

func readAll(br *bufio.Reader) (string, error) {
	var b strings.Builder
	_, err := br.WriteTo(&b)
	return b.String(), err
}

func asExitError(err error, target **exec.ExitError) bool {
	ee, ok := err.(*exec.ExitError)
	*target = ee
	return ok
}

// waitForFile waits for a file a process writes when it ends, and
// returns its content.
func waitForFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSpace(string(b))
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was never written", path)
		}
		time.Sleep(20 * time.Millisecond) // polling for a file another process writes, with a deadline
	}
}

// `mcpeek call` against `mcpeek replay REC --serve` (stdio and HTTP, both
// eras) gets the recorded result and is asked the recorded question; an
// answer that differs from the recorded one is reported by the served
// recording (exit 1, a summary line naming the question and where the
// answer differs), which still gives the recorded result.
func TestReplayServe(t *testing.T) {
	differ := filepath.Join(t.TempDir(), "option-b.json")
	if err := os.WriteFile(differ, []byte(`[{"match": {"message": "Choose option"}, "action": "accept", "content": {"choice": "option-b"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, era := range eras {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(era.name+"/"+transport, func(t *testing.T) {
				t.Parallel()
				rec := recordFixture(t, era.flag, era.want, transport)
				serve := callServedStdio
				if transport == "http" {
					serve = callServedHTTP
				}
				same := serve(t, rec, era.flag, "testdata/answers/choose-option-a.json")
				checkServedCall(t, same)
				if same.code != exitOK || !strings.Contains(same.stderr, "everything matched") {
					t.Errorf("the same answer: server exit %d, want 0 and everything matched:\n%s", same.code, same.stderr)
				}
				other := serve(t, rec, era.flag, differ)
				checkServedCall(t, other)
				wantLine := regexp.MustCompile(`(?m)^  answer differs: .*during tools/call choose_option: at /content/choice recorded "option-a", got "option-b"$`)
				if other.code != exitToolError || !wantLine.MatchString(other.stderr) {
					t.Errorf("another answer: server exit %d, want 1 and the answer named:\n%s", other.code, other.stderr)
				}
			})
		}
	}
}

// checkServedCall checks that the call got the recorded result and was
// asked the recorded question.
func checkServedCall(t *testing.T, s served) {
	t.Helper()
	if s.call.code != exitOK {
		t.Fatalf("call: exit %d: %s\nserver: %s", s.call.code, s.call.stderr, s.stderr)
	}
	if got := s.call.structured(t); got["choice"] != "option-a" {
		t.Errorf("call got %v, want the recorded option-a", got)
	}
	// The answers file's entry matches the recorded question's message.
	if len(s.asked) != 1 || s.asked[0]["kind"] != "elicitation" || s.asked[0]["action"] != "accept" {
		t.Errorf("questions asked = %v, want the recorded one, answered from the answers file", s.asked)
	}
}

// A request the recording does not hold gets a JSON-RPC error naming the
// closest recorded request, and the served recording exits 1 naming it.
func TestReplayServeUnmatched(t *testing.T) {
	rec := recordFixture(t, "legacy", "2025-11-25", "stdio")
	dir := t.TempDir()
	errFile, codeFile := filepath.Join(dir, "stderr"), filepath.Join(dir, "code")
	call := mcpeek(t, "call", "choose_option", "--args", `{"extra":1}`, "--protocol", "legacy",
		"--", "sh", "-c", `"$0" replay "$1" --serve 2>"$2"; echo $? >"$3"`, mcpeekBin, rec, errFile, codeFile)
	code := waitForFile(t, codeFile)
	stderr, _ := os.ReadFile(errFile)
	if call.code == exitOK || !strings.Contains(call.stderr, `the closest recorded is tools/call {"arguments":{},"name":"choose_option"}`) {
		t.Errorf("call: exit %d, want an error naming the closest recorded request:\n%s", call.code, call.stderr)
	}
	if code != "1" || !strings.Contains(string(stderr), `unmatched: tools/call {"arguments":{"extra":1},"name":"choose_option"}`) {
		t.Errorf("server: exit %s, want 1 naming the unmatched request:\n%s", code, stderr)
	}
}

// TestReplayServeAnswersUpkeep: a client that asks for log messages first
// (logging/setLevel, as the official Inspector does), which the recording
// does not hold, gets the spec's empty result from a served recording of a
// server that offered logging; its call gets the recorded result, and the
// summary says everything matched and the setLevel was answered apart.
func TestReplayServeAnswersUpkeep(t *testing.T) {
	rec := recordFixture(t, "legacy", "2025-11-25", "stdio")
	dir := t.TempDir()
	errFile, codeFile := filepath.Join(dir, "stderr"), filepath.Join(dir, "code")
	call := mcpeek(t, "call", "choose_option", "--protocol", "legacy", "--log-level", "debug", "--answers", "testdata/answers/choose-option-a.json",
		"--", "sh", "-c", `"$0" replay "$1" --serve 2>"$2"; echo $? >"$3"`, mcpeekBin, rec, errFile, codeFile)
	code := waitForFile(t, codeFile)
	stderr, _ := os.ReadFile(errFile)
	if call.code != exitOK || call.structured(t)["choice"] != "option-a" || strings.Contains(call.stderr, "setLevel") {
		t.Errorf("call: exit %d, want the recorded result and the level set:\n%s", call.code, call.stderr)
	}
	if code != "0" || !strings.Contains(string(stderr), "everything matched") ||
		!strings.Contains(string(stderr), "not from the recording (not a mismatch): logging/setLevel (1)") {
		t.Errorf("server: exit %s, want 0, everything matched and the setLevel said apart:\n%s", code, stderr)
	}
}

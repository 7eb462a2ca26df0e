package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/record"
)

func tempFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const multiRoundAnswers = `[{"match": {"message": "name"}, "action": "accept", "content": {"name": "Ada"}},
	{"match": {"message": "Confirm"}, "action": "accept", "content": {"confirm": true}}]`

// TestReplayReportsTheChangedResult: a call recorded against the fixture
// (both of its questions answered) replays against the same fixture with
// no difference, and against one whose result changed with the difference
// at its JSON pointer, exit 1; in both eras, on stdio and HTTP.
func TestReplayReportsTheChangedResult(t *testing.T) {
	answers := tempFile(t, "answers.json", multiRoundAnswers)
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			// 2026-07-28 is served without sessions.
			stateless := era == "modern"
			same := httptest.NewServer(fixture.HTTPHandler(fixture.Options{}, stateless))
			defer same.Close()
			changed := httptest.NewServer(fixture.HTTPHandler(fixture.Options{ChangedResults: true}, stateless))
			defer changed.Close()
			rec := filepath.Join(t.TempDir(), "session.jsonl")
			code, stdout, stderr := run("call", "multi_round", "--protocol", era, "--answers", answers, "--record", rec)
			if code != exitOK || !strings.Contains(stdout, "name: Ada, confirm: true") {
				t.Fatalf("record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			if info, err := os.Stat(rec); err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("the recording: %v %v", info, err)
			}
			h, _, err := record.ReadFile(rec)
			if err != nil || h.Protocol != revisionOf(era) {
				t.Fatalf("the recording's header: %+v %v", h, err)
			}

			code, stdout, stderr = run("replay", rec, "--allow-writes")
			if code != exitOK || !strings.Contains(stdout, "replayed 1 requests") || !strings.Contains(stdout, ": 0 differ") {
				t.Errorf("replay on the embedded fixture: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			code, stdout, stderr = run("replay", rec, "--allow-writes", "--", same.URL)
			if code != exitOK || !strings.Contains(stdout, ": 0 differ") {
				t.Errorf("replay over HTTP: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			code, stdout, stderr = run("replay", rec, "--allow-writes", "--", changed.URL)
			want := `tools/call multi_round: differs at /content/0/text: recorded "name: Ada, confirm: true, rounds: 2", got "name: Ada (changed), confirm: true, rounds: 2"`
			if code != exitToolError || !strings.Contains(stdout, want) || !strings.Contains(stdout, ": 1 differ") {
				t.Errorf("replay on the changed fixture: exit %d, stdout %q, stderr %q; want %q", code, stdout, stderr, want)
			}
			code, stdout, stderr = run("replay", rec, "--allow-writes", "--redact", "$.content[0].text", "--redact", "$.structuredContent.name", "--", changed.URL)
			if code != exitOK || !strings.Contains(stdout, ": 0 differ") {
				t.Errorf("replay with the changes redacted: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// TestReplayCallsOnlyReadOnlyToolsUnlessAllowed: the fixture's
// touch_counter changes its state and is not annotated read-only, so a
// replay without --allow-writes stops before calling it, saying so.
func TestReplayCallsOnlyReadOnlyToolsUnlessAllowed(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	if code, _, stderr := run("call", "touch_counter", "--protocol", "modern", "--record", rec); code != exitOK {
		t.Fatalf("record: exit %d, %s", code, stderr)
	}
	code, stdout, stderr := run("replay", rec)
	if code != exitUsage || !strings.Contains(stderr, "stopped before tools/call touch_counter") || !strings.Contains(stderr, "--allow-writes") || !strings.Contains(stdout, "replayed 0 requests") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestRecordNeedsOneRevision: --record with --protocol auto (the default)
// is a usage error saying what to pass, and writes nothing.
func TestRecordNeedsOneRevision(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	for _, args := range [][]string{
		{"call", "multi_round", "--record", rec},
		{"test", "--record", rec, "--protocol", "legacy,modern"},
		{"--record", rec},
	} {
		code, _, stderr := run(args...)
		if code != exitUsage || !strings.Contains(stderr, "--record needs one protocol revision") || !strings.Contains(stderr, "--protocol legacy") {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	if _, err := os.Stat(rec); err == nil {
		t.Error("a recording was written")
	}
}

// TestReplayRefusesWhatIsNotARecording: a wire log is not a recording.
func TestReplayRefusesWhatIsNotARecording(t *testing.T) {
	wire := tempFile(t, "wire.jsonl", `{"time":"2026-01-01T00:00:00Z","dir":"note","text":"x"}`+"\n")
	code, _, stderr := run("replay", wire)
	if code != exitUsage || !strings.Contains(stderr, "wire.jsonl") || !strings.Contains(stderr, "not an mcpeek recording") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestReplayAgainstServerEverything: a session of server-everything's
// elicitation and sampling tools, answered, replays against it with no
// difference.
func TestReplayAgainstServerEverything(t *testing.T) {
	server := serverEverything(t)
	answers := tempFile(t, "answers.json", `[
		{"action": "accept", "content": {"name": "Ada Lovelace", "check": true, "email": "ada@example.com", "homepage": "https://example.com", "birthdate": "1815-12-10"}},
		{"method": "sampling/createMessage", "result": {"content": {"type": "text", "text": "a reply"}, "model": "test-model"}}]`)
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	code, stdout, stderr := run(append([]string{"call", "trigger-elicitation-request", "--protocol", "legacy", "--answers", answers, "--record", rec, "--"}, server...)...)
	if code != exitOK || !strings.Contains(stdout, "Ada Lovelace") {
		t.Fatalf("record the elicitation: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	rec2 := filepath.Join(t.TempDir(), "sampling.jsonl")
	code, stdout, stderr = run(append([]string{"call", "trigger-sampling-request", "--args", `{"prompt": "hi"}`, "--protocol", "legacy", "--answers", answers, "--record", rec2, "--"}, server...)...)
	if code != exitOK || !strings.Contains(stdout, "a reply") {
		t.Fatalf("record the sampling request: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	for _, r := range []string{rec, rec2} {
		code, stdout, stderr = run(append([]string{"replay", r, "--allow-writes", "--"}, server...)...)
		if code != exitOK || !strings.Contains(stdout, "replayed 1 requests") || !strings.Contains(stdout, ": 0 differ") {
			t.Errorf("replay %s: exit %d, stdout %q, stderr %q", filepath.Base(r), code, stdout, stderr)
		}
	}
}

// serverEverything is server-everything's command on stdio:
// $MCPEEK_SERVER_EVERYTHING, as CI provides; without it the test skips,
// unless MCPEEK_REQUIRE_BROWSER=1 says the interop servers must be there.
func serverEverything(t *testing.T) []string {
	t.Helper()
	if bin := os.Getenv("MCPEEK_SERVER_EVERYTHING"); bin != "" {
		return []string{bin, "stdio"}
	}
	if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
		t.Fatal("server-everything is required (MCPEEK_REQUIRE_BROWSER=1) but $MCPEEK_SERVER_EVERYTHING is not set")
	}
	t.Skip("needs $MCPEEK_SERVER_EVERYTHING (an installed mcp-server-everything)")
	return nil
}

// TestRecordToSuitePasses: a recording's tool call becomes a test, its
// answers and what was asked included, that mcpeek test passes against
// the same server; in both eras.
func TestRecordToSuitePasses(t *testing.T) {
	answers := tempFile(t, "answers.json", multiRoundAnswers)
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			dir := t.TempDir()
			rec := filepath.Join(dir, "session.jsonl")
			if code, _, stderr := run("call", "multi_round", "--protocol", era, "--answers", answers, "--record", rec); code != exitOK {
				t.Fatalf("record: exit %d, %s", code, stderr)
			}
			out := filepath.Join(dir, "saved.mcpeek.yaml")
			code, _, stderr := run("record", rec, "--to-suite", out)
			if code != exitOK || !strings.Contains(stderr, `wrote the test "multi_round"`) {
				t.Fatalf("record --to-suite: exit %d, %s", code, stderr)
			}
			text, err := os.ReadFile(out)
			if err != nil || !strings.Contains(string(text), "Confirm, Ada?") || !strings.Contains(string(text), "asked:") {
				t.Fatalf("the suite: %s %v", text, err)
			}
			code, stdout, stderr := run("test", out, "--protocol", era)
			if code != exitOK || !strings.Contains(stdout, "1 passed, 0 failed") {
				t.Errorf("test: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
		})
	}
}

// A replayed request that got no response says why on one cleaned line:
// the recorded tool name in the failure does not reach the terminal raw.
func TestReplayCleansTheFailure(t *testing.T) {
	answers := tempFile(t, "answers.json", multiRoundAnswers)
	rec := filepath.Join(t.TempDir(), "session.jsonl")
	if code, stdout, stderr := run("call", "multi_round", "--protocol", "legacy", "--answers", answers, "--record", rec); code != exitOK {
		t.Fatalf("record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	text, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The recorded tool's name carries an escape sequence.
	if err := os.WriteFile(rec, bytes.ReplaceAll(text, []byte(`"multi_round"`), []byte(`"multi\u001b[2J"`)), 0o600); err != nil {
		t.Fatal(err)
	}
	fix := fixture.HTTPHandler(fixture.Options{}, false)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"tools/call"`) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"boom\u001b[2J"}}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		fix.ServeHTTP(w, r)
	}))
	defer srv.Close()
	code, stdout, stderr := run("replay", rec, "--allow-writes", "--", srv.URL)
	if code != exitToolError || !strings.Contains(stdout, "tools/call multi␛[2J: no response (") || strings.Contains(stdout, "\x1b") {
		t.Errorf("replay: exit %d, stdout %q, stderr %q; want the failure, cleaned", code, stdout, stderr)
	}
}

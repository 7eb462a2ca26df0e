package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/tsservers"
)

// TestDoctorResumableServer: the TypeScript SDK's streamable HTTP server
// with an event store starts each answer with a priming event (an id and an
// empty data); the doctor passes over it to the answer, as list and call
// do, and every step passes.
func TestDoctorResumableServer(t *testing.T) {
	t.Parallel()
	url := tsservers.HTTP(t, tsservers.Resumable(t))
	r := mcpeek(t, "doctor", "--json", "--connect-timeout", "20s", url)
	var report struct {
		OK    bool `json:"ok"`
		Steps []struct {
			Step, Status, Detail string
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatalf("exit %d, stdout %q, stderr %q: %v", r.code, r.stdout, r.stderr, err)
	}
	for _, s := range report.Steps {
		if s.Step == "http" && (s.Status != "ok" || !strings.Contains(s.Detail, "answers JSON-RPC")) {
			t.Errorf("http step: %s %s", s.Status, s.Detail)
		}
	}
	if r.code != exitOK || !report.OK {
		t.Errorf("exit %d, report %+v", r.code, report.Steps)
	}
}

// TestLateLogsShown: log messages a server sends on its standalone stream
// just after the result (30 ms after it) still reach stderr, each one, as
// they reach the wire log: a headless run with --log-level drains them
// before it ends.
func TestLateLogsShown(t *testing.T) {
	t.Parallel()
	url := tsservers.HTTP(t, tsservers.Resumable(t))
	r := mcpeek(t, "call", "late_logs", "--log-level", "info", "--timeout", "30s", url)
	if r.code != exitOK {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	var lines []string
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "mcpeek: server log info [late]: late line ") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 4 {
		t.Errorf("stderr shows %d of the 4 late log lines:\n%s", len(lines), r.stderr)
	}
	if strings.Contains(r.stdout, "late line") {
		t.Errorf("log lines on stdout: %s", r.stdout)
	}
}

package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/suite"
)

// test init probes each era: its starter names the revisions the server
// speaks, both for the fixture, one for a server of one era (as every
// TypeScript-SDK 1.x server is), whose run then reports the other era
// once, as skipped, instead of failing every test in it.
func TestTestInitWritesTheErasTheServerSpeaks(t *testing.T) {
	both := filepath.Join(t.TempDir(), "both.mcpeek.yaml")
	if code, stdout, stderr := run("test", "init", "--out", both); code != exitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	s, err := suite.Load(both, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Revisions, []string{"2025-11-25", "2026-07-28"}) || s.AnyRevision {
		t.Errorf("the fixture's starter runs in %v (any: %t), want both eras named", s.Revisions, s.AnyRevision)
	}

	srv := httptest.NewServer(fixture.HTTPHandler(fixture.Options{Era: "legacy"}, false))
	defer srv.Close()
	one := filepath.Join(t.TempDir(), "one.mcpeek.yaml")
	if code, stdout, stderr := run("test", "init", "--out", one, srv.URL); code != exitOK {
		t.Fatalf("exit %d: %s %s", code, stdout, stderr)
	}
	text, _ := os.ReadFile(one)
	if !strings.Contains(string(text), "protocol: [2025-11-25]\n") {
		t.Errorf("the starter of a server of one era:\n%s", text)
	}
	// The same tests, protocol: left out: the era the server does not
	// speak is reported once.
	// count_down is unannotated, so written skipped: enabled as its
	// comment says.
	noProtocol := strings.Replace(string(text), "protocol: [2025-11-25]\n", "", 1)
	noProtocol = regexp.MustCompile(`(- name: count_down\n)\s+skip: .*\n`).ReplaceAllString(noProtocol, "$1")
	if err := os.WriteFile(one, []byte(noProtocol), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := run("test", one, "--filter", "^count_down$")
	if !strings.Contains(stdout, "1 passed, 0 failed, 1 skipped") || strings.Count(stdout, "skip ") != 1 ||
		!strings.Contains(stdout, "does not speak protocol revision 2026-07-28") {
		t.Errorf("a suite without protocol: against a server of one era:\n%s%s", stdout, stderr)
	}
}

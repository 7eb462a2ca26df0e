package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCancelledElicitationsAreSaid: a call that cancels a request because
// nothing answers it says so on stderr, one line per request, with how to
// answer it; a policy chosen to answer says nothing.
func TestCancelledElicitationsAreSaid(t *testing.T) {
	noMatch := filepath.Join(t.TempDir(), "answers.json")
	if err := os.WriteFile(noMatch, []byte(`[{"match": {"message": "no such question"}, "action": "decline"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	nameOnly := filepath.Join(t.TempDir(), "name.json")
	if err := os.WriteFile(nameOnly, []byte(`[{"match": {"message": "name"}, "action": "accept", "content": {"name": "Grace"}}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, era := range []string{"legacy", "modern"} {
		for _, tc := range []struct {
			name    string
			args    []string
			wantErr []string // the lines on stderr, each as its parts
		}{
			{"no answers", []string{"call", "choose_option"},
				[]string{"mcpeek: e-1: cancelled the request \"Choose option A or B.\" (no --answers given", "and --on-elicit is cancel): answer it with --answers FILE or --interactive"}},
			{"the second round unanswered", []string{"call", "multi_round", "--answers", nameOnly},
				[]string{"mcpeek: e-2: cancelled the request \"Confirm, Grace?\" (no --answers entry matched it"}},
			{"an answers file that does not match", []string{"call", "choose_option", "--answers", noMatch},
				[]string{"mcpeek: e-1: cancelled the request", "(no --answers entry matched it, and --on-elicit is cancel)"}},
			{"decline", []string{"call", "choose_option", "--on-elicit", "decline"}, nil},
		} {
			t.Run(era+"/"+tc.name, func(t *testing.T) {
				code, stdout, stderr := run(append(tc.args, "--protocol", era)...)
				if code != exitOK || !strings.Contains(stdout, `"action"`) {
					t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
				}
				lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
				if stderr == "" {
					lines = nil
				}
				want := 0
				for _, part := range tc.wantErr {
					if strings.HasPrefix(part, "mcpeek: ") {
						want++
					}
				}
				if len(lines) != want {
					t.Errorf("stderr has %d lines, want %d: %q", len(lines), want, stderr)
				}
				for _, part := range tc.wantErr {
					if !strings.Contains(stderr, part) {
						t.Errorf("stderr lacks %q: %q", part, stderr)
					}
				}
			})
		}
	}
}

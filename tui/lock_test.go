package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/surface"
)

// With a surface lock in the project's directory, the header counts what
// changed since it and D opens the changes, classified; a lock that
// cannot be read says so; a server that matches its lock, or no lock,
// adds nothing to the header (D then says which).
func TestSurfaceLockInTheInspector(t *testing.T) {
	t.Parallel()
	fixtureLock, err := os.ReadFile("../testdata/fixture.surface.json")
	if err != nil {
		t.Fatal(err)
	}
	withGone := strings.Replace(string(fixtureLock), `"tools": [`, `"tools": [{"name": "gone", "inputSchema": {"type": "object"}},`, 1)
	for _, tc := range []struct {
		name   string
		lock   string // "" none
		header string // "" none
		shown  []string
	}{
		{"a tool gone since the lock", withGone, "2 ERR since the lock (D)", []string{"ERR (2)", "tool-removed", "tool gone", "version-not-bumped"}},
		{"a lock that is not one", "{", "surface lock not compared (D)", []string{"could not be compared"}},
		{"the server matches its lock", string(fixtureLock), "", []string{"no differences"}},
		{"no lock", "", "", []string{"No surface lock here"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tc.lock != "" {
				if err := os.MkdirAll(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, surface.LockFile), []byte(tc.lock), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			in := open(t, Options{Dir: dir}, 120, 40)
			if tc.header != "" { // in the first frame with the tools, or a later one
				in.expectAll("choose_option", tc.header)
			} else {
				in.expect("choose_option")
			}
			// The layer shows the check's answer once it comes.
			in.keys("D").expectAll(append([]string{"Changes since the surface lock"}, tc.shown...)...)
			in.keys("esc")
			view := in.screen()
			header, _, _ := strings.Cut(view, "\n")
			if strings.Contains(view, "Changes since the surface lock") {
				t.Errorf("esc did not close the changes:\n%s", view)
			}
			if tc.header == "" && (strings.Contains(header, "lock") || strings.Contains(header, "(D)")) {
				t.Errorf("the header speaks of the lock: %q", header)
			}
			if tc.header != "" && !strings.Contains(header, tc.header) {
				t.Errorf("the header %q does not say %q", header, tc.header)
			}
		})
	}
}

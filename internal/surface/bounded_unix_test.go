//go:build unix

package surface

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A project's surface lock or diff config linked to /dev/zero — read on
// connect, unasked — fails at once, naming the file and the cap, instead
// of being read until memory runs out (issue 36, item 4).
func TestLockAndConfigLinkedToDevZero(t *testing.T) {
	lock, err := os.ReadFile("../../testdata/fixture.surface.json")
	if err != nil {
		t.Fatal(err)
	}
	live, err := Parse(lock)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, zero, real string }{
		{"the lock", LockFile, ""},
		{"diff.yaml", DefaultConfig, LockFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, "mcpeek"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.real != "" {
				if err := os.WriteFile(filepath.Join(dir, tc.real), lock, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			zero := filepath.Join(dir, tc.zero)
			if err := os.Symlink("/dev/zero", zero); err != nil {
				t.Fatal(err)
			}
			st, err := CheckLock(dir, live, time.Now())
			if err == nil || !strings.Contains(err.Error(), zero) || !strings.Contains(err.Error(), "16 MiB") {
				t.Errorf("CheckLock = %v, %v; want a refusal naming %s and the cap", st, err, zero)
			}
		})
	}
}

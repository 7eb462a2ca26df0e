// Package golden compares a view with its golden file for tests; run the
// tests with -update (the flag teatest defines) to rewrite the files.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path, or writes it with -update.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("view differs from %s (run with -update after checking):\n%s", path, got)
	}
}

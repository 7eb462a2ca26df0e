package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestVersionFromTheBuild: mcpeek --version says what the build stamped:
// built from a git checkout, its version names the commit, and +dirty
// once a file has changed since. The repository's files as they are now
// are committed to a repository of their own for it.
func TestVersionFromTheBuild(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	listed, err := exec.Command(git, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	dir := t.TempDir()
	for _, name := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
		data, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	in(git, "init", "-q")
	in(git, "add", "-A")
	in(git, "-c", "user.name=mcpeek", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false", "commit", "-q", "-m", "the tree under test")
	commit := in(git, "rev-parse", "HEAD")[:12]
	bin := filepath.Join(t.TempDir(), "mcpeek") // outside the tree, which it would change
	version := func() string {
		t.Helper()
		// -trimpath: without it the copy's folder, new each run, is part
		// of every package's build and nothing comes from the build cache.
		in("go", "build", "-trimpath", "-o", bin, ".")
		return in(bin, "--version")
	}
	if got, want := version(), regexp.MustCompile(`^mcpeek v0\.0\.0-\d{14}-`+commit+`$`); !want.MatchString(got) {
		t.Errorf("built at a commit: %q, want it to match %s", got, want)
	}
	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := version(), regexp.MustCompile(`^mcpeek v0\.0\.0-\d{14}-`+commit+`\+dirty$`); !want.MatchString(got) {
		t.Errorf("built with a change: %q, want it to match %s", got, want)
	}
}

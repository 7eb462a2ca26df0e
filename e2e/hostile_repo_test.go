package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/testuser"
)

// These tests play a hostile repository and a hostile neighbour as a real
// second person on the machine: when they run as root (as CI does), the
// clone's files and the planted links are made by a process running as
// another user id (testuser.Other), in a folder everyone can write, and
// the real mcpeek binary is run by the person (root) as she would. Not
// root, they skip: only root can start a process as someone else.

// clone makes a folder like a cloned repository that holds files (path
// relative to the clone: what it holds) and symbolic links (path: where
// it leads). As root, the clone is a folder everyone can write (like
// /tmp) and another user's process makes the files in it, world-readable;
// otherwise the person's own process makes them in a folder of hers.
func clone(t *testing.T, files, links map[string]string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		dir := t.TempDir()
		for rel, text := range files {
			writeOwn(t, filepath.Join(dir, rel), text)
		}
		for rel, target := range links {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, rel)); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	dir := sharedFolder(t)
	for rel, text := range files {
		asOther(t, dir, text, `mkdir -p "$(dirname "$1")" && cat > "$1"`, rel)
	}
	for rel, target := range links {
		asOther(t, dir, "", `mkdir -p "$(dirname "$2")" && ln -s "$1" "$2"`, target, rel)
	}
	for rel := range files {
		hers(t, filepath.Join(dir, rel))
	}
	for rel := range links {
		hers(t, filepath.Join(dir, rel))
	}
	return dir
}

// hers fails the test unless path (itself, not what it links to) is the
// other user's.
func hers(t *testing.T, path string) {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Uid != testuser.Other {
		t.Fatalf("%s is not user %d's: %v", path, testuser.Other, info.Sys())
	}
}

// writeOwn writes a file of the person's, making its folders.
func writeOwn(t *testing.T, path, text string) {
	t.Helper()
	err := os.MkdirAll(filepath.Dir(path), 0o755)
	if err == nil {
		err = os.WriteFile(path, []byte(text), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// sharedFolder is a new folder like /tmp, in the system's temporary
// folder so that another user can reach it: anyone may create files in
// it, and only a file's owner may rename or remove it.
func sharedFolder(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mcpeek-shared-")
	if err == nil {
		err = os.Chmod(dir, 0o777|os.ModeSticky)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// asOther runs a shell script as another user (testuser.Other) in dir,
// with stdin and the arguments $1…, as a second person on the machine
// would: what it creates is hers.
func asOther(t *testing.T, dir, stdin, script string, args ...string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{"-euc", "umask 022; " + script, "sh"}, args...)...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: testuser.Other, Gid: testuser.Other}}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("as user %d: %s %q: %v: %s", testuser.Other, script, args, err, out)
	}
}

// bounded is one run of the mcpeek binary: its exit code, output, how
// long it took and the most memory it held (its peak RSS).
type bounded struct {
	result
	took   time.Duration
	maxRSS int64 // bytes
}

// runBounded runs the mcpeek binary in dir as the person, outside GitHub
// Actions, and fails the test unless it ends within limit. It starts it
// through a small launcher (launchMeasured): Linux counts in a child's peak
// RSS that of the process it was forked from by vfork (the memory it
// shares until exec; Go always forks that way), so a peak read here would
// be this test binary's own whenever that is the larger.
func runBounded(t *testing.T, dir string, limit time.Duration, args ...string) bounded {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(t.TempDir(), "rss")
	cmd := exec.CommandContext(ctx, self, append([]string{mcpeekBin}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_ACTIONS=", "GITHUB_STEP_SUMMARY=", "MCPEEK_TRUST_PROJECT=",
		"MCPEEK_E2E_LAUNCH="+report, "MCPEEK_E2E_LAUNCH_LIMIT="+limit.String())
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err = cmd.Run()
	took := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("mcpeek %q did not end within %v; stderr %q", args, limit, errb.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("mcpeek %q: %v", args, err)
	}
	b := bounded{result: result{cmd.ProcessState.ExitCode(), out.String(), errb.String()}, took: took}
	if b.code == launchFailed {
		t.Fatalf("mcpeek %q: the launcher failed: %s", args, errb.String())
	}
	rss, err := os.ReadFile(report)
	if err != nil {
		t.Fatalf("mcpeek %q: no peak RSS reported: %v", args, err)
	}
	if b.maxRSS, err = strconv.ParseInt(string(rss), 10, 64); err != nil {
		t.Fatalf("mcpeek %q: peak RSS %q: %v", args, rss, err)
	}
	return b
}

// launchFailed is the launcher's exit code when it could not run mcpeek.
const launchFailed = 98

// launchMeasured is the launcher of runBounded, this test binary started
// again: it runs the command line args, mcpeek's (in its folder, with its environment and
// output), ends it after MCPEEK_E2E_LAUNCH_LIMIT, writes to report the
// most memory mcpeek held, in bytes, and exits with mcpeek's code. This
// process is small when it forks mcpeek, so the peak is mcpeek's own.
func launchMeasured(report string, args []string) int {
	limit, err := time.ParseDuration(os.Getenv("MCPEEK_E2E_LAUNCH_LIMIT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e launcher:", err)
		return launchFailed
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "e2e launcher: no command")
		return launchFailed
	}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "e2e launcher:", err)
		return launchFailed
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // Linux counts kibibytes
		if runtime.GOOS == "darwin" {
			rss = ru.Maxrss // macOS counts bytes
		}
	}
	if err := os.WriteFile(report, []byte(strconv.FormatInt(rss, 10)), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "e2e launcher:", err)
		return launchFailed
	}
	return cmd.ProcessState.ExitCode()
}

// snapshotSuite is a clone's suite whose one test takes a snapshot, on
// mcpeek's own fixture server: none of the clone's code runs.
const snapshotSuite = `version: 1
server: fixture
tests:
  - name: count
    steps:
      - call: count_down
        args: {steps: 1, delayMs: 0}
        expect: {snapshot: counted}
`

// A clone made by another user holds mcpeek/t.mcpeek.yaml and its
// snapshot, mcpeek/__snapshots__/t.snap.yaml, committed as a link to a
// file of the person's (her .bash_aliases, in a folder only she can
// read). mcpeek test -u, run by her in the clone, refuses naming the
// link, and neither creates the file nor changes it when it is there
// (issue 36, item 1). It guards the snapshot writer: before
// internal/safefile it wrote the test's result through the link, as the
// person, so the next shell she opened ran a line the test put there.
func TestCloneSnapshotLinkNotWrittenThrough(t *testing.T) {
	t.Parallel()
	testuser.NeedsRoot(t)
	home := t.TempDir() // hers alone: 0700
	aliases := filepath.Join(home, ".bash_aliases")
	repo := clone(t, map[string]string{"mcpeek/t.mcpeek.yaml": snapshotSuite},
		map[string]string{"mcpeek/__snapshots__/t.snap.yaml": aliases})
	for _, there := range []string{"", "alias ll='ls -l'\n"} {
		if there != "" {
			writeOwn(t, aliases, there)
		}
		r := runBounded(t, repo, time.Minute, "test", "-u", "--protocol", "legacy")
		if r.code == exitOK || !strings.Contains(r.stderr, "t.snap.yaml is a symbolic link") {
			t.Errorf("test -u (.bash_aliases there: %v): exit %d, stdout %q, stderr %q; want a refusal naming the link",
				there != "", r.code, r.stdout, r.stderr)
		}
		got, err := os.ReadFile(aliases)
		if there == "" && err == nil || there != "" && string(got) != there {
			t.Errorf("test -u wrote through the clone's link: .bash_aliases holds %q (%v)", got, err)
		}
	}
}

// A clone's suite, or its surface lock, that another user linked to
// /dev/zero fails at once, naming the file and the 16 MiB cap: mcpeek
// test (the suite found in the clone) and mcpeek diff (given the lock)
// end within seconds, holding little memory (issue 36, item 4). It
// guards the bounded read of a repository's files: before
// internal/safefile they were read whole, until the machine ran out of
// memory (~3 GB, then "fatal error: out of memory").
func TestCloneFileLinkedToDevZeroFailsFast(t *testing.T) {
	t.Parallel()
	testuser.NeedsRoot(t)
	const limit, maxRSS = 30 * time.Second, 256 << 20 // the cap is 16 MiB: far below, yet far above mcpeek's own needs
	for _, tc := range []struct {
		name, file string
		args       []string
		wantCode   int
	}{
		{"suite", "mcpeek/t.mcpeek.yaml", []string{"test", "--protocol", "legacy"}, exitUsage},
		{"lock", "mcpeek/surface.lock.json", []string{"diff", "mcpeek/surface.lock.json", "mcpeek/surface.lock.json"}, exitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			repo := clone(t, nil, map[string]string{tc.file: "/dev/zero"})
			r := runBounded(t, repo, limit, tc.args...)
			if r.code != tc.wantCode || !strings.Contains(r.stderr, tc.file) || !strings.Contains(r.stderr, "16 MiB") {
				t.Errorf("mcpeek %q: exit %d, stderr %q; want exit %d naming %s and the cap", tc.args, r.code, r.stderr, tc.wantCode, tc.file)
			}
			if r.maxRSS > maxRSS {
				t.Errorf("mcpeek %q held %d MiB at most; want under %d MiB", tc.args, r.maxRSS>>20, maxRSS>>20)
			}
			t.Logf("refused in %v, peak RSS %d MiB", r.took.Round(time.Millisecond), r.maxRSS>>20)
		})
	}
}

// In a shared folder like /tmp, another user plants a link at the path
// the person gives to --junit (or --json): to a file of hers, or to a
// file not yet there in a folder only she can write. Her mcpeek test
// refuses the report naming the other user's link, and writes nothing
// through it (issue 36, item 7). It guards the report writer: before
// internal/safefile, os.Create followed the link and truncated her file
// (or created one where the other user chose), as the log flags once
// did.
func TestReportLinkOfAnotherUserRefused(t *testing.T) {
	t.Parallel()
	testuser.NeedsRoot(t)
	mine := t.TempDir()
	suitePath := filepath.Join(mine, "t.mcpeek.yaml")
	writeOwn(t, suitePath, strings.Replace(snapshotSuite, "{snapshot: counted}", `{jsonpath: {"$.structuredContent.steps": 1}}`, 1))
	precious := filepath.Join(mine, "precious")
	writeOwn(t, precious, "precious\n")
	absent := filepath.Join(mine, "created-through")
	shared := sharedFolder(t)
	for _, flag := range []string{"--junit", "--json"} {
		for name, target := range map[string]string{"her file": precious, "a file not there": absent} {
			planted := filepath.Join(shared, strings.TrimPrefix(flag, "--")+"-"+strings.ReplaceAll(name, " ", "-"))
			asOther(t, shared, "", `ln -s "$1" "$2"`, target, planted)
			r := runBounded(t, mine, time.Minute, "test", suitePath, "--protocol", "legacy", flag, planted)
			if r.code == exitOK || !strings.Contains(r.stderr, flag+": "+planted+" is a symbolic link of another user's") {
				t.Errorf("%s through another user's link to %s: exit %d, stderr %q; want a refusal naming the link", flag, name, r.code, r.stderr)
			}
		}
	}
	if got, err := os.ReadFile(precious); err != nil || string(got) != "precious\n" {
		t.Errorf("a report was written through the link: her file holds %q (%v)", got, err)
	}
	if _, err := os.Lstat(absent); err == nil {
		t.Errorf("a report created %s through the link", absent)
	}
}

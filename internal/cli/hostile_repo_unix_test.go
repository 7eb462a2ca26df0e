//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/testuser"
)

// snapshotSuite takes a snapshot; mcpeek test -u writes it.
var snapshotSuite = strings.Replace(passingSuite, `expect: {jsonpath: {"$.structuredContent.choice": option-a}}`, `expect: {snapshot: chosen}`, 1)

// hostileRepo is a clone holding snapshotSuite, with a home folder beside
// it holding .bash_aliases (aliases: what it holds, "" for none). It
// returns the suite's path and the aliases' path.
func hostileRepo(t *testing.T, aliases string) (suitePath, aliasesPath string) {
	t.Helper()
	dir := t.TempDir()
	repo, home := filepath.Join(dir, "repo", "mcpeek"), filepath.Join(dir, "home")
	for _, d := range []string{filepath.Join(repo, "__snapshots__"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	suitePath, aliasesPath = filepath.Join(repo, "t.mcpeek.yaml"), filepath.Join(home, ".bash_aliases")
	if err := os.WriteFile(suitePath, []byte(snapshotSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	if aliases != "" {
		if err := os.WriteFile(aliasesPath, []byte(aliases), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../../../home/.bash_aliases", filepath.Join(repo, "__snapshots__", "t.snap.yaml")); err != nil {
		t.Fatal(err)
	}
	return suitePath, aliasesPath
}

// A snapshot the repository links to a file of the person's
// (__snapshots__/t.snap.yaml → ~/.bash_aliases) is neither written by
// mcpeek test -u, whether the file is there or not, nor read by mcpeek
// test (issue 36, item 1).
func TestSnapshotThroughALinkRefused(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	const aliases = "alias ll='ls -l'\n"
	for _, there := range []string{aliases, ""} {
		path, aliasesPath := hostileRepo(t, there)
		code, stdout, stderr := run("test", "-u", path, "--protocol", "legacy")
		if code == exitOK || !strings.Contains(stderr, "t.snap.yaml is a symbolic link") {
			t.Errorf("test -u (.bash_aliases there: %v): exit %d, %s %s; want a refusal naming the link", there != "", code, stdout, stderr)
		}
		got, err := os.ReadFile(aliasesPath)
		if there != "" && string(got) != aliases || there == "" && err == nil {
			t.Errorf("test -u wrote through the link: .bash_aliases holds %q (%v)", got, err)
		}
	}
	path, _ := hostileRepo(t, "chosen: {choice: option-a}\n")
	code, stdout, stderr := run("test", path, "--protocol", "legacy")
	if code != exitToolError || !strings.Contains(stdout, "t.snap.yaml is a symbolic link") {
		t.Errorf("test: exit %d, %s %s; want the snapshot failing as a link", code, stdout, stderr)
	}
}

// A repository's file linked to /dev/zero — a suite, or a surface file
// diff is given — fails at once, naming the file and the cap, instead of
// being read until memory runs out (issue 36, item 4).
func TestRepositoryFileLinkedToDevZero(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.mcpeek.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := run("test", zero)
	if code != exitUsage || !strings.Contains(stderr, zero) || !strings.Contains(stderr, "16 MiB") {
		t.Errorf("test: exit %d, %s; want a refusal naming %s and the cap", code, stderr, zero)
	}
	lock := filepath.Join(dir, "surface.lock.json")
	if err := os.Symlink("/dev/zero", lock); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = run("diff", lock, lock)
	if code != exitUsage || !strings.Contains(stderr, lock) || !strings.Contains(stderr, "16 MiB") {
		t.Errorf("diff: exit %d, %s; want a refusal naming %s and the cap", code, stderr, lock)
	}
}

// --junit and --json, and test init --out, never write through a link
// to nothing; --junit, --json and $GITHUB_STEP_SUMMARY never through
// another user's link in a shared folder (issue 36, item 7).
func TestReportsRefuseLinks(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "")
	suitePath := writeSuite(t, passingSuite)
	for _, flag := range []string{"--junit", "--json"} {
		dir := t.TempDir()
		report, target := filepath.Join(dir, "report"), filepath.Join(dir, "created-through")
		if err := os.Symlink(target, report); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run("test", suitePath, "--protocol", "legacy", flag, report)
		if code == exitOK || !strings.Contains(stderr, flag+": "+report+" is a symbolic link, to nothing mcpeek can write") {
			t.Errorf("%s through a link to nothing: exit %d, %s", flag, code, stderr)
		}
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("%s created %s through the link", flag, target)
		}
	}
	dir := t.TempDir()
	out, target := filepath.Join(dir, "starter.mcpeek.yaml"), filepath.Join(dir, "created-through")
	if err := os.Symlink(target, out); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := run("test", "init", "--out", out); code != exitUsage || !strings.Contains(stderr, "exists") {
		t.Errorf("init --out through a link to nothing: exit %d, %s", code, stderr)
	}
	if _, err := os.Lstat(target); err == nil {
		t.Errorf("init --out created %s through the link", target)
	}

	testuser.NeedsRoot(t)
	precious := filepath.Join(t.TempDir(), "precious")
	testuser.WriteFile(t, precious, "precious", -1)
	planted := filepath.Join(testuser.SharedFolder(t), "report")
	testuser.Symlink(t, precious, planted, testuser.Other)
	for _, flag := range []string{"--junit", "--json"} {
		code, _, stderr := run("test", suitePath, "--protocol", "legacy", flag, planted)
		if code == exitOK || !strings.Contains(stderr, flag+": "+planted+" is a symbolic link of another user's") {
			t.Errorf("%s through another user's link: exit %d, %s", flag, code, stderr)
		}
	}
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", planted)
	code, _, stderr := run("test", suitePath, "--protocol", "legacy", "--github")
	if code == exitOK || !strings.Contains(stderr, "$GITHUB_STEP_SUMMARY: "+planted+" is a symbolic link of another user's") {
		t.Errorf("the step summary through another user's link: exit %d, %s", code, stderr)
	}
	if got, _ := os.ReadFile(precious); string(got) != "precious" {
		t.Errorf("the file behind another user's link now holds %q", got)
	}
}

//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log file is created 0600, or an existing file of the person's is
// truncated and tightened to 0600; what another local user could plant at
// the path (a link, a file of hers, a second name of the person's file) is
// refused, and what it leads to is left untouched.
func TestLogFileRefusesWhatOthersPlant(t *testing.T) {
	t.Parallel()
	// mine is a file of the person's, which a link planted at the log's
	// path would lead mcpeek to overwrite.
	mine := func(t *testing.T, dir string) string {
		t.Helper()
		p := filepath.Join(dir, "notes.txt")
		if err := os.WriteFile(p, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name    string
		root    bool                                       // needs root (to chown)
		plant   func(t *testing.T, dir, log string) string // what the log's path is; returns the file that must stay untouched, or ""
		wantErr string                                     // "" when the log opens
	}{
		{"a new file", false, func(*testing.T, string, string) string { return "" }, ""},
		{"a file of yours", false, func(t *testing.T, _, log string) string {
			if err := os.WriteFile(log, []byte("an old log"), 0o644); err != nil {
				t.Fatal(err)
			}
			return ""
		}, ""},
		{"a link to a file of yours", false, func(t *testing.T, dir, log string) string {
			target := mine(t, dir)
			symlink(t, target, log)
			return target
		}, "is a symbolic link"},
		{"a link to nowhere", false, func(t *testing.T, dir, log string) string {
			symlink(t, filepath.Join(dir, "created-through-the-link"), log)
			return ""
		}, "is a symbolic link"},
		{"a second name of a file of yours", false, func(t *testing.T, dir, log string) string {
			target := mine(t, dir)
			if err := os.Link(target, log); err != nil {
				t.Fatal(err)
			}
			return target
		}, "other names"},
		{"a link of another user's to a device", true, func(t *testing.T, _, log string) string {
			symlink(t, os.DevNull, log)
			if err := os.Lchown(log, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			return ""
		}, "symbolic link of another user's"},
		{"a file of another user's", true, func(t *testing.T, _, log string) string {
			if err := os.WriteFile(log, []byte("keep me"), 0o666); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(log, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			return log
		}, "belongs to another user"},
		{"a link of yours to a device", false, func(t *testing.T, _, log string) string {
			symlink(t, os.DevNull, log)
			return ""
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			dir := t.TempDir()
			log := filepath.Join(dir, "wire.log")
			untouched := tc.plant(t, dir, log)
			var before os.FileInfo
			if untouched != "" {
				before, _ = os.Stat(untouched)
			}
			f, err := createPrivate(log)
			if f != nil {
				defer f.Close()
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), log)):
				t.Fatalf("err %v, want one naming %s with %q", err, log, tc.wantErr)
			}
			if _, err := os.Stat(filepath.Join(dir, "created-through-the-link")); err == nil {
				t.Error("a file was created through the link")
			}
			if untouched != "" {
				wantUntouched(t, untouched, before)
			}
			if err == nil && tc.name != "a link of yours to a device" {
				wantPrivateLog(t, f, log)
			}
		})
	}
}

// wantUntouched checks that a file planted for mcpeek to overwrite holds
// what it held, with the mode it had.
func wantUntouched(t *testing.T, path string, before os.FileInfo) {
	t.Helper()
	b, _ := os.ReadFile(path)
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "keep me" || after.Mode() != before.Mode() {
		t.Errorf("%s now holds %q, mode %v (was %v)", path, b, after.Mode(), before.Mode())
	}
}

// wantPrivateLog checks that the log opened is 0600 and holds only what
// is written to it.
func wantPrivateLog(t *testing.T, f *os.File, log string) {
	t.Helper()
	if _, err := f.WriteString("{}\n"); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(log)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(log); info.Mode().Perm() != 0o600 || string(b) != "{}\n" {
		t.Errorf("the log is %v, holding %q; want 0600 holding only the new line", info.Mode().Perm(), b)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// --wire-log and --elicit-log refuse a link planted at their path, saying
// which, before any server is started.
func TestLogFlagsRefuseALink(t *testing.T) {
	for _, flag := range []string{"--wire-log", "--elicit-log"} {
		t.Run(flag, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "notes.txt")
			if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(dir, "log")
			symlink(t, target, log)
			started := filepath.Join(dir, "started")
			code, _, stderr := run("call", "noop", flag, log, "--", "sh", "-c", "touch "+started)
			if code == exitOK || !strings.Contains(stderr, flag+": "+log+" is a symbolic link") {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if b, _ := os.ReadFile(target); string(b) != "keep me" {
				t.Errorf("the link's target now holds %q", b)
			}
			if _, err := os.Stat(started); err == nil {
				t.Error("the server was started")
			}
		})
	}
}

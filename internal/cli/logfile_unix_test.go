//go:build unix

package cli

import (
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"golang.org/x/sys/unix"
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
		{"a link to a second name of a file of yours", false, func(t *testing.T, dir, log string) string {
			target := mine(t, dir)
			if err := os.Link(target, filepath.Join(dir, "second")); err != nil {
				t.Fatal(err)
			}
			symlink(t, filepath.Join(dir, "second"), log)
			return target
		}, "has other names"},
		{"a link of yours to a file of another user's", true, func(t *testing.T, dir, log string) string {
			target := mine(t, dir)
			if err := os.Chown(target, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			symlink(t, target, log)
			return target
		}, "belongs to another user"},
		{"a link of yours through a link of another user's", true, func(t *testing.T, dir, log string) string {
			target := mine(t, dir)
			planted := filepath.Join(dir, "planted")
			symlink(t, target, planted)
			if err := os.Lchown(planted, 4242, 4242); err != nil {
				t.Fatal(err)
			}
			symlink(t, planted, log)
			return target
		}, "a symbolic link of another user's"},
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

// --wire-log and --elicit-log refuse a link to a file with other names,
// saying which, before any server is started.
func TestLogFlagsRefuseALink(t *testing.T) {
	for _, flag := range []string{"--wire-log", "--elicit-log"} {
		t.Run(flag, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "notes.txt")
			if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
			log := filepath.Join(dir, "log")
			second := filepath.Join(dir, "second")
			if err := os.Link(target, second); err != nil {
				t.Fatal(err)
			}
			symlink(t, second, log)
			started := filepath.Join(dir, "started")
			code, _, stderr := run("call", "noop", flag, log, "--", "sh", "-c", "touch "+started)
			if code == exitOK || !strings.Contains(stderr, flag+": "+log+", a symbolic link to "+second+", has other names") {
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

// A log sent where the person's shell redirected one of mcpeek's
// descriptors (--wire-log /dev/stderr 2>run.log, /dev/fd/3 3>>wire.jsonl),
// or through a link of hers to a file of hers, goes into that file after
// what it holds: nothing is truncated, its mode is hers, and what mcpeek
// prints there follows the log's lines rather than overwriting them.
func TestLogThroughARedirect(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shell int                                   // the shell's flags: > or >>
		path  func(t *testing.T, f *os.File) string // the log's path, given the file the shell opened
	}{
		{"/dev/fd/N, >", os.O_TRUNC, func(_ *testing.T, f *os.File) string { return fmt.Sprintf("/dev/fd/%d", f.Fd()) }},
		{"/dev/fd/N, >>", os.O_APPEND, func(_ *testing.T, f *os.File) string { return fmt.Sprintf("/dev/fd/%d", f.Fd()) }},
		{"/proc/self/fd/N", os.O_TRUNC, func(t *testing.T, f *os.File) string {
			if _, err := os.Stat("/proc/self/fd"); err != nil {
				t.Skip("no /proc here")
			}
			return fmt.Sprintf("/proc/self/fd/%d", f.Fd())
		}},
		{"a link of yours to /dev/fd/N, as /dev/stderr", os.O_TRUNC, func(t *testing.T, f *os.File) string {
			link := filepath.Join(t.TempDir(), "stderr")
			symlink(t, fmt.Sprintf("/dev/fd/%d", f.Fd()), link)
			return link
		}},
		{"a link of yours to a file of yours", os.O_APPEND, func(t *testing.T, f *os.File) string {
			link := filepath.Join(t.TempDir(), "wire.log")
			symlink(t, f.Name(), link)
			return link
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			run := filepath.Join(t.TempDir(), "run.log")
			if err := os.WriteFile(run, []byte("an earlier run\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			shell, err := os.OpenFile(run, os.O_WRONLY|tc.shell, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer shell.Close()
			want := ""
			if tc.shell == os.O_APPEND {
				want = "an earlier run\n"
			}
			if _, err := shell.WriteString("mcpeek: starting\n"); err != nil {
				t.Fatal(err)
			}
			log, err := createPrivate(tc.path(t, shell))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			defer log.Close()
			if _, err := log.WriteString("{}\n"); err != nil {
				t.Fatal(err)
			}
			if _, err := shell.WriteString("mcpeek: done\n"); err != nil {
				t.Fatal(err)
			}
			want += "mcpeek: starting\n{}\nmcpeek: done\n"
			if b, _ := os.ReadFile(run); string(b) != want {
				t.Errorf("run.log holds %q, want %q", b, want)
			}
			if info, err := os.Stat(run); err != nil || info.Mode().Perm() != 0o644 {
				t.Errorf("run.log's mode is now %v (%v), want the person's 0644", info.Mode().Perm(), err)
			}
		})
	}
}

// A descriptor that leads to a file of another user's, or to one with
// other names, is refused as a path would be; so is one not open.
func TestLogThroughARedirectRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		root    bool
		prepare func(t *testing.T, path string)
		wantErr string
	}{
		{"a file with other names", false, func(t *testing.T, path string) {
			if err := os.Link(path, path+".2"); err != nil {
				t.Fatal(err)
			}
		}, "has other names"},
		{"a file of another user's", true, func(t *testing.T, path string) {
			if err := os.Chown(path, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, "belongs to another user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.root && os.Geteuid() != 0 {
				t.Skip("needs root to give a file to another user")
			}
			path := filepath.Join(t.TempDir(), "run.log")
			if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.prepare(t, path)
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			name := fmt.Sprintf("/dev/fd/%d", f.Fd())
			log, err := createPrivate(name)
			if err == nil {
				log.Close()
			}
			if err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("err %v, want one naming %s with %q", err, name, tc.wantErr)
			}
		})
	}
	if _, err := createPrivate("/dev/fd/999"); err == nil || !strings.Contains(err.Error(), "descriptor 999 is not open") {
		t.Errorf("a descriptor not open: err %v", err)
	}
}

// --wire-log /dev/fd/N sends the wire log into the file the descriptor
// was opened on, after what it held.
func TestWireLogToADescriptor(t *testing.T) {
	srv := httptest.NewServer(fixture.HTTPHandler(fixture.Options{}, false))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "wire.jsonl")
	if err := os.WriteFile(path, []byte("an earlier run\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	code, _, stderr := run("caps", "--wire-log", fmt.Sprintf("/dev/fd/%d", f.Fd()), srv.URL)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "an earlier run\n{") || !strings.Contains(string(b), `"method":"initialize"`) {
		t.Errorf("the file holds %q", b)
	}
}

// A named pipe another user planted at the log's path, or that a link
// leads to, is refused at once, without waiting for her to read it; the
// person's own pipe is written, whether its reader came first or comes
// later.
func TestLogNamedPipe(t *testing.T) {
	t.Parallel()
	// fifo makes a named pipe at path, of uid when it is not -1.
	fifo := func(t *testing.T, path string, uid int) {
		t.Helper()
		if err := unix.Mkfifo(path, 0o666); err != nil {
			t.Fatal(err)
		}
		if uid >= 0 {
			if err := os.Chown(path, uid, uid); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name    string
		through bool // the log's path is a link of the person's to the pipe
		reader  bool // the pipe has a reader as mcpeek opens it
	}{
		{"at the path", false, false},
		{"at the path, with her reader", false, true},
		{"through a link of yours", true, false},
	} {
		t.Run("of another user's "+tc.name, func(t *testing.T) {
			t.Parallel()
			if os.Geteuid() != 0 {
				t.Skip("needs root to give a pipe to another user")
			}
			dir := t.TempDir()
			pipe, log := filepath.Join(dir, "pipe"), filepath.Join(dir, "wire.log")
			fifo(t, pipe, 4242)
			if !tc.through {
				log = pipe
			}
			if tc.through {
				symlink(t, pipe, log)
			}
			if tc.reader {
				r := openReader(t, pipe)
				defer r.Close()
			}
			err := withinDeadline(t, pipe, func() error {
				f, err := createPrivate(log)
				if err == nil {
					f.Close()
				}
				return err
			})
			if err == nil || !strings.Contains(err.Error(), "another user") {
				t.Errorf("err %v, want a refusal naming another user", err)
			}
		})
	}
	for _, readerFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("of yours, its reader first: %v", readerFirst), func(t *testing.T) {
			t.Parallel()
			pipe := filepath.Join(t.TempDir(), "wire.log")
			fifo(t, pipe, -1)
			var r *os.File
			if readerFirst {
				r = openReader(t, pipe)
			}
			opened := make(chan *os.File, 1)
			errs := make(chan error, 1)
			go func() {
				f, err := createPrivate(pipe)
				opened <- f
				errs <- err
			}()
			if !readerFirst {
				r = openReader(t, pipe)
			}
			defer r.Close()
			f, err := <-opened, <-errs
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			defer f.Close()
			if _, err := f.WriteString("{}\n"); err != nil {
				t.Fatal(err)
			}
			b := make([]byte, 3)
			if _, err := io.ReadFull(r, b); err != nil || string(b) != "{}\n" {
				t.Errorf("the reader read %q (%v)", b, err)
			}
		})
	}
}

// openReader opens a named pipe's reading end without waiting for a
// writer.
func openReader(t *testing.T, pipe string) *os.File {
	t.Helper()
	r, err := os.OpenFile(pipe, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// withinDeadline is what open returns, failing the test if it has not
// returned within 10 s, as when it waits for the named pipe's reader: it
// then opens a reader to let it go.
func withinDeadline(t *testing.T, pipe string, open func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- open() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Error("opening the log waits for the pipe's reader")
		r := openReader(t, pipe)
		defer r.Close()
		return <-done
	}
}

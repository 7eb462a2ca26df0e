//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/testuser"
)

func write(t *testing.T, path, text string) { testuser.WriteFile(t, path, text, -1) }

// contents is what the regular file at path holds (nil: none there);
// a pipe is not read.
func contents(path string) []byte {
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	data, _ := os.ReadFile(path)
	return data
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
}

// soon runs f, failing the test if it waits: what the package opens must
// not block on a pipe no one writes or reads.
func soon[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("still waiting after 10s")
		panic("unreachable")
	}
}

// A repository's file is read only when it is a regular file of at most
// 16 MiB, opened without waiting; anything else fails at once with the
// path and the cap. ReadNoLink refuses a link.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "suite.yaml")
	write(t, file, "version: 1\n")
	link := filepath.Join(dir, "link.yaml")
	testuser.Symlink(t, file, link, -1)
	dangling := filepath.Join(dir, "dangling.yaml")
	testuser.Symlink(t, filepath.Join(dir, "nowhere"), dangling, -1)
	zero := filepath.Join(dir, "zero.yaml")
	testuser.Symlink(t, "/dev/zero", zero, -1)
	fifo := filepath.Join(dir, "fifo.yaml")
	mkfifo(t, fifo)
	big := filepath.Join(dir, "big.yaml")
	write(t, big, "")
	if err := os.Truncate(big, MaxRead+1); err != nil {
		t.Fatal(err)
	}
	atCap := filepath.Join(dir, "cap.yaml")
	write(t, atCap, "")
	if err := os.Truncate(atCap, MaxRead); err != nil {
		t.Fatal(err)
	}
	const cap = "regular files of at most 16 MiB"
	for _, tc := range []struct {
		name        string
		path        string
		noLink      bool
		wantErr     string // "" reads; "not exist" wants fs.ErrNotExist
		wantLen     int
		wantCapNote bool
	}{
		{"a regular file", file, false, "", 11, false},
		{"a regular file, no link", file, true, "", 11, false},
		{"a link to a regular file", link, false, "", 11, false},
		{"a link, where none may be", link, true, "is a symbolic link", 0, false},
		{"a link to nothing", dangling, false, "not exist", 0, false},
		{"a link to nothing, where none may be", dangling, true, "is a symbolic link", 0, false},
		{"missing", filepath.Join(dir, "missing"), false, "not exist", 0, false},
		{"a link to /dev/zero", zero, false, "is a device, not a regular file", 0, true},
		{"a named pipe no one writes", fifo, false, "is a named pipe, not a regular file", 0, true},
		{"a folder", dir, false, "is a folder, not a regular file", 0, true},
		{"larger than the cap", big, false, "is larger than 16 MiB", 0, true},
		{"exactly the cap", atCap, false, "", MaxRead, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			type result struct {
				data []byte
				err  error
			}
			r := soon(t, func() result {
				read := Read
				if tc.noLink {
					read = ReadNoLink
				}
				data, err := read(tc.path)
				return result{data, err}
			})
			switch {
			case tc.wantErr == "":
				if r.err != nil || len(r.data) != tc.wantLen {
					t.Errorf("read %d bytes, err %v; want %d bytes", len(r.data), r.err, tc.wantLen)
				}
			case tc.wantErr == "not exist":
				if !errors.Is(r.err, fs.ErrNotExist) {
					t.Errorf("err %v, want one saying the file does not exist", r.err)
				}
			case r.err == nil || !strings.Contains(r.err.Error(), tc.wantErr) || !strings.Contains(r.err.Error(), tc.path):
				t.Errorf("err %v, want one naming %s and saying %q", r.err, tc.path, tc.wantErr)
			case tc.wantCapNote && !strings.Contains(r.err.Error(), cap):
				t.Errorf("err %v, want it to name the cap", r.err)
			}
		})
	}
}

// plantCase is what another user (root) or the person plants at a path
// in a shared folder before mcpeek opens it: plant returns the file a
// write would reach; wantErr what a refusal says ("" opens).
type plantCase struct {
	name    string
	root    bool
	plant   func(t *testing.T, dir, path string) (target string)
	wantErr string
}

// openPlanted opens name in a shared folder with open, after tc.plant,
// failing the test if it waits. When tc.wantErr is set it checks the
// refusal, naming the path, and that the target is as it was (not created
// when it was not there), and returns a nil file; else the file opened,
// the file a write reaches and what it held before.
func openPlanted(t *testing.T, tc plantCase, name string, open func(string) (*os.File, error)) (f *os.File, target string, before []byte) {
	t.Helper()
	if tc.root {
		testuser.NeedsRoot(t)
	}
	dir := testuser.SharedFolder(t)
	path := filepath.Join(dir, name)
	target = tc.plant(t, dir, path)
	before = contents(target)
	_, statErr := os.Lstat(target)
	type result struct {
		f   *os.File
		err error
	}
	r := soon(t, func() result { f, err := open(path); return result{f, err} })
	switch {
	case tc.wantErr == "" && r.err != nil:
		t.Fatal(r.err)
	case tc.wantErr == "":
		return r.f, target, before
	case r.err == nil:
		r.f.Close()
		t.Fatalf("%s opened, want a refusal saying %q", path, tc.wantErr)
	case !strings.Contains(r.err.Error(), tc.wantErr) || !strings.Contains(r.err.Error(), path):
		t.Errorf("err %v, want one naming %s and saying %q", r.err, path, tc.wantErr)
	}
	if after := contents(target); string(after) != string(before) {
		t.Errorf("%s now holds %q", target, after)
	}
	if _, err := os.Lstat(target); statErr != nil && err == nil {
		t.Errorf("%s was created", target)
	}
	return nil, target, before
}

// umask is the process's umask.
func umask() fs.FileMode {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return fs.FileMode(m)
}

// A report is written 0644 less the umask, over a file there or through
// a link of the person's own; never through another user's link, nor
// through a link to nothing, nor into another user's pipe no one reads.
func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		plantCase
		appends bool
	}{
		{plantCase{"a new file", false, func(_ *testing.T, _, path string) string { return path }, ""}, false},
		{plantCase{"a file there", false, func(t *testing.T, _, path string) string {
			write(t, path, "an old, longer report")
			return path
		}, ""}, false},
		{plantCase{"a file there, appended", false, func(t *testing.T, _, path string) string {
			write(t, path, "old\n")
			return path
		}, ""}, true},
		{plantCase{"a link of the person's to her file", false, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "real.xml")
			write(t, target, "an old, longer report")
			testuser.Symlink(t, target, path, -1)
			return target
		}, ""}, false},
		{plantCase{"a link to nothing", false, func(t *testing.T, dir, path string) string {
			testuser.Symlink(t, filepath.Join(dir, "created-through"), path, -1)
			return filepath.Join(dir, "created-through")
		}, "to nothing mcpeek can write"}, false},
		{plantCase{"a link to nothing, appended", false, func(t *testing.T, dir, path string) string {
			testuser.Symlink(t, filepath.Join(dir, "created-through"), path, -1)
			return filepath.Join(dir, "created-through")
		}, "to nothing mcpeek can write"}, true},
		{plantCase{"another user's link to the person's file", true, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "precious")
			write(t, target, "precious")
			testuser.Symlink(t, target, path, testuser.Other)
			return target
		}, "a symbolic link of another user's"}, false},
		{plantCase{"another user's link, appended", true, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "precious")
			write(t, target, "precious")
			testuser.Symlink(t, target, path, testuser.Other)
			return target
		}, "a symbolic link of another user's"}, true},
		{plantCase{"a link of the person's through another user's", true, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "precious")
			write(t, target, "precious")
			planted := filepath.Join(dir, "planted")
			testuser.Symlink(t, target, planted, testuser.Other)
			testuser.Symlink(t, planted, path, -1)
			return target
		}, "leads through"}, false},
		{plantCase{"another user's named pipe no one reads", true, func(t *testing.T, _, path string) string {
			mkfifo(t, path)
			if err := os.Chown(path, testuser.Other, testuser.Other); err != nil {
				t.Fatal(err)
			}
			return path
		}, "a named pipe of another user's"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open := Public
			if tc.appends {
				open = PublicAppend
			}
			f, target, before := openPlanted(t, tc.plantCase, "report.xml", open)
			if f == nil {
				return
			}
			if _, err := f.WriteString("new\n"); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			want := "new\n"
			if tc.appends {
				want = string(before) + want
			}
			if got, _ := os.ReadFile(target); string(got) != want {
				t.Errorf("%s holds %q, want %q", target, got, want)
			}
			if before == nil {
				if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o644&^umask() {
					t.Errorf("a new report's mode is %v (%v), want 0644 less the umask", info.Mode().Perm(), err)
				}
			}
		})
	}
}

// A private file is created 0600, or an own regular file of one name is
// truncated and made 0600; a link, another user's file, a file with other
// names, a pipe or a folder is refused and left as it was.
func TestPrivate(t *testing.T) {
	for _, tc := range []plantCase{
		{"a new file", false, func(_ *testing.T, _, path string) string { return path }, ""},
		{"a file of the person's, 0644", false, func(t *testing.T, _, path string) string {
			write(t, path, "an old, longer text")
			return path
		}, ""},
		{"a link of the person's", false, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "precious")
			write(t, target, "precious")
			testuser.Symlink(t, target, path, -1)
			return target
		}, "is a symbolic link"},
		{"a link to nothing", false, func(t *testing.T, dir, path string) string {
			testuser.Symlink(t, filepath.Join(dir, "created-through"), path, -1)
			return filepath.Join(dir, "created-through")
		}, "is a symbolic link"},
		{"a file with other names", false, func(t *testing.T, dir, path string) string {
			target := filepath.Join(dir, "precious")
			write(t, target, "precious")
			if err := os.Link(target, path); err != nil {
				t.Fatal(err)
			}
			return target
		}, "has other names"},
		{"a named pipe", false, func(t *testing.T, _, path string) string {
			mkfifo(t, path)
			return path
		}, "no such device or address"},
		{"a folder", false, func(t *testing.T, _, path string) string {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
			return path
		}, "is a directory"},
		{"another user's file", true, func(t *testing.T, _, path string) string {
			write(t, path, "theirs")
			if err := os.Chown(path, testuser.Other, testuser.Other); err != nil {
				t.Fatal(err)
			}
			return path
		}, "belongs to another user"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, path, _ := openPlanted(t, tc, "saved.txt", Private)
			if f == nil {
				return
			}
			_, err := f.WriteString("new")
			if err = errors.Join(err, f.Close()); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if info, err := os.Stat(path); err != nil || string(got) != "new" || info.Mode().Perm() != 0o600 {
				t.Errorf("%s holds %q, mode %v (%v); want new, 0600", path, got, info.Mode().Perm(), err)
			}
		})
	}
}

// A new file (a recording, a launch page, read --out) never replaces a
// name there, a link to nothing included, and is not created through it.
func TestCreateNew(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "taken")
	write(t, taken, "kept")
	dangling := filepath.Join(dir, "dangling")
	testuser.Symlink(t, filepath.Join(dir, "created-through"), dangling, -1)
	for _, path := range []string{taken, dangling} {
		if err := WriteNew(path, []byte("new"), 0o600); !errors.Is(err, fs.ErrExist) {
			t.Errorf("WriteNew(%s) = %v, want fs.ErrExist", path, err)
		}
	}
	if got, _ := os.ReadFile(taken); string(got) != "kept" {
		t.Errorf("the file there now holds %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "created-through")); err == nil {
		t.Error("a file was created through a dangling link")
	}
	fresh := filepath.Join(dir, "fresh")
	if err := WriteNew(fresh, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(fresh); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the new file's mode is %v (%v), want 0600", info.Mode().Perm(), err)
	}
}

// An atomic write replaces a link at the path rather than writing through
// it, in the folder the path resolves to, with the mode asked less the
// umask, and leaves no temporary file behind.
func TestAtomic(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	via := filepath.Join(dir, "via")
	testuser.Symlink(t, real, via, -1)
	precious := filepath.Join(dir, "precious")
	write(t, precious, "precious")
	testuser.Symlink(t, precious, filepath.Join(real, "store.json"), -1)
	if err := Atomic(filepath.Join(via, "store.json"), []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(precious); string(got) != "precious" {
		t.Errorf("the file the link led to now holds %q", got)
	}
	info, err := os.Lstat(filepath.Join(real, "store.json"))
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Fatalf("store.json: %v (%v), want a regular file, 0600", info, err)
	}
	if entries, _ := os.ReadDir(real); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want the store alone", len(entries))
	}
}

// A repository's file is written only inside its folder, as resolved, and
// never through a link: a snapshot linked to a file outside the suite's
// folder, or a __snapshots__ folder linked outside, is refused and the
// file outside left as it was.
func TestWriteInside(t *testing.T) {
	for _, tc := range []struct {
		name    string
		plant   func(t *testing.T, suiteDir, outside string) (path string)
		wantErr string
	}{
		{"a new snapshot", func(t *testing.T, suiteDir, _ string) string {
			return filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
		}, ""},
		{"a snapshot there", func(t *testing.T, suiteDir, _ string) string {
			path := filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
			write(t, path, "old: 1\n")
			return path
		}, ""},
		{"a snapshot linked outside", func(t *testing.T, suiteDir, outside string) string {
			path := filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
			testuser.Symlink(t, "../../outside/.bash_aliases", path, -1)
			return path
		}, "is a symbolic link"},
		{"a snapshot linked to nothing", func(t *testing.T, suiteDir, outside string) string {
			path := filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
			testuser.Symlink(t, "../../outside/new", path, -1)
			return path
		}, "is a symbolic link"},
		{"a link inside the folder", func(t *testing.T, suiteDir, _ string) string {
			path := filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
			write(t, filepath.Join(suiteDir, "other.yaml"), "other: 1\n")
			testuser.Symlink(t, "../other.yaml", path, -1)
			return path
		}, "is a symbolic link"},
		{"__snapshots__ linked outside", func(t *testing.T, suiteDir, outside string) string {
			if err := os.Remove(filepath.Join(suiteDir, "__snapshots__")); err != nil {
				t.Fatal(err)
			}
			testuser.Symlink(t, outside, filepath.Join(suiteDir, "__snapshots__"), -1)
			return filepath.Join(suiteDir, "__snapshots__", ".bash_aliases")
		}, "leads out of"},
		{"__snapshots__ linked inside", func(t *testing.T, suiteDir, _ string) string {
			if err := os.Remove(filepath.Join(suiteDir, "__snapshots__")); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(suiteDir, "snaps"), 0o755); err != nil {
				t.Fatal(err)
			}
			testuser.Symlink(t, "snaps", filepath.Join(suiteDir, "__snapshots__"), -1)
			return filepath.Join(suiteDir, "__snapshots__", "t.snap.yaml")
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			suiteDir, outside := filepath.Join(dir, "repo"), filepath.Join(dir, "outside")
			for _, d := range []string{suiteDir, filepath.Join(suiteDir, "__snapshots__"), outside} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			aliases := filepath.Join(outside, ".bash_aliases")
			write(t, aliases, "alias ll='ls -l'\n")
			path := tc.plant(t, suiteDir, outside)
			err := WriteInside(suiteDir, path, []byte("snap: 1\n"), 0o644)
			if got, _ := os.ReadFile(aliases); string(got) != "alias ll='ls -l'\n" {
				t.Errorf("the file outside now holds %q", got)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("the folder outside holds %d files, want 1", len(entries))
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), path) {
					t.Errorf("err %v, want one naming %s and saying %q", err, path, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != "snap: 1\n" {
				t.Errorf("%s holds %q", path, got)
			}
		})
	}
}

// A store's lock file is never opened through a link.
func TestLockRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	testuser.Symlink(t, target, filepath.Join(dir, "auth.json.lock"), -1)
	if f, err := Lock(filepath.Join(dir, "auth.json.lock")); err == nil {
		f.Close()
		t.Error("the lock was opened through a link")
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("a file was created through the link")
	}
	f, err := Lock(filepath.Join(dir, "own.lock"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A report named by a descriptor of mcpeek's own (--json /dev/fd/3
// 3>>report.json, /dev/stdout) is written through a duplicate of it.
func TestPublicThroughADescriptor(t *testing.T) {
	file, err := os.CreateTemp(t.TempDir(), "report")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	if _, err := file.WriteString("before\n"); err != nil {
		t.Fatal(err)
	}
	f, err := Public("/dev/fd/" + strconv.Itoa(int(file.Fd())))
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteString("report\n")
	if err = errors.Join(err, f.Close()); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(file.Name()); string(got) != "before\nreport\n" {
		t.Errorf("the descriptor's file holds %q", got)
	}
}

//go:build unix

package mcpconfig

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/testuser"
)

// The tests play another person on the machine as testuser says.
const otherUser = testuser.Other

var (
	asRoot       = testuser.NeedsRoot
	sharedFolder = testuser.SharedFolder
	writeAs      = testuser.WriteFile
	symlinkAs    = testuser.Symlink
)

// mkdir makes a folder owned by uid (-1: this user).
func mkdir(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(path, uid, -1); err != nil {
		t.Fatal(err)
	}
}

// yours is a config of this user's, elsewhere (their ~/.cursor/mcp.json):
// what another user points a link at to pass an owner check.
func yours(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcp.json")
	writeAs(t, path, `{"mcpServers": {"github": {"command": "yours"}}}`, -1)
	return path
}

// commands are the commands of the servers discovery found.
func commands(f *Found) []string {
	var out []string
	for _, s := range f.Servers() {
		out = append(out, s.Command)
	}
	return out
}

// sharedPlaces are the places of a person working in work, under the
// shared folder: their home is the folder above it, so the walk up ends
// there and never reads the machine's own /tmp or / (where, as root, any
// file root left would count), and their own configs are none.
func sharedPlaces(shared, work string) Places {
	home := filepath.Dir(shared)
	return Places{Dir: work, Home: home, ConfigDir: filepath.Join(home, ".config")}
}

// TestDiscoveryRaceWithAnotherUser: working under a shared folder, another
// user swaps a config there, between discovery's checks and its read,
// from a link to one of this user's files to her own config — in the
// shared folder itself, or in a .vscode folder of this user's that others
// may write. Her config is never read: its command would run as this
// user. A .vscode folder she owns is not even looked into, so there is
// nothing for her to swap.
func TestDiscoveryRaceWithAnotherUser(t *testing.T) {
	asRoot(t)
	for _, tc := range []struct {
		name string
		sub  string // the folder holding the config ("": the shared one)
		uid  int    // its owner (-1: this user)
		swap bool   // whether discovery reaches the swap: it opens the config
	}{
		{"in the shared folder", "", -1, true},
		{"in a .vscode folder of yours that others may write", ".vscode", -1, true},
		{"in a .vscode folder she owns, skipped unopened", ".vscode", otherUser, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shared := sharedFolder(t)
			work := filepath.Join(shared, "work")
			mkdir(t, work, -1)
			name := ".mcp.json"
			if tc.sub != "" {
				mkdir(t, filepath.Join(shared, tc.sub), tc.uid)
				if err := os.Chmod(filepath.Join(shared, tc.sub), 0o777); err != nil {
					t.Fatal(err)
				}
				name = "mcp.json"
			}
			hers := filepath.Join(shared, tc.sub, "hers.json")
			writeAs(t, hers, `{"mcpServers": {"github": {"command": "hers"}}, "servers": {"github": {"command": "hers"}}}`, otherUser)
			planted := filepath.Join(shared, tc.sub, name)
			symlinkAs(t, yours(t), planted, otherUser)
			swapped := false
			beforeOpen = func(path string) {
				if path == planted {
					swapped = true
					if err := os.Rename(hers, planted); err != nil {
						t.Error(err)
					}
				}
			}
			t.Cleanup(func() { beforeOpen = nil })

			found, err := Discover(sharedPlaces(shared, work))
			if err != nil {
				t.Fatal(err)
			}
			if swapped != tc.swap {
				t.Errorf("discovery reached the swap: %v, want %v", swapped, tc.swap)
			}
			if cmds := commands(found); slices.Contains(cmds, "hers") {
				t.Errorf("discovery read the other user's config (servers run %q)", cmds)
			}
			if !slices.Contains(found.Skipped, planted) {
				t.Errorf("skipped %q, want %s among them", found.Skipped, planted)
			}
		})
	}
}

// TestDiscoveryDoesNotFollowLinksInSharedFolders: a link another user
// plants in a shared folder, pointing at one of this user's configs, is
// not followed; the person hears that it was not read.
func TestDiscoveryDoesNotFollowLinksInSharedFolders(t *testing.T) {
	asRoot(t)
	shared := sharedFolder(t)
	work := filepath.Join(shared, "work")
	mkdir(t, work, -1)
	planted := filepath.Join(shared, ".mcp.json")
	symlinkAs(t, yours(t), planted, otherUser)

	found, err := Discover(sharedPlaces(shared, work))
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Files) != 0 || !slices.Contains(found.Skipped, planted) {
		t.Fatalf("read %d files (servers %q), skipped %q; want the link skipped", len(found.Files), commands(found), found.Skipped)
	}
	if _, err := found.Find("github"); err == nil || !strings.Contains(err.Error(), planted) {
		t.Errorf("Find = %v, want it to name the link not read", err)
	}
}

// TestDiscoveryStopsAtAFolderNotYours: walking up stops at a folder
// another user owns: a config in it or above is not read, even one that
// is this user's file, and is not among the places looked.
func TestDiscoveryStopsAtAFolderNotYours(t *testing.T) {
	asRoot(t)
	shared := sharedFolder(t)
	theirs := filepath.Join(shared, "theirs")
	mkdir(t, theirs, otherUser)
	work := filepath.Join(theirs, "work")
	mkdir(t, work, -1)
	writeAs(t, filepath.Join(work, ".mcp.json"), `{"mcpServers": {"here": {"command": "here"}}}`, -1)
	above := filepath.Join(theirs, ".mcp.json")
	writeAs(t, above, `{"mcpServers": {"github": {"command": "above"}}}`, -1)
	writeAs(t, filepath.Join(shared, ".mcp.json"), `{"mcpServers": {"github": {"command": "higher"}}}`, -1)

	found, err := Discover(sharedPlaces(shared, work))
	if err != nil {
		t.Fatal(err)
	}
	if cmds := commands(found); !slices.Equal(cmds, []string{"here"}) {
		t.Errorf("servers run %q, want only the working folder's", cmds)
	}
	for _, c := range found.Looked {
		if c.Project && !strings.HasPrefix(c.Path, work+string(filepath.Separator)) {
			t.Errorf("looked for %s, above the folder another user owns", c.Path)
		}
	}
	if _, err := found.Find("github"); found.Stopped != theirs || err == nil || !strings.Contains(err.Error(), "did not look in "+theirs+" or above") {
		t.Errorf("stopped at %q; Find = %v, want it to say where discovery stopped", found.Stopped, err)
	}
}

// TestDiscoveryDoesNotHangOnAFIFO: a named pipe where a config would be
// (another user's in /tmp, or a mistake) does not block discovery.
func TestDiscoveryDoesNotHangOnAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, ".mcp.json"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Discover(Places{Dir: dir, Home: filepath.Dir(dir)})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Discover = %v, want it to say the config is not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("discovery blocked opening a named pipe")
	}
}

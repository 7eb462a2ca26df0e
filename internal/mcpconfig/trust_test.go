package mcpconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// projectServer reads the project config text and returns its server
// name, as discovery finds it.
func projectServer(t *testing.T, path, text, name string) *Server {
	t.Helper()
	write(t, path, text)
	found, err := Discover(Places{Dir: filepath.Dir(path), Home: filepath.Dir(filepath.Dir(path))})
	if err != nil {
		t.Fatal(err)
	}
	s, err := found.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	if !s.FromProject {
		t.Fatalf("%s in %s is not taken for a project's", name, path)
	}
	return s
}

// TestTrustStore: a project's entry is approved once, by its file and its
// content: the same entry is approved on the next run, a changed entry or
// the same entry in another file is not; the store is its owner's alone.
func TestTrustStore(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "clone")
	cfg := filepath.Join(project, ".mcp.json")
	entry := `{"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-server"]}, "other": {"command": "x"}}}`
	store := OpenTrustStore(filepath.Join(root, "config", "mcpeek", "approved-servers.json"))

	s := projectServer(t, cfg, entry, "github")
	if ok, err := store.Approved(s); err != nil || ok {
		t.Fatalf("before approval: %v, %v", ok, err)
	}
	if err := store.Approve(s); err != nil {
		t.Fatal(err)
	}
	if ok, err := store.Approved(projectServer(t, cfg, entry, "github")); err != nil || !ok {
		t.Errorf("the approved entry, read again: %v, %v", ok, err)
	}
	if ok, _ := store.Approved(projectServer(t, cfg, entry, "other")); ok {
		t.Error("another entry of the same file is approved")
	}
	// Only the way it is written changed: still approved.
	if ok, _ := store.Approved(projectServer(t, cfg, strings.ReplaceAll(entry, ", ", ",\n  "), "github")); !ok {
		t.Error("reformatting the file asks again")
	}
	changed := projectServer(t, cfg, strings.Replace(entry, "gh-server", "gh-server@evil", 1), "github")
	if ok, _ := store.Approved(changed); ok {
		t.Error("a changed entry is still approved")
	}
	elsewhere := projectServer(t, filepath.Join(root, "other-clone", ".mcp.json"), entry, "github")
	if ok, _ := store.Approved(elsewhere); ok {
		t.Error("the same entry in another project's file is approved")
	}
	// Approving the changed entry replaces the old approval.
	if err := store.Approve(changed); err != nil {
		t.Fatal(err)
	}
	if ok, _ := store.Approved(s); ok {
		t.Error("the entry as it was before is still approved")
	}
	if list, _ := store.load(); len(list) != 1 {
		t.Errorf("%d approvals kept, want 1", len(list))
	}

	info, err := os.Stat(store.Path())
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("store mode %04o, want 0600", info.Mode().Perm())
	}
	if err := os.Chmod(store.Path(), 0o622); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Approved(changed); err == nil || !strings.Contains(err.Error(), "may be written by others") || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a store others may write: %v", err)
	}
	if err := store.Approve(s); err == nil {
		t.Error("approving into a store others may write worked")
	}
}

// TestTrustStoreOfAnotherUser: a store another user owns (written under
// sudo, or planted) is refused: she could approve servers for this one.
func TestTrustStoreOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("giving the store to another user needs root")
	}
	root := t.TempDir()
	s := projectServer(t, filepath.Join(root, "clone", ".mcp.json"), `{"mcpServers": {"github": {"command": "evil"}}}`, "github")
	store := OpenTrustStore(filepath.Join(root, "approved-servers.json"))
	if err := store.Approve(s); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(store.Path(), 4242, -1); err != nil {
		t.Fatal(err)
	}
	if ok, err := store.Approved(s); ok || err == nil || !strings.Contains(err.Error(), "belongs to another user") {
		t.Errorf("a store of another user's: %v, %v", ok, err)
	}
}

// TestEnvReads: the variables an entry would read from the environment,
// which the approval prompt names.
func TestEnvReads(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    Server
		want []string
	}{
		{"mcpServers", Server{Format: FormatMCPServers, URL: "https://x.example/mcp?k=${AWS_SECRET_ACCESS_KEY}",
			Headers: map[string]string{"Authorization": "Bearer ${env:GITHUB_TOKEN}", "X-Region": "${REGION:-${DEFAULT_REGION}}"}},
			[]string{"AWS_SECRET_ACCESS_KEY", "DEFAULT_REGION", "GITHUB_TOKEN", "REGION"}},
		{"stdio", Server{Format: FormatMCPServers, Command: "${HOME}/bin/s", Args: []string{"--dir", "${workspaceFolder}"},
			Env: map[string]string{"TOKEN": "${env:NPM_TOKEN}"}, Cwd: "${userHome}"}, []string{"HOME", "NPM_TOKEN"}},
		{"vscode", Server{Format: FormatVSCode, Command: "s", Args: []string{"${env:KEY}", "${NOT_READ}", "${input:x}"}}, []string{"KEY"}},
		{"codex", Server{Format: FormatCodex, Command: "${NOT_EXPANDED}", BearerTokenEnvVar: "TOKEN",
			EnvHeaders: map[string]string{"X-Key": "KEY"}}, []string{"KEY", "TOKEN"}},
		{"none", Server{Format: FormatMCPServers, Command: "s", Args: []string{"${unfinished"}}, nil},
	} {
		if got := tc.s.EnvReads(); !slices.Equal(got, tc.want) && len(got)+len(tc.want) > 0 {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestOnlyProjectConfigsAreProjects: discovery marks the servers of the
// configs in the working directory and its parents as a project's, and
// none of the user's own (~/.claude.json's per-project entries included:
// the person's own file, which only their tools write).
func TestOnlyProjectConfigsAreProjects(t *testing.T) {
	l := newLayout(t)
	write(t, filepath.Join(l.project, ".mcp.json"), jsonServers("mcpServers", "p", "a"))
	write(t, filepath.Join(l.project, ".vscode", "mcp.json"), jsonServers("servers", "p", "b"))
	write(t, filepath.Join(l.cwd, ".cursor", "mcp.json"), jsonServers("mcpServers", "p", "c"))
	write(t, filepath.Join(l.home, ".cursor", "mcp.json"), jsonServers("mcpServers", "u", "a", "d"))
	write(t, filepath.Join(l.home, ".claude.json"), `{"projects": {"`+l.project+`": {"mcpServers": {"e": {"command": "u"}}}}}`)
	found, err := Discover(l.places())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range found.Servers() {
		if s.FromProject != (s.Command == "p") {
			t.Errorf("%s in %s: FromProject %v", s.Name, s.File, s.FromProject)
		}
	}
	if sh := found.Shadowed("a"); len(sh) != 1 || sh[0].File != filepath.Join(l.home, ".cursor", "mcp.json") {
		t.Errorf("Shadowed(a) = %v, want the user's Cursor entry", sh)
	}
}

// TestConcurrentApprovalsAreAllKept: runs approving servers at once (two
// terminals, a script) each keep their approval: every update reads,
// changes and writes the store under its lock.
func TestConcurrentApprovalsAreAllKept(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "config", "mcpeek", "approved-servers.json")
	const runs, each = 8, 6
	var wg sync.WaitGroup
	for r := range runs {
		wg.Go(func() {
			store := OpenTrustStore(path) // a run of its own
			for i := range each {
				s := &Server{Name: fmt.Sprintf("s%d-%d", r, i), File: filepath.Join(root, "clone", ".mcp.json"), Format: FormatMCPServers, Command: "x"}
				if err := store.Approve(s); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	list, err := OpenTrustStore(path).load()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != runs*each {
		t.Errorf("the store kept %d of %d approvals", len(list), runs*each)
	}
}

// TestApprovalCoversTheEnvFile: an approval covers what the entry's
// envFile holds: a .env the repository changes (a `git pull`) is asked
// about again, as a changed entry is.
func TestApprovalCoversTheEnvFile(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "clone")
	cfg := filepath.Join(project, ".mcp.json")
	entry := `{"mcpServers": {"github": {"command": "npx", "args": ["gh-server"], "envFile": "${workspaceFolder}/.env"}}}`
	write(t, filepath.Join(project, ".env"), "REGION=eu\n")
	store := OpenTrustStore(filepath.Join(root, "config", "mcpeek", "approved-servers.json"))
	if err := store.Approve(projectServer(t, cfg, entry, "github")); err != nil {
		t.Fatal(err)
	}
	if ok, err := store.Approved(projectServer(t, cfg, entry, "github")); err != nil || !ok {
		t.Fatalf("the approved entry, its .env unchanged: %v, %v", ok, err)
	}
	write(t, filepath.Join(project, ".env"), "REGION=eu\nNODE_OPTIONS=--require ./payload.js\n")
	if ok, _ := store.Approved(projectServer(t, cfg, entry, "github")); ok {
		t.Error("a changed .env is still approved")
	}
}

// TestEnvFileRead: the file an envFile names, as the approval prompt
// shows it: in the project, outside it (${userHome}/.aws/credentials),
// or a link in the project to a file outside it.
func TestEnvFileRead(t *testing.T) {
	root := t.TempDir()
	t.Setenv("HOME", filepath.Join(root, "home"))
	project := filepath.Join(root, "home", "src", "clone")
	credentials := filepath.Join(root, "home", ".aws", "credentials")
	write(t, credentials, "aws_secret_access_key=x\n")
	write(t, filepath.Join(project, ".env"), "A=b\n")
	if err := os.Symlink(credentials, filepath.Join(project, "link.env")); err != nil {
		t.Skipf("no links here: %v", err)
	}
	for _, tc := range []struct {
		envFile, wantPath, wantReal string
		wantIn                      bool
	}{
		{".env", filepath.Join(project, ".env"), filepath.Join(project, ".env"), true},
		{"${userHome}/.aws/credentials", credentials, credentials, false},
		{"link.env", filepath.Join(project, "link.env"), credentials, false},
		{"${env:MCPEEK_NOT_SET}/.env", "", "", false},
	} {
		text := `{"mcpServers": {"s": {"command": "x", "envFile": "` + tc.envFile + `"}}}`
		read, ok := projectServer(t, filepath.Join(project, ".mcp.json"), text, "s").EnvFileRead()
		if real, err := filepath.EvalSymlinks(tc.wantReal); err == nil && tc.wantReal != "" {
			tc.wantReal = real
		}
		if !ok || read.Path != tc.wantPath || read.Real != tc.wantReal || read.InProject != tc.wantIn || read.Written != tc.envFile {
			t.Errorf("%s: %+v, want path %s, real %s, in the project %v", tc.envFile, read, tc.wantPath, tc.wantReal, tc.wantIn)
		}
	}
}

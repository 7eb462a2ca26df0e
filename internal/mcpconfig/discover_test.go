package mcpconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layout writes a home and a project inside it, each config holding the
// servers named, as a stdio command echoing where it came from.
type layout struct {
	home, project, cwd string
}

func newLayout(t *testing.T) layout {
	t.Helper()
	home := t.TempDir()
	project := filepath.Join(home, "src", "app")
	cwd := filepath.Join(project, "pkg", "deep")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return layout{home: home, project: project, cwd: cwd}
}

func (l layout) places() Places {
	return Places{Dir: l.cwd, Home: l.home, ConfigDir: filepath.Join(l.home, ".config")}
}

// jsonServers is an mcpServers (or VS Code servers) config of the names,
// each a command naming its file.
func jsonServers(key, label string, names ...string) string {
	var entries []string
	for _, n := range names {
		entries = append(entries, fmt.Sprintf(`%q: {"command": %q}`, n, label))
	}
	return fmt.Sprintf(`{%q: {%s}}`, key, strings.Join(entries, ", "))
}

// TestDiscoveryOrder: the working directory and its parents first (in
// each, .mcp.json, .vscode/mcp.json, .cursor/mcp.json), then the user's
// Cursor, Claude Desktop, Claude Code, Codex, VS Code and Windsurf configs;
// the first file naming a server wins.
func TestDiscoveryOrder(t *testing.T) {
	l := newLayout(t)
	write(t, filepath.Join(l.cwd, ".mcp.json"), jsonServers("mcpServers", "cwd-mcp", "a"))
	write(t, filepath.Join(l.project, ".mcp.json"), jsonServers("mcpServers", "project-mcp", "a", "b"))
	write(t, filepath.Join(l.project, ".vscode", "mcp.json"), jsonServers("servers", "project-vscode", "b", "c"))
	write(t, filepath.Join(l.project, ".cursor", "mcp.json"), jsonServers("mcpServers", "project-cursor", "c", "d"))
	write(t, filepath.Join(l.home, ".cursor", "mcp.json"), jsonServers("mcpServers", "user-cursor", "d", "e"))
	write(t, filepath.Join(l.home, ".config", "Claude", "claude_desktop_config.json"), jsonServers("mcpServers", "claude-desktop", "e", "f"))
	write(t, filepath.Join(l.home, ".claude.json"), fmt.Sprintf(`{
		"numStartups": 3,
		"projects": {
			%q: {"mcpServers": {"g": {"command": "claude-code-local"}}},
			"/elsewhere": {"mcpServers": {"h": {"command": "other-project"}}}
		},
		"mcpServers": {"f": {"command": "claude-code-user"}, "g": {"command": "claude-code-user"}, "i": {"command": "claude-code-user"}}
	}`, l.project))
	write(t, filepath.Join(l.home, ".codex", "config.toml"), "[mcp_servers.i]\ncommand = \"codex\"\n[mcp_servers.j]\ncommand = \"codex\"\n")
	write(t, filepath.Join(l.home, ".config", "Code", "User", "mcp.json"), jsonServers("servers", "user-vscode", "j", "k"))
	write(t, filepath.Join(l.home, ".codeium", "windsurf", "mcp_config.json"), jsonServers("mcpServers", "windsurf", "k", "l"))

	found, err := Discover(l.places())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"a": "cwd-mcp", "b": "project-mcp", "c": "project-vscode", "d": "project-cursor",
		"e": "user-cursor", "f": "claude-desktop", "g": "claude-code-local", "i": "claude-code-user",
		"j": "codex", "k": "user-vscode", "l": "windsurf",
	} {
		s, err := found.Find(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if s.Command != want {
			t.Errorf("%s: found in %s (%s), want %s", name, s.File, s.Command, want)
		}
	}
	if _, err := found.Find("h"); err == nil {
		t.Error("another project's server was found")
	}
	// Every file in discovery order, the home directory itself not taken
	// for a project.
	var files []string
	for _, f := range found.Files {
		rel, _ := filepath.Rel(l.home, f.Path)
		files = append(files, filepath.ToSlash(rel))
	}
	want := []string{
		"src/app/pkg/deep/.mcp.json", "src/app/.mcp.json", "src/app/.vscode/mcp.json", "src/app/.cursor/mcp.json",
		".cursor/mcp.json", ".config/Claude/claude_desktop_config.json", ".claude.json", ".codex/config.toml",
		".config/Code/User/mcp.json", ".codeium/windsurf/mcp_config.json",
	}
	if !slices.Equal(files, want) {
		t.Errorf("files\n got %q\nwant %q", files, want)
	}
	// A local server of Claude Code runs in its project.
	g, _ := found.Find("g")
	if g.Scope != "project "+l.project || g.project != l.project {
		t.Errorf("g: scope %q, project %q", g.Scope, g.project)
	}
}

// TestDiscoveryCodexHome: $CODEX_HOME moves Codex's config.
func TestDiscoveryCodexHome(t *testing.T) {
	l := newLayout(t)
	codex := filepath.Join(l.home, "elsewhere")
	write(t, filepath.Join(codex, "config.toml"), "[mcp_servers.x]\ncommand = \"moved\"\n")
	p := l.places()
	p.CodexHome = codex
	found, err := Discover(p)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := found.Find("x"); err != nil || s.Command != "moved" {
		t.Errorf("x: %v %v", s, err)
	}
}

// TestDiscoveryMissingAndAmbiguous: a missing name says where discovery
// looked; a name matching several servers only ignoring case is
// ambiguous; one that matches one is found.
func TestDiscoveryMissingAndAmbiguous(t *testing.T) {
	l := newLayout(t)
	found, err := Discover(l.places())
	if err != nil {
		t.Fatal(err)
	}
	_, err = found.Find("nope")
	if err == nil || !strings.Contains(err.Error(), "found no MCP config; looked for "+filepath.Join(l.cwd, ".mcp.json")) ||
		!strings.Contains(err.Error(), filepath.Join(l.home, ".claude.json")) {
		t.Errorf("missing, nothing found: %v", err)
	}

	write(t, filepath.Join(l.project, ".mcp.json"), jsonServers("mcpServers", "p", "GitHub", "notes"))
	write(t, filepath.Join(l.home, ".cursor", "mcp.json"), jsonServers("mcpServers", "u", "github"))
	if found, err = Discover(l.places()); err != nil {
		t.Fatal(err)
	}
	_, err = found.Find("nope")
	if err == nil || !strings.Contains(err.Error(), `no MCP server named "nope": read `+filepath.Join(l.project, ".mcp.json")+" (2)") ||
		!strings.Contains(err.Error(), "not present: "+filepath.Join(l.cwd, ".mcp.json")) {
		t.Errorf("missing: %v", err)
	}
	if _, err = found.Find("GITHUB"); err == nil || !strings.Contains(err.Error(), `"GITHUB" is ambiguous: "GitHub" in`) {
		t.Errorf("ambiguous: %v", err)
	}
	if s, err := found.Find("Notes"); err != nil || s.Name != "notes" {
		t.Errorf("case-insensitive: %v %v", s, err)
	}
	if s, err := found.Find("github"); err != nil || s.Command != "u" {
		t.Errorf("exact match: %v %v", s, err)
	}
}

// TestDiscoveryBadFile: a config that exists but does not parse stops
// discovery with its name and line; one that cannot be read too.
func TestDiscoveryBadFile(t *testing.T) {
	l := newLayout(t)
	write(t, filepath.Join(l.home, ".cursor", "mcp.json"), "{\n  \"mcpServers\": {,}\n}\n")
	if _, err := Discover(l.places()); err == nil || !strings.Contains(err.Error(), filepath.Join(l.home, ".cursor", "mcp.json")+":2:") {
		t.Errorf("bad file: %v", err)
	}
	if os.Geteuid() == 0 {
		return // root reads any file
	}
	write(t, filepath.Join(l.home, ".cursor", "mcp.json"), "{}")
	if err := os.Chmod(filepath.Join(l.home, ".cursor", "mcp.json"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := Discover(l.places()); err == nil || !strings.Contains(err.Error(), "cannot read the config") {
		t.Errorf("unreadable file: %v", err)
	}
}

// A project config others may write (a shared /tmp) is not read: its
// commands would run as this user.
func TestDiscoverySkipsFilesOthersMayWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".mcp.json")
	if err := os.WriteFile(path, []byte(`{"mcpServers":{"github":{"command":"evil"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	found, err := Discover(Places{Dir: dir, Home: filepath.Dir(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Files) != 0 || len(found.Skipped) != 1 {
		t.Fatalf("read %d files, skipped %v", len(found.Files), found.Skipped)
	}
	if _, err := found.Find("github"); err == nil || !strings.Contains(err.Error(), "others may write") {
		t.Errorf("Find = %v, want it to say why the file was not read", err)
	}
}

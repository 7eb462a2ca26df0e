package mcpconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Places are where discovery looks: the working directory and its
// parents, then the user's configs.
type Places struct {
	Dir       string // the working directory
	Home      string // the user's home directory
	ConfigDir string // the user's config directory (os.UserConfigDir)
	CodexHome string // $CODEX_HOME ("": ~/.codex)
}

// DefaultPlaces are the places of this process and user.
func DefaultPlaces() (Places, error) {
	dir, err := os.Getwd()
	if err != nil {
		return Places{}, err
	}
	home, _ := os.UserHomeDir()
	config, _ := os.UserConfigDir()
	return Places{Dir: dir, Home: home, ConfigDir: config, CodexHome: os.Getenv("CODEX_HOME")}, nil
}

// Candidate is a config file discovery reads, if it exists.
type Candidate struct {
	Path string
	// Client names whose config it is: "Claude Code project", "Cursor", …
	Client string
}

// Candidates are the files discovery reads, in order: in the working
// directory and each parent up to (not including) the home directory,
// .mcp.json, .vscode/mcp.json and .cursor/mcp.json; then the user's Cursor,
// Claude Desktop, Claude Code, Codex, VS Code and Windsurf configs.
func (p Places) Candidates() []Candidate {
	var out []Candidate
	home := filepath.Clean(p.Home)
	for dir := filepath.Clean(p.Dir); dir != "" && (p.Home == "" || dir != home); {
		out = append(out,
			Candidate{filepath.Join(dir, ".mcp.json"), "Claude Code project"},
			Candidate{filepath.Join(dir, ".vscode", "mcp.json"), "VS Code workspace"},
			Candidate{filepath.Join(dir, ".cursor", "mcp.json"), "Cursor project"})
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	codex := p.CodexHome
	if codex == "" && p.Home != "" {
		codex = filepath.Join(p.Home, ".codex")
	}
	// A place whose base is unknown (no home, no config directory) is
	// left out.
	for _, c := range []struct{ base, client, rel string }{
		{p.Home, "Cursor", ".cursor/mcp.json"},
		{p.ConfigDir, "Claude Desktop", "Claude/claude_desktop_config.json"},
		{p.Home, "Claude Code", ".claude.json"},
		{codex, "Codex", "config.toml"},
		{p.ConfigDir, "VS Code", "Code/User/mcp.json"},
		{p.Home, "Windsurf", ".codeium/windsurf/mcp_config.json"},
	} {
		if c.base != "" {
			out = append(out, Candidate{filepath.Join(c.base, filepath.FromSlash(c.rel)), c.client})
		}
	}
	return out
}

// Found is what discovery read.
type Found struct {
	// Files are the config files that exist, in discovery order.
	Files []*File
	// Looked are every file discovery looked for, whether or not it was
	// there.
	Looked []Candidate
	// Skipped are files discovery found but did not read: another user
	// owns them, or others may write them.
	Skipped []string
}

// Servers are every server of every file, in discovery order: for a name
// given twice the first is the one that counts.
func (f *Found) Servers() []*Server {
	var out []*Server
	for _, file := range f.Files {
		out = append(out, file.Servers...)
	}
	return out
}

// Discover reads the config files of the places that exist. A file that
// exists but cannot be read or parsed is an error naming it.
func Discover(p Places) (*Found, error) {
	found := &Found{Looked: p.Candidates()}
	seen := map[string]bool{}
	for _, c := range found.Looked {
		if seen[c.Path] {
			continue
		}
		seen[c.Path] = true
		info, err := os.Stat(c.Path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && info.IsDir() {
			continue
		}
		if err == nil && !trusted(info) {
			// Another user could have put it there (a shared /tmp):
			// its commands would run as this one.
			found.Skipped = append(found.Skipped, c.Path)
			continue
		}
		f, err := Load(c.Path, Options{Dir: p.Dir})
		if err != nil {
			return nil, err
		}
		found.Files = append(found.Files, f)
	}
	return found, nil
}

// trusted reports whether a discovered file is this user's own and
// nobody else may write it. Where the system does not say who owns a
// file, it is trusted.
func trusted(info fs.FileInfo) bool {
	if info.Mode().Perm()&0o022 != 0 {
		return false
	}
	uid, ok := fileOwner(info)
	return !ok || uid == os.Getuid()
}

// Find returns the server name selects: the first exact match in
// discovery order, else the one server whose name matches ignoring case.
// A missing or ambiguous name is an error saying where discovery looked.
func (f *Found) Find(name string) (*Server, error) {
	all := f.Servers()
	for _, s := range all {
		if s.Name == name {
			return s, nil
		}
	}
	var folded []*Server
	for _, s := range all {
		if strings.EqualFold(s.Name, name) && !containsName(folded, s.Name) {
			folded = append(folded, s)
		}
	}
	switch len(folded) {
	case 1:
		return folded[0], nil
	case 0:
		return nil, fmt.Errorf("no MCP server named %q: %s", name, f.where())
	}
	var names []string
	for _, s := range folded {
		names = append(names, fmt.Sprintf("%q in %s", s.Name, s.File))
	}
	return nil, fmt.Errorf("%q is ambiguous: %s; give the name as written", name, strings.Join(names, ", "))
}

func containsName(servers []*Server, name string) bool {
	for _, s := range servers {
		if s.Name == name {
			return true
		}
	}
	return false
}

// where says, in one line, which files discovery read and which it looked
// for.
func (f *Found) where() string {
	var read, absent []string
	have := map[string]bool{}
	for _, file := range f.Files {
		have[file.Path] = true
		read = append(read, fmt.Sprintf("%s (%d)", file.Path, len(file.Servers)))
	}
	skipped := map[string]bool{}
	for _, p := range f.Skipped {
		skipped[p] = true
	}
	for _, c := range f.Looked {
		if !have[c.Path] && !skipped[c.Path] {
			absent = append(absent, c.Path)
		}
	}
	note := ""
	if len(f.Skipped) > 0 {
		note = "; not read, as another user owns them or others may write them: " + strings.Join(f.Skipped, ", ")
	}
	if len(read) == 0 {
		return "found no MCP config; looked for " + strings.Join(absent, ", ") + note
	}
	return "read " + strings.Join(read, ", ") + "; not present: " + strings.Join(absent, ", ") + note
}

// FindIn returns the server name selects in one file: with name "", its
// only server.
func (f *File) FindIn(name string) (*Server, error) {
	if name == "" {
		switch len(f.Servers) {
		case 1:
			return f.Servers[0], nil
		case 0:
			return nil, fmt.Errorf("%s names no MCP servers (no mcpServers, servers or mcp_servers)", f.Path)
		}
		return nil, fmt.Errorf("%s has %d servers (%s): choose one with --server NAME", f.Path, len(f.Servers), f.names())
	}
	for _, s := range f.Servers {
		if s.Name == name {
			return s, nil
		}
	}
	if len(f.Servers) == 0 {
		return nil, fmt.Errorf("no server %q in %s: it names no MCP servers", name, f.Path)
	}
	return nil, fmt.Errorf("no server %q in %s (it has: %s)", name, f.Path, f.names())
}

func (f *File) names() string {
	var names []string
	for _, s := range f.Servers {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}

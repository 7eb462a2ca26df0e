package mcpconfig

import (
	"fmt"
	"io"
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
	// Project: a project's config, in the working directory or a parent,
	// rather than one of the user's own.
	Project bool
}

// Candidates are the files discovery reads, in order: in the working
// directory and each parent up to (not including) the home directory,
// .mcp.json, .vscode/mcp.json and .cursor/mcp.json; then the user's Cursor,
// Claude Desktop, Claude Code, Codex, VS Code and Windsurf configs.
// [Discover] stops walking up sooner, at a folder another user owns.
func (p Places) Candidates() []Candidate {
	var out []Candidate
	for _, dir := range p.levels() {
		out = append(out, projectCandidates(dir)...)
	}
	return append(out, p.userCandidates()...)
}

// levels are the folders whose project configs discovery reads: the
// working directory and each parent up to (not including) the home
// directory.
func (p Places) levels() []string {
	var out []string
	home := filepath.Clean(p.Home)
	for dir := filepath.Clean(p.Dir); dir != "" && (p.Home == "" || dir != home); {
		out = append(out, dir)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return out
}

// projectConfigs are the project configs of a folder, each as the folder
// inside it that holds it ("" for the folder itself) and its name.
var projectConfigs = []struct{ sub, name, client string }{
	{"", ".mcp.json", "Claude Code project"},
	{".vscode", "mcp.json", "VS Code workspace"},
	{".cursor", "mcp.json", "Cursor project"},
}

func projectCandidates(dir string) []Candidate {
	out := make([]Candidate, 0, len(projectConfigs))
	for _, pc := range projectConfigs {
		out = append(out, Candidate{filepath.Join(dir, pc.sub, pc.name), pc.client, true})
	}
	return out
}

// userCandidates are the user's own configs; a place whose base is
// unknown (no home, no config directory) is left out.
func (p Places) userCandidates() []Candidate {
	var out []Candidate
	codex := p.CodexHome
	if codex == "" && p.Home != "" {
		codex = filepath.Join(p.Home, ".codex")
	}
	for _, c := range []struct{ base, client, rel string }{
		{p.Home, "Cursor", ".cursor/mcp.json"},
		{p.ConfigDir, "Claude Desktop", "Claude/claude_desktop_config.json"},
		{p.Home, "Claude Code", ".claude.json"},
		{codex, "Codex", "config.toml"},
		{p.ConfigDir, "VS Code", "Code/User/mcp.json"},
		{p.Home, "Windsurf", ".codeium/windsurf/mcp_config.json"},
	} {
		if c.base != "" {
			out = append(out, Candidate{Path: filepath.Join(c.base, filepath.FromSlash(c.rel)), Client: c.client})
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
	// owns them or their folder, others may write them, or they are links
	// in a folder others may write.
	Skipped []string
	// Stopped is the folder where discovery stopped walking up, as
	// another user owns it ("" when it walked up to the home directory or
	// the root).
	Stopped string
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

// Shadowed are the servers in the user's own configs that a project's
// entry named name hides, in discovery order: those whose name equals it
// ignoring case, as [Found.Find] would have chosen one of them, by its
// name or ignoring case, were the project's entry not there.
func (f *Found) Shadowed(name string) []*Server {
	var out []*Server
	for _, s := range f.Servers() {
		if strings.EqualFold(s.Name, name) && !s.FromProject {
			out = append(out, s)
		}
	}
	return out
}

// Discover reads the config files of the places that exist. A file that
// exists but cannot be read or parsed is an error naming it.
//
// Another user may own a folder on the way up (a shared /tmp) and swap
// what is in it while discovery looks: each file is opened once and
// checked as opened — this user's, a regular file, and no one else may
// write it — and read from what was opened; a link is followed only in a
// folder that is this user's and no one else may write; walking up stops
// at a folder that is neither this user's nor root's.
func Discover(p Places) (*Found, error) {
	d := &discovery{found: &Found{}, dir: p.Dir, seen: map[string]bool{}}
	for _, dir := range p.levels() {
		more, err := d.level(dir)
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
	}
	for _, c := range p.userCandidates() {
		if err := d.user(c); err != nil {
			return nil, err
		}
	}
	return d.found, nil
}

// discovery is one run of [Discover].
type discovery struct {
	found *Found
	dir   string
	seen  map[string]bool
}

// beforeOpen, when set by a test, runs after discovery checked the
// folder of the file at path and before it opens the file: where another
// user's swap would land.
var beforeOpen func(path string)

// level reads the project configs of one folder on the way up, and
// reports whether discovery goes on to its parent.
func (d *discovery) level(dir string) (bool, error) {
	folder, err := openDir(dir)
	if err != nil {
		// A folder that cannot be opened cannot be checked: discovery
		// goes no higher.
		return false, nil
	}
	defer folder.Close()
	info, err := folder.Stat()
	if err != nil {
		return false, nil
	}
	if !ownedByUserOrRoot(info) {
		d.found.Stopped = dir
		return false, nil
	}
	follow := trusted(info)
	for _, pc := range projectConfigs {
		c := Candidate{filepath.Join(dir, pc.sub, pc.name), pc.client, true}
		if d.seen[c.Path] {
			continue
		}
		d.seen[c.Path] = true
		d.found.Looked = append(d.found.Looked, c)
		if err := d.project(folder, follow, pc.sub, c); err != nil {
			return false, err
		}
	}
	return true, nil
}

// project reads one project config of the open folder, in its sub-folder
// sub ("" for none).
func (d *discovery) project(folder *os.File, follow bool, sub string, c Candidate) error {
	if sub != "" {
		inner, err := openIn(folder, sub, follow, true)
		switch {
		case absent(err):
			return nil
		case isLink(err):
			d.found.Skipped = append(d.found.Skipped, c.Path)
			return nil
		case err != nil:
			return readError(c.Path, err)
		}
		defer inner.Close()
		info, err := inner.Stat()
		if err != nil {
			return readError(c.Path, err)
		}
		if !ownedByUserOrRoot(info) {
			d.found.Skipped = append(d.found.Skipped, c.Path)
			return nil
		}
		folder, follow = inner, follow && trusted(info)
	}
	if beforeOpen != nil {
		beforeOpen(c.Path)
	}
	f, err := openIn(folder, filepath.Base(c.Path), follow, false)
	if isLink(err) {
		d.found.Skipped = append(d.found.Skipped, c.Path)
		return nil
	}
	return d.read(c, f, err)
}

// user reads one of the user's own configs: links are followed there (a
// dotfiles repository), the file opened is checked all the same.
func (d *discovery) user(c Candidate) error {
	if d.seen[c.Path] {
		return nil
	}
	d.seen[c.Path] = true
	d.found.Looked = append(d.found.Looked, c)
	f, err := openFile(c.Path)
	return d.read(c, f, err)
}

// read reads the config f, opened for c (or err, the failure to open it),
// unless it is not there, or is not this user's alone.
func (d *discovery) read(c Candidate, f *os.File, err error) error {
	if absent(err) {
		return nil
	}
	if err != nil {
		return readError(c.Path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return readError(c.Path, err)
	}
	switch {
	case info.IsDir():
		return nil
	case !trusted(info):
		// Another user could have put it there (a shared /tmp): its
		// commands would run as this one.
		d.found.Skipped = append(d.found.Skipped, c.Path)
		return nil
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s: cannot read the config: not a regular file", c.Path)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return readError(c.Path, err)
	}
	file, err := parse(c.Path, data, Options{Dir: d.dir})
	if err != nil {
		return err
	}
	for _, s := range file.Servers {
		s.FromProject = c.Project
	}
	d.found.Files = append(d.found.Files, file)
	return nil
}

// trusted reports whether a discovered file or folder is this user's own
// and nobody else may write it: a config read, or a link followed, was
// put there by this user. Where the system does not say who owns a file,
// it is trusted.
func trusted(info fs.FileInfo) bool {
	return info.Mode().Perm()&0o022 == 0 && ownedBy(info, os.Getuid())
}

// ownedByUserOrRoot reports whether this user or root owns a file.
func ownedByUserOrRoot(info fs.FileInfo) bool {
	return ownedBy(info, os.Getuid()) || ownedBy(info, 0)
}

// ownedBy reports whether uid owns a file; where the system does not say
// who owns a file, everyone does.
func ownedBy(info fs.FileInfo, uid int) bool {
	owner, ok := fileOwner(info)
	return !ok || owner == uid
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
		note = "; not read, as another user owns them or others may write them (or they are links there): " + strings.Join(f.Skipped, ", ")
	}
	if f.Stopped != "" {
		note += "; did not look in " + f.Stopped + " or above, as another user owns it"
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

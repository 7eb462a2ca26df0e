// Package mcpconfig reads the MCP server configurations that other clients
// keep — Claude Desktop, Claude Code, Cursor and Windsurf (`mcpServers`),
// VS Code (`servers` with `inputs`) and Codex (`config.toml`'s
// `[mcp_servers.NAME]`) — finds them where those clients keep them, and
// turns an entry into a connection target, expanding variables as its
// format defines. See docs/architecture.md, "Server configs".
package mcpconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Format is the dialect a config file is written in.
type Format string

// The formats mcpeek reads.
const (
	// FormatMCPServers is the `mcpServers` object of Claude Desktop,
	// Claude Code (.mcp.json, ~/.claude.json), Cursor and Windsurf.
	FormatMCPServers Format = "mcpServers"
	// FormatVSCode is VS Code's mcp.json: `servers` and `inputs`.
	FormatVSCode Format = "vscode"
	// FormatCodex is Codex's config.toml: `[mcp_servers.NAME]` tables.
	FormatCodex Format = "codex"
)

// Transports an entry can name.
const (
	TransportStdio = "stdio"
	TransportHTTP  = "http"
	TransportSSE   = "sse"
)

// Server is one entry of a config file, as written: nothing is expanded
// until [Server.Resolve].
type Server struct {
	Name   string
	File   string // the config file's path
	Format Format
	// Scope says where in the file the entry is, when the file has more
	// than one place for servers (~/.claude.json's per-project entries).
	Scope string
	// Type is the entry's "type" as written ("" when it has none).
	Type    string
	Command string
	Args    []string
	Env     map[string]string
	EnvFile string
	Cwd     string
	URL     string
	Headers map[string]string
	// Codex: the variable holding a bearer token, and headers whose
	// values come from variables (header name → variable name).
	BearerTokenEnvVar string
	EnvHeaders        map[string]string
	// Disabled: the client that owns the file does not start it.
	Disabled bool
	// FromProject: the entry is in a project's config that discovery
	// found in the working directory or a parent (.mcp.json,
	// .vscode/mcp.json, .cursor/mcp.json) — a repository's file, not the
	// person's own — so it is used only once the person approves it
	// ([TrustStore]).
	FromProject bool

	// Problem is why the entry cannot be used (a value of the wrong kind),
	// found while reading it; the other entries of the file still can.
	Problem error

	// inputs are the file's VS Code inputs; workspace is what
	// ${workspaceFolder} means for this file; project is the project
	// folder the file belongs to ("" for a user's config), where a stdio
	// server runs unless its entry says otherwise.
	inputs    []Input
	workspace string
	project   string
}

// Input is a VS Code input: a value asked for when a server that refers
// to it as ${input:ID} starts.
type Input struct {
	ID          string
	Type        string // promptString or pickString
	Description string
	Default     string
	Password    bool
	Options     []string // pickString
}

// Transport is how the entry is reached (stdio, http or sse), or why it
// cannot be: an unknown type, both a command and a URL, or neither.
func (s *Server) Transport() (string, error) {
	if s.Problem != nil {
		return "", s.Problem
	}
	switch s.Type {
	case "":
		switch {
		case s.Command != "" && s.URL != "":
			return "", s.errorf("has both command and url: give one")
		case s.Command != "":
			return TransportStdio, nil
		case s.URL != "":
			return TransportHTTP, nil
		}
		return "", s.errorf("has neither command nor url")
	case "stdio":
		if s.URL != "" {
			return "", s.errorf("has both command and url: give one")
		}
		if s.Command == "" {
			return "", s.errorf("is of type stdio but has no command")
		}
		return TransportStdio, nil
	case "http", "streamable-http", "streamableHttp":
		return s.urlTransport(TransportHTTP)
	case "sse":
		return s.urlTransport(TransportSSE)
	}
	return "", s.errorf("has unknown type %q (want stdio, http, streamable-http or sse)", s.Type)
}

func (s *Server) urlTransport(t string) (string, error) {
	if s.Command != "" {
		return "", s.errorf("has both command and url: give one")
	}
	if s.URL == "" {
		return "", s.errorf("is of type %s but has no url", s.Type)
	}
	return t, nil
}

// errorf is an error about the entry, naming it and its file.
func (s *Server) errorf(format string, args ...any) error {
	return fmt.Errorf("%s: server %q %s", s.File, s.Name, fmt.Sprintf(format, args...))
}

// EnvKeys are the names of the entry's environment variables, sorted;
// their values may be secret and are never shown.
func (s *Server) EnvKeys() []string { return sortedKeys(s.Env) }

// HeaderNames are the names of the entry's HTTP headers, sorted; their
// values may be secret and are never shown.
func (s *Server) HeaderNames() []string {
	names := sortedKeys(s.Headers)
	for name := range s.EnvHeaders {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	if s.BearerTokenEnvVar != "" && !slices.Contains(names, "Authorization") {
		names = append(names, "Authorization")
	}
	sort.Strings(names)
	return names
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// File is one config file read.
type File struct {
	Path    string
	Format  Format
	Servers []*Server // in the order the file lists them
}

// Options say how to read a file.
type Options struct {
	// Dir is the working directory: the project whose entries
	// ~/.claude.json keeps, and ${workspaceFolder} of a file outside a
	// project folder.
	Dir string
	// Workspace, when set, is the project folder the file belongs to:
	// what ${workspaceFolder} means in it, and where its stdio servers
	// run. Without it a file in a project folder (.vscode/, .cursor/, a
	// .mcp.json) belongs to that folder, and ${workspaceFolder} of any
	// other file is Dir.
	Workspace string
}

// Load reads the config file at path, whatever its format: JSON (with
// comments and trailing commas, as VS Code and Cursor allow) holding
// `mcpServers`, `servers` (or `mcp.servers`) or `projects`, or TOML holding
// `mcp_servers`. Syntax errors name the file and line.
//
// Load follows links and reads whatever path names: the person named it.
// Discovery reads the files it finds more carefully ([Discover]).
func Load(path string, opts Options) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, readError(path, err)
	}
	return parse(path, data, opts)
}

// parse reads a config file's text, data, read from path.
func parse(path string, data []byte, opts Options) (*File, error) {
	var err error
	if opts.Workspace == "" {
		opts.Workspace = projectOf(path)
	}
	var f *File
	if looksJSON(path, data) {
		f, err = loadJSON(path, data, opts)
	} else {
		f, err = loadTOML(path, data)
	}
	if err != nil {
		return nil, err
	}
	for _, s := range f.Servers {
		if s.project == "" {
			s.project = opts.Workspace
		}
		s.workspace = s.project
		if s.workspace == "" {
			s.workspace = opts.Dir
		}
	}
	return f, nil
}

// readError words a file that cannot be read.
func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot read the config: %v", path, err)
}

// looksJSON tells JSON from TOML: a file whose first significant character
// opens an object is JSON, and so is one named .json.
func looksJSON(path string, data []byte) bool {
	rest := strings.TrimLeft(string(data), " \t\r\n\ufeff")
	for strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "/*") {
		end := "\n"
		if strings.HasPrefix(rest, "/*") {
			end = "*/"
		}
		i := strings.Index(rest, end)
		if i < 0 {
			return true
		}
		rest = strings.TrimLeft(rest[i+len(end):], " \t\r\n")
	}
	if strings.HasPrefix(rest, "{") {
		return true
	}
	return strings.EqualFold(filepath.Ext(path), ".json")
}

// projectOf is the project folder a config file belongs to: the parent of
// a .vscode or .cursor folder, the folder of a .mcp.json, else "".
func projectOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	parent := filepath.Dir(abs)
	switch {
	case filepath.Base(parent) == ".vscode" || filepath.Base(parent) == ".cursor":
		return filepath.Dir(parent)
	case filepath.Base(abs) == ".mcp.json":
		return parent
	}
	return ""
}

// lineCol is the 1-based line and column of byte offset off in data.
func lineCol(data []byte, off int) (line, col int) {
	off = min(max(off, 0), len(data))
	head := data[:off]
	line = 1 + strings.Count(string(head), "\n")
	col = off + 1
	if i := strings.LastIndexByte(string(head), '\n'); i >= 0 {
		col = off - i
	}
	return line, col
}

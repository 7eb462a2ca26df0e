package mcpconfig

import (
	"errors"
	"fmt"
	"strings"

	"github.com/BurntSushi/toml"
)

// codexEntry is a `[mcp_servers.NAME]` table of Codex's config.toml, as
// read and as written (Write).
type codexEntry struct {
	Command           string            `toml:"command,omitempty"`
	Args              []string          `toml:"args,omitempty"`
	Env               map[string]string `toml:"env,omitempty"`
	Cwd               string            `toml:"cwd,omitempty"`
	URL               string            `toml:"url,omitempty"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var,omitempty"`
	HTTPHeaders       map[string]string `toml:"http_headers,omitempty"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers,omitempty"`
	Enabled           *bool             `toml:"enabled,omitempty"`
}

func loadTOML(path string, data []byte) (*File, error) {
	var doc struct {
		Servers map[string]toml.Primitive `toml:"mcp_servers"`
	}
	md, err := toml.Decode(string(data), &doc)
	if err != nil {
		return nil, tomlError(path, err)
	}
	f := &File{Path: path, Format: FormatCodex}
	// The tables in the order the file has them.
	for _, key := range md.Keys() {
		if len(key) != 2 || key[0] != "mcp_servers" {
			continue
		}
		name := key[1]
		prim, ok := doc.Servers[name]
		if !ok {
			continue
		}
		s := &Server{Name: name, File: path, Format: FormatCodex}
		var e codexEntry
		if err := md.PrimitiveDecode(prim, &e); err != nil {
			s.Problem = fmt.Errorf("%s: server %q: %s", path, name, strings.TrimPrefix(err.Error(), "toml: "))
		}
		s.Command, s.Args, s.Env, s.Cwd, s.URL = e.Command, e.Args, e.Env, e.Cwd, e.URL
		s.Headers, s.EnvHeaders, s.BearerTokenEnvVar = e.HTTPHeaders, e.EnvHTTPHeaders, e.BearerTokenEnvVar
		s.Disabled = e.Enabled != nil && !*e.Enabled
		f.Servers = append(f.Servers, s)
	}
	return f, nil
}

// tomlError words a TOML error as FILE:LINE:COL: text.
func tomlError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d:%d: invalid TOML: %s", path, pe.Position.Line, pe.Position.Col, pe.Message)
	}
	return fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
}

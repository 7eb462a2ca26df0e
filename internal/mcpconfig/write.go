package mcpconfig

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/BurntSushi/toml"
)

// jsonOut is a JSON config's entry as written out.
type jsonOut struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	EnvFile string            `json:"envFile,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// codexOut is a Codex entry as written out.
type codexOut struct {
	Command           string            `toml:"command,omitempty"`
	Args              []string          `toml:"args,omitempty"`
	Cwd               string            `toml:"cwd,omitempty"`
	URL               string            `toml:"url,omitempty"`
	BearerTokenEnvVar string            `toml:"bearer_token_env_var,omitempty"`
	Env               map[string]string `toml:"env,omitempty"`
	HTTPHeaders       map[string]string `toml:"http_headers,omitempty"`
	EnvHTTPHeaders    map[string]string `toml:"env_http_headers,omitempty"`
}

// Write writes a config file in format f that names the one server s, as
// its fields are (values unexpanded): what a person pastes into their
// host's config. A format's fields it has no place for are left out
// (Codex has no envFile; only Codex has bearer_token_env_var and
// env_http_headers).
func Write(s *Server, f Format) ([]byte, error) {
	switch f {
	case FormatMCPServers, FormatVSCode:
		e := jsonOut{Command: s.Command, Args: s.Args, Env: s.Env, EnvFile: s.EnvFile, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
		key := "mcpServers"
		if f == FormatVSCode {
			key = "servers"
			e.Type = TransportStdio
			if s.URL != "" {
				e.Type = TransportHTTP
			}
		} else if s.URL != "" {
			e.Type = TransportHTTP
		}
		out, err := json.MarshalIndent(map[string]map[string]jsonOut{key: {s.Name: e}}, "", "  ")
		return append(out, '\n'), err
	case FormatCodex:
		e := codexOut{Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL}
		e.HTTPHeaders, e.EnvHTTPHeaders, e.BearerTokenEnvVar = s.Headers, s.EnvHeaders, s.BearerTokenEnvVar
		var b bytes.Buffer
		err := toml.NewEncoder(&b).Encode(map[string]map[string]codexOut{"mcp_servers": {s.Name: e}})
		return b.Bytes(), err
	}
	return nil, fmt.Errorf("unknown config format %q", f)
}

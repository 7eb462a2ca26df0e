package mcpconfig

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/BurntSushi/toml"
)

// Write writes a config file in format f that names the one server s, as
// its fields are (values unexpanded): what a person pastes into their
// host's config. A format's fields it has no place for are left out
// (Codex has no envFile; only Codex has bearer_token_env_var and
// env_http_headers).
func Write(s *Server, f Format) ([]byte, error) {
	switch f {
	case FormatMCPServers, FormatVSCode:
		e := jsonEntry{Command: s.Command, Args: s.Args, Env: s.Env, EnvFile: s.EnvFile, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers}
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
		out, err := json.MarshalIndent(map[string]map[string]jsonEntry{key: {s.Name: e}}, "", "  ")
		return append(out, '\n'), err
	case FormatCodex:
		e := codexEntry{Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL}
		e.HTTPHeaders, e.EnvHTTPHeaders, e.BearerTokenEnvVar = s.Headers, s.EnvHeaders, s.BearerTokenEnvVar
		var b bytes.Buffer
		err := toml.NewEncoder(&b).Encode(map[string]map[string]codexEntry{"mcp_servers": {s.Name: e}})
		return b.Bytes(), err
	}
	return nil, fmt.Errorf("unknown config format %q", f)
}

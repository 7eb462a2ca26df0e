package proxy

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Wrap is a host's config entry s routed through mcpeek proxy, self being
// mcpeek's path, as the person pastes it into the host's config (mcpeek
// never edits one). Values stay as written, unexpanded: the host expands
// them as before, and no secret moves into the proxy's arguments.
//
// A command's entry becomes one that runs `self proxy --name NAME --
// COMMAND ARGS…`, its environment, env file and folder kept. A URL's
// entry becomes one that reaches the proxy on listen, its headers kept
// (the proxy forwards the host's headers); start is the command that runs
// that proxy, for the person to start first.
func Wrap(s *mcpconfig.Server, self, listen string) (wrapped *mcpconfig.Server, start []string, err error) {
	transport, err := s.Transport()
	if err != nil {
		return nil, nil, err
	}
	if isProxy(s, self) {
		return nil, nil, fmt.Errorf("server %q already goes through mcpeek proxy", s.Name)
	}
	w := *s
	w.Type = ""
	switch transport {
	case mcpconfig.TransportStdio:
		w.Command = self
		w.Args = append([]string{"proxy", "--name", s.Name, "--", s.Command}, s.Args...)
		return &w, nil, nil
	case mcpconfig.TransportHTTP:
		u, err := url.Parse(s.URL)
		if err != nil || u.Host == "" {
			return nil, nil, fmt.Errorf("server %q: its URL %q is not one the proxy can forward to", s.Name, s.URL)
		}
		via := url.URL{Scheme: "http", Host: listen, Path: u.Path, RawQuery: u.RawQuery}
		w.URL = via.String()
		w.Type = mcpconfig.TransportHTTP
		return &w, []string{self, "proxy", "--listen", listen, "--name", s.Name, "--", s.URL}, nil
	}
	return nil, nil, errors.New("the proxy forwards stdio and streamable HTTP, not " + transport + ": server " + s.Name)
}

// isProxy reports whether s already runs mcpeek proxy.
func isProxy(s *mcpconfig.Server, self string) bool {
	base := filepath.Base(s.Command)
	return (s.Command == self || base == "mcpeek" || base == filepath.Base(self)) && len(s.Args) > 0 && s.Args[0] == "proxy"
}

// Formats are the formats an entry is printed in (servers --wrap
// --format), by the hosts' names.
var Formats = map[string]mcpconfig.Format{
	"claude": mcpconfig.FormatMCPServers, // Claude Code and Claude Desktop
	"cursor": mcpconfig.FormatMCPServers,
	"vscode": mcpconfig.FormatVSCode,
	"codex":  mcpconfig.FormatCodex,
}

// Printed is a wrapped entry as printed: the config text, the command
// that starts a URL server's proxy (nil for a command's), and the
// credentials the entry writes out literally — by where they are
// ("env API_KEY") — which whoever prints the text redacts.
type Printed struct {
	Text        []byte
	Start       []string
	Credentials map[string]string
}

// WrapNamed wraps the first of servers named name (as @NAME finds it),
// printed in format (one of [Formats]; "": that of its own config).
func WrapNamed(servers []*mcpconfig.Server, name, format, self, listen string) (Printed, error) {
	i := slices.IndexFunc(servers, func(s *mcpconfig.Server) bool { return strings.EqualFold(s.Name, name) })
	if i < 0 {
		return Printed{}, fmt.Errorf("no server named %q in the configs (see mcpeek servers)", name)
	}
	srv := servers[i]
	wrapped, start, err := Wrap(srv, self, listen)
	if err != nil {
		return Printed{}, err
	}
	f := srv.Format
	if format != "" {
		f = Formats[format]
	}
	text, err := mcpconfig.Write(wrapped, f)
	return Printed{Text: text, Start: start, Credentials: literalCredentials(srv)}, err
}

// literalCredentials are the credentials an entry writes out: a value
// without a ${…} reference whose name says it holds one.
func literalCredentials(srv *mcpconfig.Server) map[string]string {
	found := map[string]string{}
	for k, v := range srv.Env {
		if !strings.Contains(v, "${") && len(mcpclient.TargetSecrets(mcpclient.Target{Env: []string{k + "=" + v}})) > 0 {
			found["env "+k] = v
		}
	}
	for k, v := range srv.Headers {
		if !strings.Contains(v, "${") && mcpclient.CredentialHeader(k) {
			found["header "+k] = v
		}
	}
	return found
}

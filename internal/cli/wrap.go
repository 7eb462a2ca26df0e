package cli

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/proxy"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// wrapOptions are `mcpeek servers --wrap @NAME`'s: print the config entry
// that routes the server through mcpeek proxy.
type wrapOptions struct {
	name   string
	format string
	listen string
}

// wrapFormats are --format's words and the config dialect each writes.
var wrapFormats = map[string]mcpconfig.Format{
	"claude": mcpconfig.FormatMCPServers, // Claude Code and Claude Desktop
	"cursor": mcpconfig.FormatMCPServers,
	"vscode": mcpconfig.FormatVSCode,
	"codex":  mcpconfig.FormatCodex,
}

// defaultWrapListen is where a URL server's proxy listens unless --listen
// says otherwise.
const defaultWrapListen = "127.0.0.1:8931"

func (w *wrapOptions) register(fs *flagSet) {
	fs.StringVar(&w.name, "wrap", "", "print the config entry that routes server `@NAME` through mcpeek proxy (mcpeek never edits a host's config)")
	fs.StringVar(&w.format, "format", "", "with --wrap: the entry's format, claude, cursor, vscode or codex (default: that of the config naming the server)")
	fs.StringVar(&w.listen, "listen", defaultWrapListen, "with --wrap, for a URL server: the `ADDR` its proxy listens on")
}

func (w *wrapOptions) check(listing bool) error {
	w.name = strings.TrimPrefix(w.name, "@")
	switch {
	case w.name == "" && (w.format != "" || w.listen != defaultWrapListen):
		return usagef("servers: --format and --listen go with --wrap")
	case w.name == "":
		return nil
	case listing:
		return usagef("servers: --wrap prints an entry, not a listing: no --json or --names")
	}
	if _, ok := wrapFormats[w.format]; w.format != "" && !ok {
		return usagef("servers: --format: %q is not claude, cursor, vscode or codex", w.format)
	}
	return nil
}

// run prints the wrapped entry of the first server of that name (the one
// @NAME reaches) on stdout, and for a URL server the proxy's command on
// stderr.
func (w *wrapOptions) run(s streams, servers []*mcpconfig.Server) error {
	var srv *mcpconfig.Server
	for _, candidate := range servers {
		if strings.EqualFold(candidate.Name, w.name) {
			srv = candidate
			break
		}
	}
	if srv == nil {
		return usagef("servers --wrap: no server named %q in the configs (see mcpeek servers)", w.name)
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding mcpeek's own path: %w", err)
	}
	wrapped, start, err := proxy.Wrap(srv, self, w.listen)
	if err != nil {
		return usagef("servers --wrap: %v", err)
	}
	format := srv.Format
	if w.format != "" {
		format = wrapFormats[w.format]
	}
	out, err := mcpconfig.Write(wrapped, format)
	if err != nil {
		return err
	}
	if hidden := w.hideCredentials(s, srv); len(hidden) > 0 {
		fmt.Fprintf(s.errOut, "mcpeek: the values of %s are credentials written out in the config: shown as %s here; keep your entry's\n",
			strings.Join(hidden, ", "), mcpclient.Redacted)
	}
	if start != nil {
		fmt.Fprintf(s.errOut, "mcpeek: start the proxy first (it stays in the foreground): %s\n", commandLine(start))
	}
	_, err = s.out.Write(out)
	return err
}

// hideCredentials has the run's output redact the credentials the entry
// writes out literally (a value without a ${…} reference, whose name says
// it is one), and returns their names.
func (w *wrapOptions) hideCredentials(s streams, srv *mcpconfig.Server) []string {
	var hidden []string
	hide := func(kind string, values map[string]string, target func(k, v string) mcpclient.Target) {
		for _, k := range slices.Sorted(maps.Keys(values)) {
			v := values[k]
			if strings.Contains(v, "${") || len(mcpclient.TargetSecrets(target(k, v))) == 0 {
				continue
			}
			s.secrets.AddCredential(v)
			hidden = append(hidden, kind+" "+k)
		}
	}
	hide("env", srv.Env, func(k, v string) mcpclient.Target { return mcpclient.Target{Env: []string{k + "=" + v}} })
	hide("header", srv.Headers, func(k, v string) mcpclient.Target {
		return mcpclient.Target{Headers: http.Header{k: {v}}}
	})
	return hidden
}

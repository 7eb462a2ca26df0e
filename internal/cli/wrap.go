package cli

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/proxy"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// wrapOptions are `mcpeek servers --wrap @NAME`'s: print the config entry
// that routes the server through mcpeek proxy (internal/proxy/wrap.go).
type wrapOptions struct{ name, format, listen string }

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
	_, known := proxy.Formats[w.format]
	switch {
	case w.name == "" && (w.format != "" || w.listen != defaultWrapListen):
		return usagef("servers: --format and --listen go with --wrap")
	case w.name != "" && listing:
		return usagef("servers: --wrap prints an entry, not a listing: no --json or --names")
	case w.format != "" && !known:
		return usagef("servers: --format: %q is not claude, cursor, vscode or codex", w.format)
	}
	return nil
}

// run prints the wrapped entry on stdout, a credential it writes out
// redacted, and for a URL server the proxy's command on stderr.
func (w *wrapOptions) run(s streams, servers []*mcpconfig.Server) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding mcpeek's own path: %w", err)
	}
	p, err := proxy.WrapNamed(servers, w.name, w.format, self, w.listen)
	if err != nil {
		return usagef("servers --wrap: %v", err)
	}
	if len(p.Credentials) > 0 {
		for _, v := range p.Credentials {
			s.secrets.AddCredential(v)
		}
		fmt.Fprintf(s.errOut, "mcpeek: the values of %s are credentials written out in the config: shown as %s here; keep your entry's\n",
			strings.Join(slices.Sorted(maps.Keys(p.Credentials)), ", "), mcpclient.Redacted)
	}
	if p.Start != nil {
		fmt.Fprintf(s.errOut, "mcpeek: start the proxy first (it stays in the foreground): %s\n", commandLine(p.Start))
	}
	_, err = s.out.Write(p.Text)
	return err
}

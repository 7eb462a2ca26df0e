package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fixtureOptions are `mcpeek fixture`'s.
type fixtureOptions struct {
	httpAddr  string
	stateless bool
	noApp     bool
	changed   bool
	era       string
}

func newFixtureOptions(fs *flagSet) options {
	o := &fixtureOptions{}
	fs.StringVar(&o.httpAddr, "http", "", "serve streamable HTTP on `ADDR` (for example 127.0.0.1:8080) instead of stdio")
	fs.BoolVar(&o.stateless, "stateless", false, "with --http: serve without sessions")
	fs.BoolVar(&o.noApp, "no-app-elicitation", false, "do not advertise app-rendered elicitation")
	fs.BoolVar(&o.changed, "changed-results", false, "answer multi_round with a changed result (to see mcpeek replay or mcpeek test report it)")
	fs.StringVar(&o.era, "era", "", "speak one `ERA` only, as a server written for one does: legacy (2025-11-25 and before) or modern (2026-07-28)")
	return o
}

func (o *fixtureOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("fixture: unexpected arguments: %s", strings.Join(rest, " "))
	}
	if o.era != "" && o.era != "legacy" && o.era != "modern" {
		return usagef("fixture: --era must be legacy or modern, not %q", o.era)
	}
	if o.stateless && o.httpAddr == "" {
		return usagef("fixture: --stateless needs --http")
	}
	return nil
}

func (o *fixtureOptions) run(ctx context.Context, s streams) error {
	opts := fixture.Options{NoAppElicitation: o.noApp, ChangedResults: o.changed, Era: o.era}
	if o.httpAddr == "" {
		err := fixture.New(opts).Run(ctx, &mcp.StdioTransport{})
		if err != nil && ctx.Err() == nil {
			return serveError{fmt.Errorf("fixture: %w", err)}
		}
		return nil
	}
	ln, err := net.Listen("tcp", o.httpAddr)
	if err != nil {
		return serveError{fmt.Errorf("fixture: %w", err)}
	}
	srv := &http.Server{Handler: fixture.HTTPHandler(opts, o.stateless), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(s.errOut, "mcpeek fixture: serving streamable HTTP on http://%s/\n", ln.Addr())
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return serveError{fmt.Errorf("fixture: %w", err)}
	}
	return nil
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/mcpeek/mcpeek/internal/record"
)

// errServedMismatch is a served recording that saw a request it does not
// hold or an answer other than the recorded one: the summary on stderr
// says which.
var errServedMismatch = errors.New("the client did not do what the recording did")

// defineServe adds replay's --serve and --http: the recording plays the
// server (docs/architecture.md, "Serving a recording").
func defineServe(fs *flagSet, serve *bool, httpAddr *string) {
	fs.BoolVar(serve, "serve", false, "play the recording's server instead: answer the recorded requests, ask the recorded questions and check the answers (stdio, or --http)")
	fs.StringVar(httpAddr, "http", "", "with --serve: serve streamable HTTP on `ADDR` (a port alone, such as 8080 or :0, listens on 127.0.0.1; name a host to listen elsewhere)")
}

// checkServe checks the serve flags once parsed; server are the words
// after the recording, which serving takes none of.
func checkServe(serve bool, httpAddr string, server []string) error {
	switch {
	case !serve:
		return usagef("replay: --http needs --serve")
	case len(server) > 0:
		return usagef("replay: --serve plays the server itself: no SERVER (%s)", strings.Join(server, " "))
	}
	return nil
}

// runServe serves the recording until the client goes (stdio) or the run
// is interrupted (HTTP), then prints the summary on stderr.
func (o *replayOptions) runServe(ctx context.Context, s streams) error {
	h, entries, err := record.ReadFile(o.file)
	if err != nil {
		return usagef("replay: %v", err)
	}
	srv, err := record.NewServer(h, entries, 0)
	if err != nil {
		return usagef("replay: %s: %v", o.file, err)
	}
	if o.httpAddr == "" {
		err = srv.ServeStdio(ctx, s.in, s.out)
	} else {
		err = serveHTTP(ctx, s, srv, o.httpAddr, o.file, h.Protocol)
	}
	sum := srv.Summary()
	_, _ = sum.WriteTo(s.errOut)
	if err != nil {
		return serveError{fmt.Errorf("replay: %w", err)}
	}
	if !sum.OK() {
		return errServedMismatch
	}
	return nil
}

func serveHTTP(ctx context.Context, s streams, srv *record.Server, httpAddr, path, protocol string) error {
	addr, loopback, err := serveAddr(httpAddr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if !loopback {
		fmt.Fprintf(s.errOut, "mcpeek replay: listening on %s, not loopback: whoever reaches it is served the recording\n", ln.Addr())
	}
	fmt.Fprintf(s.errOut, "mcpeek replay: serving %s (%s) as streamable HTTP on http://%s/\n", path, protocol, ln.Addr())
	return srv.ServeOn(ctx, ln, loopback)
}

// serveAddr is where --http listens: a port alone (8080, :8080) on
// 127.0.0.1; a named host as named. loopback says whether that is this
// machine only.
func serveAddr(addr string) (string, bool, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", false, fmt.Errorf("--http %s: %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	return net.JoinHostPort(host, port), host == "localhost" || (ip != nil && ip.IsLoopback()), nil
}

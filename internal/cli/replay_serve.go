package cli

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/mcpeek/mcpeek/internal/loopback"
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
	fs.StringVar(httpAddr, "http", "", "with --serve: serve streamable HTTP on `ADDR` (a port alone, such as 8080 or :0, listens on 127.0.0.1 and [::1], where localhost leads; name a host to listen elsewhere)")
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
	listeners, local, err := serveListen(httpAddr)
	if err != nil {
		return err
	}
	if !local {
		fmt.Fprintf(s.errOut, "mcpeek replay: listening on %s, not loopback: whoever reaches it is served the recording\n", listeners[0].Addr())
	}
	also := ""
	for _, ln := range listeners[1:] {
		also += fmt.Sprintf(" and http://%s/", ln.Addr())
	}
	fmt.Fprintf(s.errOut, "mcpeek replay: serving %s (%s) as streamable HTTP on http://%s/%s\n", path, protocol, listeners[0].Addr(), also)
	return srv.ServeOn(ctx, listeners, local)
}

// serveListen listens where --http says. A port alone (8080, :8080),
// localhost or 127.0.0.1 is taken on 127.0.0.1 and on [::1]
// (loopback.Listen): a client dialing localhost may reach [::1] first,
// where another user's process could otherwise answer as the recording.
// A host named otherwise is listened on as named. local says whether
// that is this machine only.
func serveListen(addr string) ([]net.Listener, bool, error) {
	if !strings.Contains(addr, ":") {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, false, fmt.Errorf("--http %s: %v", addr, err)
	}
	switch host {
	case "", "localhost", "127.0.0.1":
		n, err := net.LookupPort("tcp", port)
		if err != nil {
			return nil, false, fmt.Errorf("--http %s: %v", addr, err)
		}
		listeners, _, err := loopback.Listen(n)
		if err != nil {
			return nil, false, fmt.Errorf("--http %s: %w", addr, err)
		}
		return listeners, true, nil
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, false, err
	}
	ip := net.ParseIP(host)
	return []net.Listener{ln}, ip != nil && ip.IsLoopback(), nil
}

// Package proxy is mcpeek proxy: it sits between a host (Claude Code,
// Cursor, VS Code, any MCP client) and the server the host would have
// started or reached itself, and forwards every message byte for byte in
// both directions, while the wire log, and a recording when asked, keep
// what went by (docs/architecture.md, "The proxy").
//
// The host speaks to the proxy as it would to the server: over the
// proxy's stdin and stdout, or as streamable HTTP on --listen. The server
// is a command (stdio) or a URL. Nothing is added to or re-encoded in what
// the two sides send each other; the proxy's own words go to stderr and
// the wire log. Only when the server dies does the proxy speak on the
// server's behalf: each request in flight gets a JSON-RPC error naming how
// the server ended.
package proxy

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"golang.org/x/oauth2"
)

// Options are one proxy's settings.
type Options struct {
	// Target is the server: a command (stdio) or a URL (streamable HTTP),
	// with its environment or headers.
	Target mcpclient.Target
	// Listen is where the host reaches the proxy as a streamable-HTTP
	// server ("": over In and Out, as a stdio server).
	Listen string
	// Name names the proxy in what it says on ErrOut.
	Name string
	// Wire is the wire log every message goes to (send: the host's, recv:
	// the server's), with the target's secrets redacted.
	Wire *mcpclient.WireLog
	// Record, when set, is the recording the wire log writes to: its
	// header is written once the host's handshake is done.
	Record *record.Writer
	// MaxMessageSize is the largest message forwarded (0:
	// mcpclient.DefaultMaxMessageSize).
	MaxMessageSize int64
	// TLS is the TLS configuration for a URL server (nil: the defaults).
	TLS *tls.Config
	// In and Out are the host's side of a stdio proxy: what it writes and
	// where its server's messages go. ErrOut hears the proxy's own words
	// and the server's stderr.
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Listening, when set, hears the address --listen serves on.
	Listening func(addr string)
	// Answer is --answer: when the proxy answers the server's questions
	// itself instead of the host (docs/architecture.md, "Answering for
	// the host").
	Answer AnswerMode
	// Askers are asked in turn for each question the proxy answers: the
	// first that does not return ErrNobody answers.
	Askers []NamedAsker
	// OnElicit answers a question no asker answered (--on-elicit; ""
	// is cancel).
	OnElicit mcpclient.Policy
	// Apps, when set (--app-host), renders a question that names an app
	// in that app: asked before Askers, and app-rendered elicitation is
	// advertised to the server with the elicitation --answer adds.
	Apps mcpclient.AppRenderer
	// Token, when set, is the bearer token mcpeek's store holds for a URL
	// server, added to each request the host sent without authorization
	// of its own (and refreshed as the store allows).
	Token oauth2.TokenSource

	// authSaid says once that the server asks for authorization.
	authSaid *sync.Once
}

// ExitError is the server ending while the host was still connected: the
// proxy ends too, with a non-zero status.
type ExitError struct {
	// Status is how the server process ended ("exit status 3"), or what
	// broke the connection to it.
	Status string
	// LastStderr is the server's last stderr line ("": none).
	LastStderr string
	// Name is the server's --name ("": none).
	Name string
}

func (e *ExitError) Error() string {
	msg := "the server ended (" + e.Status + ")"
	if e.Name != "" {
		msg = "the server " + textclean.OneLine(e.Name) + " ended (" + e.Status + ")"
	}
	if e.LastStderr != "" {
		msg += "; its last stderr line: " + e.LastStderr
	}
	return msg
}

// Run runs the proxy until the host goes away (its stdin ends, or ctx
// is done), or the server does: then it returns an *ExitError.
func Run(ctx context.Context, opts Options) error {
	if opts.Wire == nil {
		opts.Wire = mcpclient.NewWireLog(0, nil)
	}
	if opts.MaxMessageSize <= 0 {
		opts.MaxMessageSize = mcpclient.DefaultMaxMessageSize
	}
	if opts.ErrOut == nil {
		opts.ErrOut = io.Discard
	}
	if err := Check(opts.Target, opts.Listen); err != nil {
		return err
	}
	opts.authSaid = new(sync.Once)
	url := opts.Target.Kind == mcpclient.TargetHTTP
	switch {
	case opts.Listen != "" && url:
		return runHTTP(ctx, opts)
	case opts.Listen != "":
		return runHTTPToCommand(ctx, opts)
	case url:
		return runStdioToURL(ctx, opts)
	}
	return runStdio(ctx, opts)
}

// Check says why the proxy cannot forward to target from a host on
// listen ("": stdio), if it cannot. A host on either transport reaches a
// server on either (crossing them is cross_url.go's and cross_cmd.go's).
func Check(target mcpclient.Target, listen string) error {
	switch {
	case target.Kind == mcpclient.TargetHTTP && target.SSE:
		return fmt.Errorf("the proxy forwards to a command or a streamable-HTTP URL, not %s over HTTP+SSE", target)
	case target.Kind != mcpclient.TargetHTTP && target.Kind != mcpclient.TargetStdio:
		return errors.New("name the server: a command (after --) or a URL")
	}
	return nil
}

// say writes a line of the proxy's own on ErrOut, naming the proxy.
func (o Options) say(format string, args ...any) {
	who := "mcpeek proxy"
	if o.Name != "" {
		who += " " + textclean.OneLine(o.Name)
	}
	fmt.Fprintf(o.ErrOut, "%s: %s\n", who, fmt.Sprintf(format, args...))
}

// report notes what happened in the wire log and says it on ErrOut.
func (o Options) report(msg string) {
	o.Wire.Note("proxy: " + msg)
	o.say("%s", msg)
}

// Record creates the recording file path (--record; "": none) and has the
// wire log write to it; the writer goes in Options.Record. stop ends it
// and closes the file, reporting why it holds nothing if it does not.
func Record(path string, wire *mcpclient.WireLog) (w *record.Writer, stop func() error, err error) {
	if path == "" {
		return nil, func() error { return nil }, nil
	}
	f, err := safefile.Log(path)
	if err != nil {
		return nil, nil, err
	}
	w = record.NewWriter(f)
	untap := wire.Tap(w)
	return w, func() error {
		untap()
		err := w.Close()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return err
	}, nil
}

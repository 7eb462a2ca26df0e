//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"al.essio.dev/pkg/shellescape"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol revisions mcpeek speaks.
const (
	ProtocolLegacy = "2025-11-25"
	ProtocolModern = "2026-07-28"
)

// Version is mcpeek's version, stamped from the build (version.go), sent as
// clientInfo.
var Version = buildVersion()

// TargetKind says how a server is reached.
type TargetKind int

// Target kinds.
const (
	TargetEmbedded TargetKind = iota // the embedded fixture, in memory
	TargetStdio                      // a command over stdio
	TargetHTTP                       // a streamable HTTP URL
)

// Target is the server named on the command line.
type Target struct {
	Kind    TargetKind
	Command []string    // TargetStdio: the command and its arguments
	Env     []string    // TargetStdio: extra KEY=VALUE entries
	Dir     string      // TargetStdio: the working directory ("": mcpeek's)
	URL     string      // TargetHTTP
	Headers http.Header // TargetHTTP: extra headers
	// SSE reaches a TargetHTTP over the older HTTP+SSE transport instead
	// of streamable HTTP (config files' "type": "sse").
	SSE bool
	// Embedded builds the in-memory server for TargetEmbedded.
	Embedded func() *mcp.Server
}

// String names the target as a person would recognise it: a command
// quoted for a POSIX shell, so that it can be pasted back.
func (t Target) String() string {
	switch t.Kind {
	case TargetStdio:
		return shellescape.QuoteCommand(t.Command)
	case TargetHTTP:
		// Shown on screens and in errors: without the query's values or a
		// password, which may be keys.
		u, err := url.Parse(t.URL)
		if err != nil || u.RawQuery == "" && u.User == nil {
			return t.URL
		}
		if u.RawQuery != "" {
			u.RawQuery = "…"
		}
		return u.Redacted()
	}
	return "embedded fixture"
}

// ParseTarget builds a target from the words after the flags, the -H
// headers ("Name: Value") and the -e environment (KEY=VALUE). No words means
// the embedded server.
func ParseTarget(words, headers, env []string, embedded func() *mcp.Server) (Target, error) {
	if len(words) == 0 {
		if len(headers) > 0 || len(env) > 0 {
			return Target{}, errors.New("-H and -e need a server to apply to")
		}
		return Target{Kind: TargetEmbedded, Embedded: embedded}, nil
	}
	if strings.HasPrefix(words[0], "http://") || strings.HasPrefix(words[0], "https://") {
		if len(words) > 1 {
			return Target{}, fmt.Errorf("unexpected words after the URL: %s", strings.Join(words[1:], " "))
		}
		if len(env) > 0 {
			return Target{}, errors.New("-e applies to a command, not a URL")
		}
		h := http.Header{}
		for _, kv := range headers {
			name, value, ok := strings.Cut(kv, ":")
			name = strings.TrimSpace(name)
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				return Target{}, fmt.Errorf("header %q is not of the form \"Name: Value\"", kv)
			}
			h.Add(name, strings.TrimSpace(value))
		}
		return Target{Kind: TargetHTTP, URL: words[0], Headers: h}, nil
	}
	if len(headers) > 0 {
		return Target{}, errors.New("-H applies to a URL, not a command")
	}
	for _, kv := range env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return Target{}, fmt.Errorf("environment entry %q is not of the form KEY=VALUE", kv)
		}
	}
	return Target{Kind: TargetStdio, Command: words, Env: env}, nil
}

// Config says how to connect.
type Config struct {
	Target Target
	// Protocol is "auto", "legacy" (ask for 2025-11-25, take what the server
	// offers), "modern" (2026-07-28, required) or a revision date, required.
	Protocol       string
	ConnectTimeout time.Duration
	Capabilities   CapabilityOptions
	// Asker answers elicitations natively; nil cancels them.
	Asker NativeAsker
	// Renderer renders app-requested form elicitations in their app. Only
	// with one does mcpeek advertise app-rendered elicitation.
	Renderer AppRenderer
	// Wire receives the traffic; nil keeps none.
	Wire *WireLog
	// Records receives one record per server→client request; nil keeps none.
	Records *Recorder
	// Sampler answers sampling/createMessage. Only with one does mcpeek
	// advertise sampling.
	Sampler Sampler
	// Roots are offered to the server from the start (URIs with optional
	// names); OfferRoots advertises roots even when there are none yet (the
	// inspector, where the person adds them later).
	Roots      []*mcp.Root
	OfferRoots bool
	// LogLevel, when set, is sent as logging/setLevel once connected.
	LogLevel string
	// TLS is the TLS configuration for URL servers (nil: the defaults).
	TLS *tls.Config
	// Auth authorizes requests to an HTTP server (OAuth); nil sends none
	// but the -H headers.
	Auth auth.OAuthHandler
	// MaxMessageSize is the largest message, in bytes, an HTTP server may
	// send: a response body, or one event of an event stream (0:
	// [DefaultMaxMessageSize]). A stdio server's is go-sdk's, 16 MiB.
	MaxMessageSize int64
	// OnEvent receives the server's notifications (logging, progress,
	// resource updates, list changes). It is called on the connection's
	// reading goroutine and must not block.
	OnEvent func(Event)
	// IgnoreListChanges leaves the server's list changes unheard: no
	// ListChangedEvent, and the tools listed stay the ones known for the
	// connection's life. A run that shows no list changes asks for none,
	// which in the 2026-07-28 era spares it and the server a
	// subscriptions/listen stream (a request, its acknowledgement, and its
	// cancellation when the connection closes).
	IgnoreListChanges bool
}

// ConnectError is a failure to reach or initialize the server.
type ConnectError struct {
	Target string
	Err    error
	// HTTPStatus is the status of an HTTP server's failed answer to the
	// last request ("404 Not Found"), or "".
	HTTPStatus string
}

func (e *ConnectError) Error() string {
	if e.HTTPStatus != "" {
		return fmt.Sprintf("connect to %s: the server answered HTTP %s (%v)", e.Target, e.HTTPStatus, e.Err)
	}
	return fmt.Sprintf("connect to %s: %v", e.Target, e.Err)
}
func (e *ConnectError) Unwrap() error { return e.Err }

// sentCaps holds the capabilities mcpeek advertises on a connection.
type sentCaps struct{ sent *mcp.ClientCapabilities }

func (c sentCaps) form() bool { return c.sent.Elicitation != nil && c.sent.Elicitation.Form != nil }

// Conn is one live connection to a server.
type Conn struct {
	cfg     Config
	caps    sentCaps
	client  *mcp.Client
	session *mcp.ClientSession
	notify  *notifier
	side    *sideChannel
	// httpClient is the tapped HTTP client of a URL server's transport.
	httpClient *http.Client
	rootsMu    sync.Mutex
	roots      []*mcp.Root
	logLevel   atomic.Pointer[string]
	// What is known of the server's tools until it says they changed
	// (toolsGen counts that): toolList as the SDK listed them, taskSupport
	// each one's execution.taskSupport as the side channel listed it; nil
	// until listed.
	toolsMu     sync.Mutex
	toolList    []*mcp.Tool
	taskSupport map[string]string
	toolsGen    int             // how many times the server said its tools changed
	liveTasks   map[string]bool // the tasks followed now (trackTask)
	acks        subscriptionAcks
	toolSchemas toolSchemas // as listed, in the server's order
	listed      listed      // the list answers' items as the server wrote them
	router      *router
	records     *Recorder
	wire        *WireLog
	closers     []func()
	// sentWire is the capabilities JSON as it went on the wire.
	sentWire json.RawMessage
	// life ends when Close begins: it aborts the calls in flight, because
	// a session closes only after its outgoing requests return.
	life    context.Context
	endLife context.CancelFunc

	closeOnce sync.Once
	// toolsSeen is set once the session has listed the tools, which lets
	// the SDK mirror x-mcp-header arguments into Mcp-Param headers.
	toolsSeen sync.Once
	// listedVersions are the revisions a server/discover answer listed.
	listedVersions atomic.Pointer[[]string]
	// tooLarge is the last message larger than the limit an HTTP server
	// sent, which broke the connection, and tooLargeN counts them: the
	// errors such a message explains say so (tooLargeFor).
	tooLarge  atomic.Pointer[MessageTooLargeError]
	tooLargeN atomic.Int64
	// failedPost is the status of an HTTP server's answer to the last
	// POST when it was a failure ("404 Not Found"), else "".
	failedPost atomic.Pointer[string]
	// logs counts the log messages read off the wire and those handed to
	// OnEvent, for DrainLogs.
	logs logCount
}

// Connect reaches the server, negotiates the protocol revision and returns
// the connection. Errors are [*ConnectError].
func Connect(ctx context.Context, cfg Config) (*Conn, error) {
	opts := cfg.Capabilities
	opts.AppHostUp = cfg.Renderer != nil
	opts.Sampling = cfg.Sampler != nil
	opts.Roots = cfg.OfferRoots || len(cfg.Roots) > 0
	c := &Conn{
		cfg:     cfg,
		caps:    sentCaps{Capabilities(opts)},
		records: cfg.Records,
		wire:    cfg.Wire,
		roots:   slices.Clone(cfg.Roots),
	}
	c.notify = &notifier{conn: c}
	c.logs.heard = make(chan struct{}, 1)
	c.side = newSideChannel(c)
	c.life, c.endLife = context.WithCancel(context.Background())
	if c.wire == nil {
		c.wire = NewWireLog(0, nil)
	}
	c.router = &router{conn: c, asker: cfg.Asker, sampler: cfg.Sampler, renderer: cfg.Renderer, pending: map[string]*pendingRequest{}}
	if err := c.connect(ctx); err != nil {
		c.Close()
		return nil, &ConnectError{Target: cfg.Target.String(), Err: c.explain(err, 0), HTTPStatus: c.failedStatus()}
	}
	if cfg.LogLevel != "" {
		if err := c.SetLogLevel(ctx, cfg.LogLevel); err != nil {
			c.wire.Note("logging/setLevel " + cfg.LogLevel + " failed: " + err.Error())
		}
	}
	go c.watch()
	return c, nil
}

// errServerGone is the cause when the connection ended on its own.
var errServerGone = errors.New("the server went away")

// watch ends every pending elicitation when the connection ends on its own
// (the server exited or hung up): nobody is left to take the answers, and
// in the 2026-07-28 era nothing else would end them.
func (c *Conn) watch() {
	_ = c.session.Wait()
	c.router.cancelAll(errServerGone)
	c.side.closeAll(errServerGone)
}

func (c *Conn) connect(ctx context.Context) error {
	version, pinned, err := protocolRequest(c.cfg.Protocol)
	if err != nil {
		return err
	}
	if a, ok := c.cfg.Auth.(interface{ Connecting(bool) }); ok {
		// A login that fails ends the attempt (go-sdk's fallback to
		// initialize would otherwise log in a second time).
		a.Connecting(true)
		defer a.Connecting(false)
	}
	parent := ctx
	if c.cfg.ConnectTimeout > 0 {
		// The connect timeout does not count the time a person takes to
		// log in (the authorizer pauses it while it waits for them).
		var cancel context.CancelCauseFunc
		ctx, cancel = context.WithCancelCause(ctx)
		defer cancel(nil)
		clock := newPausableTimer(c.cfg.ConnectTimeout, func() { cancel(context.DeadlineExceeded) })
		defer clock.stop()
		if w, ok := c.cfg.Auth.(interface{ OnWaiting(func(bool)) }); ok {
			w.OnWaiting(clock.pause)
			defer w.OnWaiting(nil)
		}
	}
	transport, err := c.transport(ctx)
	if err != nil {
		return err
	}
	copts := &mcp.ClientOptions{
		Capabilities:       c.caps.sent,
		ElicitationHandler: c.router.handle,
	}
	if c.router.sampler != nil {
		copts.CreateMessageWithToolsHandler = c.router.sample
	}
	c.notify.options(copts)
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpeek", Title: "mcpeek", Version: Version}, copts)
	client.AddReceivingMiddleware(c.rootsMiddleware, ownSchema)
	if len(c.roots) > 0 {
		client.AddRoots(c.roots...)
	}
	c.client = client
	if _, http := transport.(*mcp.StreamableClientTransport); !http {
		// Over HTTP the tap sits in the HTTP client instead (see httpTap).
		transport = &tapTransport{base: transport, wire: c.wire, seen: c.observe, side: c.side}
	}
	session, err := client.Connect(ctx, transport,
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		if err := parent.Err(); err != nil { // interrupted, or the run's own deadline
			return err
		}
		if ctx.Err() != nil {
			return fmt.Errorf("no answer within %s (--connect-timeout): %w", c.cfg.ConnectTimeout, context.Cause(ctx))
		}
		var rpc *jsonrpc.Error
		if pinned && errors.As(err, &rpc) && rpc.Code == mcp.CodeUnsupportedProtocolVersion {
			return &RevisionError{Want: version, Err: err}
		}
		return err
	}
	c.session = session
	c.sentWire = c.wire.SentCapabilities()
	if got := session.InitializeResult().ProtocolVersion; pinned && got != version {
		return &RevisionError{Want: version, Got: got}
	}
	return nil
}

// RevisionError is a server that does not speak the protocol revision a
// connection required: it negotiated another (Got), or refused the
// handshake of that revision's era (Err).
type RevisionError struct {
	Want, Got string
	Err       error
}

func (e *RevisionError) Error() string {
	if e.Got != "" {
		return fmt.Sprintf("the server does not speak protocol revision %s (it negotiated %s)", e.Want, e.Got)
	}
	return fmt.Sprintf("the server does not speak protocol revision %s (it refused it: %v)", e.Want, e.Err)
}

func (e *RevisionError) Unwrap() error { return e.Err }

// pausableTimer calls f once d has run, not counting the time it was
// paused.
type pausableTimer struct {
	mu     sync.Mutex
	timer  *time.Timer
	left   time.Duration
	since  time.Time
	paused int
}

func newPausableTimer(d time.Duration, f func()) *pausableTimer {
	return &pausableTimer{timer: time.AfterFunc(d, f), left: d, since: time.Now()}
}

// pause stops the clock (true) or starts it again (false); pauses nest.
func (p *pausableTimer) pause(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case on:
		p.paused++
		if p.paused == 1 && p.timer.Stop() {
			p.left -= time.Since(p.since)
		}
	case p.paused > 0:
		p.paused--
		if p.paused == 0 {
			p.since = time.Now()
			p.timer.Reset(max(p.left, 0))
		}
	}
}

func (p *pausableTimer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer.Stop()
}

// CheckProtocol reports whether p is a --protocol value mcpeek accepts.
func CheckProtocol(p string) error {
	_, _, err := protocolRequest(p)
	return err
}

// protocolRequest turns a Protocol value into the revision to ask for (""
// lets the SDK choose) and whether the server must agree to exactly it.
func protocolRequest(p string) (version string, pinned bool, err error) {
	switch p {
	case "", "auto":
		return "", false, nil
	case "legacy":
		return ProtocolLegacy, false, nil
	case "modern":
		return ProtocolModern, true, nil
	}
	if slices.Contains(mcp.SupportedProtocolVersions(), p) {
		return p, true, nil
	}
	return "", false, fmt.Errorf("unknown protocol %q (want auto, legacy, modern or a revision: %s)",
		p, strings.Join(mcp.SupportedProtocolVersions(), ", "))
}

func (c *Conn) transport(ctx context.Context) (mcp.Transport, error) {
	t := c.cfg.Target
	// The credentials of its headers and environment are redacted from all
	// the connection shows, before the first message.
	for _, v := range TargetSecrets(t) {
		c.wire.Secrets().AddCredential(v)
	}
	switch t.Kind {
	case TargetStdio:
		cmd := exec.Command(commandPath(t.Command[0], t.Env), t.Command[1:]...)
		cmd.Env = append(os.Environ(), t.Env...)
		cmd.Dir = t.Dir
		cmd.Stderr = c.wire.StderrWriter()
		return &mcp.CommandTransport{Command: cmd, TerminateDuration: 250 * time.Millisecond}, nil
	case TargetHTTP:
		base := headerTransport{base: HTTPTransport(c.cfg.TLS), headers: t.Headers}
		hc := &http.Client{Transport: httpTap{
			base:     base,
			wire:     c.wire,
			seen:     c.observe,
			limit:    c.maxMessage(),
			tooLarge: func(err *MessageTooLargeError) { c.tooLarge.Store(err); c.tooLargeN.Add(1) },
			posted:   c.notePost,
		}}
		c.httpClient = hc
		if t.SSE {
			// The wire tap wraps this transport's connection instead.
			return &mcp.SSEClientTransport{Endpoint: t.URL, HTTPClient: &http.Client{Transport: base}, MaxEventSize: int(c.maxMessage())}, nil
		}
		return &mcp.StreamableClientTransport{Endpoint: t.URL, HTTPClient: hc, MaxRetries: 1, OAuthHandler: c.cfg.Auth,
			MaxEventSize: int(c.maxMessage())}, nil
	}
	if t.Embedded == nil {
		return nil, errors.New("no embedded server")
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := t.Embedded().Connect(ctx, st, nil)
	if err != nil {
		return nil, err
	}
	c.closers = append(c.closers, func() { _ = ss.Close() })
	return ct, nil
}

// commandPath is the program a bare command name runs: found on the PATH
// the server's environment gives, when it gives one (as the doctor looks
// for it), else left to exec's lookup on mcpeek's own PATH.
func commandPath(name string, env []string) string {
	if found, _ := ServerPathLookup(name, env); found != "" {
		return found
	}
	return name
}

// ServerPathLookup finds a bare command name on the PATH a server's
// environment gives (its last PATH=, the one its process gets). given
// reports whether the environment gives a PATH; found is "" when the name
// is not on it, or is a path itself.
func ServerPathLookup(name string, env []string) (found string, given bool) {
	if strings.ContainsAny(name, `/\`) {
		return "", false
	}
	for _, kv := range slices.Backward(env) {
		if dirs, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, dir := range filepath.SplitList(dirs) {
				if found, err := exec.LookPath(filepath.Join(dir, name)); err == nil {
					return found, true
				}
			}
			return "", true
		}
	}
	return "", false
}

// maxMessage is the largest message an HTTP server may send.
func (c *Conn) maxMessage() int64 {
	if c.cfg.MaxMessageSize > 0 {
		return c.cfg.MaxMessageSize
	}
	return DefaultMaxMessageSize
}

// tooLargeFor is the message too large that explains err, a request's
// failure: one refused while the request was in flight (since mark, which
// is tooLargeN when it began), or, once the connection is closed, the one
// that broke it.
func (c *Conn) tooLargeFor(err error, mark int64) *MessageTooLargeError {
	if err == nil || c.tooLargeN.Load() == mark && !errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return c.tooLarge.Load()
}

// explain adds the server's last stderr line to an error, where there is
// one; an error a message too large explains (tooLargeFor) is that.
func (c *Conn) explain(err error, mark int64) error {
	if big := c.tooLargeFor(err, mark); big != nil {
		return big
	}
	if last := c.wire.LastStderr(); last != "" {
		return fmt.Errorf("%w (server stderr: %s)", err, last)
	}
	return err
}

// notePost keeps the status of an HTTP server's answer to a POST when it
// is a failure, and forgets it when the next one is not.
func (c *Conn) notePost(resp *http.Response) {
	if resp.StatusCode < 400 {
		c.failedPost.Store(nil)
		return
	}
	status := resp.Status
	if status == "" {
		status = fmt.Sprintf("%d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
	}
	c.failedPost.Store(&status)
}

// failedStatus is the status of the last POST when it failed, or "".
func (c *Conn) failedStatus() string {
	if s := c.failedPost.Load(); s != nil {
		return *s
	}
	return ""
}

type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		r = r.Clone(r.Context())
		for k, vs := range h.headers {
			r.Header.Del(k)
			for _, v := range vs {
				r.Header.Add(k, v)
			}
		}
	}
	return h.base.RoundTrip(r)
}

// Close cancels every pending elicitation and closes the connection.
func (c *Conn) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.cancelLiveTasks() // while the side channel still works
		c.endLife()
		c.router.cancelAll(errClosing)
		c.side.closeAll(errClosing)
		if c.session != nil {
			err = c.session.Close()
		}
		c.wire.open.forget() // no answer will be written now
		for _, f := range c.closers {
			f()
		}
		if closer, ok := c.cfg.Auth.(io.Closer); ok {
			_ = closer.Close()
		}
	})
	return err
}

// bind returns a context that also ends when the connection closes.
func (c *Conn) bind(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(c.life, func() { cancel(errClosing) })
	return ctx, func() { stop(); cancel(nil) }
}

// Context is done once the connection begins to close. Requests made on
// [Conn.Session] directly should be bound to it: the session closes only
// after its outgoing requests return, so an unbound request to a server
// that never answers would hold up Close.
func (c *Conn) Context() context.Context { return c.life }

// Pending lists the elicitations and sampling requests waiting for an
// answer, oldest first.
func (c *Conn) Pending() []Pending { return c.router.pendingList() }

// DismissPending answers every pending elicitation cancel: the native
// forms and the app sessions alike. The person is leaving.
func (c *Conn) DismissPending() { c.router.dismissAll() }

// PendingDone is closed once no elicitation or sampling request is
// pending and every request the server sent is answered on the wire:
// after DismissPending, once their answers have gone out, so that
// cancelling the call that asked cannot overtake them. (A request stops
// being pending a moment before its answer is written; since 2026-07-28
// an answer goes with the call made again instead, and none is left on
// the wire.)
func (c *Conn) PendingDone() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		<-c.router.whenDrained()
		<-c.wire.open.wait()
		close(done)
	}()
	return done
}

// AbandonApp stops rendering the request key in its app and sends it to the
// native form instead. It reports whether the request was in its app.
func (c *Conn) AbandonApp(key string) bool { return c.router.abandonApp(key) }

// Records are the settled elicitations of this connection.
func (c *Conn) Records() []Record { return c.records.Records() }

// Session is the underlying go-sdk session.
func (c *Conn) Session() *mcp.ClientSession { return c.session }

// AuthState is what happened in authorization, or nil when the server
// is not reached with mcpeek's OAuth.
func (c *Conn) AuthState() *oauth.State {
	a, ok := c.cfg.Auth.(*oauth.Authorizer)
	if !ok || a == nil {
		return nil
	}
	st := a.State()
	return &st
}

// Target is the server this connection reaches.
func (c *Conn) Target() Target { return c.cfg.Target }

// Wire is the connection's wire log.
func (c *Conn) Wire() *WireLog { return c.wire }

// cut is the server's text redacted, then cut to n runes, for an error or
// a status.
func (c *Conn) cut(text string, n int) string { return c.Secrets().cut(text, n) }

// Secrets are the secrets the connection knows (its wire log's): what
// shows what the server says redacts them.
func (c *Conn) Secrets() *Secrets { return c.wire.Secrets() }

// SentCapabilities are the client capabilities mcpeek advertised, as JSON
// exactly as they went on the wire.
func (c *Conn) SentCapabilities() json.RawMessage { return c.sentWire }

// ProtocolVersion is the negotiated protocol revision.
func (c *Conn) ProtocolVersion() string {
	if c.session == nil || c.session.InitializeResult() == nil {
		return ""
	}
	return c.session.InitializeResult().ProtocolVersion
}

// Revisions are the protocol revisions of the two eras
// (ProtocolLegacy, ProtocolModern) the server is known to speak, oldest
// first, or nil when that is not known. A 2026-07-28 session knows its
// own and the legacy revision when the server's server/discover answer
// lists it; a legacy session that let the server choose knows the server
// refused the modern handshake; one that required a legacy revision
// never asked.
func (c *Conn) Revisions() []string {
	got := c.ProtocolVersion()
	if got == ProtocolLegacy {
		if asked, _, _ := protocolRequest(c.cfg.Protocol); asked == "" {
			return []string{ProtocolLegacy}
		}
		return nil
	}
	if got != ProtocolModern {
		return nil
	}
	if listed := c.listedVersions.Load(); listed != nil && slices.Contains(*listed, ProtocolLegacy) {
		return []string{ProtocolLegacy, ProtocolModern}
	}
	return []string{ProtocolModern}
}

// noteDiscover keeps the revisions the first server/discover answer
// lists.
func (c *Conn) noteDiscover(data []byte) {
	var m struct {
		Result *struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &m) == nil && m.Result != nil && len(m.Result.SupportedVersions) > 0 {
		c.listedVersions.CompareAndSwap(nil, &m.Result.SupportedVersions)
	}
}

// ServerInfo is the server's self-description (never nil).
func (c *Conn) ServerInfo() *mcp.Implementation {
	if c.session != nil && c.session.InitializeResult() != nil && c.session.InitializeResult().ServerInfo != nil {
		return c.session.InitializeResult().ServerInfo
	}
	return &mcp.Implementation{}
}

// ServerName is the server's name, or the target when it gave none.
func (c *Conn) ServerName() string {
	if n := c.ServerInfo().Name; n != "" {
		return n
	}
	return c.cfg.Target.String()
}

// ServerCapabilities are the server's capabilities (never nil).
func (c *Conn) ServerCapabilities() *mcp.ServerCapabilities {
	if c.session != nil && c.session.InitializeResult() != nil && c.session.InitializeResult().Capabilities != nil {
		return c.session.InitializeResult().Capabilities
	}
	return &mcp.ServerCapabilities{}
}

// Instructions are the server's instructions, if any.
func (c *Conn) Instructions() string {
	if c.session == nil || c.session.InitializeResult() == nil {
		return ""
	}
	return c.session.InitializeResult().Instructions
}

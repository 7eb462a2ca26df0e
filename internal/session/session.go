//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

// Package session is mcpeek's one way to connect: a [Config] of plain
// values (what the command line, a suite or the inspector's picker says)
// and the [Endpoint] every connection to its server shares — the wire log,
// the app host, OAuth — for the commands, the inspector, the suite runner,
// diff's live sides and the doctor alike. It also finds a server a config
// names, and asks the person on the terminal to approve a project's server
// and to give its inputs (docs/architecture.md, "Server configs").
package session

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/apphost"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Config is what a connection to one server is made of: the server, the
// protocol, TLS, OAuth and the app host, as plain values.
type Config struct {
	// Target is the server; Protocol the revision: auto, legacy, modern or
	// a date.
	Target   mcpclient.Target
	Protocol string
	// ConnectTimeout bounds the handshake.
	ConnectTimeout time.Duration
	// NoFormElicitation: form elicitation is not advertised.
	NoFormElicitation bool
	// WireLog is the file the raw traffic is written to ("": none).
	WireLog string
	// MaxMessageSize is the largest message a URL server may send.
	MaxMessageSize int64
	// Roots are offered to the server; OfferRoots advertises roots even
	// when none is given (the inspector, where the person adds them).
	Roots      []*mcp.Root
	OfferRoots bool
	// LogLevel asks the server for log messages at this level and above
	// ("": none).
	LogLevel string
	// TLS are the TLS options of URL servers, and TLSConfig what they
	// built (nil: the defaults).
	TLS       mcpclient.TLSOptions
	TLSConfig *tls.Config
	// Auth is OAuth's.
	Auth Auth
	// AppHost renders app-requested forms in the server's MCP App, in the
	// browser, with the App settings.
	AppHost bool
	App     App
	// NoBrowser shows URLs to open instead of launching a browser;
	// OpenWith runs this shell command instead of the browser.
	NoBrowser bool
	OpenWith  string
	// Secrets are the credentials the server's config resolved to,
	// redacted from all the run prints.
	Secrets []string
}

// App are the app host's settings.
type App struct {
	// Addr is its listen address ("": a free port on 127.0.0.1).
	Addr string
	// InitTimeout bounds the page's and app's start; AnswerTimeout the
	// app's answer.
	InitTimeout, AnswerTimeout time.Duration
	// Theme is the terminal's, "dark" or "light", for the apps hosted.
	Theme string
}

// Auth are OAuth's settings.
type Auth struct {
	ClientID          string
	ClientSecret      string
	ClientMetadataURL string
	// Scope are the scopes to ask for (space- or comma-separated; "": the
	// server's).
	Scope string
	// CallbackAddr is where the browser's redirect is listened for.
	CallbackAddr string
	// NoStored neither uses nor keeps stored tokens; StoredOnly never
	// opens a browser; ForceLogin logs in afresh even with a stored token.
	NoStored, StoredOnly, ForceLogin bool
	// Allow are the private hosts authorization requests may reach.
	Allow oauth.AllowList
}

// Store is the token store the settings allow (nil: none).
func (a Auth) Store() (*oauth.Store, error) {
	if a.NoStored {
		return nil, nil
	}
	path, err := oauth.DefaultStorePath()
	if err != nil {
		return nil, err
	}
	return oauth.OpenStore(path), nil
}

// Endpoint is what every connection to the server shares, for a headless
// run's one connection as for each of the inspector's: the wire log (and
// its file) and, with the app host, the app host.
type Endpoint struct {
	cfg Config
	// Wire is the connections' wire log; Host the app host (nil without
	// it).
	Wire    *mcpclient.WireLog
	Host    *apphost.Host
	closers []func()
	// OnEvent hears the server's notifications when the asker does not.
	OnEvent func(mcpclient.Event)
	// IgnoreListChanges: the run shows no list changes, so it asks the
	// server for none.
	IgnoreListChanges bool
	// ShowAuth tells the person what authorization needs of them;
	// PasteAuth (nil: none) reads a pasted redirect URL.
	ShowAuth  func(string)
	PasteAuth func(context.Context) (string, error)
	connected func(*mcpclient.Conn, *mcpclient.WireLog)
}

// Hooks are what starting an endpoint tells and asks the caller.
type Hooks struct {
	// Secrets are the run's, which the wire log redacts; the config's and
	// the target's are added to them.
	Secrets *mcpclient.Secrets
	// Notify shows the person a URL to open.
	Notify func(string)
	// Tap, when set, is called with the wire log before the app host
	// starts; what it returns is undone when the endpoint closes.
	Tap func(*mcpclient.WireLog) (untap func(), err error)
	// Connected hears each connection made, once its handshake is done,
	// with the wire log to note a trouble in.
	Connected func(*mcpclient.Conn, *mcpclient.WireLog)
}

// Start opens the endpoint cfg describes. Its wire log redacts secrets,
// the run's set that its output redacts too.
func Start(cfg Config, h Hooks) (*Endpoint, error) {
	e := &Endpoint{cfg: cfg, connected: h.Connected}
	var sink io.Writer
	if cfg.WireLog != "" {
		f, err := safefile.Log(cfg.WireLog)
		if err != nil {
			return nil, usagef("--wire-log: %v", err)
		}
		e.closers = append(e.closers, func() { _ = f.Close() })
		sink = f
	}
	if h.Secrets == nil {
		h.Secrets = &mcpclient.Secrets{}
	}
	e.Wire = mcpclient.NewWireLog(0, sink)
	e.Wire.UseSecrets(h.Secrets)
	cfg.LearnSecrets(h.Secrets)
	if h.Tap != nil {
		untap, err := h.Tap(e.Wire)
		if err != nil {
			e.Close()
			return nil, err
		}
		if untap != nil {
			e.closers = append(e.closers, untap)
		}
	}
	if cfg.AppHost {
		host, err := cfg.startAppHost(e.Wire, h.Notify)
		if err != nil {
			e.Close()
			return nil, err
		}
		e.Host = host
		e.closers = append(e.closers, func() { _ = host.Close() })
	}
	return e, nil
}

// LearnSecrets adds the credentials the target carries (its credential
// headers and environment entries) and those its config resolved to, to
// the run's secrets, which all the run prints is redacted of: called
// before anything is sent, so that even a server's first answer cannot
// show one.
func (c Config) LearnSecrets(secrets *mcpclient.Secrets) {
	for _, v := range mcpclient.TargetSecrets(c.Target) {
		secrets.AddCredential(v)
	}
	for _, secret := range c.Secrets {
		secrets.Add(secret)
	}
}

// launcher is how other processes are given a URL to open: a launch URL or
// a launch file, never the tokenized URL (docs/app-host.md, "No token in
// another process's arguments").
func (c Config) launcher() func(url string) error {
	if c.OpenWith != "" {
		return apphost.OpenWith(c.OpenWith)
	}
	return apphost.SystemBrowser(c.NoBrowser)
}

// startAppHost starts the app host; its diagnostics go to the wire log.
func (c Config) startAppHost(wire *mcpclient.WireLog, notify func(string)) (*apphost.Host, error) {
	host, err := apphost.Start(apphost.Options{
		Addr: c.App.Addr, InitTimeout: c.App.InitTimeout, AnswerTimeout: c.App.AnswerTimeout,
		Launch: c.launcher(), Notify: notify, Version: mcpclient.Version, Theme: c.App.Theme,
		Logf: func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
	})
	if err != nil {
		return nil, usagef("--app-host: %v", err)
	}
	return host, nil
}

// Config is the endpoint's configuration.
func (e *Endpoint) Config() Config { return e.cfg }

// With is the endpoint for another configuration (another server the
// inspector switches to): the wire log, app host and hooks stay.
func (e *Endpoint) With(cfg Config) *Endpoint {
	next := *e
	next.cfg = cfg
	next.closers = nil // the first endpoint's to close
	return &next
}

// Connect makes one connection to the server: asker answers its
// elicitations natively, and its sampling requests and hears its
// notifications when it is also a [mcpclient.Sampler] or
// [mcpclient.Listener]; records receives one record per request (nil keeps
// none).
func (e *Endpoint) Connect(ctx context.Context, asker mcpclient.NativeAsker, records *mcpclient.Recorder) (*mcpclient.Conn, error) {
	c := e.cfg
	cfg := mcpclient.Config{
		Target:         c.Target,
		Protocol:       c.Protocol,
		ConnectTimeout: c.ConnectTimeout,
		Capabilities:   mcpclient.CapabilityOptions{FormElicitation: !c.NoFormElicitation},
		Asker:          asker,
		Wire:           e.Wire,
		Records:        records,
		Roots:          c.Roots,
		OfferRoots:     c.OfferRoots,
		LogLevel:       c.LogLevel,
		TLS:            c.TLSConfig,
		MaxMessageSize: c.MaxMessageSize,
		// A headless run's stderr shows no list changes.
		IgnoreListChanges: e.IgnoreListChanges,
	}
	if s, ok := asker.(mcpclient.Sampler); ok {
		cfg.Sampler = s
	}
	cfg.OnEvent = e.OnEvent
	if l, ok := asker.(mcpclient.Listener); ok {
		cfg.OnEvent = l.OnEvent
	}
	if c.Target.Kind == mcpclient.TargetHTTP && !c.Target.SSE { // the SSE transport takes no OAuth handler
		show, paste := e.ShowAuth, e.PasteAuth
		if p, ok := asker.(mcpclient.AuthPrompter); ok {
			show, paste = p.ShowAuth, p.PasteAuth
		}
		a, err := c.authorizer(ctx, e.Wire, show, paste)
		if err != nil {
			return nil, err
		}
		cfg.Auth = a // closed with the connection
	}
	if e.Host != nil {
		cfg.Renderer = e.Host
	}
	conn, err := mcpclient.Connect(ctx, cfg)
	if err == nil && e.connected != nil {
		e.connected(conn, e.Wire)
	}
	return conn, err
}

// Close closes what Start opened, the app host before the wire log file
// it writes to.
func (e *Endpoint) Close() {
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// Open makes one connection to the server cfg names, on an endpoint of
// its own: close closes both.
func Open(ctx context.Context, cfg Config, h Hooks, asker mcpclient.NativeAsker, records *mcpclient.Recorder) (conn *mcpclient.Conn, close func(), err error) {
	e, err := Start(cfg, h)
	if err != nil {
		return nil, nil, err
	}
	conn, err = e.Connect(ctx, asker, records)
	if err != nil {
		e.Close()
		return nil, nil, err
	}
	return conn, func() { _ = conn.Close(); e.Close() }, nil
}

// StoredAuth is OAuth for a connection nobody can be asked to log in on
// (mcpeek proxy, whose stdout is a host's): the token mcpeek's store
// holds for the URL server, refreshed as the store allows, and never a
// login. Its token source is nil when the store holds no usable token.
// The token goes to wire's secrets, so that what wire keeps redacts it.
func (c Config) StoredAuth(ctx context.Context, wire *mcpclient.WireLog) (*oauth.Authorizer, error) {
	c.Auth.StoredOnly = true
	return c.authorizer(ctx, wire, func(string) {}, nil)
}

// authorizer prepares OAuth for a connection to an HTTP server, within
// ctx: show tells the person what to do, paste (nil: none) reads a pasted
// redirect URL.
func (c Config) authorizer(ctx context.Context, wire *mcpclient.WireLog, show func(string), paste func(context.Context) (string, error)) (*oauth.Authorizer, error) {
	store, err := c.Auth.Store()
	if err != nil {
		return nil, err
	}
	opts := oauth.Options{
		Context:           ctx, // the run's timeout bounds a stored token's refresh
		Resource:          c.Target.URL,
		ClientMetadataURL: c.Auth.ClientMetadataURL,
		ClientID:          c.Auth.ClientID,
		ClientSecret:      c.Auth.ClientSecret,
		Scopes:            strings.Fields(strings.ReplaceAll(c.Auth.Scope, ",", " ")),
		CallbackAddr:      c.Auth.CallbackAddr,
		AllowHosts:        c.Auth.Allow,
		Store:             store,
		StoredOnly:        c.Auth.StoredOnly,
		Fresh:             c.Auth.ForceLogin,
		Show:              show,
		Paste:             paste,
		Logf:              func(format string, args ...any) { wire.Note(fmt.Sprintf(format, args...)) },
		Secret:            wire.Secret,
		HTTPClient:        mcpclient.HTTPClient(c.TLSConfig),
	}
	if !c.Auth.StoredOnly {
		launch := c.launcher()
		// The opener is another process, whose arguments other local
		// users can read: it gets a private launch page, never the
		// authorization URL, whose state would let them end the login.
		opts.Open = func(url string) (func(), error) { return apphost.OpenPrivately(launch, url) }
	}
	return oauth.New(opts)
}

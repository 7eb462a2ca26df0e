package oauth

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// Options say how to authorize against one MCP server.
type Options struct {
	// Resource is the MCP server's URL.
	Resource string
	// Context bounds what New does on the network: refreshing an expired
	// stored token (nil: no bound but the HTTP client's).
	Context context.Context
	// Registration, tried in the specification's order: a client ID
	// metadata document URL, a pre-registered client, then dynamic
	// client registration (always on).
	ClientMetadataURL string
	ClientID          string
	ClientSecret      string
	// Scopes, when set, replace the scopes mcpeek would ask for.
	Scopes []string
	// CallbackAddr is the loopback address of the redirect ("" is a free
	// port on 127.0.0.1).
	CallbackAddr string
	// Open opens the authorization URL in a browser; nil or an error
	// leaves it to the person (Show says where to go). done, when not
	// nil, removes what Open left for the browser (a launch page): it is
	// called once the login stops waiting, before Authorize returns, or
	// at Close.
	Open func(url string) (done func(), err error)
	// Show tells the person something: the URL to open, what is awaited.
	Show func(text string)
	// Paste, when set, reads the URL the browser was redirected to, for a
	// person whose browser cannot reach the callback (SSH). It must
	// return when ctx is done.
	Paste func(ctx context.Context) (string, error)
	// Store keeps tokens between runs; nil keeps none (--no-stored-auth).
	Store *Store
	// StoredOnly never starts a login: without a usable stored token
	// the connection fails with ErrNoStoredToken.
	StoredOnly bool
	// Fresh logs in anew, ignoring stored tokens (and storing the new one).
	Fresh bool
	// AllowHosts may be reached by the authorization requests whatever
	// their address (--auth-allow-host): an authorization server on the
	// intranet of a server that is not.
	AllowHosts AllowList
	// HTTPClient makes the authorization requests (nil: the default).
	HTTPClient *http.Client
	// Logf narrates, without secrets, into the wire log.
	Logf func(format string, args ...any)
	// Secret is told each secret mcpeek handles, so that logs redact it.
	Secret func(string)
}

// ErrNoStoredToken is the failure of --stored-auth-only without a usable
// stored token.
var ErrNoStoredToken = errors.New("no usable stored token")

// State is what the inspector shows of authorization.
type State struct {
	Resource     string
	MetadataURL  string // where the protected resource metadata came from
	Issuer       string // the authorization server
	Registration string // how mcpeek is known there: metadata document, pre-registered, dynamic, stored
	ClientID     string
	Scopes       []string
	Expiry       time.Time
	LastRefresh  time.Time
	SignedIn     bool
	FromStore    bool
	Err          string // the last failure
	// NotStored says why the last new token could not be stored ("" when
	// it was, or when there is no store).
	NotStored string
}

// Authorizer is the connection's OAuth handler (auth.OAuthHandler): it
// starts from a stored token when there is one, and otherwise, on the
// server's 401, runs the person's login.
type Authorizer struct {
	opts     Options
	inner    *auth.AuthorizationCodeHandler
	listener net.Listener
	server   *http.Server
	redirect string
	// hc is the observed HTTP client of every request the authorization
	// makes: the handler's, and the refresh of a stored token.
	hc *http.Client

	mu         sync.Mutex
	state      State
	waitingFor chan callbackResult // non-nil while a login waits for its redirect
	expect     string              // the state parameter the redirect must carry
	seen       observed
	// priorScopes were granted to the stored token this run started with.
	priorScopes []string
	// waiting hears when a login starts and stops waiting for the person.
	waiting func(bool)
	// opened removes what Open left for the browser, once (nil: nothing).
	opened func()
	// openMu is held while the opener runs, so that Close, which takes it,
	// finds what an opener that started before it left.
	openMu sync.Mutex
	// connecting is true while the connection is being made; failed is
	// why authorization failed then, which ends the attempt.
	connecting bool
	failed     error
}

type callbackResult struct {
	res *auth.AuthorizationResult
	err error
}

// New prepares authorization for one server: it listens for the redirect
// and reads the store.
func New(opts Options) (*Authorizer, error) {
	addr := opts.CallbackAddr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--auth-callback-addr %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--auth-callback-addr %q is not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("authorization callback: %w", err)
	}
	a := &Authorizer{opts: opts, listener: ln}
	a.state.Resource = opts.Resource
	a.redirect = fmt.Sprintf("http://%s/callback", ln.Addr().String())
	a.server = &http.Server{Handler: http.HandlerFunc(a.callback), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = a.server.Serve(ln) }()

	hc := opts.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	// Every authorization request goes through the guard (guard.go),
	// whatever transport the caller gave: go-sdk drops its own checks for
	// a client with a transport or redirect policy of its own.
	g := newGuard(opts.Resource, opts.AllowHosts)
	hc = &http.Client{Timeout: hc.Timeout, Jar: hc.Jar, Transport: &observer{base: g.transport(hc.Transport), a: a},
		CheckRedirect: g.checkRedirect}
	a.hc = hc
	cfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              a.redirect,
		AuthorizationCodeFetcher: a.fetch,
		RequestRefreshToken:      true,
		Client:                   hc,
		NewTokenSource:           a.newTokenSource,
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName:              "mcpeek",
			RedirectURIs:            []string{a.redirect},
			GrantTypes:              []string{"authorization_code", "refresh_token"},
			ResponseTypes:           []string{"code"},
			TokenEndpointAuthMethod: "none",
		}},
	}
	if opts.ClientMetadataURL != "" {
		cfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: opts.ClientMetadataURL}
	}
	if opts.ClientID != "" {
		cfg.PreregisteredClient = &oauthex.ClientCredentials{ClientID: opts.ClientID}
		if opts.ClientSecret != "" {
			cfg.PreregisteredClient.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: opts.ClientSecret}
			a.secret(opts.ClientSecret)
		}
	}
	if opts.Store != nil {
		// A store that cannot be trusted stops here, before any login
		// could write a token into it.
		if _, err := opts.Store.Entries(); err != nil {
			a.Close()
			return nil, err
		}
	}
	if !opts.Fresh {
		cfg.InitialTokenSource = a.stored()
	}
	cfg.ScopeFilter = a.scopes
	if a.inner, err = auth.NewAuthorizationCodeHandler(cfg); err != nil {
		a.Close()
		return nil, fmt.Errorf("authorization: %w", err)
	}
	return a, nil
}

// Close stops listening for the redirect, and removes what was left for
// the browser of a login still waiting.
func (a *Authorizer) Close() error {
	a.openMu.Lock()
	a.mu.Lock()
	opened := a.opened
	a.mu.Unlock()
	a.openMu.Unlock()
	if opened != nil {
		opened()
	}
	return a.server.Close()
}

// OnWaiting sets what hears a login start (true) and stop (false)
// waiting for the person: the connection pauses its connect timeout.
func (a *Authorizer) OnWaiting(f func(bool)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.waiting = f
}

// Connecting says whether the connection is being made (true) or made,
// or given up (false). While it is, a failed authorization is final: go-sdk
// falls back from server/discover to initialize on any failure, and the
// fallback's 401 must not start a second login the person did not ask
// for. Later failures (a step-up refused) leave the next request free to
// try again.
func (a *Authorizer) Connecting(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.connecting, a.failed = on, nil
}

// RedirectURL is the loopback callback registered with the server.
func (a *Authorizer) RedirectURL() string { return a.redirect }

// State is a copy of what happened so far.
func (a *Authorizer) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.state
	s.Scopes = append([]string(nil), s.Scopes...)
	return s
}

func (a *Authorizer) logf(format string, args ...any) {
	if a.opts.Logf != nil {
		a.opts.Logf("auth: "+format, args...)
	}
}

func (a *Authorizer) secret(s string) {
	if s == "" {
		return
	}
	a.mu.Lock()
	if len(a.seen.secrets) < 64 {
		a.seen.secrets = append(a.seen.secrets, s)
	}
	a.mu.Unlock()
	if a.opts.Secret != nil {
		a.opts.Secret(s)
	}
}

// TokenSource implements auth.OAuthHandler.
func (a *Authorizer) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	return a.inner.TokenSource(ctx)
}

// Authorize implements auth.OAuthHandler: the server refused the token
// (or there was none), so the person logs in, unless only stored tokens
// may be used.
func (a *Authorizer) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	if a.opts.StoredOnly {
		resp.Body.Close()
		err := fmt.Errorf("%w for %s (--stored-auth-only): log in first with `mcpeek auth login %s`", ErrNoStoredToken, a.opts.Resource, a.opts.Resource)
		a.fail(err)
		return err
	}
	a.mu.Lock()
	failed := a.failed
	a.mu.Unlock()
	if failed != nil {
		resp.Body.Close()
		return failed
	}
	where := *req.URL
	where.RawQuery, where.Fragment = "", ""
	a.logf("%s answered %s: authorizing", where.Redacted(), resp.Status)
	if err := a.inner.Authorize(ctx, req, resp); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("authorization: %w", context.Cause(ctx))
		} else { // the message may quote a server's answer: no secret goes on, nor more than a line
			err = errors.New("authorization failed: " + textclean.Cut(textclean.OneLine(a.redact(err.Error())), maxErrorRunes))
		}
		a.fail(err)
		a.mu.Lock()
		if a.connecting {
			a.failed = err
		}
		a.mu.Unlock()
		return err
	}
	return nil
}

func (a *Authorizer) fail(err error) {
	a.mu.Lock()
	a.state.Err = err.Error()
	a.mu.Unlock()
}

// scopes chooses what a login asks for: --scope when given; else what
// the server asked for, with what a stored token was granted before, so
// that a step-up in a later run keeps the earlier grant (the handler
// keeps the union within a run).
func (a *Authorizer) scopes(discovered []string) []string {
	if len(a.opts.Scopes) > 0 {
		return a.opts.Scopes
	}
	a.mu.Lock()
	prior := a.priorScopes
	a.mu.Unlock()
	out := append([]string(nil), discovered...)
	for _, s := range prior {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// stored is a token source for the newest usable stored entry, or nil.
func (a *Authorizer) stored() oauth2.TokenSource {
	if a.opts.Store == nil {
		return nil
	}
	entries, err := a.opts.Store.Find(a.opts.Resource)
	if err != nil {
		a.logf("%v", err)
		a.fail(err)
		return nil
	}
	for _, e := range entries {
		if !e.Usable(time.Now()) {
			continue
		}
		a.secret(e.AccessToken)
		a.secret(e.RefreshToken)
		a.secret(e.ClientSecret)
		cfg := &oauth2.Config{ClientID: e.ClientID, ClientSecret: e.ClientSecret,
			Endpoint: oauth2.Endpoint{TokenURL: e.TokenURL, AuthStyle: oauth2.AuthStyle(e.AuthStyle)}, Scopes: e.Scopes}
		client := a.hc
		// An expired token is refreshed now, within the run's time, so
		// that a failure means a new login; later refreshes belong to the
		// connection.
		now := a.opts.Context
		if now == nil {
			now = context.Background()
		}
		tok, err := cfg.TokenSource(context.WithValue(now, oauth2.HTTPClient, client), e.Token()).Token()
		if err != nil && now.Err() != nil {
			a.logf("the run's time ran out before the stored token for %s could be refreshed", e.Issuer)
			return nil
		}
		if err != nil {
			a.logf("the stored token for %s could not be refreshed (%s); a new login is needed", e.Issuer, a.redact(err.Error()))
			continue
		}
		later := context.WithValue(context.Background(), oauth2.HTTPClient, client)
		ts := &saving{a: a, cfg: cfg, issuer: e.Issuer, base: cfg.TokenSource(later, tok), last: e.AccessToken}
		ts.keep(tok, true)
		a.mu.Lock()
		a.state.Issuer, a.state.ClientID, a.state.Registration = e.Issuer, e.ClientID, "stored"
		a.state.SignedIn, a.state.FromStore = true, true
		a.state.Expiry, a.state.Scopes = tok.Expiry, e.Scopes
		a.priorScopes = e.Scopes
		a.mu.Unlock()
		a.logf("using the stored token from %s (expires %s)", e.Issuer, expiryText(tok.Expiry))
		return ts
	}
	return nil
}

// newTokenSource is called by the handler once a code became a token: the
// token source it returns saves each new token.
func (a *Authorizer) newTokenSource(ctx context.Context, cfg *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
	a.mu.Lock()
	issuer := a.seen.issuer
	a.mu.Unlock()
	s := &saving{a: a, cfg: cfg, issuer: issuer, base: cfg.TokenSource(ctx, tok)}
	s.keep(tok, false)
	return s, nil
}

// saving is a token source that stores every new token it hands out.
type saving struct {
	a      *Authorizer
	cfg    *oauth2.Config
	issuer string
	base   oauth2.TokenSource

	mu   sync.Mutex
	last string // the access token last stored
}

func (s *saving) Token() (*oauth2.Token, error) {
	tok, err := s.base.Token()
	if err != nil {
		return nil, err
	}
	s.keep(tok, true)
	return tok, nil
}

// keep stores tok when it is new; refreshed says it replaced another.
func (s *saving) keep(tok *oauth2.Token, refreshed bool) {
	s.mu.Lock()
	if tok.AccessToken == s.last {
		s.mu.Unlock()
		return
	}
	first := s.last == ""
	s.last = tok.AccessToken
	s.mu.Unlock()
	a := s.a
	a.secret(tok.AccessToken)
	a.secret(tok.RefreshToken)
	scopes := s.cfg.Scopes
	if sc, ok := tok.Extra("scope").(string); ok && sc != "" {
		scopes = strings.Fields(sc)
	}
	a.mu.Lock()
	a.state.SignedIn, a.state.Expiry, a.state.Scopes, a.state.ClientID = true, tok.Expiry, scopes, s.cfg.ClientID
	switch {
	case a.state.FromStore:
	case s.cfg.ClientID == a.opts.ClientMetadataURL:
		a.state.Registration = "client ID metadata document"
	case s.cfg.ClientID == a.opts.ClientID:
		a.state.Registration = "pre-registered client"
	case a.state.Registration == "":
		a.state.Registration = "dynamic client registration"
	}
	if s.issuer != "" {
		a.state.Issuer = s.issuer
	}
	if refreshed && !first {
		a.state.LastRefresh = time.Now()
	}
	a.state.Err = ""
	a.mu.Unlock()
	if refreshed && !first {
		a.logf("token refreshed (expires %s)", expiryText(tok.Expiry))
	} else {
		a.logf("signed in to %s with scopes %q (token expires %s)", s.issuer, strings.Join(scopes, " "), expiryText(tok.Expiry))
	}
	if a.opts.Store == nil {
		return
	}
	e := &Entry{Resource: a.opts.Resource, Issuer: s.issuer, TokenURL: s.cfg.Endpoint.TokenURL, ClientID: s.cfg.ClientID,
		ClientSecret: s.cfg.ClientSecret, AuthStyle: int(s.cfg.Endpoint.AuthStyle), Scopes: scopes,
		AccessToken: tok.AccessToken, TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry, Saved: time.Now()}
	err := a.opts.Store.Put(e)
	a.mu.Lock()
	a.state.NotStored = ""
	if err != nil {
		a.state.NotStored = err.Error()
	}
	a.mu.Unlock()
	if err != nil {
		a.logf("the token was not stored: %v", err)
		a.fail(err)
	}
}

func expiryText(t time.Time) string {
	if t.IsZero() {
		return "never, as far as the server said"
	}
	return "in " + time.Until(t).Round(time.Second).String()
}

// fetch is the handler's AuthorizationCodeFetcher: the person opens the
// authorization URL, and the redirect comes back to the loopback
// callback, or is pasted.
func (a *Authorizer) fetch(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	u, err := url.Parse(args.URL)
	if err != nil {
		return nil, fmt.Errorf("authorization URL: %w", err)
	}
	state := u.Query().Get("state")
	results := make(chan callbackResult, 1)
	a.mu.Lock()
	if a.waitingFor != nil {
		a.mu.Unlock()
		return nil, errors.New("another authorization is already waiting")
	}
	a.waitingFor, a.expect = results, state
	hook := a.waiting
	a.mu.Unlock()
	if hook != nil {
		hook(true)
		defer hook(false)
	}
	defer func() {
		a.mu.Lock()
		a.waitingFor, a.expect = nil, ""
		a.mu.Unlock()
	}()

	opened := false
	if a.opts.Open != nil {
		a.openMu.Lock()
		done, err := a.opts.Open(args.URL)
		if done != nil {
			done = sync.OnceFunc(done)
			a.mu.Lock()
			a.opened = done
			a.mu.Unlock()
			defer done()
		}
		a.openMu.Unlock()
		if err != nil {
			a.logf("could not open a browser: %v", err)
		} else {
			opened = true
		}
	}
	a.show(opened, args.URL)
	if a.opts.Paste != nil {
		pctx, stop := context.WithCancel(ctx)
		defer stop()
		go a.readPaste(pctx)
	}
	select {
	case r := <-results:
		if r.err != nil {
			return nil, r.err
		}
		a.logf("the authorization server redirected back; exchanging the code")
		return r.res, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the authorization redirect: %w", context.Cause(ctx))
	}
}

// maxErrorRunes bounds the words of a server that a failure quotes.
const maxErrorRunes = 500

func (a *Authorizer) show(opened bool, authURL string) {
	if a.opts.Show == nil {
		return
	}
	authURL = textclean.Cut(textclean.OneLine(authURL), 16<<10) // the authorization server chose its endpoint
	switch {
	case opened:
		a.opts.Show(fmt.Sprintf("authorizing in your browser; waiting for it to come back to %s", a.redirect))
		// The browser may not show the page: a sandboxed one (Snap,
		// Flatpak, WSL's Windows browser) may not read the launch page.
		a.opts.Show("if your browser did not show the login page (a Snap, Flatpak or WSL browser may not read the local page it was given), open this URL: " + authURL)
	default:
		a.opts.Show("open this URL to authorize: " + authURL)
		if a.opts.Paste != nil {
			a.opts.Show(fmt.Sprintf("then, if your browser cannot reach %s (over SSH), paste the address it ended on here", a.redirect))
		}
	}
}

func (a *Authorizer) readPaste(ctx context.Context) {
	for ctx.Err() == nil {
		line, err := a.opts.Paste(ctx)
		if err != nil {
			return
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		u, err := url.Parse(line)
		if err != nil || u.Query().Get("state") == "" && u.Query().Get("error") == "" {
			a.showf("that is not the address the authorization server sent you to (it has no state); paste the whole URL")
			continue
		}
		claimed := a.claim(u.Query().Get("state"))
		if claimed == nil {
			a.showf("that address belongs to another authorization (its state does not match); paste the latest one")
			continue
		}
		res, err := a.parse(u.Query())
		claimed <- callbackResult{res, err}
		return
	}
}

func (a *Authorizer) showf(format string, args ...any) {
	if a.opts.Show != nil {
		a.opts.Show(fmt.Sprintf(format, args...))
	}
}

// claim takes the waiting login for a redirect carrying state: nil when
// none waits or the state differs (the redirect is refused, and the login
// goes on waiting). A login is claimed once: a second redirect is refused.
func (a *Authorizer) claim(state string) chan<- callbackResult {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waitingFor == nil || state != a.expect {
		return nil
	}
	results := a.waitingFor
	a.waitingFor, a.expect = nil, ""
	return results
}

// parse reads a redirect's parameters: the code, or the server's refusal.
func (a *Authorizer) parse(q url.Values) (*auth.AuthorizationResult, error) {
	if code := q.Get("error"); code != "" {
		msg := code
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		return nil, fmt.Errorf("the authorization server refused: %s", textclean.Cut(textclean.OneLine(msg), 300))
	}
	if q.Get("code") == "" {
		return nil, errors.New("the redirect carried no authorization code")
	}
	a.secret(q.Get("code"))
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}

// callback serves the loopback redirect: the first one that matches the
// waiting login completes it; every other request is refused.
func (a *Authorizer) callback(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if r.URL.Path != "/callback" || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	results := a.claim(r.URL.Query().Get("state"))
	if results == nil {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, page("mcpeek is not waiting for this authorization", "It may have completed already, or this link belongs to another attempt."))
		return
	}
	res, err := a.parse(r.URL.Query())
	// The page goes whole before the login hears of it: a login that then
	// ends at once closes this server, which must not cut the page short.
	status, body := http.StatusOK, page("mcpeek is authorized", "You can close this tab and go back to the terminal.")
	if err != nil {
		status, body = http.StatusBadRequest, page("Authorization failed", err.Error())
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	fmt.Fprint(w, body)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	results <- callbackResult{res, err} // buffered, and claimed once
}

func page(title, text string) string {
	return "<!doctype html><meta charset=utf-8><title>" + html.EscapeString(title) + "</title>" +
		"<body style=\"font-family:sans-serif;margin:3em\"><h1>" + html.EscapeString(title) + "</h1><p>" + html.EscapeString(text) + "</p>"
}

// redact replaces the secrets this authorizer knows in s.
func (a *Authorizer) redact(s string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, sec := range a.seen.secrets {
		if len(sec) >= 4 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return s
}

package oauth_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/oauthtest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/mcpclient/oauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// person plays the one at the browser: each authorization URL opened is
// followed to mcpeek's callback, as the test's edit says.
type person struct {
	t      *testing.T
	delay  time.Duration // how long the person takes to approve
	mu     sync.Mutex
	opened []string
	edit   func(loc string) []string // the redirects to request, in order
	status []int
	done   int // how often what an opening left was removed
}

func (p *person) open(authURL string) (func(), error) {
	p.mu.Lock()
	p.opened = append(p.opened, authURL)
	p.mu.Unlock()
	go func() {
		time.Sleep(p.delay)
		loc, err := oauthtest.Browser(context.Background(), authURL)
		if err != nil {
			p.t.Errorf("browser: %v", err)
			return
		}
		locs := []string{loc}
		if p.edit != nil {
			locs = p.edit(loc)
		}
		for _, l := range locs {
			code, err := oauthtest.Follow(context.Background(), l)
			if err != nil {
				p.t.Errorf("callback: %v", err)
			}
			p.mu.Lock()
			p.status = append(p.status, code)
			p.mu.Unlock()
		}
	}()
	return func() { p.mu.Lock(); p.done++; p.mu.Unlock() }, nil
}

func (p *person) opens() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.opened)
}

type setup struct {
	t     *testing.T
	as    *oauthtest.Server
	store *oauth.Store
	wire  *mcpclient.WireLog
	sink  *bytes.Buffer
}

func newSetup(t *testing.T) *setup {
	t.Helper()
	as := oauthtest.New()
	t.Cleanup(as.Close)
	sink := &bytes.Buffer{}
	return &setup{t: t, as: as, store: oauth.OpenStore(filepath.Join(t.TempDir(), "cfg", "mcpeek", "auth.json")),
		wire: mcpclient.NewWireLog(0, sink), sink: sink}
}

// connect connects with the options edit sets.
func (s *setup) connect(edit func(*oauth.Options)) (*mcpclient.Conn, *oauth.Authorizer, error) {
	return s.connectWithin(0, edit)
}

// connectWithin connects with a connect timeout (0: none).
func (s *setup) connectWithin(timeout time.Duration, edit func(*oauth.Options)) (*mcpclient.Conn, *oauth.Authorizer, error) {
	s.t.Helper()
	opts := oauth.Options{Resource: s.as.URL, Store: s.store, Secret: s.wire.Secret,
		Logf: func(format string, args ...any) { s.wire.Note(fmt.Sprintf(format, args...)) }}
	if edit != nil {
		edit(&opts)
	}
	a, err := oauth.New(opts)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: s.as.URL},
		Auth:   a, Wire: s.wire, ConnectTimeout: timeout,
	})
	if err != nil {
		a.Close()
		return nil, a, err
	}
	s.t.Cleanup(func() { _ = conn.Close() })
	return conn, a, nil
}

func call(t *testing.T, conn *mcpclient.Conn, tool string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := conn.Call(ctx, tool, nil)
	if err != nil {
		t.Fatalf("call %s: %v", tool, err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

// The first run logs in through the browser and stores the token; the
// second uses it without opening anything.
func TestLoginThenReuse(t *testing.T) {
	s := newSetup(t)
	p := &person{t: t}
	conn, a, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, conn, "whoami"); !sameScopes(got, "read", "offline_access") {
		t.Errorf("whoami = %q", got)
	}
	st := a.State()
	if !st.SignedIn || st.Issuer != s.as.Issuer || st.Registration != "dynamic client registration" || st.MetadataURL == "" {
		t.Errorf("state %+v", st)
	}
	if p.opens() != 1 {
		t.Fatalf("opened %d times", p.opens())
	}
	if q, _ := url.Parse(p.opened[0]); q.Query().Get("resource") != s.as.URL || q.Query().Get("code_challenge_method") != "S256" {
		t.Errorf("authorization URL %s", p.opened[0])
	}
	_ = conn.Close()

	info, err := os.Stat(s.store.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("store %v mode %v", err, info.Mode())
	}
	if dir, _ := os.Stat(filepath.Dir(s.store.Path())); dir.Mode().Perm() != 0o700 {
		t.Errorf("store folder mode %v", dir.Mode())
	}

	p2 := &person{t: t}
	conn2, a2, err := s.connect(func(o *oauth.Options) { o.Open = p2.open })
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, conn2, "whoami"); !sameScopes(got, "read", "offline_access") {
		t.Errorf("second run: whoami = %q", got)
	}
	if p2.opens() != 0 || s.as.Issued != 1 || !a2.State().FromStore {
		t.Errorf("second run opened %d times, %d tokens issued, state %+v", p2.opens(), s.as.Issued, a2.State())
	}
	checkNoSecrets(t, s)
}

// The connect timeout does not count the time the person takes to log
// in: a login slower than it still connects.
func TestLoginOutlastsTheConnectTimeout(t *testing.T) {
	s := newSetup(t)
	p := &person{t: t, delay: 1500 * time.Millisecond}
	conn, _, err := s.connectWithin(500*time.Millisecond, func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatalf("a slow login failed: %v", err)
	}
	if got := call(t, conn, "whoami"); !sameScopes(got, "read", "offline_access") {
		t.Errorf("whoami = %q", got)
	}
}

// sameScopes reports whether whoami's answer names exactly these scopes,
// in any order (the order a grant lists them in is the server's).
func sameScopes(whoami string, want ...string) bool {
	got := strings.Fields(strings.TrimPrefix(whoami, "scopes: "))
	slices.Sort(got)
	slices.Sort(want)
	return slices.Equal(got, want)
}

// withExpiredToken is a setup whose store holds a token that has expired,
// with its refresh token, from a first login.
func withExpiredToken(t *testing.T) *setup {
	t.Helper()
	s := newSetup(t)
	s.as.TokenTTL = 2 * time.Second
	p := &person{t: t}
	conn, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatal(err)
	}
	call(t, conn, "whoami")
	_ = conn.Close()
	time.Sleep(2100 * time.Millisecond) // the token's lifetime, minus the margin the client allows
	return s
}

// An expired stored token is refreshed without a browser.
func TestStoredTokenRefreshed(t *testing.T) {
	s := withExpiredToken(t)
	p2 := &person{t: t}
	conn2, a2, err := s.connect(func(o *oauth.Options) { o.Open = p2.open })
	if err != nil {
		t.Fatal(err)
	}
	call(t, conn2, "whoami")
	if p2.opens() != 0 || s.as.Refreshs < 1 {
		t.Errorf("opened %d times, %d refreshes", p2.opens(), s.as.Refreshs)
	}
	if a2.State().Expiry.Before(time.Now()) {
		t.Errorf("state after refresh %+v", a2.State())
	}
	checkNoSecrets(t, s)
}

// Refreshing an expired stored token happens within Options.Context (the
// run's --timeout): a run whose time is up does not refresh, and logs in
// afresh instead of waiting on the token endpoint.
func TestStoredTokenRefreshWithinTheRunsTime(t *testing.T) {
	s := withExpiredToken(t)
	over, cancel := context.WithCancel(context.Background())
	cancel()
	p2 := &person{t: t}
	conn2, _, err := s.connect(func(o *oauth.Options) { o.Open, o.Context = p2.open, over })
	if err != nil {
		t.Fatal(err)
	}
	call(t, conn2, "whoami")
	if p2.opens() != 1 { // the stored token would have spared the login
		t.Errorf("%d logins, want one", p2.opens())
	}
}

// A tool that needs more scope gets 403 insufficient_scope; mcpeek logs in
// again for the union of scopes and the call goes through.
func TestStepUp(t *testing.T) {
	s := newSetup(t)
	p := &person{t: t}
	conn, a, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, conn, "admin"); got != "admin ok" {
		t.Errorf("admin = %q", got)
	}
	if p.opens() != 2 {
		t.Errorf("opened %d times, want a second login for the step-up", p.opens())
	}
	if q, _ := url.Parse(p.opened[1]); !strings.Contains(q.Query().Get("scope"), "admin") || !strings.Contains(q.Query().Get("scope"), "read") {
		t.Errorf("step-up asked for %q", q.Query().Get("scope"))
	}
	if !strings.Contains(strings.Join(a.State().Scopes, " "), "admin") {
		t.Errorf("scopes %v", a.State().Scopes)
	}
}

// A redirect with another state is refused and the login goes on waiting
// for its own; a second redirect after that is refused too.
func TestWrongStateRefused(t *testing.T) {
	s := newSetup(t)
	p := &person{t: t, edit: func(loc string) []string {
		u, _ := url.Parse(loc)
		q := u.Query()
		q.Set("state", "forged")
		forged := *u
		forged.RawQuery = q.Encode()
		return []string{forged.String(), loc, loc}
	}}
	conn, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatal(err)
	}
	call(t, conn, "whoami")
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		n := len(p.status)
		p.mu.Unlock()
		if n == 3 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.status) != 3 || p.status[0] != 400 || p.status[1] != 200 || p.status[2] != 400 {
		t.Errorf("callback answered %v, want [400 200 400]", p.status)
	}
}

// Without a browser, the redirect URL pasted into the terminal completes
// the login.
func TestPastedRedirect(t *testing.T) {
	s := newSetup(t)
	var mu sync.Mutex
	var shown []string
	authURL := make(chan string, 1)
	conn, _, err := s.connect(func(o *oauth.Options) {
		o.Show = func(text string) {
			mu.Lock()
			shown = append(shown, text)
			mu.Unlock()
			if u, ok := strings.CutPrefix(text, "open this URL to authorize: "); ok {
				authURL <- u
			}
		}
		o.Paste = func(ctx context.Context) (string, error) {
			select {
			case u := <-authURL:
				loc, err := oauthtest.Browser(ctx, u)
				return "  " + loc + "\n", err
			case <-ctx.Done():
				return "", ctx.Err()
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := call(t, conn, "whoami"); !sameScopes(got, "read", "offline_access") {
		t.Errorf("whoami = %q", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(shown) < 2 || !strings.Contains(shown[1], "paste the address") {
		t.Errorf("shown %q", shown)
	}
}

// --stored-auth-only without a stored token fails at once, saying so.
func TestStoredOnlyWithoutToken(t *testing.T) {
	s := newSetup(t)
	_, _, err := s.connect(func(o *oauth.Options) { o.StoredOnly = true })
	if err == nil || !strings.Contains(err.Error(), "no usable stored token") || !strings.Contains(err.Error(), "mcpeek auth login") {
		t.Errorf("err = %v", err)
	}
}

// What an authorization server can do wrong ends the connection with one
// clear line, and stores nothing. A failed login ends the connection
// attempt: the browser opened once is not opened again for the fallback
// from server/discover to initialize (--protocol auto).
func TestBadAuthorizationServers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		set   func(*oauthtest.Server)
		want  string
		opens int
	}{
		{"iss mismatch", func(s *oauthtest.Server) { s.BadIss = true }, "issuer", 1},
		{"token endpoint answers HTML", func(s *oauthtest.Server) { s.HTMLToken = true }, "token exchange failed", 1},
		{"the person says no", func(s *oauthtest.Server) { s.DenyAuthorize = true }, "refused: access_denied: the person said no", 1},
		{"metadata that is not JSON", func(s *oauthtest.Server) { s.HTMLMetadata = true }, "authorization failed", 0},
		{"a redirect loop", func(s *oauthtest.Server) { s.LoopMetadata = true }, "authorization failed", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSetup(t)
			tc.set(s.as)
			p := &person{t: t}
			_, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("a multi-line error: %q", err)
			}
			if _, statErr := os.Stat(s.store.Path()); statErr == nil {
				t.Error("something was stored")
			}
			if p.opens() != tc.opens {
				t.Errorf("the browser was opened %d times, want %d", p.opens(), tc.opens)
			}
		})
	}
}

// A store others can read, or one that is not JSON, is refused, saying why.
func TestBadStores(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		mode       os.FileMode
		want       string
	}{
		{"world-readable", `{"version":1,"entries":[]}`, 0o644, "readable or writable by others"},
		{"corrupt", `{"version":1,"entries":[`, 0o600, "corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "auth.json")
			if err := os.WriteFile(path, []byte(tc.text), tc.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tc.mode); err != nil {
				t.Fatal(err)
			}
			_, err := oauth.OpenStore(path).Entries()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v", err)
			}
			if err := oauth.OpenStore(path).Put(&oauth.Entry{Resource: "x"}); err == nil {
				t.Error("a bad store was written over")
			}
		})
	}
}

// A bad store stops the connection before anything is sent: mcpeek never
// writes a token where others could read it.
func TestBadStoreRefusedAtConnect(t *testing.T) {
	s := newSetup(t)
	if err := os.MkdirAll(filepath.Dir(s.store.Path()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.store.Path(), []byte(`{"version":1,"entries":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.store.Path(), 0o666); err != nil {
		t.Fatal(err)
	}
	p := &person{t: t}
	_, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err == nil || !strings.Contains(err.Error(), "refusing to use it") || p.opens() != 0 {
		t.Errorf("err = %v, opened %d times", err, p.opens())
	}
}

// checkNoSecrets fails when a token, code or client secret the
// authorization server handed out appears in the wire log.
func checkNoSecrets(t *testing.T, s *setup) {
	t.Helper()
	var all strings.Builder
	for _, e := range s.wire.Entries() {
		b, _ := json.Marshal(e)
		all.Write(b)
	}
	all.Write(s.sink.Bytes())
	for _, tok := range s.as.Secrets() {
		if strings.Contains(all.String(), tok) {
			t.Errorf("the wire log holds a token (%.3s…)", tok)
		}
	}
	if !strings.Contains(all.String(), "auth: ") {
		t.Error("the wire log does not narrate the authorization")
	}
}

// recorder is an authorization HTTP transport that forwards requests to
// loopback and records, without sending, any other.
type recorder struct {
	mu        sync.Mutex
	elsewhere []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if ip := net.ParseIP(req.URL.Hostname()); ip == nil || !ip.IsLoopback() {
		r.mu.Lock()
		r.elsewhere = append(r.elsewhere, req.URL.String())
		r.mu.Unlock()
		return nil, errors.New("test: not sent")
	}
	return http.DefaultTransport.RoundTrip(req)
}

// A server's metadata that redirects into a private address gets no
// request there: the redirect is refused before anything is sent, and the
// login fails saying so and how to allow it, whatever transport the TLS
// flags make, unless the person allowed that address (the request is then
// made, here to a recorder). A redirect to another port of the loopback
// interface the server itself is on is followed. Nothing here leaves the
// loopback interface: requests elsewhere go to a recorder that sends
// nothing.
func TestMetadataRedirectsIntoPrivateAddressesRefused(t *testing.T) {
	var other atomic.Int32
	second := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other.Add(1) }))
	defer second.Close()
	insecure := mcpclient.HTTPClient(&tls.Config{InsecureSkipVerify: true}) // --insecure's
	metadata := "http://10.55.0.1/latest/meta-data/iam"
	allowed, err := oauth.ParseAllowList("10.55.0.0/16")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, target string
		insecure     bool
		allow        oauth.AllowList
		want         string // in the failure
		elsewhere    bool   // requests went to the recorder
		atSecond     bool   // requests went to the other loopback port
	}{
		{name: "cloud metadata", target: metadata, want: "refused a redirect from"},
		{name: "cloud metadata, --insecure", target: metadata, insecure: true, want: "refused a redirect from"},
		{name: "cloud metadata, allowed", target: metadata, allow: allowed, want: "test: not sent", elsewhere: true},
		{name: "another loopback port", target: second.URL + "/.well-known/oauth-protected-resource", atSecond: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recorder{}
			hc := &http.Client{Transport: rec}
			if tc.insecure {
				hc = insecure
			}
			before := other.Load()
			var srv *httptest.Server
			srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasPrefix(r.URL.Path, "/.well-known/") {
					http.Redirect(w, r, tc.target, http.StatusFound)
					return
				}
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource"`)
				w.WriteHeader(http.StatusUnauthorized)
			}))
			defer srv.Close()
			p := &person{t: t}
			a, err := oauth.New(oauth.Options{Resource: srv.URL + "/mcp", Open: p.open, HTTPClient: hc, AllowHosts: tc.allow})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			conn, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: srv.URL + "/mcp"}, Auth: a})
			if err == nil {
				conn.Close()
				t.Fatal("connected")
			}
			a.Close()
			if got := a.State().Err; !strings.Contains(got, tc.want) ||
				strings.HasPrefix(tc.want, "refused") && !strings.Contains(got, "allow it with --auth-allow-host 10.55.0.1") {
				t.Errorf("the failure does not say %q and how to allow it: %v", tc.want, got)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if (len(rec.elsewhere) > 0) != tc.elsewhere || (other.Load() > before) != tc.atSecond || p.opens() > 0 {
				t.Errorf("requests elsewhere %q, %d at the other port, %d logins", rec.elsewhere, other.Load()-before, p.opens())
			}
		})
	}
}

// What the opener left for the browser (a launch page holding the state)
// is removed before the login returns, whether it completed or was given
// up, and by Close while a login still waits: nothing is left to a
// goroutine that a process ending at once would not run.
func TestOpenersLeftoversRemovedBeforeTheLoginReturns(t *testing.T) {
	s := newSetup(t)
	p := &person{t: t}
	conn, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	p.mu.Lock()
	if p.done != 1 {
		t.Errorf("after a login, what the opener left was removed %d times", p.done)
	}
	p.mu.Unlock()

	// A login given up: the person never comes back.
	s2 := newSetup(t)
	removed := 0
	opened := make(chan struct{})
	var a *oauth.Authorizer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err = oauth.New(oauth.Options{Resource: s2.as.URL, Open: func(string) (func(), error) {
		close(opened)
		return func() { removed++ }, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	failed := make(chan error, 1)
	go func() {
		_, err := mcpclient.Connect(ctx, mcpclient.Config{Target: mcpclient.Target{Kind: mcpclient.TargetHTTP, URL: s2.as.URL}, Auth: a})
		failed <- err
	}()
	<-opened
	a.Close() // as a run ending at once does, while the login waits
	if removed != 1 {
		t.Errorf("Close while the login waits: removed %d times", removed)
	}
	cancel()
	if err := <-failed; err == nil {
		t.Fatal("a login given up connected")
	}
	if removed != 1 {
		t.Errorf("after the login was given up: removed %d times", removed)
	}
}

// Words planted in the callback's error (by whoever learned the state)
// reach the failure as one clean line of bounded length.
func TestPlantedCallbackErrorIsCleanAndBounded(t *testing.T) {
	s := newSetup(t)
	planted := "\x1b]0;pwned\x07\u009b2J" + strings.Repeat("lies ", 2000)
	p := &person{t: t, edit: func(loc string) []string {
		u, _ := url.Parse(loc)
		q := u.Query()
		q.Del("code")
		q.Set("error", "access_denied\x1b[31m")
		q.Set("error_description", planted)
		u.RawQuery = q.Encode()
		return []string{u.String()}
	}}
	_, _, err := s.connect(func(o *oauth.Options) { o.Open = p.open })
	if err == nil {
		t.Fatal("connected")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07\n\u009b") || len(msg) > 1000 || !strings.Contains(msg, "refused: access_denied") {
		t.Errorf("the failure says %d bytes: %.300q", len(msg), msg)
	}
}

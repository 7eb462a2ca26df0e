package oauth

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// counted is a loopback listener that counts the requests it gets.
func counted(t *testing.T) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// dialer is the DialContext of the transport the guard made of base.
func dialer(t *testing.T, g *guard, base *http.Transport) func(context.Context, string, string) (net.Conn, error) {
	t.Helper()
	gt, ok := g.transport(base).(guarded).base.(*http.Transport)
	if !ok || gt.DialContext == nil {
		t.Fatal("the guard left the transport's dialling unchecked")
	}
	return gt.DialContext
}

// The guard stops an authorization request to a loopback address when the
// MCP server is not on one: on the URL before anything is sent (an IP, or
// localhost and the names under it), and on the address dialled, so that
// a name resolving there is caught too. Only loopback listeners are
// involved, and no proxy: the transport is the test's own, whatever the
// environment says.
func TestGuardRefusesLoopbackForAPublicServer(t *testing.T) {
	srv, hits := counted(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	g := newGuard("https://203.0.113.7/mcp", AllowList{}) // a documentation address: never contacted
	c := &http.Client{Transport: g.transport(&http.Transport{}), CheckRedirect: g.checkRedirect}
	for _, u := range []string{
		"http://127.0.0.1:" + port + "/.well-known/oauth-authorization-server",
		"http://[::ffff:127.0.0.1]:" + port + "/token",
		"http://localhost:" + port + "/token",
		"http://idp.LOCALHOST:" + port + "/token",
	} {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET %s went through", u)
			continue
		}
		if !strings.Contains(err.Error(), "refused an authorization request to") || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("GET %s: %v", u, err)
		}
	}
	// A name is checked where it is dialled, on what it resolved to.
	if conn, err := dialer(t, g, &http.Transport{})(context.Background(), "tcp", "localhost:"+port); err == nil {
		conn.Close()
		t.Error("a name resolving to loopback was dialled")
	} else if !strings.Contains(err.Error(), "localhost (127.0.0.1) is a loopback address") && !strings.Contains(err.Error(), "localhost (::1) is a loopback address") {
		t.Errorf("dial localhost: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback listener got %d requests", n)
	}

	// The same requests are fine when the MCP server is itself on loopback.
	ok := newGuard("http://127.0.0.1:1/mcp", AllowList{})
	c = &http.Client{Transport: ok.transport(&http.Transport{})}
	resp, err := c.Get("http://localhost:" + port + "/token")
	if err != nil {
		t.Fatalf("a loopback server's authorization request: %v", err)
	}
	resp.Body.Close()
}

// With a proxy set, the guard still checks every request that does not go
// through it: Go sends localhost, loopback addresses and NO_PROXY's hosts
// directly, and a hostile server naming http://localhost:PORT/token must
// not reach that port. Requests that go through the proxy reach it (the
// person chose it, here on loopback too), and nothing else is dialled
// unchecked.
func TestGuardHoldsWithAProxySet(t *testing.T) {
	target, hits := counted(t)
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		io.WriteString(w, "from the proxy for "+r.Host)
	}))
	defer proxy.Close()
	proxyURL, _ := url.Parse(proxy.URL)
	// What http.ProxyFromEnvironment does with HTTP_PROXY and HTTPS_PROXY
	// set to the proxy and NO_PROXY=direct.test, set here rather than read
	// from an environment net/http reads only once.
	base := &http.Transport{Proxy: func(r *http.Request) (*url.URL, error) {
		host := r.URL.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() || host == "direct.test" {
			return nil, nil
		}
		return proxyURL, nil
	}}

	g := newGuard("https://203.0.113.7/mcp", AllowList{})
	c := &http.Client{Transport: g.transport(base), CheckRedirect: g.checkRedirect}
	for _, u := range []string{"http://localhost:" + port + "/token", "http://127.0.0.1:" + port + "/token"} {
		resp, err := c.Get(u)
		if err == nil {
			resp.Body.Close()
			t.Errorf("GET %s went through", u)
		} else if !strings.Contains(err.Error(), "refused an authorization request to") {
			t.Errorf("GET %s: %v", u, err)
		}
	}
	resp, err := c.Get("http://as.example/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatalf("a request through the proxy: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "from the proxy for as.example" || proxied.Load() != 1 {
		t.Errorf("through the proxy: %q, %d requests at the proxy", body, proxied.Load())
	}
	// The proxy's address is dialled as it is; any other still checked.
	dial := dialer(t, g, base)
	if conn, err := dial(context.Background(), "tcp", "localhost:"+port); err == nil {
		conn.Close()
		t.Error("with a proxy set, a direct dial to loopback went through")
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback listener got %d requests", n)
	}
}

// A redirect that leaves its origin may lead where the MCP server itself
// is (a dev server on loopback, an intranet's servers), and elsewhere only
// to public addresses or to hosts the person allowed; a refusal names the
// way out. No request is sent: the hosts are IP addresses, or names the
// person allowed, which are not resolved.
func TestRedirectsAndTheHostsThePersonAllowed(t *testing.T) {
	redirect := func(g *guard, from, to string) error {
		t.Helper()
		prev, _ := http.NewRequest(http.MethodGet, from, nil)
		next, _ := http.NewRequest(http.MethodGet, to, nil)
		return g.checkRedirect(next, []*http.Request{prev})
	}
	corp, err := ParseAllowList("10.0.0.0/8, IdP.corp.", "fd00::7")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, server, from, to string
		allow                  AllowList
		ok                     bool
	}{
		{"between two intranet hosts", "http://10.0.0.5/mcp", "http://10.0.0.5/.well-known/x", "http://10.0.0.9/authorize", AllowList{}, true},
		{"to another loopback port", "http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/.well-known/x", "http://localhost:9000/token", AllowList{}, true},
		{"from loopback into the intranet", "http://localhost:8080/mcp", "http://localhost:8080/.well-known/x", "http://10.0.0.9/token", AllowList{}, false},
		{"from loopback into an allowed prefix", "http://localhost:8080/mcp", "http://localhost:8080/.well-known/x", "http://10.0.0.9/token", corp, true},
		{"to an allowed address", "http://localhost:8080/mcp", "http://localhost:8080/x", "http://[fd00::7]/token", corp, true},
		{"to an allowed name", "http://localhost:8080/mcp", "http://localhost:8080/.well-known/x", "http://idp.corp/token", corp, true},
		{"from public into loopback", "https://203.0.113.7/mcp", "https://203.0.113.7/.well-known/x", "https://127.0.0.1:9000/token", corp, false},
		{"from public into cloud metadata", "https://203.0.113.7/mcp", "https://203.0.113.7/.well-known/x", "https://169.254.169.254/latest", corp, false},
		{"from https to http, even allowed", "https://203.0.113.7/mcp", "https://203.0.113.7/.well-known/x", "http://idp.corp/token", corp, false},
	} {
		g := newGuard(tc.server, tc.allow)
		err := redirect(g, tc.from, tc.to)
		if tc.ok != (err == nil) {
			t.Errorf("%s: %v", tc.name, err)
		}
		if err != nil && !strings.Contains(err.Error(), "https to http") &&
			(!strings.Contains(err.Error(), "refused a redirect") || !strings.Contains(err.Error(), "--auth-allow-host") || !strings.Contains(err.Error(), AllowHostsEnv)) {
			t.Errorf("%s: the refusal does not name the way out: %v", tc.name, err)
		}
	}

	// The same holds for a request's URL.
	g := newGuard("http://localhost:8080/mcp", AllowList{})
	err = g.checkURL(context.Background(), &url.URL{Scheme: "http", Host: "10.1.2.3"})
	var r *refusal
	if !errors.As(err, &r) || !strings.Contains(err.Error(), "allow it with --auth-allow-host 10.1.2.3 (or $"+AllowHostsEnv+")") {
		t.Errorf("a loopback server's request into the intranet: %v", err)
	}
	if err := newGuard("http://localhost:8080/mcp", corp).checkURL(context.Background(), &url.URL{Scheme: "http", Host: "10.1.2.3"}); err != nil {
		t.Errorf("an allowed intranet address: %v", err)
	}
}

// Entries the person gives are names, addresses or prefixes; anything
// else is refused, saying what is wanted.
func TestParseAllowList(t *testing.T) {
	l, err := ParseAllowList("idp.corp,10.0.0.0/8", " 192.168.1.9 ", "[fd00::1]", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.names) != 1 || len(l.prefixes) != 3 || !l.name("IDP.corp") || l.name("x.idp.corp") {
		t.Errorf("parsed %+v", l)
	}
	for _, bad := range []string{"10.0.0.0/33", "https://idp.corp", "idp.corp:443", "*.corp"} {
		if _, err := ParseAllowList(bad); err == nil || !strings.Contains(err.Error(), "CIDR") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// kindOf sorts addresses as go-sdk's private-address check does.
func TestAddressKinds(t *testing.T) {
	for host, want := range map[string]addrKind{
		"10.55.0.1": kindPrivate, "169.254.169.254": kindPrivate, "100.64.1.1": kindPrivate, "192.168.1.1": kindPrivate,
		"fd00::1": kindPrivate, "fe80::1": kindPrivate, "0.0.0.0": kindPrivate, "::ffff:10.0.0.1": kindPrivate,
		"127.0.0.2": kindLoopback, "::1": kindLoopback, "[::1]": kindLoopback, "localhost": kindLoopback, "LOCALHOST": kindLoopback,
		"a.localhost": kindLoopback, "localhost.": kindLoopback,
		"203.0.113.7": kindPublic, "2001:db8::1": kindPublic,
	} {
		if got, ok := literalKind(host); !ok || got != want {
			t.Errorf("%s: %v %v, want %v", host, got, ok, want)
		}
	}
	if _, ok := literalKind("example.com"); ok {
		t.Error("a name was classified without resolving it")
	}
}

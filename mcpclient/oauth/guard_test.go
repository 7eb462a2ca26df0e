package oauth

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The guard stops an authorization request to a loopback address when the
// MCP server is not on one: on the URL before anything is sent, and on the
// address dialled, so that a name resolving there is caught too. Only
// loopback listeners are involved.
func TestGuardRefusesLoopbackForAPublicServer(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	g := newGuard("https://203.0.113.7/mcp") // a documentation address: never contacted
	c := &http.Client{Transport: g.transport(http.DefaultTransport), CheckRedirect: g.checkRedirect}
	for _, u := range []string{
		"http://127.0.0.1:" + port + "/.well-known/oauth-authorization-server", // refused on its URL
		"http://[::ffff:127.0.0.1]:" + port + "/token",                         // refused on its URL too
		"http://localhost:" + port + "/token",                                  // a name: refused when dialled
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
	if n := hits.Load(); n != 0 {
		t.Errorf("the loopback listener got %d requests", n)
	}

	// The same requests are fine when the MCP server is itself on loopback.
	ok := newGuard("http://127.0.0.1:1/mcp")
	c = &http.Client{Transport: ok.transport(http.DefaultTransport)}
	resp, err := c.Get("http://localhost:" + port + "/token")
	if err != nil {
		t.Fatalf("a loopback server's authorization request: %v", err)
	}
	resp.Body.Close()
}

// kindOf sorts addresses as go-sdk's private-address check does.
func TestAddressKinds(t *testing.T) {
	for host, want := range map[string]addrKind{
		"10.55.0.1": kindPrivate, "169.254.169.254": kindPrivate, "100.64.1.1": kindPrivate, "192.168.1.1": kindPrivate,
		"fd00::1": kindPrivate, "fe80::1": kindPrivate, "0.0.0.0": kindPrivate, "::ffff:10.0.0.1": kindPrivate,
		"127.0.0.2": kindLoopback, "::1": kindLoopback, "[::1]": kindLoopback, "localhost": kindLoopback, "LOCALHOST": kindLoopback,
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

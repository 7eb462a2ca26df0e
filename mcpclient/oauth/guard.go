package oauth

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
)

// A server and its authorization server choose where the authorization
// requests go (metadata URLs, redirects, endpoints). guard keeps them to
// where the person sent mcpeek, as go-sdk's own discovery client does
// (oauthex): no request to a loopback, private, link-local or otherwise
// non-public address unless the MCP server itself is at one, checked on
// the URL before any request and again on the address actually dialled
// (so a name that resolves somewhere else is caught too); and no redirect
// into such an address, or from https to http, unless it stays on the
// origin it came from.

// maxRedirects bounds the redirects one authorization request follows.
const maxRedirects = 5

// addrKind is what kind of address an IP is, as far as the guard cares.
type addrKind int

const (
	kindPublic addrKind = iota
	kindLoopback
	kindPrivate // private, link-local, carrier-grade NAT, multicast, unspecified
)

func (k addrKind) String() string {
	switch k {
	case kindLoopback:
		return "loopback"
	case kindPrivate:
		return "private or reserved"
	}
	return "public"
}

// cgnat is the carrier-grade NAT range (RFC 6598): not public either.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// kindOf classifies ip as go-sdk's IsPrivateOrReserved does, with loopback
// apart.
func kindOf(ip netip.Addr) addrKind {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return kindLoopback
	case !ip.IsValid(), ip.IsPrivate(), ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast(),
		ip.IsMulticast(), ip.IsUnspecified(), cgnat.Contains(ip):
		return kindPrivate
	}
	return kindPublic
}

// literalKind is the kind of a URL host that names its address itself
// (an IP, or localhost); ok is false for a name that must be resolved.
func literalKind(host string) (addrKind, bool) {
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return kindLoopback, true
	}
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return kindOf(ip), true
	}
	return 0, false
}

// guard is the authorization requests' policy for one MCP server.
type guard struct {
	resourceHost string

	mu      sync.Mutex
	allowed map[addrKind]bool // the kinds the server's own addresses are, once known
}

func newGuard(resource string) *guard {
	g := &guard{}
	if u, err := url.Parse(resource); err == nil {
		g.resourceHost = u.Hostname()
	}
	if k, ok := literalKind(g.resourceHost); ok {
		g.allowed = map[addrKind]bool{kindPublic: true, k: true}
	}
	return g
}

// allows reports whether an authorization request may reach an address of
// kind k: a public one, or one of the kinds the MCP server itself is at
// (the person sent mcpeek there). The server's name is resolved once, on
// the first dial that needs to know.
func (g *guard) allows(ctx context.Context, k addrKind) bool {
	if k == kindPublic {
		return true
	}
	g.mu.Lock()
	allowed := g.allowed
	g.mu.Unlock()
	if allowed == nil && g.resourceHost != "" {
		ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", g.resourceHost)
		if err != nil {
			return false
		}
		allowed = map[addrKind]bool{kindPublic: true}
		for _, ip := range ips {
			allowed[kindOf(ip)] = true
		}
		g.mu.Lock()
		g.allowed = allowed
		g.mu.Unlock()
	}
	return allowed[k]
}

// refused is the error of a request the guard stops.
func (g *guard) refused(host string, k addrKind) error {
	return fmt.Errorf("refused an authorization request to %s: it is a %s address, and the server at %s is not", host, k, g.resourceHost)
}

// checkURL stops a request whose URL is a forbidden IP address, before
// anything is sent (names are checked on the address they are dialled at).
func (g *guard) checkURL(ctx context.Context, u *url.URL) error {
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil {
		return nil
	}
	if k := kindOf(ip); !g.allows(ctx, k) {
		return g.refused(u.Hostname(), k)
	}
	return nil
}

// checkRedirect is the authorization client's CheckRedirect.
func (g *guard) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return fmt.Errorf("more than %d redirects", maxRedirects)
	}
	prev := via[len(via)-1].URL
	if prev.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("refused a redirect from https to %s (%s)", req.URL.Scheme, req.URL.Redacted())
	}
	if sameOrigin(prev, req.URL) {
		return nil
	}
	host := req.URL.Hostname()
	kinds := []addrKind{}
	if k, ok := literalKind(host); ok {
		kinds = append(kinds, k)
	} else {
		ips, err := net.DefaultResolver.LookupNetIP(req.Context(), "ip", host)
		if err != nil {
			return fmt.Errorf("refused a redirect to %s: %w", host, err)
		}
		for _, ip := range ips {
			kinds = append(kinds, kindOf(ip))
		}
	}
	for _, k := range kinds {
		if k != kindPublic {
			return fmt.Errorf("refused a redirect from %s to %s: it leads into a %s address", prev.Host, req.URL.Host, k)
		}
	}
	return nil
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// transport wraps base so that every authorization request is checked: on
// its URL always, and on the address it dials when base is an
// *http.Transport that dials directly (a proxy dials for it otherwise).
func (g *guard) transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	if t, ok := base.(*http.Transport); ok && !proxied(t) {
		t = t.Clone()
		t.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, ControlContext: g.control}).DialContext
		base = t
	}
	return guarded{g: g, base: base}
}

// control checks the address a connection is about to be made to.
func (g *guard) control(ctx context.Context, _, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("dial %s: not an IP address", address)
	}
	if k := kindOf(ip); !g.allows(ctx, k) {
		return g.refused(host, k)
	}
	return nil
}

// proxied reports whether t sends requests for public hosts through a
// proxy: then the address dialled is the proxy's, which the person chose.
func proxied(t *http.Transport) bool {
	if t.Proxy == nil {
		return false
	}
	req, err := http.NewRequest(http.MethodGet, "https://example.com/", nil)
	if err != nil {
		return false
	}
	u, err := t.Proxy(req)
	return err == nil && u != nil
}

// guarded checks each request's URL before base sees it.
type guarded struct {
	g    *guard
	base http.RoundTripper
}

func (t guarded) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := t.g.checkURL(r.Context(), r.URL); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	return t.base.RoundTrip(r)
}

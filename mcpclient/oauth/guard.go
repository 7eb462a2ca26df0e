package oauth

import (
	"context"
	"errors"
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
// non-public address unless the MCP server itself is at one, or the person
// allowed that host (--auth-allow-host). Checked on the URL before any
// request, and again on the address actually dialled (so a name that
// resolves somewhere else is caught too) whenever mcpeek dials the host
// itself, that is unless the request goes through the person's proxy; and
// the same for the target of a redirect, which also may not go from https
// to http.

// maxRedirects bounds the redirects one authorization request follows.
const maxRedirects = 5

// AllowHostsEnv names the environment variable that, like
// --auth-allow-host, lists hosts the authorization requests may reach
// whatever their address (comma-separated).
const AllowHostsEnv = "MCPEEK_AUTH_ALLOW_HOSTS"

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

// isLocalhost reports whether host is localhost or a name under it, which
// resolvers answer with loopback (RFC 6761) and Go never proxies.
func isLocalhost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// literalKind is the kind of a URL host that names its address itself
// (an IP, or localhost); ok is false for a name that must be resolved.
func literalKind(host string) (addrKind, bool) {
	if isLocalhost(host) {
		return kindLoopback, true
	}
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return kindOf(ip), true
	}
	return 0, false
}

// AllowList is what the person allowed authorization requests to reach
// whatever their address: host names (exactly), IP addresses and CIDR
// prefixes.
type AllowList struct {
	names    []string
	prefixes []netip.Prefix
}

// ParseAllowList reads entries such as "idp.corp", "10.1.2.3" or
// "10.0.0.0/8"; each entry may itself hold several, comma-separated.
func ParseAllowList(entries ...string) (AllowList, error) {
	var l AllowList
	for _, e := range entries {
		for _, s := range strings.Split(e, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			if p, err := netip.ParsePrefix(s); err == nil {
				l.prefixes = append(l.prefixes, p.Masked())
				continue
			}
			if ip, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
				l.prefixes = append(l.prefixes, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
				continue
			}
			if strings.ContainsAny(s, "/:[] *") {
				return AllowList{}, fmt.Errorf("allowed authorization host %q: want a host name, an IP address or a CIDR prefix (10.0.0.0/8)", s)
			}
			l.names = append(l.names, strings.TrimSuffix(strings.ToLower(s), "."))
		}
	}
	return l, nil
}

// name reports whether host was allowed by name.
func (l AllowList) name(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, n := range l.names {
		if n == host {
			return true
		}
	}
	return false
}

// ip reports whether ip is within an allowed address or prefix.
func (l AllowList) ip(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range l.prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// guard is the authorization requests' policy for one MCP server.
type guard struct {
	resourceHost string
	allow        AllowList

	mu      sync.Mutex
	allowed map[addrKind]bool // the kinds the server's own addresses are, once known
	proxies map[string]bool   // the addresses (host:port) of the proxies requests went through
}

func newGuard(resource string, allow AllowList) *guard {
	g := &guard{allow: allow, proxies: map[string]bool{}}
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
// the first check that needs to know.
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

// refusal is a host the guard stops: it is (or resolves to) an address of
// a kind the MCP server is not at, and the person did not allow it.
type refusal struct {
	host     string
	ip       netip.Addr
	kind     addrKind
	resource string
}

func (r *refusal) Error() string {
	what := r.host
	if ip := r.ip.String(); r.ip.IsValid() && !strings.EqualFold(strings.Trim(r.host, "[]"), ip) {
		what += " (" + ip + ")"
	}
	return fmt.Sprintf("%s is a %s address, and the server at %s is not; if you trust it, allow it with --auth-allow-host %s (or $%s)",
		what, r.kind, r.resource, r.host, AllowHostsEnv)
}

// checkIP refuses ip (host's address) unless the requests may reach it.
func (g *guard) checkIP(ctx context.Context, host string, ip netip.Addr) error {
	if k := kindOf(ip); !g.allows(ctx, k) && !g.allow.ip(ip) {
		return &refusal{host: host, ip: ip, kind: k, resource: g.resourceHost}
	}
	return nil
}

// checkHost refuses host unless the requests may reach it: a name the
// person allowed, or a host whose address (its literal IP, localhost's
// loopback, or with resolve every address the name resolves to) is one
// they may reach. Without resolve, any other name passes: it is checked
// where it is dialled.
func (g *guard) checkHost(ctx context.Context, host string, resolve bool) error {
	if g.allow.name(host) {
		return nil
	}
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return g.checkIP(ctx, host, ip)
	}
	if isLocalhost(host) {
		if g.allows(ctx, kindLoopback) || g.allow.ip(netip.IPv6Loopback()) && g.allow.ip(netip.AddrFrom4([4]byte{127, 0, 0, 1})) {
			return nil
		}
		return &refusal{host: host, kind: kindLoopback, resource: g.resourceHost}
	}
	if !resolve {
		return nil
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return err
	}
	for _, ip := range ips {
		if err := g.checkIP(ctx, host, ip); err != nil {
			return err
		}
	}
	return nil
}

// checkURL stops a request whose URL names a host the requests may not
// reach by itself (an IP address, localhost), before anything is sent.
func (g *guard) checkURL(ctx context.Context, u *url.URL) error {
	if err := g.checkHost(ctx, u.Hostname(), false); err != nil {
		return fmt.Errorf("refused an authorization request to %s: %w", u.Hostname(), err)
	}
	return nil
}

// checkRedirect is the authorization client's CheckRedirect: a redirect
// that leaves its origin is checked as a request would be, its target's
// name resolved at once.
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
	if err := g.checkHost(req.Context(), req.URL.Hostname(), true); err != nil {
		var r *refusal
		if errors.As(err, &r) {
			return fmt.Errorf("refused a redirect from %s to %s: %w", prev.Host, req.URL.Host, err)
		}
		return fmt.Errorf("refused a redirect to %s: %w", req.URL.Hostname(), err)
	}
	return nil
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// transport wraps base so that every authorization request is checked: on
// its URL always, and, when base is an *http.Transport, on every address
// it dials but its proxy's (which the person chose; the proxy dials the
// request's host).
func (g *guard) transport(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	var proxy func(*http.Request) (*url.URL, error)
	if t, ok := base.(*http.Transport); ok {
		t = t.Clone()
		t.DialContext = g.dial
		proxy, base = t.Proxy, t
	}
	return guarded{g: g, base: base, proxy: proxy}
}

// dial is the guarded transport's DialContext: the address of a proxy a
// request went through, or a name the person allowed, is dialled as it
// is; any other only when the requests may reach each address it is or
// resolves to.
func (g *guard) dial(ctx context.Context, network, address string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, ControlContext: g.control(host)}
	g.mu.Lock()
	viaProxy := g.proxies[strings.ToLower(address)]
	g.mu.Unlock()
	if viaProxy || g.allow.name(host) {
		d.ControlContext = nil
	}
	return d.DialContext(ctx, network, address)
}

// control checks the address a connection to host is about to be made to.
func (g *guard) control(host string) func(context.Context, string, string, syscall.RawConn) error {
	return func(ctx context.Context, _, address string, _ syscall.RawConn) error {
		ipText, _, err := net.SplitHostPort(address)
		if err != nil {
			ipText = address
		}
		ip, err := netip.ParseAddr(ipText)
		if err != nil {
			return fmt.Errorf("dial %s: not an IP address", address)
		}
		if err := g.checkIP(ctx, host, ip); err != nil {
			return fmt.Errorf("refused an authorization request to %s: %w", host, err)
		}
		return nil
	}
}

// proxyAddress is the address (host:port) the transport dials for proxy,
// as net/http makes it.
func proxyAddress(proxy *url.URL) string {
	port := proxy.Port()
	if port == "" {
		switch proxy.Scheme {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return strings.ToLower(net.JoinHostPort(proxy.Hostname(), port))
}

// guarded checks each request's URL before base sees it, and notes the
// proxy it will go through, whose address alone is then dialled unchecked.
type guarded struct {
	g     *guard
	base  http.RoundTripper
	proxy func(*http.Request) (*url.URL, error) // base's, when it is an *http.Transport
}

func (t guarded) RoundTrip(r *http.Request) (*http.Response, error) {
	if err := t.g.checkURL(r.Context(), r.URL); err != nil {
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, err
	}
	if t.proxy != nil {
		if p, err := t.proxy(r); err == nil && p != nil {
			t.g.mu.Lock()
			t.g.proxies[proxyAddress(p)] = true
			t.g.mu.Unlock()
		}
	}
	return t.base.RoundTrip(r)
}

package doctor

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// urlState is what the steps of a URL server learn for the next.
type urlState struct {
	u     *url.URL
	host  string
	port  string
	addrs []string
	conn  net.Conn // the TCP connection the TLS step uses
	// challenge is the WWW-Authenticate of a 401 to the probe.
	challenge []string
	status    int
}

// expiryWarning is how close to its expiry a certificate is worth a
// warning.
const expiryWarning = 14 * 24 * time.Hour

// urlSteps check a URL server: the name, the port, TLS, the HTTP answer
// and authorization.
func (d *doctor) urlSteps(ctx context.Context) {
	st := &d.url
	defer func() {
		if st.conn != nil {
			_ = st.conn.Close()
		}
	}()
	u, err := url.Parse(d.cfg.Target.URL)
	if err != nil {
		d.step("resolve", func() outcome { return failed(err.Error(), "give an http:// or https:// URL") })
		return
	}
	st.u, st.host, st.port = u, u.Hostname(), u.Port()
	if st.port == "" {
		st.port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	if proxy := d.proxy(); proxy != "" {
		d.step("resolve", func() outcome { return skipped("requests go through the proxy " + proxy) })
	} else {
		d.step("resolve", func() outcome { return d.resolve(ctx) })
		d.step("connect", func() outcome { return d.connect(ctx) })
		if u.Scheme == "https" {
			d.step("tls", func() outcome { return d.handshake(ctx) })
		}
	}
	d.step("http", func() outcome { return d.probe(ctx) })
	d.step("auth", func() outcome { return d.authorization(ctx) })
}

// proxy is the proxy requests to the target go through, or "".
func (d *doctor) proxy() string {
	req, err := http.NewRequest(http.MethodPost, d.cfg.Target.URL, nil)
	if err != nil {
		return ""
	}
	p, err := http.ProxyFromEnvironment(req)
	if err != nil || p == nil {
		return ""
	}
	return p.Redacted()
}

func (d *doctor) dialTimeout() time.Duration {
	if d.cfg.ConnectTimeout > 0 {
		return d.cfg.ConnectTimeout
	}
	return 30 * time.Second
}

func (d *doctor) resolve(ctx context.Context) outcome {
	st := &d.url
	if ip := net.ParseIP(st.host); ip != nil {
		st.addrs = []string{st.host}
		return passed("%s is an address: nothing to resolve", st.host)
	}
	ctx, cancel := context.WithTimeout(ctx, d.dialTimeout())
	defer cancel()
	addrs, err := net.DefaultResolver.LookupHost(ctx, st.host)
	if err != nil {
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
			return failed(fmt.Sprintf("no such host %s", st.host), "check the host name in the URL")
		}
		return failed(fmt.Sprintf("cannot resolve %s: %v", st.host, err), "check that this machine reaches its DNS servers (a VPN?)")
	}
	st.addrs = addrs
	return passed("%s → %s", st.host, strings.Join(addrs, ", "))
}

func (d *doctor) connect(ctx context.Context) outcome {
	st := &d.url
	dialer := net.Dialer{Timeout: d.dialTimeout()}
	var last error
	for _, a := range st.addrs {
		addr := net.JoinHostPort(a, st.port)
		conn, err := dialer.DialContext(ctx, "tcp", addr)
		if err == nil {
			st.conn = conn
			return passed("%s", addr)
		}
		last = err
	}
	target := net.JoinHostPort(st.host, st.port)
	var ne net.Error
	switch {
	case errors.Is(last, syscall.ECONNREFUSED):
		return failed(fmt.Sprintf("nothing listens on %s (connection refused)", target),
			"is the server running, and on this port? The URL says "+st.port)
	case errors.As(last, &ne) && ne.Timeout():
		return failed(fmt.Sprintf("no answer from %s within %s", target, d.dialTimeout()),
			"the host may be down, or a firewall drops the connection")
	}
	return failed(fmt.Sprintf("cannot connect to %s: %v", target, last), "")
}

// handshake checks TLS: the handshake itself, then the chain, the
// certificate's dates and its names, each worded on its own.
func (d *doctor) handshake(ctx context.Context) outcome {
	st := &d.url
	cfg := &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2", "http/1.1"}} // verified below, to tell what is wrong
	if net.ParseIP(st.host) == nil {
		cfg.ServerName = st.host
	}
	if d.cfg.TLSConfig != nil {
		cfg.Certificates = d.cfg.TLSConfig.Certificates
	}
	ctx, cancel := context.WithTimeout(ctx, d.dialTimeout())
	defer cancel()
	tc := tls.Client(st.conn, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		return handshakeFailure(err, d.cfg.TLS.CertFile != "")
	}
	state := tc.ConnectionState()
	leaf := state.PeerCertificates[0]
	about := fmt.Sprintf("%s, %s issued by %s, valid until %s", tls.VersionName(state.Version), certName(leaf),
		issuerName(leaf), leaf.NotAfter.Format(time.DateOnly))
	if err := d.verify(state.PeerCertificates); err != nil {
		o := certFailure(err, leaf, st.host)
		if d.cfg.TLS.Insecure {
			return warned(about+"; not verified (--insecure): "+o.detail, o.hint)
		}
		o.detail = about + "; " + o.detail
		return o
	}
	if left := time.Until(leaf.NotAfter); left < expiryWarning {
		return warned(fmt.Sprintf("%s; expires in %s", about, counted(int(left.Hours()/24), "day")), "renew the server's certificate soon")
	}
	return passed("%s; the chain and the name check out", about)
}

// verify checks the chain against the system's roots and --ca-file, and
// the name against the URL's host.
func (d *doctor) verify(chain []*x509.Certificate) error {
	roots, err := d.cfg.TLS.Pool()
	if err != nil {
		return err
	}
	inter := x509.NewCertPool()
	for _, c := range chain[1:] {
		inter.AddCert(c)
	}
	_, err = chain[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter, DNSName: d.url.host})
	return err
}

func certName(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return "CN=" + c.Subject.CommonName
	}
	if len(c.DNSNames) > 0 {
		return c.DNSNames[0]
	}
	return c.Subject.String()
}

// issuerName names who issued a certificate, as briefly as it can.
func issuerName(c *x509.Certificate) string {
	switch {
	case c.Issuer.CommonName != "":
		return c.Issuer.CommonName
	case len(c.Issuer.Organization) > 0:
		return c.Issuer.Organization[0]
	}
	return c.Issuer.String()
}

func handshakeFailure(err error, haveCert bool) outcome {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "first record does not look like a TLS handshake"):
		return failed("the server does not speak TLS on this port", "use an http:// URL, or the port that serves HTTPS")
	case strings.Contains(msg, "certificate required") || strings.Contains(msg, "bad certificate") && !haveCert:
		return failed("the server asks for a client certificate: "+msg, "give one with --cert FILE --key FILE")
	case strings.Contains(msg, "bad certificate") || strings.Contains(msg, "unknown certificate authority"):
		return failed("the server refused mcpeek's client certificate: "+msg, "check --cert and --key: a certificate the server trusts")
	}
	return failed("TLS handshake failed: "+msg, "")
}

// certFailure words a failed verification.
func certFailure(err error, leaf *x509.Certificate, host string) outcome {
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	var name x509.HostnameError
	switch {
	case errors.As(err, &unknown):
		return failed("signed by an authority mcpeek does not know",
			"trust the CA that issued it with --ca-file FILE (or skip verification with --insecure, for testing only)")
	case errors.As(err, &invalid) && invalid.Reason == x509.Expired:
		if time.Now().Before(leaf.NotBefore) {
			return failed("not valid before "+leaf.NotBefore.Format(time.RFC3339), "check this machine's clock")
		}
		return failed("expired on "+leaf.NotAfter.Format(time.RFC3339), "renew the server's certificate (or check this machine's clock)")
	case errors.As(err, &name):
		names := append([]string(nil), leaf.DNSNames...)
		for _, ip := range leaf.IPAddresses {
			names = append(names, ip.String())
		}
		return failed(fmt.Sprintf("the certificate is for %s, not %s", strings.Join(names, ", "), host),
			"use a URL whose host the certificate names, or reissue the certificate")
	}
	return failed("the certificate does not verify: "+err.Error(), "")
}

// probe POSTs an initialize request as a client's first message, and
// checks that an MCP endpoint answers it (an SSE server: that its stream
// opens).
func (d *doctor) probe(ctx context.Context) outcome {
	t := d.cfg.Target
	ctx, cancel := context.WithTimeout(ctx, d.dialTimeout())
	defer cancel()
	req, err := d.probeRequest(ctx)
	if err != nil {
		return failed(err.Error(), "")
	}
	client := &http.Client{Transport: mcpclient.HTTPTransport(d.cfg.TLSConfig)}
	defer client.CloseIdleConnections()
	resp, err := client.Do(req)
	if err != nil {
		return failed(fmt.Sprintf("%s %s: %v", req.Method, t.URL, err), "")
	}
	defer resp.Body.Close()
	d.url.status = resp.StatusCode
	media, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	line := fmt.Sprintf("%s → %s", req.Method, resp.Status)
	if media != "" {
		line += ", " + media
	}
	if moved := resp.Request.URL.String(); moved != t.URL {
		line += " (redirected to " + moved + ")"
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		defer d.endSession(id)
	}
	return d.judge(resp, media, line)
}

// probeRequest is the probe: initialize for streamable HTTP, the event
// stream for SSE; with the target's headers.
func (d *doctor) probeRequest(ctx context.Context) (*http.Request, error) {
	t := d.cfg.Target
	var req *http.Request
	var err error
	if t.SSE {
		req, err = http.NewRequestWithContext(ctx, http.MethodGet, t.URL, nil)
		if err == nil {
			req.Header.Set("Accept", "text/event-stream")
		}
	} else {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":%q,"params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpeek doctor","version":%q}}}`,
			mcpclient.MethodInitialize, mcpclient.ProtocolLegacy, mcpclient.Version)
		req, err = http.NewRequestWithContext(ctx, http.MethodPost, t.URL, strings.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
	}
	if err != nil {
		return nil, err
	}
	for name, values := range t.Headers {
		req.Header[name] = values
	}
	return req, nil
}

// endSession ends the session the probe opened, as a client leaving does.
func (d *doctor) endSession(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, d.cfg.Target.URL, nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", id)
	for name, values := range d.cfg.Target.Headers {
		req.Header[name] = values
	}
	client := &http.Client{Transport: mcpclient.HTTPTransport(d.cfg.TLSConfig)}
	defer client.CloseIdleConnections()
	if resp, err := client.Do(req); err == nil {
		_ = resp.Body.Close()
	}
}

// pathHint is the fix for a URL that reaches something other than MCP.
const pathHint = "check the URL's path: MCP servers usually answer at /mcp (or /sse for HTTP+SSE servers)"

// judge decides whether the answer to the probe is an MCP endpoint's.
func (d *doctor) judge(resp *http.Response, media, line string) outcome {
	code := resp.StatusCode
	switch {
	case code == http.StatusUnauthorized:
		d.url.challenge = resp.Header.Values("WWW-Authenticate")
		return passed("%s: the server asks for authorization", line)
	case code == http.StatusNotFound:
		return failed(line+": nothing at this path", pathHint)
	case code == http.StatusMethodNotAllowed && !d.cfg.Target.SSE:
		return failed(line+": no POST here, so not a streamable HTTP endpoint",
			`an HTTP+SSE server? Give "type": "sse" in its config; else `+pathHint)
	case code == http.StatusForbidden:
		return failed(line+": "+d.snippet(resp.Body), "the server refuses this client: a header or token missing? (-H, or the config's headers)")
	case code >= 500:
		return failed(line+": "+d.snippet(resp.Body), "the server failed: see its log")
	case code >= 300:
		return failed(line+": "+d.snippet(resp.Body), "")
	}
	if d.cfg.Target.SSE {
		if media != "text/event-stream" {
			return failed(line+": not an event stream", pathHint)
		}
		return passed("%s: the event stream opens", line)
	}
	switch media {
	case "application/json", "text/event-stream":
		if err := jsonRPCAnswer(resp.Body, media, d.secrets); err != nil {
			return failed(line+": "+err.Error(), pathHint)
		}
		return passed("%s: answers JSON-RPC", line)
	}
	return failed(fmt.Sprintf("%s: a %s answer is not MCP: %s", line, orWord(media, "typeless"), d.snippet(resp.Body)), pathHint)
}

func orWord(s, instead string) string {
	if s == "" {
		return instead
	}
	return s
}

// snippet is the start of a body, for a person to recognise, with the
// run's secrets redacted.
func (d *doctor) snippet(r io.Reader) string { return snippet(r, d.secrets) }

// snippet is the start of a body, for a person to recognise: the secrets
// are redacted before it is cut and quoted, so that neither leaves a part
// of one, or a form the redaction of the output would not know.
func snippet(r io.Reader, secrets *mcpclient.Secrets) string {
	b, _ := io.ReadAll(io.LimitReader(r, 1<<10))
	s := textclean.Cut(strings.Join(strings.Fields(secrets.Redact(string(b))), " "), 120)
	if s == "" {
		return "(empty body)"
	}
	return fmt.Sprintf("%q", s)
}

// jsonRPCAnswer checks that a body holds a JSON-RPC response: the JSON
// itself, or the first data of an event stream. What it quotes of a body
// is redacted of secrets.
func jsonRPCAnswer(body io.Reader, media string, secrets *mcpclient.Secrets) error {
	var data []byte
	var err error
	if media == "text/event-stream" {
		// The stream may stay open: read up to its first event only.
		data = firstEventData(io.LimitReader(body, 1<<20))
	} else if data, err = io.ReadAll(io.LimitReader(body, 1<<20)); err != nil && len(data) == 0 {
		return err
	}
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &m) != nil || m.JSONRPC != "2.0" || m.Result == nil && m.Error == nil {
		return fmt.Errorf("the answer is not a JSON-RPC response: %s", snippet(bytes.NewReader(data), secrets))
	}
	return nil
}

// firstEventData is the data of the first event in a stream that has
// data. An event whose data is empty is passed over, as a client must (the
// SSE rules dispatch no such event): a server with resumability starts
// each stream with one, an id and an empty data: to prime the client's
// Last-Event-ID.
func firstEventData(stream io.Reader) []byte {
	var data []string
	sc := bufio.NewScanner(stream)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "data" || strings.HasPrefix(line, "data:"):
			v := strings.TrimPrefix(strings.TrimPrefix(line, "data"), ":")
			data = append(data, strings.TrimPrefix(v, " "))
		case line == "" && strings.Join(data, "\n") != "":
			return []byte(strings.Join(data, "\n"))
		case line == "":
			data = data[:0]
		}
	}
	return []byte(strings.Join(data, "\n"))
}

// authorization follows a 401: the challenge, the protected-resource
// metadata it leads to, and whether a stored token will do.
func (d *doctor) authorization(ctx context.Context) outcome {
	if d.url.status != http.StatusUnauthorized {
		return passed("no authorization asked")
	}
	ctx, cancel := context.WithTimeout(ctx, d.dialTimeout())
	defer cancel()
	challenges, err := oauthex.ParseWWWAuthenticate(d.url.challenge)
	if err != nil || len(challenges) == 0 {
		return failed("401 without a usable WWW-Authenticate challenge", "the server should answer 401 with WWW-Authenticate: Bearer resource_metadata=\"…\"")
	}
	var bearer map[string]string
	for _, c := range challenges {
		if c.Scheme == "bearer" {
			bearer = c.Params
		}
	}
	if bearer == nil {
		return failed(fmt.Sprintf("401 asks for %s, not a Bearer token", challenges[0].Scheme), "MCP authorization is OAuth: a Bearer challenge")
	}
	client := &http.Client{Transport: mcpclient.HTTPTransport(d.cfg.TLSConfig), Timeout: d.dialTimeout()}
	defer client.CloseIdleConnections()
	var tried []string
	for _, u := range metadataURLs(bearer["resource_metadata"], d.url.u) {
		prm, err := oauthex.GetProtectedResourceMetadata(ctx, u, d.cfg.Target.URL, client)
		if err != nil {
			tried = append(tried, fmt.Sprintf("%s: %v", u, err))
			continue
		}
		if len(prm.AuthorizationServers) == 0 {
			return failed("the metadata at "+u+" names no authorization server", "list the server's issuer in authorization_servers")
		}
		about := fmt.Sprintf("Bearer challenge; the metadata at %s names the authorization server %s", u, strings.Join(prm.AuthorizationServers, ", "))
		if scope := bearer["scope"]; scope != "" {
			about += "; scope " + scope
		}
		return d.storedToken(about)
	}
	return failed("no usable protected-resource metadata: "+strings.Join(tried, "; "),
		"serve RFC 9728 metadata (/.well-known/oauth-protected-resource) and name it in WWW-Authenticate's resource_metadata")
}

// metadataURLs are where the protected-resource metadata may be: the
// challenge's, then the well-known URLs for the path and for the root.
func metadataURLs(fromChallenge string, u *url.URL) []string {
	var out []string
	if fromChallenge != "" {
		out = append(out, fromChallenge)
	}
	root := u.Scheme + "://" + u.Host + "/.well-known/oauth-protected-resource"
	if p := strings.TrimSuffix(u.EscapedPath(), "/"); p != "" {
		out = append(out, root+p)
	}
	return append(out, root)
}

// storedToken says whether a stored token will let mcpeek in.
func (d *doctor) storedToken(about string) outcome {
	store, err := d.cfg.Auth.Store()
	if err != nil {
		return failed(about+"; the token store: "+err.Error(), "")
	}
	login := "log in: mcpeek auth login " + d.cfg.Target.URL
	if store == nil {
		return failed(about+"; --no-stored-auth: no token to use", login)
	}
	// The entries the authorizer would look at, by its own rules.
	entries, err := store.Find(d.cfg.Target.URL)
	if err != nil {
		return failed(about+"; the token store: "+err.Error(), "")
	}
	for _, e := range entries {
		if e.Usable(time.Now()) {
			return passed("%s; a stored token from %s will be used (expires %s)", about, e.Issuer, textclean.Until(e.Expiry))
		}
	}
	return failed(about+"; no usable stored token", login)
}

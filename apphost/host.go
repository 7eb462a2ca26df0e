package apphost

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpeek/mcpeek/internal/loopback"
	"github.com/mcpeek/mcpeek/mcpclient"
)

//go:embed pages
var pages embed.FS

// Options configure the app host.
type Options struct {
	// Addr is the listen address on 127.0.0.1 ("127.0.0.1:0" or "" picks a
	// free port; a bare port like ":8123" or "8123" is taken on 127.0.0.1).
	Addr string
	// InitTimeout covers the page connecting through ui/notifications/initialized.
	InitTimeout time.Duration
	// AnswerTimeout covers the app's answer after that.
	AnswerTimeout time.Duration
	// Launch starts a process that shows a session to the person: the
	// system browser, or --open-with. It is never given the session's URL
	// itself: a process's arguments are readable by other local users, and
	// that URL holds the session's token. Where the kernel shows who owns a
	// connection (Linux's /proc/net), it is given the session's launch URL
	// (http://127.0.0.1:PORT/r/ID), which leads to the session only for a
	// connection of this user's (see serveLaunch); elsewhere, the file://
	// URL of a private launch file that redirects to the session's URL. It
	// runs off the caller's goroutine; an error makes the host show the URL
	// with Notify instead.
	Launch func(url string) error
	// Open, used when Launch is nil, is given the session's URL itself: for
	// callers that open it in-process (tests, a browser driven over its
	// debugging protocol).
	Open func(url string) error
	// Notify shows a line to the person (the URL to open, the SSH hint).
	Notify func(text string)
	// Logf receives diagnostics (refused connections, odd frames).
	Logf func(format string, args ...any)
	// Version is mcpeek's version, sent as hostInfo.
	Version string
	// Theme is "light" or "dark", the terminal's background, sent as
	// hostContext.theme (default light).
	Theme string

	// procNet is where the kernel's socket tables are read ("" is
	// /proc/net); tests name a folder without them to take the launch
	// file's way.
	procNet string
}

// Host is a running app host. It implements [mcpclient.AppRenderer].
type Host struct {
	opts      Options
	port      int
	listeners []net.Listener
	srv       *http.Server

	mu        sync.Mutex
	sessions  map[string]*session
	closed    bool
	launchMu  sync.Mutex
	launchDir string // private folder of launch files, made on first use; "-" once closed
	// owners is the folder of the kernel's socket tables when they show
	// who owns a connection ("" where they do not: then Launch is given
	// launch files).
	owners string
	// open counts the connections not yet taken over as a WebSocket:
	// page loads, idle keep-alives and anyone who connects and waits.
	open atomic.Int32
	// fresh holds the connections that have not sent a request yet, and
	// shutting says Close has begun (see closeFresh).
	freshMu  sync.Mutex
	fresh    map[net.Conn]struct{}
	shutting bool
}

// maxOpenConns caps the connections that are not (yet) a session's
// WebSocket. A tab needs a handful; a local process opening thousands
// must not exhaust mcpeek's file descriptors.
const maxOpenConns = 64

// limitConns closes a new connection beyond [maxOpenConns]. A connection
// counts from its start until it closes or, taken over as a WebSocket,
// until it has shown a token.
func (h *Host) limitConns(c net.Conn, state http.ConnState) {
	h.trackFresh(c, state)
	switch state {
	case http.StateNew:
		if h.open.Add(1) > maxOpenConns {
			h.opts.Logf("app host: refused a connection: %d are open and none has presented a token", maxOpenConns)
			_ = c.Close()
		}
	case http.StateClosed:
		h.open.Add(-1)
	case http.StateHijacked:
		// serveSocket lets it go once the socket has shown its token.
	}
}

// trackFresh keeps the set of connections that have not sent a request.
// Browsers open such spare connections ahead of need, and http.Server's
// Shutdown waits seconds for one before it counts as idle: mcpeek would
// linger after every app session. Once Close has begun, a new connection
// is closed at once.
func (h *Host) trackFresh(c net.Conn, state http.ConnState) {
	h.freshMu.Lock()
	defer h.freshMu.Unlock()
	switch {
	case state == http.StateNew && h.shutting:
		_ = c.Close()
	case state == http.StateNew:
		h.fresh[c] = struct{}{}
	default:
		delete(h.fresh, c)
	}
}

// closeFresh closes the connections that never sent a request, so that
// Shutdown waits only for requests in flight.
func (h *Host) closeFresh() {
	h.freshMu.Lock()
	defer h.freshMu.Unlock()
	h.shutting = true
	for c := range h.fresh {
		_ = c.Close()
	}
}

var _ mcpclient.AppRenderer = (*Host)(nil)

// Start listens on loopback and serves the bridge and sandbox origins.
func Start(opts Options) (*Host, error) {
	if opts.InitTimeout <= 0 {
		opts.InitTimeout = 15 * time.Second
	}
	if opts.AnswerTimeout <= 0 {
		opts.AnswerTimeout = 10 * time.Minute
	}
	if opts.Theme != "dark" {
		opts.Theme = "light"
	}
	if opts.Notify == nil {
		opts.Notify = func(string) {}
	}
	if opts.Logf == nil {
		opts.Logf = func(string, ...any) {}
	}
	addr, err := loopbackAddr(opts.Addr)
	if err != nil {
		return nil, err
	}
	listeners, port, err := listenLoopback(addr)
	if err != nil {
		return nil, err
	}
	h := &Host{opts: opts, port: port, listeners: listeners, sessions: map[string]*session{},
		fresh: map[net.Conn]struct{}{}}
	if opts.procNet == "" {
		opts.procNet = "/proc/net"
	}
	if err := ownersReadable(opts.procNet, listeners); err != nil {
		if opts.Launch != nil {
			opts.Logf("app host: the browser is given launch files: who owns a connection cannot be told here (%v)", err)
		}
	} else {
		h.owners = opts.procNet
	}
	h.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute,
		ConnState: h.limitConns, ConnContext: withConn}
	for _, l := range h.listeners {
		go func() { _ = h.srv.Serve(l) }()
	}
	return h, nil
}

func loopbackAddr(addr string) (string, error) {
	switch {
	case addr == "":
		return "127.0.0.1:0", nil
	case !strings.Contains(addr, ":"):
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--app-host-addr %q: %w", addr, err)
	}
	if host != "" && host != "127.0.0.1" && host != "localhost" {
		return "", fmt.Errorf("--app-host-addr %q: the app host listens on 127.0.0.1 only", addr)
	}
	return net.JoinHostPort("127.0.0.1", port), nil
}

// listenLoopback listens on 127.0.0.1 and [::1] at addr's port
// (loopback.Listen): browsers may resolve localhost (the sandbox origin)
// to ::1 first, and a process that held [::1]:PORT would then receive the
// app and could answer as it.
func listenLoopback(addr string) ([]net.Listener, int, error) {
	_, portText, _ := net.SplitHostPort(addr)
	port, _ := strconv.Atoi(portText)
	listeners, p, err := loopback.Listen(port)
	var taken *loopback.TakenError
	switch {
	case errors.As(err, &taken):
		return nil, 0, fmt.Errorf("app host: %w; choose another --app-host-addr", err)
	case err != nil:
		return nil, 0, fmt.Errorf("app host: %w", err)
	}
	return listeners, p, nil
}

// Port is the port both origins share.
func (h *Host) Port() int { return h.port }

// BridgeOrigin is the origin of the bridge pages.
func (h *Host) BridgeOrigin() string { return "http://127.0.0.1:" + strconv.Itoa(h.port) }

// SandboxOrigin is the origin of the sandbox pages.
func (h *Host) SandboxOrigin() string { return "http://localhost:" + strconv.Itoa(h.port) }

// SSHHint is the port-forwarding command for a person on another machine.
func (h *Host) SSHHint() string {
	return fmt.Sprintf("ssh -L %d:127.0.0.1:%d user@host", h.port, h.port)
}

// Close ends every session and stops listening.
func (h *Host) Close() error {
	h.mu.Lock()
	h.closed = true
	sessions := make([]*session, 0, len(h.sessions))
	for _, s := range h.sessions {
		sessions = append(sessions, s)
	}
	h.mu.Unlock()
	for _, s := range sessions {
		s.abort(errHostClosed)
	}
	h.closeFresh()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := h.srv.Shutdown(ctx)
	h.launchMu.Lock()
	dir := h.launchDir
	h.launchDir = "-" // no launch file after this
	h.launchMu.Unlock()
	if dir != "" && dir != "-" {
		_ = os.RemoveAll(dir)
	}
	return err
}

var errHostClosed = errors.New("the app host closed")

// ServeHTTP routes by Host header: the bridge origin serves the bridge page,
// its assets and the WebSocket; the sandbox origin only the sandbox page.
// Any other Host is refused, against DNS rebinding.
func (h *Host) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	switch r.Host {
	case "127.0.0.1:" + strconv.Itoa(h.port):
		h.serveBridge(w, r)
	case "localhost:" + strconv.Itoa(h.port):
		h.serveSandbox(w, r)
	default:
		h.opts.Logf("app host: refused a request for Host %q", r.Host)
		http.Error(w, "misdirected request", http.StatusMisdirectedRequest)
	}
}

func (h *Host) serveBridge(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch {
	case strings.HasPrefix(r.URL.Path, "/e/"):
		page := bridge()
		w.Header().Set("Content-Security-Policy", fmt.Sprintf(
			"default-src 'none'; script-src 'self' %s; style-src 'self' %s; connect-src ws://127.0.0.1:%d; frame-src %s; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
			page.scriptHash, page.styleHash, h.port, h.SandboxOrigin()))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page.html)
	case strings.HasPrefix(r.URL.Path, "/r/"):
		h.serveLaunch(w, r, strings.TrimPrefix(r.URL.Path, "/r/"))
	case r.URL.Path == "/static/bridge.js":
		servePage(w, "pages/bridge.js", "text/javascript; charset=utf-8")
	case r.URL.Path == "/static/bridge.css":
		servePage(w, "pages/bridge.css", "text/css; charset=utf-8")
	case strings.HasPrefix(r.URL.Path, "/ws/"):
		h.serveSocket(w, r, strings.TrimPrefix(r.URL.Path, "/ws/"))
	default:
		http.NotFound(w, r)
	}
}

func (h *Host) serveSandbox(w http.ResponseWriter, r *http.Request) {
	key, ok := strings.CutPrefix(r.URL.Path, "/sandbox/")
	if r.Method != http.MethodGet || !ok {
		http.NotFound(w, r)
		return
	}
	s := h.sessionWith(key, func(s *session) string { return s.sandboxID })
	if s == nil {
		http.NotFound(w, r)
		return
	}
	select { // the policy comes from the app
	case <-s.loaded:
	case <-s.done:
	case <-r.Context().Done():
		return
	}
	if s.loadErr != nil { // loaded is closed before done
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Security-Policy", s.csp+"; frame-ancestors "+h.BridgeOrigin())
	page, _ := pages.ReadFile("pages/sandbox.html")
	s.mu.Lock()
	first := !s.sandboxServed
	s.sandboxServed = true
	s.mu.Unlock()
	if first {
		page = withApp(page, s.html, s.allow)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page)
}

// withApp puts the app (its HTML and its frame's permissions) into the
// sandbox page, as a data block the page reads and mounts at once: the app
// then travels with the page instead of over the WebSocket after it, which
// for an app of hundreds of kilobytes is a JSON encoding in mcpeek, a
// decoding in the bridge page and a copy between frames saved. Only the
// first load of a session's sandbox page has it (its id is given only to
// the tab that holds the token); a page loaded again asks over the
// WebSocket, as one without it does.
func withApp(page []byte, html, allow string) []byte {
	data, err := json.Marshal(map[string]string{"html": html, "allow": allow}) // escapes <, > and &: no "</script" inside
	if err != nil {
		return page
	}
	block := append(append([]byte(`<script type="application/json" id="mcpeek-app">`), data...), "</script>\n"...)
	at := bytes.Index(page, []byte("<script>"))
	if at < 0 {
		return page
	}
	return slices.Concat(page[:at], block, page[at:])
}

// bridgePage is the bridge page as served: its script and style inlined,
// so that the page needs no request of its own before it can connect and
// start its sandbox frame, and their hashes for its
// Content-Security-Policy.
type bridgePage struct {
	html                  []byte
	scriptHash, styleHash string
}

// bridge builds the bridge page once, when a tab first asks for it (not at
// start-up: most runs of mcpeek never open one).
var bridge = sync.OnceValue(func() bridgePage {
	read := func(name string) string {
		b, err := pages.ReadFile(name)
		if err != nil {
			panic(err) // embedded: cannot fail
		}
		return string(b)
	}
	hash := func(text string) string {
		sum := sha256.Sum256([]byte(text))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	script, style := "\n"+read("pages/bridge.js"), "\n"+read("pages/bridge.css")
	page := strings.NewReplacer(
		`<link rel="stylesheet" href="/static/bridge.css">`, "<style>"+style+"</style>",
		`<script src="/static/bridge.js"></script>`, "<script>"+script+"</script>",
	).Replace(read("pages/bridge.html"))
	return bridgePage{html: []byte(page), scriptHash: hash(script), styleHash: hash(style)}
})

func servePage(w http.ResponseWriter, name, contentType string) {
	b, err := pages.ReadFile(name)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", contentType)
	_, _ = w.Write(b)
}

// sessionWith is the session whose id of a kind (its sandbox page's, its
// launch URL's: what idOf reads) is the one given, compared in constant
// time. No session has the empty id (a session given no launch URL has
// none).
func (h *Host) sessionWith(id string, idOf func(*session) string) *session {
	if id == "" {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.sessions {
		if tokenEqual(id, idOf(s)) {
			return s
		}
	}
	return nil
}

func (h *Host) session(key string) *session {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[key]
}

// newToken returns 256 random bits, URL-safe.
func newToken() string {
	b := make([]byte, 32)
	_, _ = io.ReadFull(rand.Reader, b)
	return base64.RawURLEncoding.EncodeToString(b)
}

package apphost

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// ProtocolVersion is the MCP Apps protocol revision the host speaks.
const ProtocolVersion = "2026-01-26"

const (
	maxFrame  = 1 << 20 // bytes in one WebSocket frame
	maxFrames = 10000   // frames one session reads before it gives up on the page
	teardown  = "mcpeek-teardown"
)

// session is one request's tab: its token, its WebSocket once a page has
// proven it holds the token, and the Apps protocol exchange over it. What
// the app is there for is its purpose: an elicitation (elicitation.go) or
// a tool's app (toolapp.go); the session holds what both share.
type session struct {
	h       *Host
	key     string
	token   string
	req     *mcpclient.AppRequest
	purpose purpose
	// sandboxID names the session's sandbox page; only a page given the
	// token learns it (from the session message, or beside the token in
	// the link, see link), so the sandbox origin says nothing of which
	// requests are live.
	sandboxID string
	// launchID names the session in its launch URL (see launchURL): not a
	// secret, it leads to the token only for a connection of this user's.
	launchID string

	// Set by load before it closes loaded.
	loaded  chan struct{}
	loadErr error
	html    string
	csp     string
	allow   string // the app frame's allow attribute, from _meta.ui.permissions

	mu            sync.Mutex
	claimed       bool
	sandboxServed bool   // the sandbox page (with the app in it) has been served once
	launchFile    string // the private page that redirects to this session, until a tab connects
	launchUsed    bool   // the launch URL was answered: the tab is this user's browser's
	// shownAsText is closed when the URL was only shown, not launched.
	shownAsText chan struct{}
	connected   chan *websocket.Conn // the one authenticated page
	done        chan struct{}        // closed when the session ends
	abortErr    error
	aborted     chan struct{}
	abortOnce   sync.Once
}

// purpose is what a session is for: the part of the Apps protocol that
// differs between an app answering one elicitation and a tool's app that
// lives as long as its tab. The session's shared exchange calls it at each
// point where they differ.
type purpose interface {
	// heading fills in what the bridge page shows above the app.
	heading(ctl *control, server string)
	// initialize answers the app's ui/initialize (an app that remounts
	// initializes again); an error ends the exchange.
	initialize(p *peer, id json.RawMessage, version string, appCaps map[string]json.RawMessage) error
	// initialized takes the app's ui/notifications/initialized.
	initialized(p *peer, st *exchangeState) error
	// request answers a request of the app's beyond the shared ones.
	request(p *peer, m rpc)
	// response takes a response of the app's; a non-nil answer ends the
	// exchange with it.
	response(p *peer, m rpc, st *exchangeState) (*mcpclient.AppAnswer, error)
	// toolsChanged takes the app's notifications/tools/list_changed.
	toolsChanged(p *peer, method string)
	// teardownRequested is the end when the app asks to close.
	teardownRequested() error
	// tabClosed is the end when the tab goes.
	tabClosed() error
	// capabilities are the hostCapabilities the app is told.
	capabilities() map[string]any
	// context adds to (or changes) the hostContext the app is told.
	context(hostContext map[string]any)
}

func (s *session) abort(err error) {
	s.abortOnce.Do(func() {
		s.abortErr = err
		close(s.aborted)
	})
}

// register makes a session for the request, for the purpose, under a key
// no live session has, with its own token.
func (h *Host) register(req *mcpclient.AppRequest, purpose purpose) (*session, error) {
	s := &session{
		h: h, token: newToken(), sandboxID: newToken(), launchID: newToken(), req: req, purpose: purpose,
		connected: make(chan *websocket.Conn, 1), done: make(chan struct{}), aborted: make(chan struct{}),
		shownAsText: make(chan struct{}), loaded: make(chan struct{}),
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, errHostClosed
	}
	s.key = req.Key
	for n := 2; h.sessions[s.key] != nil; n++ {
		s.key = fmt.Sprintf("%s-%d", req.Key, n)
	}
	h.sessions[s.key] = s
	return s, nil
}

// load reads the app and prepares what the sandbox needs from it: its
// HTML, its Content-Security-Policy and its frame's permissions.
func (s *session) load(ctx context.Context) {
	defer close(s.loaded)
	content, err := s.req.Content(ctx)
	switch {
	case err != nil:
		s.loadErr = err
		return
	case content == nil:
		s.loadErr = &mcpclient.AppError{Reason: mcpclient.FallbackResourceReadFailed, Err: errors.New("no content")}
		return
	}
	var rejected []string
	s.html = content.HTML
	s.csp, rejected = buildCSP(content.CSP)
	for _, src := range rejected {
		s.h.opts.Logf("app host: %s: ignored the CSP source %s declared by %s: not a safe source expression", s.key, clip(src, 120), s.req.ResourceURI)
	}
	s.allow = permissionsPolicy(content.Permissions)
}

// link is the session's tab URL. Its fragment holds the token, the sandbox
// page's id and, once the app has been read, the app frame's permissions
// (base64url, perhaps empty): "#TOKEN.SANDBOX" or "#TOKEN.SANDBOX.ALLOW".
// The bridge page then starts its sandbox frame as it loads, in parallel
// with its WebSocket (the sandbox page itself waits for the read), instead
// of after the session message; an app whose permissions were not known
// yet and turn out to be some is loaded again with them. The fragment
// never reaches the server, and whoever holds the link holds the token
// already.
func (s *session) link() string {
	link := s.h.BridgeOrigin() + "/e/" + s.key + "#" + s.token + "." + s.sandboxID
	select {
	case <-s.loaded:
		link += "." + base64.RawURLEncoding.EncodeToString([]byte(s.allow))
	default: // not read yet: the session message tells the page
	}
	return link
}

// loadHead is how long the tab waits for the app to be read before it is
// opened anyway, the read going on while the browser opens it: long enough
// for a read that fails at once to open no tab, short enough that a large
// app's read (tens of milliseconds to decode) overlaps the tab's opening
// rather than delaying it (the sandbox page waits for the read).
const loadHead = 20 * time.Millisecond

// removeLaunchFile deletes the session's launch file, if it has one: once
// a tab holds the session, or the session is over, nobody needs it.
func (s *session) removeLaunchFile() {
	s.mu.Lock()
	path := s.launchFile
	s.launchFile = ""
	s.mu.Unlock()
	if path != "" {
		_ = os.Remove(path)
	}
}

// show starts showing the session's URL to the person, without waiting:
// through its launch URL (where the kernel shows who owns a connection) or
// a launch file for a launcher process, or in-process, or as text.
func (h *Host) show(s *session, target string) {
	hint := fmt.Sprintf("(over SSH, forward the port first: %s)", h.SSHHint())
	notify := func() {
		close(s.shownAsText)
		h.opts.Notify(fmt.Sprintf("Open %s to answer in the app %s", target, hint))
	}
	ended := func() bool {
		select {
		case <-s.done:
			return true
		default:
			return false
		}
	}
	switch {
	case h.opts.Launch != nil && h.owners != "":
		go func() {
			if err := h.opts.Launch(h.launchURL(s)); err != nil && !ended() {
				h.opts.Logf("app host: could not open a browser: %v", err)
				notify()
			}
		}()
	case h.opts.Launch != nil:
		path, err := h.writeLaunchFile(s.key, target)
		if err != nil {
			h.opts.Logf("app host: could not write a launch file: %v", err)
			notify()
			return
		}
		s.mu.Lock()
		s.launchFile = path
		s.mu.Unlock()
		go func() {
			if err := h.opts.Launch(fileURL(path)); err != nil && !ended() {
				h.opts.Logf("app host: could not open a browser: %v", err)
				s.removeLaunchFile()
				notify()
			}
		}()
	case h.opts.Open != nil:
		go func() {
			if err := h.opts.Open(target); err != nil && !ended() {
				h.opts.Logf("app host: could not open a browser: %v", err)
				notify()
			}
		}()
	default:
		go notify()
	}
}

// serveSocket accepts a page's WebSocket: the Origin must be the bridge
// origin and the first frame the session's token (or the whole fragment of
// its link, see presentedToken). Anything else is told why in its tab and
// closed, and the request goes on waiting.
func (h *Host) serveSocket(w http.ResponseWriter, r *http.Request, key string) {
	if origin := r.Header.Get("Origin"); origin != h.BridgeOrigin() {
		h.opts.Logf("app host: refused a WebSocket from origin %q", origin)
		http.Error(w, "forbidden origin", http.StatusForbidden)
		return
	}
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	// The connection, taken over as a WebSocket, still counts against the
	// cap (host.go, limitConns) until it has shown a token.
	tokenless := true
	defer func() {
		if tokenless {
			h.open.Add(-1)
		}
	}()
	c.SetReadLimit(maxFrame)
	refuseAs := func(why, shown string) {
		h.opts.Logf("app host: refused a tab for %s: %s", clip(key, 80), why)
		_ = writeJSON(r.Context(), c, control{Kind: "refused", Text: shown})
		_ = c.Close(websocket.StatusPolicyViolation, "refused")
	}
	refuse := func(why string) { refuseAs(why, why) }
	// A page without the session's token learns nothing, not even whether
	// the key names a live request.
	const notValid = "This link is not valid: its request has ended, or mcpeek did not give it out."
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	_, first, err := c.Read(ctx)
	cancel()
	if err != nil {
		_ = c.CloseNow()
		return
	}
	tokenless = false
	h.open.Add(-1)
	s := h.session(key)
	switch {
	case s == nil:
		refuseAs("no such request", notValid)
		return
	case !tokenEqual(presentedToken(first), s.token):
		refuseAs("wrong token", notValid)
		return
	}
	s.mu.Lock()
	launched := s.launchUsed
	s.mu.Unlock()
	if launched {
		// The token went to this user's browser alone (serveLaunch): its
		// socket comes from there too. The token still authenticates it;
		// this refuses one that learned the token some other way.
		if err := h.sameUser(r); err != nil {
			refuseAs("the socket's other end is not this user's: "+err.Error(), notValid)
			return
		}
	}
	s.mu.Lock()
	claimed := s.claimed
	s.claimed = true
	s.mu.Unlock()
	if claimed {
		refuse("This request is already open in another tab.")
		return
	}
	s.removeLaunchFile()
	s.connected <- c
	<-s.done // the session owns the connection until it ends
	select {
	case <-s.connected: // it ended before it took this page
		refuse("This request has ended.")
	default:
	}
}

// presentedToken is the token in a page's first frame: the token itself,
// as the bridge page sends it, or the whole fragment of the session's link
// (see link), which begins with it, as a page that sends its fragment
// unread does.
func presentedToken(first []byte) string {
	token, _, _ := strings.Cut(string(first), ".")
	return token
}

func tokenEqual(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	var diff byte
	for i := range len(a) {
		diff |= a[i] ^ b[i]
	}
	return diff == 0
}

// control is a message of mcpeek's own to the bridge page (never relayed
// to the app); JSON-RPC messages are relayed as they are.
type control struct {
	Kind       string `json:"mcpeek"`
	Text       string `json:"text,omitempty"`
	Server     string `json:"server,omitempty"`
	Connection string `json:"connection,omitempty"`
	Message    string `json:"message,omitempty"`
	Title      string `json:"title,omitempty"` // the page's heading, when it is not "… is asking for input"
	Sandbox    string `json:"sandbox,omitempty"`
	Mode       string `json:"mode,omitempty"`
	Allow      string `json:"allow,omitempty"`
	Width      *int   `json:"width,omitempty"`
	Height     *int   `json:"height,omitempty"`
}

// rpc is a JSON-RPC 2.0 message in either direction.
type rpc struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func writeJSON(ctx context.Context, c *websocket.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return c.Write(ctx, websocket.MessageText, b)
}

type frame struct {
	msg rpc
	err error // the connection ended
}

func appErr(reason mcpclient.FallbackReason, format string, args ...any) error {
	return &mcpclient.AppError{Reason: reason, Err: fmt.Errorf(format, args...)}
}

// run waits for the page, then speaks the host side of the Apps protocol:
// hand the sandbox its HTML, answer ui/initialize, wait for initialized,
// forward the unchanged elicitation/create once, and return the answer.
func (s *session) run(ctx context.Context) (*mcpclient.AppAnswer, error) {
	start := time.Now()
	initTimer := time.NewTimer(s.h.opts.InitTimeout)
	defer initTimer.Stop()
	shownAsText, loaded := s.shownAsText, s.loaded
	waitingForPerson := false
	var c *websocket.Conn
	for c == nil {
		select {
		case c = <-s.connected:
		case <-loaded:
			loaded = nil
			if s.loadErr != nil { // no tab needed: the app cannot be shown
				return nil, s.loadErr
			}
		case <-shownAsText:
			// Nothing was launched: the person opens the URL by hand,
			// perhaps after setting up an SSH tunnel. Wait for them within
			// the answer time; the init time starts when the tab connects.
			shownAsText, waitingForPerson = nil, true
			initTimer.Reset(s.h.opts.AnswerTimeout)
		case <-initTimer.C:
			if waitingForPerson {
				return nil, appErr(mcpclient.FallbackInitTimeout, "nobody opened the tab within %s", s.h.opts.AnswerTimeout)
			}
			// A browser that cannot read the launch page (a snap's own
			// /tmp) ends here too: say what to do about it.
			return nil, appErr(mcpclient.FallbackInitTimeout, "no page connected within %s (if the browser did not open the tab, run with --no-browser and open the URL yourself)", s.h.opts.InitTimeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.aborted:
			return nil, &mcpclient.AppError{Reason: mcpclient.FallbackBridgeUnavailable, Err: s.abortErr}
		}
	}
	if waitingForPerson {
		start = time.Now()
		initTimer.Reset(s.h.opts.InitTimeout)
	}
	// The tab is here; the app must have been read before the page is told
	// where its sandbox is.
	var err error
	select {
	case <-s.loaded: // read already: a timer that fired too does not matter
		err = s.loadErr
	default:
		err = s.awaitLoad(ctx, initTimer)
	}
	if err != nil {
		_ = writeJSON(context.Background(), c, control{Kind: "end", Text: endText(err)})
		_ = c.Close(websocket.StatusNormalClosure, "done")
		return nil, err
	}
	return s.talk(ctx, c, initTimer, start)
}

// awaitLoad waits for the app to have been read, once the tab is here.
func (s *session) awaitLoad(ctx context.Context, initTimer *time.Timer) error {
	var err error
	select {
	case <-s.loaded:
		err = s.loadErr
	case <-initTimer.C:
		err = appErr(mcpclient.FallbackResourceReadFailed, "the app was not read within %s", s.h.opts.InitTimeout)
	case <-ctx.Done():
		err = ctx.Err()
	case <-s.aborted:
		err = &mcpclient.AppError{Reason: mcpclient.FallbackBridgeClosed, Err: s.abortErr}
	}
	return err
}

// talk speaks the Apps protocol with the page c until the app answers.
func (s *session) talk(ctx context.Context, c *websocket.Conn, initTimer *time.Timer, start time.Time) (*mcpclient.AppAnswer, error) {
	connCtx, stop := context.WithCancel(context.Background())
	defer stop()
	frames := make(chan frame, 16)
	go s.read(connCtx, c, frames)

	p := &peer{s: s, c: c, ctx: connCtx}
	ans, err := p.exchange(ctx, frames, initTimer, start)
	p.finish(frames, err)
	stop()
	return ans, err
}

// read turns the page's frames into messages; odd frames are logged and
// dropped, and the first read error ends the stream.
func (s *session) read(ctx context.Context, c *websocket.Conn, out chan<- frame) {
	defer close(out)
	for n := 0; ; n++ {
		_, b, err := c.Read(ctx)
		if err != nil {
			select {
			case out <- frame{err: err}:
			case <-ctx.Done():
			}
			return
		}
		if n == maxFrames {
			s.h.opts.Logf("app host: %s: the page sent more than %d frames; closing it", s.key, maxFrames)
			_ = c.Close(websocket.StatusPolicyViolation, "too many frames")
			continue
		}
		m, ok := decodeFrame(b)
		if !ok {
			s.h.opts.Logf("app host: %s: ignored a frame that is not JSON-RPC 2.0 (%d bytes)", s.key, len(b))
			continue
		}
		select {
		case out <- frame{msg: m}:
		case <-ctx.Done():
			return
		}
	}
}

// decodeFrame reads one frame from the page as a JSON-RPC 2.0 message: a
// request, a notification or a response. It reports false for anything
// else, which the session ignores.
func decodeFrame(b []byte) (rpc, bool) {
	var m rpc
	if err := json.Unmarshal(b, &m); err != nil || m.JSONRPC != "2.0" || (m.Method == "" && m.ID == nil) {
		return rpc{}, false
	}
	return m, true
}

// peer is the page and app at the other end of one session's WebSocket.
type peer struct {
	s   *session
	c   *websocket.Conn
	ctx context.Context
	// awaitingInit is set by each answered ui/initialize until the app's
	// ui/notifications/initialized: only then may the host speak to it.
	awaitingInit bool
	ready        bool // the app has sent initialized at least once
	inits        int  // ui/initialize requests answered (an app may remount)
	htmlSent     bool // the sandbox has been handed the app's HTML
	displayMode  string
	appModes     []string // the display modes the app declared
	logs         int      // app log messages recorded
}

func (p *peer) send(v any) {
	if err := writeJSON(p.ctx, p.c, v); err != nil {
		p.s.h.opts.Logf("app host: %s: write: %v", p.s.key, err)
	}
}

func (p *peer) sendRaw(b []byte) {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	if err := p.c.Write(ctx, websocket.MessageText, b); err != nil {
		p.s.h.opts.Logf("app host: %s: write: %v", p.s.key, err)
	}
}

func (p *peer) status(text string) { p.send(control{Kind: "status", Text: text}) }

func (p *peer) reply(id json.RawMessage, result any) {
	b, _ := json.Marshal(result)
	p.send(rpc{JSONRPC: "2.0", ID: id, Result: b})
}

func (p *peer) refuse(id json.RawMessage, code int, msg string) {
	p.send(rpc{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: msg}})
}

// exchangeState is what one exchange learns as it goes: when the app
// initialized, and the timer for its answer once it has.
type exchangeState struct {
	initTimer   *time.Timer
	start       time.Time
	answerTimer *time.Timer // nil until ui/notifications/initialized
	initTime    time.Duration
}

func (st *exchangeState) answerC() <-chan time.Time {
	if st.answerTimer == nil {
		return nil
	}
	return st.answerTimer.C
}

func (p *peer) exchange(ctx context.Context, frames <-chan frame, initTimer *time.Timer, start time.Time) (*mcpclient.AppAnswer, error) {
	s := p.s
	server := s.req.Server.Title
	if server == "" {
		server = s.req.Server.Name
	}
	ctl := control{Kind: "session", Server: server, Connection: s.req.Connection,
		Sandbox: s.h.SandboxOrigin() + "/sandbox/" + s.sandboxID, Allow: s.allow}
	s.purpose.heading(&ctl, server)
	p.send(ctl)
	p.status("Loading the server's app…")
	st := &exchangeState{initTimer: initTimer, start: start}
	defer func() {
		if st.answerTimer != nil {
			st.answerTimer.Stop()
		}
	}()
	for {
		m, err := p.next(ctx, frames, st)
		if err != nil {
			return nil, err
		}
		var ans *mcpclient.AppAnswer
		switch {
		case m.Method != "" && m.ID != nil: // a request from the app or sandbox
			err = p.onRequest(m)
		case m.Method != "": // a notification
			err = p.onNotification(m, st)
		default: // a response
			ans, err = s.purpose.response(p, m, st)
		}
		if ans != nil || err != nil {
			return ans, err
		}
	}
}

// next waits for the page's next message, or for the reason there will be
// none: the request ended, the session was aborted, or a timer ran out.
func (p *peer) next(ctx context.Context, frames <-chan frame, st *exchangeState) (rpc, error) {
	s := p.s
	select {
	case f, ok := <-frames:
		if !ok || f.err != nil {
			return rpc{}, s.purpose.tabClosed()
		}
		return f.msg, nil
	case <-ctx.Done():
		return rpc{}, ctx.Err()
	case <-s.aborted:
		return rpc{}, &mcpclient.AppError{Reason: mcpclient.FallbackBridgeClosed, Err: s.abortErr}
	case <-st.initTimer.C:
		return rpc{}, appErr(mcpclient.FallbackInitTimeout, "the app did not initialize within %s", s.h.opts.InitTimeout)
	case <-st.answerC():
		return rpc{}, appErr(mcpclient.FallbackAnswerTimeout, "the app did not answer within %s", s.h.opts.AnswerTimeout)
	}
}

// maxInits bounds how often an app may initialize in one session (an app
// that remounts initializes again; one that loops must not make mcpeek
// resend the request forever).
const maxInits = 8

// onRequest answers a request from the app or its sandbox; only the
// purpose's answer to ui/initialize may end the exchange.
func (p *peer) onRequest(m rpc) error {
	s := p.s
	switch m.Method {
	case "ui/initialize":
	case "ui/request-display-mode":
		p.requestDisplayMode(m)
		return nil
	default:
		s.purpose.request(p, m)
		return nil
	}
	if p.inits >= maxInits {
		s.h.opts.Logf("app host: %s: refused ui/initialize number %d", s.key, p.inits+1)
		p.refuse(m.ID, -32600, "initialized too many times")
		return nil
	}
	var params struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		AppCapabilities map[string]json.RawMessage `json:"appCapabilities"`
	}
	_ = json.Unmarshal(m.Params, &params)
	if p.inits > 0 {
		s.h.opts.Logf("app host: %s: the app initialized again (remounted)", s.key)
	}
	p.inits++
	p.awaitingInit = true
	p.appModes = nil
	_ = json.Unmarshal(params.AppCapabilities["availableDisplayModes"], &p.appModes)
	return s.purpose.initialize(p, m.ID, params.ProtocolVersion, params.AppCapabilities)
}

// hostDisplayModes are the display modes the bridge page can give an app:
// inline (under mcpeek's header) and fullscreen (the whole tab).
var hostDisplayModes = []string{"inline", "fullscreen"}

// requestDisplayMode answers ui/request-display-mode with the mode that
// results: the one asked for when both the host and the app declared it,
// else the current one.
func (p *peer) requestDisplayMode(m rpc) {
	var params struct {
		Mode string `json:"mode"`
	}
	_ = json.Unmarshal(m.Params, &params)
	if params.Mode != p.displayMode && slices.Contains(hostDisplayModes, params.Mode) && slices.Contains(p.appModes, params.Mode) {
		p.displayMode = params.Mode
		p.send(control{Kind: "display", Mode: p.displayMode})
	} else if params.Mode != p.displayMode {
		p.s.h.opts.Logf("app host: %s: kept display mode %s (the app asked for %q)", p.s.key, p.displayMode, clip(params.Mode, 40))
	}
	p.reply(m.ID, map[string]any{"mode": p.displayMode})
}

// onNotification handles a notification from the app or its sandbox:
// the sandbox's readiness, the app's initialized (for the purpose to go
// on from), size changes and a teardown request.
func (p *peer) onNotification(m rpc, st *exchangeState) error {
	s := p.s
	switch m.Method {
	case "ui/notifications/sandbox-proxy-ready":
		if p.htmlSent {
			// Only the sandbox page announces itself, once; the app's
			// copies are not relayed, and a page that repeats it does not
			// get the whole app again.
			s.h.opts.Logf("app host: %s: ignored a repeated %s", s.key, m.Method)
			return nil
		}
		p.htmlSent = true
		p.send(rpc{JSONRPC: "2.0", Method: "ui/notifications/sandbox-resource-ready", Params: mustJSON(map[string]any{
			"html": s.html, "sandbox": "allow-scripts allow-forms", "allow": s.allow,
		})})
	case "ui/notifications/initialized":
		if !p.awaitingInit {
			s.h.opts.Logf("app host: %s: ignored %s out of order", s.key, m.Method)
			return nil
		}
		p.awaitingInit, p.ready = false, true
		return s.purpose.initialized(p, st)
	case "notifications/message":
		p.appLog(m.Params)
	case "ui/notifications/size-changed":
		var size struct {
			Width  *int `json:"width"`
			Height *int `json:"height"`
		}
		_ = json.Unmarshal(m.Params, &size)
		p.send(control{Kind: "size", Width: size.Width, Height: size.Height})
	case "notifications/tools/list_changed":
		s.purpose.toolsChanged(p, m.Method)
	case "ui/notifications/request-teardown":
		return s.purpose.teardownRequested()
	default:
		s.h.opts.Logf("app host: %s: ignored notification %s", s.key, m.Method)
	}
	return nil
}

// initializeResult is the answer to ui/initialize: what the host is and
// serves, and the context the app runs in.
func (p *peer) initializeResult(appVersion string) map[string]any {
	version := ProtocolVersion
	if appVersion == ProtocolVersion {
		version = appVersion
	}
	if p.displayMode == "" {
		p.displayMode = "inline"
	}
	hostContext := map[string]any{
		"theme":                 p.s.h.opts.Theme,
		"displayMode":           p.displayMode,
		"availableDisplayModes": hostDisplayModes,
		"platform":              "web",
		"containerDimensions":   map[string]any{"maxWidth": 960, "maxHeight": 1200},
	}
	p.s.purpose.context(hostContext)
	return map[string]any{
		"protocolVersion":  version,
		"hostInfo":         map[string]any{"name": "mcpeek", "version": p.s.h.opts.Version},
		"hostCapabilities": p.s.purpose.capabilities(),
		"hostContext":      hostContext,
	}
}

// maxAppLogs bounds the app's log messages recorded per session.
const maxAppLogs = 200

// appLog records an app's notifications/message in the wire log, bounded
// and cleaned: an app may flood it.
func (p *peer) appLog(params json.RawMessage) {
	p.logs++
	switch {
	case p.logs == maxAppLogs+1:
		p.s.h.opts.Logf("app host: %s: the app logged more than %d messages; the rest are not recorded", p.s.key, maxAppLogs)
		return
	case p.logs > maxAppLogs:
		return
	}
	var msg struct {
		Level  string          `json:"level"`
		Logger string          `json:"logger"`
		Data   json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(params, &msg)
	data := string(msg.Data)
	var text string
	if json.Unmarshal(msg.Data, &text) == nil {
		data = text
	}
	from := "app"
	if msg.Logger != "" {
		from = "app " + clip(msg.Logger, 60)
	}
	p.s.h.opts.Logf("app host: %s: %s [%s]: %s", p.s.key, from, clip(msg.Level, 16), clip(data, 500))
}

// clip shortens s to n runes, without control characters.
func clip(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return ' '
		}
		return r
	}, s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// finish tears the app down: ui/resource-teardown (briefly awaited) when
// the app has initialized (before that the host may not speak to it), then
// a last word to the tab, then the close.
func (p *peer) finish(frames <-chan frame, err error) {
	if p.ready {
		p.send(rpc{JSONRPC: "2.0", ID: json.RawMessage(`"` + teardown + `"`), Method: "ui/resource-teardown", Params: json.RawMessage(`{}`)})
		deadline := time.After(500 * time.Millisecond)
	wait:
		for {
			select {
			case f, ok := <-frames:
				if !ok || f.err != nil || string(f.msg.ID) == `"`+teardown+`"` {
					break wait
				}
			case <-deadline:
				break wait
			}
		}
	}
	p.send(control{Kind: "end", Text: endText(err)})
	_ = p.c.Close(websocket.StatusNormalClosure, "done")
}

func isObject(raw json.RawMessage) bool {
	var m map[string]any
	return json.Unmarshal(raw, &m) == nil && m != nil
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// endText is the tab's last word for a session that ended with err.
func endText(err error) string {
	var ae *mcpclient.AppError
	switch {
	case err == nil:
		return "Answered. You can close this tab."
	case errors.As(err, &ae):
		return "mcpeek answers this request in the terminal instead: " + ae.Reason.Describe() + ". You can close this tab."
	}
	return "This request has ended. You can close this tab."
}

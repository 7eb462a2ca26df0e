package apphost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/time/rate"
)

// A tool app's session outlives one request: the app gets the call's
// input and result, and may reach the server (its app-visible tools, its
// resources), the person (links, after consent) and the conversation
// (messages, recorded) until its tab closes, it asks to close, or mcpeek
// closes it (docs/app-host.md, "Tool apps").

// Bounds on what a tool app may ask at once and per second.
const (
	maxToolAppInflight = 4
	toolAppRate        = 10 // requests a second, in bursts of as many
)

// errTabClosed ends a tool app's session when its tab closes: the
// normal end.
var errTabClosed = errors.New("the tab closed")

// toolSession is the [purpose] of a tool app's session: what it holds
// beyond the shared session.
type toolSession struct {
	app      *mcpclient.ToolApp
	limiter  *rate.Limiter
	inflight chan struct{}
	url      string

	mu        sync.Mutex
	peer      *peer // once the app has initialized and been given the input
	result    json.RawMessage
	cancelled *string
	// live: the app has initialized and not begun again since; only then
	// may the host send it requests. appTools: it declared tools of its
	// own. theme: set by SetTheme, the theme it is told from then on.
	live     bool
	appTools bool
	theme    string
	livePeer *peer // the page the live app is on
	// themeKick wakes the theme sender (sendThemes).
	themeKick chan struct{}
	// The host's requests to the app, by id, each awaiting its answer.
	asked  map[string]chan rpc
	askSeq int

	end     chan struct{} // closed when the session has ended
	endErr  error
	stop    context.CancelFunc
	stopped sync.Once
}

// toolHandle is the [mcpclient.ToolAppSession] OpenToolApp returns.
type toolHandle struct{ t *toolSession }

func (h toolHandle) Done() <-chan struct{} { return h.t.end }
func (h toolHandle) URL() string           { return h.t.url }
func (h toolHandle) Close()                { h.t.stopped.Do(h.t.stop) }

func (h toolHandle) Err() error {
	select {
	case <-h.t.end:
		return h.t.endErr
	default:
		return nil
	}
}

func (h toolHandle) Result(res *mcp.CallToolResult) {
	b, err := json.Marshal(res)
	if err != nil {
		return
	}
	t := h.t
	t.mu.Lock()
	t.result = b
	p := t.peer
	t.mu.Unlock()
	if p != nil {
		p.sendRaw(notifyFrame("ui/notifications/tool-result", b))
	}
}

func (h toolHandle) Cancelled(reason string) {
	t := h.t
	t.mu.Lock()
	t.cancelled = &reason
	p := t.peer
	t.mu.Unlock()
	if p != nil {
		p.sendRaw(notifyFrame("ui/notifications/tool-cancelled", mustJSON(map[string]any{"reason": reason})))
	}
}

// hostAskTimeout bounds how long the app may take to answer the host's
// request (the MCP Apps draft suggests 30 seconds for its tools).
const hostAskTimeout = 30 * time.Second

// ask sends the app a request of the host's and waits for its answer.
// Only an initialized app is asked, and tools/* only of an app that
// declared tools.
func (t *toolSession) ask(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	p := t.livePeer
	switch {
	case p == nil || !t.live:
		t.mu.Unlock()
		return nil, errors.New("the app has not initialized (yet)")
	case strings.HasPrefix(method, "tools/") && !t.appTools:
		t.mu.Unlock()
		return nil, mcpclient.ErrNoAppTools
	}
	t.askSeq++
	id := fmt.Sprintf("mcpeek-host-%d", t.askSeq)
	answer := make(chan rpc, 1)
	if t.asked == nil {
		t.asked = map[string]chan rpc{}
	}
	t.asked[id] = answer
	t.mu.Unlock()
	defer func() {
		t.mu.Lock()
		delete(t.asked, id)
		t.mu.Unlock()
	}()
	// Should the app begin again meanwhile, restarted fails this request
	// at once: the new app never answers for the old.
	p.sendRaw(append(append([]byte(`{"jsonrpc":"2.0","id":"`+id+`","method":"`+method+`","params":`), b...), '}'))
	ctx, cancel := context.WithTimeout(ctx, hostAskTimeout)
	defer cancel()
	select {
	case m := <-answer:
		if m.Error != nil {
			return nil, fmt.Errorf("the app answered %s with error %d: %s", method, m.Error.Code, clip(m.Error.Message, 300))
		}
		return m.Result, nil
	case <-t.end:
		return nil, errors.New("the app's session ended before it answered")
	case <-ctx.Done():
		return nil, fmt.Errorf("the app did not answer %s: %w", method, ctx.Err())
	}
}

// answered hands the app's response to the request of the host's that
// awaits it; false when none does.
func (t *toolSession) answered(m rpc) bool {
	var id string
	if json.Unmarshal(m.ID, &id) != nil {
		return false
	}
	t.mu.Lock()
	answer, ok := t.asked[id]
	delete(t.asked, id)
	t.mu.Unlock()
	if ok {
		answer <- m
	}
	return ok
}

// restarted is called when the app initializes (again): requests the
// app before it was asked will not be answered, and it is not live until
// it says initialized.
func (t *toolSession) restarted(appTools bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.live, t.appTools = false, appTools
	for id, answer := range t.asked {
		answer <- rpc{Error: &rpcError{Code: -32000, Message: "the app started again before it answered"}}
		delete(t.asked, id)
	}
}

func (h toolHandle) AppTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	for cursor, pages := "", 0; ; pages++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		raw, err := h.t.ask(ctx, "tools/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Tools      []*mcp.Tool `json:"tools"`
			NextCursor string      `json:"nextCursor"`
		}
		if err := json.Unmarshal(raw, &page); err != nil {
			return nil, fmt.Errorf("the app's tools/list result: %v", err)
		}
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" || pages >= 9 || len(tools) >= maxAppTools {
			if len(tools) > maxAppTools {
				tools = tools[:maxAppTools]
			}
			return tools, nil
		}
		cursor = page.NextCursor
	}
}

// maxAppTools bounds the app's own tools listed (the draft suggests
// hosts keep to 50).
const maxAppTools = 50

func (h toolHandle) CallAppTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	raw, err := h.t.ask(ctx, "tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("the app's tools/call result: %v", err)
	}
	return &res, nil
}

// SetTheme returns at once: the session's theme sender tells the app the
// latest theme, so that changes made in quick succession end with the
// last one, in the app as in the session.
func (h toolHandle) SetTheme(theme string) {
	t := h.t
	t.mu.Lock()
	t.theme = theme
	t.mu.Unlock()
	select {
	case t.themeKick <- struct{}{}:
	default: // a send is due already, and reads the latest theme
	}
}

// sendThemes tells the live app each theme change, until the session ends.
func (t *toolSession) sendThemes() {
	for {
		select {
		case <-t.themeKick:
		case <-t.end:
			return
		}
		t.mu.Lock()
		p, live, theme := t.livePeer, t.live, t.theme
		t.mu.Unlock()
		if p != nil && live {
			p.sendRaw(notifyFrame("ui/notifications/host-context-changed", mustJSON(map[string]any{"theme": theme})))
		}
	}
}

func notifyFrame(method string, params json.RawMessage) []byte {
	return append(append([]byte(`{"jsonrpc":"2.0","method":"`+method+`","params":`), params...), '}')
}

// OpenToolApp implements [mcpclient.ToolAppHost]: it opens a tab for the
// tool's app and runs its session in the background until the tab closes,
// the app asks to close, ctx ends or the session is closed.
func (h *Host) OpenToolApp(ctx context.Context, app *mcpclient.ToolApp) (mcpclient.ToolAppSession, error) {
	t := &toolSession{app: app, limiter: rate.NewLimiter(toolAppRate, toolAppRate), inflight: make(chan struct{}, maxToolAppInflight),
		end: make(chan struct{}), themeKick: make(chan struct{}, 1)}
	s, err := h.register(app.Request, t)
	if err != nil {
		return nil, err
	}
	t.url = h.BridgeOrigin() + "/e/" + s.key + "#" + s.token
	runCtx, stop := context.WithCancel(ctx)
	t.stop = stop
	go t.sendThemes()
	go func() {
		defer close(t.end)
		defer stop()
		_, err := s.serve(runCtx)
		if errors.Is(err, errTabClosed) || errors.Is(err, context.Canceled) && ctx.Err() == nil {
			err = nil // closed by the person or by mcpeek: the normal ends
		}
		t.endErr = err
		if err != nil {
			h.opts.Logf("app host: %s: the app session ended: %v", s.key, err)
		}
	}()
	return toolHandle{t}, nil
}

// serve runs a session from registration to its end: read the app while
// the tab opens, show the tab (its link, as the read allows), speak the
// protocol, clean up.
func (s *session) serve(ctx context.Context) (*mcpclient.AppAnswer, error) {
	h := s.h
	defer func() {
		h.mu.Lock()
		delete(h.sessions, s.key)
		h.mu.Unlock()
		close(s.done)
	}()
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer func() { <-s.loaded }()
	defer stopLoad()
	go s.load(loadCtx)
	defer s.removeLaunchFile()
	select {
	case <-s.loaded:
		if s.loadErr != nil {
			return nil, s.loadErr
		}
	case <-time.After(loadHead):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	h.show(s, s.link())
	return s.run(ctx)
}

var _ purpose = (*toolSession)(nil)

func (t *toolSession) heading(ctl *control, server string) {
	ctl.Title = server + ": " + toolName(t.app.Tool)
}

// initialize answers; requests the app had not answered before it began
// again fail first.
func (t *toolSession) initialize(p *peer, id json.RawMessage, version string, appCaps map[string]json.RawMessage) error {
	t.restarted(isObject(appCaps["tools"]))
	p.reply(id, p.initializeResult(version))
	return nil
}

// initialized hands a freshly initialized (or remounted) app the call's
// input, and its result or cancellation when there is one. The session is
// long-lived: no answer is awaited.
func (t *toolSession) initialized(p *peer, st *exchangeState) error {
	st.initTimer.Stop()
	args := t.app.Arguments
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	t.mu.Lock()
	t.live, t.livePeer = true, p // the host may ask it from now on
	t.mu.Unlock()
	p.status("The app of " + toolName(t.app.Tool) + ".")
	p.sendRaw(notifyFrame("ui/notifications/tool-input", append(append([]byte(`{"arguments":`), args...), '}')))
	t.mu.Lock()
	t.peer = p
	result, cancelled := t.result, t.cancelled
	t.mu.Unlock()
	switch {
	case result != nil:
		p.sendRaw(notifyFrame("ui/notifications/tool-result", result))
	case cancelled != nil:
		p.sendRaw(notifyFrame("ui/notifications/tool-cancelled", mustJSON(map[string]any{"reason": *cancelled})))
	}
	return nil
}

// response hands an answer to the request of the host's that awaits it.
func (t *toolSession) response(p *peer, m rpc, _ *exchangeState) (*mcpclient.AppAnswer, error) {
	if !t.answered(m) {
		p.s.h.opts.Logf("app host: %s: ignored a response to unknown id %s", p.s.key, m.ID)
	}
	return nil, nil
}

// toolsChanged tells the connection the app's own tools changed, within
// the app's rate.
func (t *toolSession) toolsChanged(p *peer, method string) {
	switch {
	case !p.ready:
		p.s.h.opts.Logf("app host: %s: ignored %s", p.s.key, method)
	case !t.limiter.Allow():
		p.s.h.opts.Logf("app host: %s: ignored %s: too many notifications", p.s.key, method)
	default:
		t.app.Peer.AppToolsChanged()
	}
}

// teardownRequested: an app that asks to close ends its session.
func (*toolSession) teardownRequested() error { return mcpclient.ErrAppClosed }

// tabClosed: the tab closing is a tool app's normal end.
func (*toolSession) tabClosed() error { return errTabClosed }

// capabilities are what mcpeek really serves a tool app.
func (*toolSession) capabilities() map[string]any {
	return map[string]any{
		"serverTools": map[string]any{}, "serverResources": map[string]any{}, "openLinks": map[string]any{},
		"logging": map[string]any{}, "message": map[string]any{"text": map[string]any{}},
		"updateModelContext": map[string]any{"text": map[string]any{}, "structuredContent": map[string]any{}},
	}
}

// context tells the app its tool, the person's locale and time zone, and
// the theme SetTheme last set.
func (t *toolSession) context(hostContext map[string]any) {
	t.mu.Lock()
	if t.theme != "" {
		hostContext["theme"] = t.theme
	}
	t.mu.Unlock()
	hostContext["toolInfo"] = map[string]any{"tool": t.app.Tool}
	hostContext["locale"] = hostLocale()
	hostContext["timeZone"] = hostTimeZone()
}

func toolName(t *mcp.Tool) string {
	if t == nil {
		return "the tool"
	}
	if t.Title != "" {
		return t.Title
	}
	return t.Name
}

// request answers what a tool app asks of its host. Whatever reaches
// the server or the person is bounded in rate, ui/message and
// ui/update-model-context included; what waits on them runs beside the
// exchange, bounded in number too. A refusal is a JSON-RPC error and a log
// line, and the session goes on.
func (t *toolSession) request(p *peer, m rpc) {
	s := p.s
	refuse := func(code int, format string, args ...any) {
		msg := fmt.Sprintf(format, args...)
		s.h.opts.Logf("app host: %s: refused %s: %s", s.key, clip(m.Method, 60), clip(msg, 200))
		p.refuse(m.ID, code, msg)
	}
	limited := func() bool { // what would reach the server or the person counts
		if t.limiter.Allow() {
			return false
		}
		refuse(-32000, "too many requests: at most %d a second", toolAppRate)
		return true
	}
	var work func(ctx context.Context) (any, error)
	switch m.Method {
	case "ping":
		p.reply(m.ID, map[string]any{})
		return
	case "tools/call":
		var params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if json.Unmarshal(m.Params, &params) != nil || params.Name == "" {
			refuse(-32602, "tools/call needs a tool name")
			return
		}
		work = func(ctx context.Context) (any, error) {
			return t.app.Peer.CallTool(ctx, params.Name, params.Arguments)
		}
	case "tools/list":
		work = func(ctx context.Context) (any, error) {
			tools, err := t.app.Peer.ListTools(ctx)
			return map[string]any{"tools": orEmpty(tools)}, err
		}
	case "resources/read":
		var params struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(m.Params, &params) != nil || params.URI == "" {
			refuse(-32602, "resources/read needs a uri")
			return
		}
		work = func(ctx context.Context) (any, error) { return t.app.Peer.ReadResource(ctx, params.URI) }
	case "resources/list":
		work = func(ctx context.Context) (any, error) {
			res, err := t.app.Peer.ListResources(ctx)
			return map[string]any{"resources": orEmpty(res)}, err
		}
	case "ui/open-link":
		var params struct {
			URL string `json:"url"`
		}
		_ = json.Unmarshal(m.Params, &params)
		if _, err := mcpclient.WebURL(params.URL); err != nil {
			refuse(-32602, "only http and https links are opened, not %q", clip(params.URL, 100))
			return
		}
		work = func(ctx context.Context) (any, error) {
			if err := t.app.Peer.OpenLink(ctx, params.URL); err != nil {
				return map[string]any{"isError": true}, nil
			}
			return map[string]any{}, nil
		}
	case "ui/message", "ui/update-model-context":
		if !isObject(m.Params) {
			refuse(-32602, "%s needs params", m.Method)
			return
		}
		if limited() { // answered at once, in order, but no faster than the rest
			return
		}
		t.app.Peer.Message(m.Method, m.Params)
		p.reply(m.ID, map[string]any{})
		return
	default:
		refuse(-32601, "method not found: %s", clip(m.Method, 60))
		return
	}
	if limited() {
		return
	}
	select {
	case t.inflight <- struct{}{}:
	default:
		refuse(-32000, "too many requests in flight: at most %d at once", maxToolAppInflight)
		return
	}
	go func() {
		defer func() { <-t.inflight }()
		res, err := work(p.ctx)
		if err != nil {
			refuse(-32603, "%s", strings.TrimSpace(err.Error()))
			return
		}
		p.reply(m.ID, res)
	}()
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// hostLocale is the person's locale as a BCP 47 tag, from the environment
// (LC_ALL, LC_MESSAGES, LANG: "de_DE.UTF-8" is "de-DE"); "en-US" when none
// says.
func hostLocale() string {
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		l := os.Getenv(v)
		l, _, _ = strings.Cut(l, ".")
		l, _, _ = strings.Cut(l, "@")
		if l != "" && l != "C" && l != "POSIX" {
			return strings.ReplaceAll(l, "_", "-")
		}
	}
	return "en-US"
}

// hostTimeZone is the local time zone's IANA name: $TZ, else the zone
// /etc/localtime links to, else UTC.
func hostTimeZone() string {
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" && !strings.HasPrefix(tz, "/") {
		return tz
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(target, "zoneinfo/"); ok && name != "" {
			return name
		}
	}
	if name := time.Local.String(); name != "Local" && name != "" {
		return name
	}
	return "UTC"
}

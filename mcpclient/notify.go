//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Event is something a server told mcpeek: a log message, progress of a
// request, a changed resource or list. [Config.OnEvent] receives them.
type Event interface{ event() }

// AuthPrompter is implemented by an asker that can show the person a step
// of an OAuth login (the URL to open) and take the redirect URL they paste
// when their browser cannot reach mcpeek's callback. Whoever builds the
// connection hands them to the authorizer.
type AuthPrompter interface {
	ShowAuth(text string)
	PasteAuth(ctx context.Context) (string, error)
}

// Listener is implemented by an asker that also wants the server's
// notifications; whoever builds the [Config] hands them to it through
// [Config.OnEvent].
type Listener interface{ OnEvent(Event) }

// LogEvent is a notifications/message.
type LogEvent struct {
	Time   time.Time
	Level  string
	Logger string
	// Data is the message's data as JSON, cut to [MaxLogData] bytes
	// (Cut says so).
	Data json.RawMessage
	Cut  int // the data's full length when it was cut, else 0
}

// ProgressEvent is a notifications/progress for a request mcpeek made.
type ProgressEvent struct {
	Time     time.Time
	Token    string
	Progress float64
	Total    float64 // 0: unknown
	Message  string
}

// ResourceUpdatedEvent is a notifications/resources/updated.
type ResourceUpdatedEvent struct{ URI string }

// ListChangedEvent is a notifications/{tools,resources,prompts}/list_changed;
// List is "tools", "resources" or "prompts".
type ListChangedEvent struct{ List string }

func (LogEvent) event()             {}
func (ProgressEvent) event()        {}
func (ResourceUpdatedEvent) event() {}
func (ListChangedEvent) event()     {}

// MaxLogData is the most of one log message's data an event carries.
const MaxLogData = 64 << 10

// LogLevels are the logging levels, least severe first.
var LogLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// CheckLogLevel reports whether level is a logging level.
func CheckLogLevel(level string) error {
	if slices.Contains(LogLevels, level) {
		return nil
	}
	return fmt.Errorf("unknown log level %q (want %s)", level, strings.Join(LogLevels, ", "))
}

// notifier turns the SDK's notification callbacks into events.
type notifier struct {
	conn *Conn

	mu       sync.Mutex
	progress map[string]func(ProgressEvent) // by token, for calls in flight
	next     int
}

// emit hands an event to OnEvent, with the secrets the connection knows
// redacted from what the server said in it.
func (n *notifier) emit(e Event) {
	if n.conn.cfg.OnEvent != nil {
		n.conn.cfg.OnEvent(redactEvent(n.conn.Secrets(), e))
	}
}

// redactEvent is e with the secrets redacted from the server's words.
func redactEvent(s *Secrets, e Event) Event {
	if !s.known() {
		return e
	}
	switch ev := e.(type) {
	case LogEvent:
		ev.Logger, ev.Data = s.Redact(ev.Logger), json.RawMessage(s.Redact(string(ev.Data)))
		return ev
	case ProgressEvent:
		ev.Message = s.Redact(ev.Message)
		return ev
	case TaskEvent:
		ev.StatusMessage = s.Redact(ev.StatusMessage)
		return ev
	case ResourceUpdatedEvent:
		ev.URI = s.Redact(ev.URI)
		return ev
	}
	return e
}

// options installs the notification handlers on the client's options.
func (n *notifier) options(o *mcp.ClientOptions) {
	o.LoggingMessageHandler = n.log
	o.ProgressNotificationHandler = n.onProgress
	o.ResourceUpdatedHandler = func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
		if r.Params != nil {
			n.emit(ResourceUpdatedEvent{URI: r.Params.URI})
		}
	}
	if n.conn.cfg.IgnoreListChanges {
		return // go-sdk subscribes to the lists it has a handler for
	}
	o.ToolListChangedHandler = func(context.Context, *mcp.ToolListChangedRequest) {
		n.conn.toolsMu.Lock()
		n.conn.taskSupport, n.conn.toolList = nil, nil // listed again when next asked
		n.conn.toolsGen++
		n.conn.toolsMu.Unlock()
		n.emit(ListChangedEvent{List: "tools"})
	}
	o.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) {
		n.emit(ListChangedEvent{List: "resources"})
	}
	o.PromptListChangedHandler = func(context.Context, *mcp.PromptListChangedRequest) { n.emit(ListChangedEvent{List: "prompts"}) }
}

func (n *notifier) log(_ context.Context, r *mcp.LoggingMessageRequest) {
	defer n.conn.logs.shown()
	if r.Params == nil {
		return
	}
	e := LogEvent{Time: time.Now(), Level: string(r.Params.Level), Logger: r.Params.Logger}
	data, err := json.Marshal(r.Params.Data)
	if err != nil {
		data, _ = json.Marshal(fmt.Sprint(r.Params.Data))
	}
	// Redacted before it is cut: a cut secret, or one escaped again as the
	// cut text is, would no longer be found.
	if secrets := n.conn.Secrets(); secrets.known() {
		data = json.RawMessage(secrets.Redact(string(data)))
	}
	if len(data) > MaxLogData {
		e.Cut = len(data)
		data, _ = json.Marshal(textclean.Cut(string(data), MaxLogData, textclean.InBytes(), textclean.Marker("")))
	}
	e.Data = data
	n.emit(e)
}

func (n *notifier) onProgress(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
	if r.Params == nil {
		return
	}
	e := ProgressEvent{Time: time.Now(), Token: fmt.Sprint(r.Params.ProgressToken), Progress: r.Params.Progress,
		Total: r.Params.Total, Message: n.conn.cut(r.Params.Message, 500)}
	n.mu.Lock()
	f := n.progress[e.Token]
	n.mu.Unlock()
	if f != nil {
		f(e)
	}
	n.emit(e)
}

// track gives a call a progress token and routes its progress to f (which
// may be nil); the returned func stops it.
func (n *notifier) track(f func(ProgressEvent)) (string, func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.next++
	token := fmt.Sprintf("mcpeek-%d", n.next)
	if f != nil {
		if n.progress == nil {
			n.progress = map[string]func(ProgressEvent){}
		}
		n.progress[token] = f
	}
	return token, func() {
		n.mu.Lock()
		defer n.mu.Unlock()
		delete(n.progress, token)
	}
}

// SetLogLevel asks the server to send log messages at level and above:
// with logging/setLevel before 2026-07-28; from then on the level travels
// in each call's _meta (io.modelcontextprotocol/logLevel), for the
// protocol keeps no session state.
func (c *Conn) SetLogLevel(ctx context.Context, level string) error {
	if err := CheckLogLevel(level); err != nil {
		return err
	}
	if c.ProtocolVersion() < ProtocolModern {
		ctx, done := c.bind(ctx)
		defer done()
		if err := c.session.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: mcp.LoggingLevel(level)}); err != nil {
			return err
		}
	}
	c.logLevel.Store(&level)
	return nil
}

// LogLevel is the level last set, or "" when none was.
func (c *Conn) LogLevel() string {
	if l := c.logLevel.Load(); l != nil {
		return *l
	}
	return ""
}

// withLogLevel carries the log level in a modern-era request's _meta.
func (c *Conn) withLogLevel(p *mcp.CallToolParams) {
	if level := c.LogLevel(); level != "" && c.ProtocolVersion() >= ProtocolModern {
		if p.Meta == nil {
			p.Meta = mcp.Meta{}
		}
		p.Meta[mcp.MetaKeyLogLevel] = level
	}
}

// RootURI turns a --root argument into a root URI: a file:// URI stays as
// it is; a path becomes the file:// URI of its absolute form. Roots are
// file:// URIs by the specification (servers refuse others), so any other
// URI is an error.
func RootURI(arg string) (string, error) {
	if arg == "" {
		return "", fmt.Errorf("empty root")
	}
	if u, err := url.Parse(arg); err == nil && len(u.Scheme) > 1 && strings.Contains(arg, "://") {
		switch {
		case !strings.EqualFold(u.Scheme, "file"):
			return "", fmt.Errorf("root %q is not a file:// URI (roots are files and folders)", arg)
		case u.Path == "" || u.Path == "/" && u.Host == "":
			return "", fmt.Errorf("root %q has no path", arg)
		}
		return arg, nil
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", fmt.Errorf("root %q: %w", arg, err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(), nil
}

// Roots lists the roots mcpeek offers the server, by URI, as the server
// receives them.
func (c *Conn) Roots() []*mcp.Root {
	c.rootsMu.Lock()
	defer c.rootsMu.Unlock()
	roots := slices.Clone(c.roots)
	slices.SortFunc(roots, func(a, b *mcp.Root) int { return strings.Compare(a.URI, b.URI) })
	return roots
}

// AddRoot offers one more root (a URI); the server is told the list
// changed. Adding a root already offered changes nothing.
func (c *Conn) AddRoot(uri, name string) {
	c.rootsMu.Lock()
	for _, r := range c.roots {
		if r.URI == uri {
			c.rootsMu.Unlock()
			return
		}
	}
	root := &mcp.Root{URI: uri, Name: name}
	c.roots = append(c.roots, root)
	c.rootsMu.Unlock()
	c.client.AddRoots(root)
}

// RemoveRoot stops offering a root; the server is told the list changed.
func (c *Conn) RemoveRoot(uri string) {
	c.rootsMu.Lock()
	c.roots = slices.DeleteFunc(c.roots, func(r *mcp.Root) bool { return r.URI == uri })
	c.rootsMu.Unlock()
	c.client.RemoveRoots(uri)
}

// rootsMiddleware records each roots/list request of the legacy era (the
// modern era's arrive inside results: see observe).
func (c *Conn) rootsMiddleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if method == "roots/list" {
			c.recordRoots(err)
		}
		return res, err
	}
}

// observe looks at each received message for the roots/list input
// requests of a 2026-07-28 result, which the SDK answers from the roots
// without a handler mcpeek could wrap, and for tools' input schemas as
// written.
func (c *Conn) observe(data []byte) {
	c.toolSchemas.note(data)
	c.listed.note(data)
	if c.listedVersions.Load() == nil && strings.Contains(string(data), `"supportedVersions"`) {
		c.noteDiscover(data)
	}
	if strings.Contains(string(data), `"notifications/message"`) {
		c.logs.read(data)
	}
	if strings.Contains(string(data), `"notifications/subscriptions/acknowledged"`) {
		c.acks.heard(data)
		return
	}
	if !strings.Contains(string(data), `"roots/list"`) {
		return
	}
	var m struct {
		Result struct {
			InputRequests map[string]struct {
				Method string `json:"method"`
			} `json:"inputRequests"`
		} `json:"result"`
	}
	if json.Unmarshal(data, &m) != nil {
		return
	}
	for _, ir := range m.Result.InputRequests {
		if ir.Method == "roots/list" {
			c.recordRoots(nil)
		}
	}
}

// logCount counts the log messages of a connection: those read off the
// wire (as the wire log has them) and those handed to OnEvent.
type logCount struct {
	onWire, handed atomic.Int64
	heard          chan struct{} // a token once one more is handed on
}

// read counts a received message when it is a log message.
func (l *logCount) read(data []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(data, &m) == nil && m.ID == nil && m.Method == "notifications/message" {
		l.onWire.Add(1)
	}
}

func (l *logCount) shown() {
	l.handed.Add(1)
	select {
	case l.heard <- struct{}{}:
	default:
	}
}

// DrainLogs lets the log messages a server sends just after an answer
// reach [Config.OnEvent] before a run ends: they may come on another
// stream than the answer (an HTTP server's standalone stream), or be read
// but not yet handed on. It waits window, then until every log message
// read off the wire has been handed on, for at most window again, or until
// ctx ends. A connection whose server does not log returns at once.
func (c *Conn) DrainLogs(ctx context.Context, window time.Duration) {
	if c.ServerCapabilities().Logging == nil && c.logs.onWire.Load() == 0 {
		return
	}
	timer := time.NewTimer(window)
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
		return
	}
	timer.Reset(window)
	for c.logs.onWire.Load() > c.logs.handed.Load() {
		select {
		case <-c.logs.heard:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (c *Conn) recordRoots(err error) {
	roots := c.Roots()
	if roots == nil {
		roots = []*mcp.Root{}
	}
	rec := Record{
		Key:        fmt.Sprintf("r-%d", c.router.next.Add(1)),
		Kind:       KindRoots,
		Server:     c.ServerName(),
		Era:        c.ProtocolVersion(),
		Path:       PathAuto,
		Action:     "answered",
		ReceivedAt: time.Now(),
		Message:    fmt.Sprintf("listed %d roots", len(roots)),
	}
	if len(roots) == 0 {
		rec.Message = "listed no roots (none are configured)"
	}
	if err != nil {
		rec.Action, rec.Error = "error", err.Error()
	} else {
		rec.Response, _ = json.Marshal(map[string]any{"roots": roots})
	}
	c.records.settle(rec)
}

// MaxCompletions is the most completion values mcpeek keeps of one answer.
const MaxCompletions = 100

// Completion is a server's answer to completion/complete, bounded.
type Completion struct {
	Values []string `json:"values"`
	// Total is the number of values the server says there are (0: it did
	// not say); HasMore that there are more than it sent.
	Total   int  `json:"total,omitempty"`
	HasMore bool `json:"hasMore,omitempty"`
	// Dropped is how many values the server sent beyond MaxCompletions.
	Dropped int `json:"dropped,omitempty"`
}

// Complete asks the server for the values of an argument of a prompt
// (ref/prompt) or a variable of a resource template (ref/resource), given
// the values of the others. At most MaxCompletions values are kept.
func (c *Conn) Complete(ctx context.Context, ref *mcp.CompleteReference, arg mcp.CompleteParamsArgument, given map[string]string) (*Completion, error) {
	if c.ServerCapabilities().Completions == nil {
		return nil, fmt.Errorf("the server does not offer completions")
	}
	ctx, done := c.bind(ctx)
	defer done()
	p := &mcp.CompleteParams{Ref: ref, Argument: arg}
	if len(given) > 0 {
		p.Context = &mcp.CompleteContext{Arguments: given}
	}
	res, err := c.session.Complete(ctx, p)
	if err != nil {
		return nil, err
	}
	out := &Completion{Values: res.Completion.Values, Total: res.Completion.Total, HasMore: res.Completion.HasMore}
	if out.Values == nil {
		out.Values = []string{}
	}
	if n := len(out.Values); n > MaxCompletions {
		out.Dropped = n - MaxCompletions
		out.Values = slices.Clone(out.Values[:MaxCompletions])
	}
	return out, nil
}

// Subscribe asks the server for notifications/resources/updated about uri.
func (c *Conn) Subscribe(ctx context.Context, uri string) error {
	if r := c.ServerCapabilities().Resources; r == nil || !r.Subscribe {
		return fmt.Errorf("the server does not offer resource subscriptions")
	}
	ctx, done := c.bind(ctx)
	defer done()
	if c.ProtocolVersion() < ProtocolModern {
		return c.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
	}
	// In the 2026-07-28 era the SDK returns once subscriptions/listen is
	// sent; the subscription holds once the server acknowledges it, and a
	// call made before could change the resource unseen.
	acked := c.acks.expect(uri)
	if err := c.session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		return err
	}
	select {
	case <-acked:
	case <-time.After(subscribeAckWait):
		c.wire.Note(fmt.Sprintf("subscribing to %s: the server did not acknowledge it within %s", uri, subscribeAckWait))
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// subscribeAckWait bounds the wait for a subscription's acknowledgement.
const subscribeAckWait = 5 * time.Second

// subscriptionAcks tells a Subscribe when the server acknowledged its
// resource (notifications/subscriptions/acknowledged).
type subscriptionAcks struct {
	mu      sync.Mutex
	waiting map[string]chan struct{}
}

// expect is closed once uri is acknowledged.
func (a *subscriptionAcks) expect(uri string) <-chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.waiting == nil {
		a.waiting = map[string]chan struct{}{}
	}
	ch, ok := a.waiting[uri]
	if !ok {
		ch = make(chan struct{})
		a.waiting[uri] = ch
	}
	return ch
}

// heard takes in an acknowledgement.
func (a *subscriptionAcks) heard(data []byte) {
	var m struct {
		Params struct {
			Notifications struct {
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			} `json:"notifications"`
		} `json:"params"`
	}
	if json.Unmarshal(data, &m) != nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, uri := range m.Params.Notifications.ResourceSubscriptions {
		if ch, ok := a.waiting[uri]; ok {
			close(ch)
			delete(a.waiting, uri)
		}
	}
}

// Unsubscribe stops the notifications Subscribe asked for.
func (c *Conn) Unsubscribe(ctx context.Context, uri string) error {
	ctx, done := c.bind(ctx)
	defer done()
	return c.session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})
}

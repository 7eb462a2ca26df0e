package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FallbackReason is why a form elicitation was not rendered by the server's
// app. The set is closed.
type FallbackReason string

// Fallback reasons, in the order the router meets them
// (docs/architecture.md, "Fallback reasons").
const (
	FallbackNone                FallbackReason = ""
	FallbackFormDisabled        FallbackReason = "form_disabled"
	FallbackAppHostOff          FallbackReason = "app_host_off"
	FallbackServerNotNegotiated FallbackReason = "server_not_negotiated"
	FallbackNoResourceURI       FallbackReason = "no_resource_uri"
	FallbackInvalidResourceURI  FallbackReason = "invalid_resource_uri"
	FallbackResourceReadFailed  FallbackReason = "resource_read_failed"
	FallbackResourceNotHTML     FallbackReason = "resource_not_html"
	FallbackBridgeUnavailable   FallbackReason = "bridge_unavailable"
	FallbackInitTimeout         FallbackReason = "init_timeout"
	FallbackAppNoElicitation    FallbackReason = "app_no_elicitation"
	FallbackBridgeClosed        FallbackReason = "bridge_closed"
	FallbackAnswerTimeout       FallbackReason = "answer_timeout"
	FallbackInvalidResult       FallbackReason = "invalid_result"
	FallbackSchemaMismatch      FallbackReason = "schema_mismatch"
	// FallbackChoseNative: the person left the app for the native form.
	FallbackChoseNative FallbackReason = "chose_native"
)

// Describe words the reason for a person.
func (r FallbackReason) Describe() string {
	switch r {
	case FallbackNone:
		return ""
	case FallbackFormDisabled:
		return "form elicitation is disabled in mcpeek"
	case FallbackAppHostOff:
		return "the app host is off (start mcpeek with --app-host)"
	case FallbackServerNotNegotiated:
		return "the server did not negotiate app-rendered elicitation"
	case FallbackNoResourceURI:
		return "the request names no app (no _meta.ui.resourceUri)"
	case FallbackInvalidResourceURI:
		return "the request's app URI is not an absolute ui:// URI"
	case FallbackResourceReadFailed:
		return "the app resource could not be read from the server"
	case FallbackResourceNotHTML:
		return "the app resource is not HTML"
	case FallbackBridgeUnavailable:
		return "the browser bridge is unavailable"
	case FallbackInitTimeout:
		return "the app did not initialize in time"
	case FallbackAppNoElicitation:
		return "the app did not declare elicitation support"
	case FallbackBridgeClosed:
		return "the app's session ended before it answered"
	case FallbackAnswerTimeout:
		return "the app did not answer in time"
	case FallbackInvalidResult:
		return "the app answered with an invalid result"
	case FallbackSchemaMismatch:
		return "the app's answer does not match the requested schema"
	case FallbackChoseNative:
		return "you chose to answer here instead of in the app"
	}
	return string(r)
}

// NativeRequest is an elicitation handed to the native asker.
type NativeRequest struct {
	// Key identifies the request on its connection ("e-3").
	Key string
	// Server is the server's self-description; Connection is how mcpeek
	// reached it (a command line or a URL). Both are shown to the person.
	Server     *mcp.Implementation
	Connection string
	// Params are the request's parameters as the SDK decoded them.
	Params *mcp.ElicitParams
	// RawParams are the same parameters as the server wrote them: every
	// member, in the server's order, mode omitted if it was.
	RawParams json.RawMessage
	// Schema is the parsed requested schema (form mode only).
	Schema *formschema.Schema
	// Fallback says why the app did not render it, if it could have.
	Fallback FallbackReason
	// Refused names the call ("tools/call NAME") that the server refused
	// until the person opens the page (URLElicitationRequiredError,
	// -32042): the page is a step before calling again, not a question the
	// server waits on. "" for an elicitation the server sent.
	Refused string
}

// ResourceURI returns the request's _meta.ui.resourceUri when it is a string.
func (r *NativeRequest) ResourceURI() string {
	s, _ := resourceURIValue(r.Params)
	return s
}

// NativeAsker answers elicitations without the app: a terminal form, or
// headless answers. It must return when ctx is done.
type NativeAsker interface {
	Ask(ctx context.Context, req *NativeRequest) (*mcp.ElicitResult, error)
}

// router is the one elicitation handler of a connection, whichever era
// carried the request.
type router struct {
	conn     *Conn
	asker    NativeAsker
	sampler  Sampler
	renderer AppRenderer
	next     atomic.Int64
	standIn  atomic.Pointer[standIn] // answers in place of all three while set (standin.go)

	mu      sync.Mutex
	pending map[string]*pendingRequest
	closed  error           // set by cancelAll: why later requests are refused at once
	drained []chan struct{} // closed when no request is pending any more (whenDrained)
}

// pendingRequest is the request-scoped state of one elicitation in flight:
// there is no connection-wide "current" app or bridge.
type pendingRequest struct {
	key         string
	kind        string // KindElicitation or KindSampling
	message     string
	resourceURI string
	path        Path // where it is being answered now
	started     time.Time
	cancel      context.CancelCauseFunc
	// abandonApp ends the app session only, sending the request to the
	// native path; nil while it is not on the app path.
	abandonApp context.CancelCauseFunc
}

// Pending describes a request waiting for an answer.
type Pending struct {
	Key         string
	Kind        string // KindElicitation or KindSampling
	Message     string
	ResourceURI string
	Path        Path
	Since       time.Time
}

// errClosing answers elicitations that arrive while the connection closes.
var errClosing = errors.New("mcpeek is closing the connection")

// errDismissed is the cause when the person dismissed every pending
// request at once (quitting): each is answered cancel, not an error.
var errDismissed = errors.New("dismissed")

func (r *router) handle(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	// With the schema go-sdk was not given (ownschema.go,
	// ownschema_modern.go).
	return r.elicit(ctx, ownParams(receivedParams(ctx, req.Params)), nil, "")
}

// elicit answers one elicitation: raw are its params as the server wrote
// them (nil: as the wire tap kept them); refused names the call the server
// refused until the person opens the page (urlrequired.go), "" for a
// request the server sent.
func (r *router) elicit(ctx context.Context, p *mcp.ElicitParams, raw json.RawMessage, refused string) (*mcp.ElicitResult, error) {
	key := fmt.Sprintf("e-%d", r.next.Add(1))
	ctx, cancel := context.WithCancelCause(ctx)
	rec := Record{
		Key:        key,
		Kind:       KindElicitation,
		Server:     r.conn.ServerName(),
		Era:        r.conn.ProtocolVersion(),
		Mode:       p.Mode,
		ReceivedAt: time.Now(),
		Message:    p.Message,
	}
	if rec.Mode == "" {
		rec.Mode = "form"
	}
	rec.ResourceURI, _ = resourceURIValue(p)
	rec.TaskID = relatedTask(p.Meta)
	if raw == nil {
		raw = r.conn.wire.wireParams(p)
	}
	rec.Request = raw
	pr := &pendingRequest{key: key, kind: KindElicitation, message: p.Message, resourceURI: rec.ResourceURI, path: PathNative, started: rec.ReceivedAt, cancel: cancel}
	if !r.add(pr) {
		cancel(r.closedCause())
	}
	defer func() {
		cancel(nil)
		r.remove(key)
	}()

	res, err := r.route(ctx, pr, p, raw, refused, &rec)
	if err != nil && errors.Is(context.Cause(ctx), errDismissed) {
		res, err = &mcp.ElicitResult{Action: "cancel"}, nil
	}
	if err != nil && ctx.Err() != nil {
		if cause := context.Cause(ctx); !errors.Is(err, cause) {
			err = fmt.Errorf("%w: %w", cause, err)
		}
	}
	if err != nil {
		rec.Error = err.Error()
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			rec.Action = "cancel"
		}
	} else {
		rec.Action = res.Action
		rec.Response, _ = json.Marshal(res)
	}
	r.conn.records.settle(rec)
	return res, err
}

func (r *router) route(ctx context.Context, pr *pendingRequest, p *mcp.ElicitParams, raw json.RawMessage, refused string, rec *Record) (*mcp.ElicitResult, error) {
	nreq := &NativeRequest{
		Key:        pr.key,
		Server:     r.conn.ServerInfo(),
		Connection: r.conn.Target().String(),
		Params:     p,
		RawParams:  raw,
		Refused:    refused,
	}
	switch rec.Mode {
	case "url":
		rec.Path = PathURL
		r.setPath(pr, PathURL, nil)
		return r.ask(ctx, nreq)
	case "form":
	default:
		rec.Path = PathNative
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unsupported elicitation mode %q", rec.Mode)}
	}
	rec.Path = PathNative
	if !r.conn.caps.form() {
		rec.Fallback = FallbackFormDisabled
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "form elicitation is disabled in this client"}
	}
	// The wire's requested schema keeps the server's property order.
	var schema *formschema.Schema
	var err error
	if wireSchema := requestedSchema(raw); wireSchema != nil {
		schema, err = formschema.Parse(wireSchema)
	} else {
		schema, err = formschema.Parse(p.RequestedSchema)
	}
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, "requested schema") { // said once: formschema's may say it already
			msg = "requested schema: " + msg
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
	}
	nreq.Schema = schema
	if r.standing() != nil { // a stand-in answers from its script: no app opens
		r.setPath(pr, PathNative, nil)
		return r.ask(ctx, nreq)
	}
	reason, uri := AppGate(r.conn.caps.sent, r.conn.ServerCapabilities(), p)
	if reason == FallbackInvalidResourceURI {
		r.conn.wire.Note(fmt.Sprintf("%s: _meta.ui.resourceUri %s is not an absolute ui:// URI; rendering natively", pr.key, rawResourceURI(p)))
	}
	if reason == FallbackNone {
		var res *mcp.ElicitResult
		res, reason, err = r.viaApp(ctx, pr, uri, nreq, rec)
		if err != nil {
			return nil, err // cancelled: never a fallback
		}
		if reason == FallbackNone {
			rec.Path = PathApp
			return res, nil
		}
		r.conn.wire.Note(fmt.Sprintf("%s: rendering natively: %s", pr.key, reason.Describe()))
	}
	rec.Fallback = reason
	nreq.Fallback = reason
	r.setPath(pr, PathNative, nil)
	return r.ask(ctx, nreq)
}

// add makes a request pending; it reports false, and adds nothing, once
// the connection is closing.
func (r *router) add(pr *pendingRequest) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed != nil {
		return false
	}
	r.pending[pr.key] = pr
	return true
}

func (r *router) remove(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.pending, key)
	if len(r.pending) == 0 {
		for _, ch := range r.drained {
			close(ch)
		}
		r.drained = nil
	}
}

// whenDrained is closed once no request is pending.
func (r *router) whenDrained() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := make(chan struct{})
	if len(r.pending) == 0 {
		close(ch)
		return ch
	}
	r.drained = append(r.drained, ch)
	return ch
}

// closedCause is why requests are refused, once the connection is closing.
func (r *router) closedCause() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed
}

func (r *router) setPath(pr *pendingRequest, path Path, abandon context.CancelCauseFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	pr.path, pr.abandonApp = path, abandon
}

func (r *router) ask(ctx context.Context, nreq *NativeRequest) (*mcp.ElicitResult, error) {
	asker := r.asker
	if s := r.standing(); s != nil {
		asker = s.asker
	}
	if asker == nil {
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	res, err := asker.Ask(ctx, nreq)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("native asker returned no result")
	}
	return res, nil
}

// pendingList lists the elicitations in flight, oldest first.
func (r *router) pendingList() []Pending {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Pending, 0, len(r.pending))
	for _, pr := range r.pending {
		out = append(out, Pending{Key: pr.key, Kind: pr.kind, Message: pr.message, ResourceURI: pr.resourceURI, Path: pr.path, Since: pr.started})
	}
	slices.SortFunc(out, func(a, b Pending) int { return a.Since.Compare(b.Since) })
	return out
}

// abandonApp stops rendering a request in its app; the request goes on to
// the native path. It reports whether the request was on the app path.
func (r *router) abandonApp(key string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	pr, ok := r.pending[key]
	if !ok || pr.abandonApp == nil {
		return false
	}
	pr.abandonApp(errAbandoned)
	return true
}

// dismissAll answers every pending elicitation cancel, wherever it is
// being answered.
func (r *router) dismissAll() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, pr := range r.pending {
		pr.cancel(errDismissed)
	}
}

// cancelAll cancels every in-flight elicitation and refuses later ones,
// for the given reason.
func (r *router) cancelAll(cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed == nil {
		r.closed = cause
	}
	for _, pr := range r.pending {
		pr.cancel(cause)
	}
}

// AppGate applies the four app gates in order (docs/architecture.md, "The
// path of one elicitation") and returns the first failing one's reason
// (FallbackNone when all hold) and the resource URI when it is valid.
func AppGate(sent *mcp.ClientCapabilities, server *mcp.ServerCapabilities, p *mcp.ElicitParams) (FallbackReason, string) {
	if sent == nil || sent.Elicitation == nil || sent.Elicitation.Form == nil {
		return FallbackFormDisabled, ""
	}
	if !clientAdvertisesAppElicitation(sent) {
		return FallbackAppHostOff, ""
	}
	if server == nil || !hasObjectKey(server.Extensions[UIExtension], "elicitation") {
		return FallbackServerNotNegotiated, ""
	}
	v, present := resourceURIValue(p)
	if !present {
		return FallbackNoResourceURI, ""
	}
	if err := ValidateResourceURI(v); err != nil {
		return FallbackInvalidResourceURI, ""
	}
	return FallbackNone, v
}

func clientAdvertisesAppElicitation(c *mcp.ClientCapabilities) bool {
	ext := asObject(c.Extensions[UIExtension])
	if ext == nil || asObject(ext["elicitation"]) == nil {
		return false
	}
	switch mts := ext["mimeTypes"].(type) {
	case []string:
		for _, m := range mts {
			if m == AppMIMEType {
				return true
			}
		}
	case []any:
		for _, m := range mts {
			if m == AppMIMEType {
				return true
			}
		}
	}
	return false
}

func asObject(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func hasObjectKey(v any, key string) bool {
	m := asObject(v)
	return m != nil && asObject(m[key]) != nil
}

// resourceURIValue returns _meta.ui.resourceUri as a string, and whether the
// key was present at all (a present non-string yields "" and true, which
// ValidateResourceURI rejects).
func resourceURIValue(p *mcp.ElicitParams) (string, bool) {
	if p == nil || p.Meta == nil {
		return "", false
	}
	ui := asObject(p.Meta["ui"])
	if ui == nil {
		return "", false
	}
	v, ok := ui["resourceUri"]
	if !ok {
		return "", false
	}
	s, isString := v.(string)
	if !isString {
		// Present but not a string: invalid, and never valid by accident.
		return "", true
	}
	return s, true
}

// rawResourceURI renders _meta.ui.resourceUri as JSON, for the log.
func rawResourceURI(p *mcp.ElicitParams) string {
	ui := asObject(p.Meta["ui"])
	b, err := json.Marshal(ui["resourceUri"])
	if err != nil {
		return fmt.Sprintf("%v", ui["resourceUri"])
	}
	return string(b)
}

// ValidateResourceURI checks that s is an absolute ui:// URI with a
// non-empty host and no whitespace or control characters.
func ValidateResourceURI(s string) error {
	if s == "" {
		return errors.New("resource URI is empty")
	}
	// url.Parse lets control characters through in the fragment.
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return errors.New("resource URI contains whitespace or a control character")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fmt.Errorf("resource URI does not parse: %w", err)
	}
	if !u.IsAbs() {
		return errors.New("resource URI is relative")
	}
	if u.Scheme != "ui" {
		return fmt.Errorf("resource URI scheme is %q, not ui", u.Scheme)
	}
	if u.Opaque != "" || u.Hostname() == "" { // "ui://:80" has a port but no host
		return errors.New("resource URI has no host")
	}
	return nil
}

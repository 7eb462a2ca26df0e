package mcpclient

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"time"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// AppRequest is what an [AppRenderer] needs to render one form elicitation
// in the server's own MCP App.
type AppRequest struct {
	// Connection and Server identify where the request came from, to show
	// the person; Key identifies the request on that connection.
	Connection string
	Server     *mcp.Implementation
	Key        string
	// ResourceURI names the app.
	ResourceURI string
	// Load reads the app from the originating session. The renderer calls
	// it once, while it opens the tab, so that the two overlap, and returns
	// only after Load has; an [*AppError] from it names the reason to fall
	// back. When Load is nil the app is given by the fields below.
	Load func(ctx context.Context) (*AppContent, error)
	// HTML, MIMEType, CSP and Permissions are the app when Load is nil.
	HTML        string
	MIMEType    string
	CSP         map[string]any
	Permissions map[string]any
	// Params is the request as the SDK decoded it, for the renderer to show
	// (its message); RawParams is the same request as the server wrote it,
	// which the renderer forwards to the app as they are (every member, in
	// the server's order; only whitespace between tokens may differ).
	Params    *mcp.ElicitParams
	RawParams json.RawMessage
}

// AppContent is an app as read from the server.
type AppContent struct {
	// HTML is the app's document, with its MIME type.
	HTML     string
	MIMEType string
	// CSP is the resource's _meta.ui.csp (nil when it declares none).
	CSP map[string]any
	// Permissions is the resource's _meta.ui.permissions (camera,
	// microphone, geolocation, clipboardWrite), nil when it declares none.
	Permissions map[string]any
}

// Content returns the app: read through Load, or the fields given.
func (r *AppRequest) Content(ctx context.Context) (*AppContent, error) {
	if r.Load != nil {
		return r.Load(ctx)
	}
	return &AppContent{HTML: r.HTML, MIMEType: r.MIMEType, CSP: r.CSP, Permissions: r.Permissions}, nil
}

// AppAnswer is what the app answered.
type AppAnswer struct {
	// Result is the app's ElicitResult, raw, for the router to check.
	Result json.RawMessage
	// InitTime is how long the app took to initialize.
	InitTime time.Duration
}

// AppRenderer renders a form elicitation in its app and returns the app's
// answer. It tears its session down before it returns. When ctx ends it
// returns ctx's error promptly; any other failure should be an
// [*AppError] naming the fallback reason.
type AppRenderer interface {
	Render(ctx context.Context, req *AppRequest) (*AppAnswer, error)
}

// AppError is a renderer failure that sends the request to the native form.
type AppError struct {
	Reason FallbackReason
	Err    error
}

func (e *AppError) Error() string {
	if e.Err == nil {
		return e.Reason.Describe()
	}
	return fmt.Sprintf("%s: %v", e.Reason.Describe(), e.Err)
}

func (e *AppError) Unwrap() error { return e.Err }

// errAbandoned is the cause when the person leaves the app for the native form.
var errAbandoned = errors.New("the app was abandoned for the native form")

// viaApp takes a request down the app path. It returns the result, or the
// reason to fall back, or an error when the request itself was cancelled,
// which is never a reason to fall back.
func (r *router) viaApp(ctx context.Context, pr *pendingRequest, uri string, nreq *NativeRequest, rec *Record) (*mcp.ElicitResult, FallbackReason, error) {
	schema := nreq.Schema
	if r.renderer == nil {
		return nil, FallbackBridgeUnavailable, nil
	}
	appCtx, abandon := context.WithCancelCause(ctx)
	defer abandon(nil)
	r.setPath(pr, PathApp, abandon)
	defer r.setPath(pr, PathNative, nil)

	var loadFailed FallbackReason // set by Load before the renderer returns
	areq := &AppRequest{
		Connection:  r.conn.Target().String(),
		Server:      r.conn.ServerInfo(),
		Key:         pr.key,
		ResourceURI: uri,
		Params:      nreq.Params,
		RawParams:   nreq.RawParams,
		Load: func(ctx context.Context) (*AppContent, error) {
			content, reason, err := r.loadApp(ctx, pr.key, uri)
			switch {
			case err != nil:
				return nil, err
			case reason != FallbackNone:
				loadFailed = reason
				return nil, &AppError{Reason: reason}
			}
			return content, nil
		},
	}
	ans, err := r.renderer.Render(appCtx, areq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, FallbackNone, ctx.Err()
		}
		if errors.Is(context.Cause(appCtx), errAbandoned) {
			return nil, FallbackChoseNative, nil
		}
		if loadFailed != FallbackNone { // loadApp has noted why
			return nil, loadFailed, nil
		}
		var ae *AppError
		if errors.As(err, &ae) {
			r.conn.wire.Note(fmt.Sprintf("%s: app %s: %v", pr.key, uri, err))
			return nil, ae.Reason, nil
		}
		r.conn.wire.Note(fmt.Sprintf("%s: app %s: %v", pr.key, uri, err))
		return nil, FallbackBridgeUnavailable, nil
	}
	if ans == nil {
		return nil, FallbackInvalidResult, nil
	}
	rec.AppInitMs = ans.InitTime.Milliseconds()
	res, reason := CheckAppResult(ans.Result, schema)
	if reason != FallbackNone {
		r.conn.wire.Note(fmt.Sprintf("%s: app %s answered %s: %s", pr.key, uri, textclean.Cut(string(ans.Result), 200, textclean.InBytes()), reason.Describe()))
	}
	return res, reason, nil
}

// loadApp reads the app resource from the originating session and checks
// that it is HTML.
func (r *router) loadApp(ctx context.Context, key, uri string) (*AppContent, FallbackReason, error) {
	res, err := r.conn.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || res == nil || len(res.Contents) == 0 {
		if ctx.Err() != nil {
			return nil, FallbackNone, ctx.Err()
		}
		if err == nil {
			err = errors.New("no contents")
		}
		r.conn.wire.Note(fmt.Sprintf("%s: resources/read %s: %v", key, uri, err))
		return nil, FallbackResourceReadFailed, nil
	}
	content, ui, reason, note := appContent(res, uri)
	switch {
	case reason != FallbackNone:
		r.conn.wire.Note(fmt.Sprintf("%s: %s", key, note))
		return nil, reason, nil
	case note != "":
		r.conn.wire.Note(fmt.Sprintf("warning: %s: %s", key, note))
	}
	if ui["csp"] == nil && ui["permissions"] == nil {
		ui = r.listedUIMeta(ctx, uri)
		content.CSP, content.Permissions = asObject(ui["csp"]), asObject(ui["permissions"])
	}
	return content, FallbackNone, nil
}

// AppContentOf is the app a resources/read result holds for uri (its
// item of that URI, else its first): FallbackResourceNotHTML when it is
// not HTML, and a note to log (why it is not, or a warning that it is
// plain text/html rather than an MCP App's type).
func AppContentOf(res *mcp.ReadResourceResult, uri string) (*AppContent, FallbackReason, string) {
	if res == nil || len(res.Contents) == 0 {
		return nil, FallbackResourceReadFailed, "no contents"
	}
	content, _, reason, note := appContent(res, uri)
	return content, reason, note
}

// appContent is AppContentOf, with the item's _meta.ui.
func appContent(res *mcp.ReadResourceResult, uri string) (*AppContent, map[string]any, FallbackReason, string) {
	item := res.Contents[0]
	for _, c := range res.Contents {
		if c != nil && c.URI == uri {
			item = c
			break
		}
	}
	var note string
	mediaType, params, err := mime.ParseMediaType(item.MIMEType)
	switch {
	case err != nil || mediaType != "text/html":
		return nil, nil, FallbackResourceNotHTML, fmt.Sprintf("%s is %q, not HTML", uri, item.MIMEType)
	case params["profile"] != "mcp-app":
		note = fmt.Sprintf("%s is served as %q rather than %q; rendering it anyway", uri, item.MIMEType, AppMIMEType)
	}
	html := item.Text
	if html == "" && len(item.Blob) > 0 {
		if decoded, err := base64.StdEncoding.DecodeString(string(item.Blob)); err == nil {
			html = string(decoded)
		} else {
			html = string(item.Blob)
		}
	}
	ui := asObject(item.Meta["ui"])
	return &AppContent{
		HTML:        html,
		MIMEType:    item.MIMEType,
		CSP:         asObject(ui["csp"]),
		Permissions: asObject(ui["permissions"]),
	}, ui, FallbackNone, note
}

// listedUIMeta is the _meta.ui of the resource as resources/list shows it,
// used when the content item declares neither csp nor permissions.
func (r *router) listedUIMeta(ctx context.Context, uri string) map[string]any {
	for res, err := range r.conn.session.Resources(ctx, nil) {
		if err != nil {
			return nil
		}
		if res.URI == uri {
			return asObject(res.Meta["ui"])
		}
	}
	return nil
}

// CheckAppResult checks an app's raw ElicitResult: a known action, and
// for accept, object content that passes the requested schema, formats
// included. FallbackInvalidResult or FallbackSchemaMismatch say why not.
func CheckAppResult(raw json.RawMessage, schema *formschema.Schema) (*mcp.ElicitResult, FallbackReason) {
	var res struct {
		Action  *string         `json:"action"`
		Content json.RawMessage `json:"content"`
		Meta    mcp.Meta        `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &res); err != nil || res.Action == nil {
		return nil, FallbackInvalidResult
	}
	switch *res.Action {
	case "decline", "cancel":
		return &mcp.ElicitResult{Action: *res.Action, Meta: res.Meta}, FallbackNone
	case "accept":
	default:
		return nil, FallbackInvalidResult
	}
	var content map[string]any
	if c := bytes.TrimSpace(res.Content); len(c) == 0 || c[0] != '{' || json.Unmarshal(c, &content) != nil {
		return nil, FallbackInvalidResult
	}
	if errs := schema.Validate(content); len(errs) > 0 {
		return nil, FallbackSchemaMismatch
	}
	return &mcp.ElicitResult{Action: "accept", Content: content, Meta: res.Meta}, FallbackNone
}

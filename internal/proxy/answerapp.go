package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// --answer --app-host: the proxy claims app-rendered elicitation for a
// host it answers for, and renders a question that names an app (its
// _meta.ui.resourceUri, a ui:// URI) in that app, in the browser. The
// app is read from the server by a resources/read of the proxy's own,
// whose answer never reaches the host; any failure falls back to the
// next asker (docs/architecture.md, "Answering for the host").

// appsAsker names the app host in what the proxy says.
const appsAsker = "the server's app (--app-host)"

// uiAdvertised is the MCP Apps extension the proxy adds with --app-host:
// apps of the MCP Apps type, and app-rendered elicitation.
var uiAdvertised = json.RawMessage(`{"mimeTypes":["` + mcpclient.AppMIMEType + `"],"elicitation":{}}`)

// withApps is msg with app-rendered elicitation added to the client
// capabilities at path, unless the proxy has no app host or they claim
// it already; the capabilities' other bytes stay as they were.
func (a *answerer) withApps(msg []byte, path ...string) []byte {
	caps := getPath(msg, path...)
	if a.opts.Apps == nil || caps == nil {
		return msg
	}
	ui := getPath(caps, "extensions", mcpclient.UIExtension)
	var claimed struct {
		MIMETypes   []string        `json:"mimeTypes"`
		Elicitation json.RawMessage `json:"elicitation"`
	}
	_ = json.Unmarshal(ui, &claimed)
	shows := slices.Contains(claimed.MIMETypes, mcpclient.AppMIMEType)
	if shows && bytes.HasPrefix(bytes.TrimSpace(claimed.Elicitation), []byte("{")) {
		return msg // the host renders apps' elicitations itself
	}
	var out []byte
	var err error
	switch {
	case shows: // the host shows apps, not their questions: add those
		out, err = setPath(msg, append(slices.Clone(path), "extensions", mcpclient.UIExtension, "elicitation"), []byte("{}"))
	case hasMember(caps, "extensions"):
		out, err = setPath(msg, append(slices.Clone(path), "extensions", mcpclient.UIExtension), uiAdvertised)
	default:
		out, err = setPath(msg, append(slices.Clone(path), "extensions"), []byte(`{"`+mcpclient.UIExtension+`":`+string(uiAdvertised)+`}`))
	}
	if err != nil {
		return msg
	}
	if a.appsNoted.CompareAndSwap(false, true) {
		a.opts.report("--app-host: the proxy advertises app-rendered elicitation (" + mcpclient.UIExtension + ") to the server too, and answers a question that names an app in that app, in the browser")
	}
	return out
}

// serverReads is how an asker of the proxy's reaches the server while it
// answers one question: send sends a request of the proxy's and returns
// its answer, meta is the _meta a 2026-07-28 request carries (nil: a
// 2025-11-25 session's requests carry none).
type serverReads struct {
	send sendFunc
	meta json.RawMessage
}

type readsKey struct{}

// withReads is ctx carrying how to reach the server.
func withReads(ctx context.Context, r serverReads) context.Context {
	return context.WithValue(ctx, readsKey{}, r)
}

// askApp renders a question that names an app in it, through the app
// host: ErrNobody (errNotFor) at once for a question that names none, an error
// saying why for any failure on the way (the next asker is asked then).
func (a *answerer) askApp(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	var p mcp.ElicitParams
	if err := json.Unmarshal(params, &p); err != nil || (p.Mode != "" && p.Mode != "form") {
		return nil, errNotFor
	}
	uri := (&mcpclient.NativeRequest{Params: &p}).ResourceURI()
	if uri == "" && getPath(params, "_meta", "ui", "resourceUri") == nil {
		return nil, errNotFor
	}
	if err := mcpclient.ValidateResourceURI(uri); err != nil {
		return nil, fmt.Errorf("%s: %w", mcpclient.FallbackInvalidResourceURI.Describe(), err)
	}
	schema, err := formschema.Parse(getPath(params, "requestedSchema"))
	if err != nil {
		return nil, fmt.Errorf("its requested schema: %w", err)
	}
	reads, ok := ctx.Value(readsKey{}).(serverReads)
	if !ok || reads.send == nil {
		return nil, errors.New(mcpclient.FallbackResourceReadFailed.Describe() + ": the proxy has no way to the server here")
	}
	server := a.opts.Name
	if server == "" {
		server = "the server"
	}
	req := &mcpclient.AppRequest{
		Connection:  a.opts.Wire.Secrets().Redact(a.opts.Target.String()),
		Server:      &mcp.Implementation{Name: server},
		Key:         fmt.Sprintf("proxy-e-%d", a.appKeys.Add(1)),
		ResourceURI: uri,
		Params:      &p,
		RawParams:   params,
		Load:        func(ctx context.Context) (*mcpclient.AppContent, error) { return a.loadApp(ctx, reads, uri) },
	}
	ans, err := a.opts.Apps.Render(ctx, req)
	switch {
	case ctx.Err() != nil:
		return nil, context.Cause(ctx)
	case err != nil:
		return nil, fmt.Errorf("the app %s: %w", textclean.OneLine(uri), err)
	case ans == nil:
		return nil, fmt.Errorf("the app %s: %s", textclean.OneLine(uri), mcpclient.FallbackInvalidResult.Describe())
	}
	res, reason := mcpclient.CheckAppResult(ans.Result, schema)
	if reason != mcpclient.FallbackNone {
		a.opts.Wire.Note(fmt.Sprintf("proxy: the app %s answered %s", uri, textclean.Cut(string(ans.Result), 200, textclean.InBytes())))
		return nil, fmt.Errorf("the app %s: %s", textclean.OneLine(uri), reason.Describe())
	}
	return json.Marshal(res)
}

// loadApp reads the app uri from the server with a resources/read of the
// proxy's: its answer is the proxy's, never the host's.
func (a *answerer) loadApp(ctx context.Context, reads serverReads, uri string) (*mcpclient.AppContent, error) {
	params := map[string]any{"uri": uri}
	if reads.meta != nil {
		params["_meta"] = reads.meta
	}
	encoded, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	request := []byte(`{"jsonrpc":"2.0","id":` + a.newID() + `,"method":"resources/read","params":` + string(encoded) + "}\n")
	answer, ok := reads.send(ctx, request)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	failed := func(err error) error {
		return &mcpclient.AppError{Reason: mcpclient.FallbackResourceReadFailed, Err: err}
	}
	if !ok {
		return nil, failed(errors.New("no answer to resources/read " + textclean.OneLine(uri)))
	}
	var resp struct {
		Result *mcp.ReadResourceResult `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(answer, &resp); err != nil {
		return nil, failed(err)
	}
	if resp.Error != nil {
		return nil, failed(fmt.Errorf("resources/read %s: %d %s", textclean.OneLine(uri), resp.Error.Code, textclean.OneLine(resp.Error.Message)))
	}
	content, reason, note := mcpclient.AppContentOf(resp.Result, uri)
	switch {
	case reason != mcpclient.FallbackNone:
		return nil, &mcpclient.AppError{Reason: reason, Err: errors.New(textclean.OneLine(note))}
	case note != "":
		a.opts.Wire.Note("proxy: warning: " + note)
	}
	return content, nil
}

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolApp is a tool call's MCP App (docs/app-host.md, "Tool apps"): the
// tool's UI resource, opened in its own tab for the call, with what the
// app may reach through mcpeek.
type ToolApp struct {
	// Request names the app and reads it (Key "t-N", Connection, Server,
	// ResourceURI, Load); its Params are nil.
	Request *AppRequest
	// Tool is the tool as listed; Arguments the call's arguments.
	Tool      *mcp.Tool
	Arguments json.RawMessage
	// Peer is what the app's requests reach.
	Peer ToolAppPeer
}

// ToolAppPeer is what a tool app may ask of its host: the originating
// server's app-visible tools and its resources, opening a link (after the
// person consents), and messages to the conversation (recorded: there is
// no model).
type ToolAppPeer interface {
	CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error)
	ListTools(ctx context.Context) ([]*mcp.Tool, error)
	ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error)
	ListResources(ctx context.Context) ([]*mcp.Resource, error)
	OpenLink(ctx context.Context, url string) error
	// Message records ui/message or ui/update-model-context (kind).
	Message(kind string, params json.RawMessage)
	// AppToolsChanged says the app's own tools changed
	// (notifications/tools/list_changed from the app).
	AppToolsChanged()
}

// ToolAppHost opens tool apps; the app host implements it.
type ToolAppHost interface {
	OpenToolApp(ctx context.Context, app *ToolApp) (ToolAppSession, error)
}

// ToolAppSession is one open tool app.
type ToolAppSession interface {
	// Result hands the app the call's result (ui/notifications/tool-result),
	// now or once it has initialized; Cancelled says the call was cancelled.
	Result(res *mcp.CallToolResult)
	Cancelled(reason string)
	// Done is closed when the session ends: the tab closed, the app asked
	// to close, or Close; Err then says why (nil: the tab was closed).
	Done() <-chan struct{}
	Err() error
	// URL is the tab's address (with its token), for a person to open.
	URL() string
	// Close tears the app down and ends the session.
	Close()
	// AppTools lists the tools the app itself registered (tools/list to
	// the app, a draft feature of MCP Apps); [ErrNoAppTools] when it
	// declared none.
	AppTools(ctx context.Context) ([]*mcp.Tool, error)
	// CallAppTool calls one of the app's own tools (tools/call to the app).
	CallAppTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error)
	// SetTheme tells the app the host's theme is now "light" or "dark"
	// (ui/notifications/host-context-changed), now or when it initializes;
	// it returns at once, and the last of quick changes is the one kept.
	SetTheme(theme string)
}

// ErrNoAppTools is AppTools' error for an app that declared no tools of
// its own.
var ErrNoAppTools = errors.New("the app declared no tools of its own (appCapabilities.tools)")

// ErrAppClosed is a session's end when the app asked to close.
var ErrAppClosed = errors.New("the app asked to close")

// ToolAppURI is the tool's UI resource: _meta.ui.resourceUri, or the
// deprecated flat _meta["ui/resourceUri"]; "" when it names none.
func ToolAppURI(t *mcp.Tool) string {
	if t == nil || t.Meta == nil {
		return ""
	}
	if s, ok := asObject(t.Meta["ui"])["resourceUri"].(string); ok {
		return s
	}
	s, _ := t.Meta["ui/resourceUri"].(string)
	return s
}

// ToolVisibility is who may call the tool: _meta.ui.visibility, by
// default both the model and the app.
func ToolVisibility(t *mcp.Tool) []string {
	if t != nil && t.Meta != nil {
		if v, ok := asObject(t.Meta["ui"])["visibility"].([]any); ok {
			var out []string
			for _, x := range v {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
	}
	return []string{"model", "app"}
}

// AppVisible reports whether an app may call the tool.
func AppVisible(t *mcp.Tool) bool { return slices.Contains(ToolVisibility(t), "app") }

// ModelVisible reports whether the tool is offered as the model's.
func ModelVisible(t *mcp.Tool) bool { return slices.Contains(ToolVisibility(t), "model") }

// Tool finds a tool by name in the server's listing; nil when it lists
// none of that name.
func (c *Conn) Tool(ctx context.Context, name string) (*mcp.Tool, error) {
	tools, err := c.listedTools(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, nil
}

// listedTools is the server's tools, every page, listed through the SDK
// once until the server says they changed (a listing overtaken by such a
// change is not kept).
func (c *Conn) listedTools(ctx context.Context) ([]*mcp.Tool, error) {
	c.toolsMu.Lock()
	tools, gen := c.toolList, c.toolsGen
	c.toolsMu.Unlock()
	if tools != nil {
		return tools, nil
	}
	ctx, done := c.bind(ctx)
	defer done()
	tools, err := collect(c.session.Tools(ctx, nil))
	if err != nil {
		return nil, err
	}
	tools = orNone(tools)
	c.toolsMu.Lock()
	if c.toolsGen == gen {
		c.toolList = tools
	}
	c.toolsMu.Unlock()
	return tools, nil
}

// orNone is s, or an empty (not nil) slice.
func orNone[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ToolAppOptions are what the person side of a tool app does.
type ToolAppOptions struct {
	// OpenLink asks the person and opens the link; nil refuses links.
	OpenLink func(ctx context.Context, url string) error
	// Message receives ui/message and ui/update-model-context.
	Message func(msg AppMessage)
	// AppToolsChanged hears that the app's own tools changed.
	AppToolsChanged func()
}

// OpenToolApp opens the app of tool for a call with args in host, when
// the tool names a valid ui:// resource; it returns nil, nil when it names
// none.
func (c *Conn) OpenToolApp(ctx context.Context, host ToolAppHost, tool *mcp.Tool, args json.RawMessage, opts ToolAppOptions) (ToolAppSession, error) {
	uri := ToolAppURI(tool)
	if uri == "" {
		return nil, nil
	}
	if err := ValidateResourceURI(uri); err != nil {
		return nil, fmt.Errorf("tool %s names its app %q: %w", tool.Name, uri, err)
	}
	key := fmt.Sprintf("t-%d", c.router.next.Add(1))
	app := &ToolApp{
		Request: &AppRequest{
			Connection: c.Target().String(), Server: c.ServerInfo(), Key: key, ResourceURI: uri,
			Load: func(ctx context.Context) (*AppContent, error) {
				content, reason, err := c.router.loadApp(ctx, key, uri)
				switch {
				case err != nil:
					return nil, err
				case reason != FallbackNone:
					return nil, &AppError{Reason: reason}
				}
				return content, nil
			},
		},
		Tool: tool, Arguments: args,
		Peer: &toolPeer{c: c, opts: opts},
	}
	return host.OpenToolApp(ctx, app)
}

// toolPeer is the connection as a tool app's peer.
type toolPeer struct {
	c    *Conn
	opts ToolAppOptions
}

func (p *toolPeer) CallTool(ctx context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	t, err := p.c.Tool(ctx, name)
	switch {
	case err != nil:
		return nil, err
	case t == nil:
		return nil, fmt.Errorf("the server has no tool %q", name)
	case !AppVisible(t):
		return nil, fmt.Errorf("tool %q is not visible to apps (_meta.ui.visibility %s)", name, strings.Join(ToolVisibility(t), ", "))
	}
	return p.c.Call(ctx, name, args)
}

func (p *toolPeer) ListTools(ctx context.Context) ([]*mcp.Tool, error) {
	tools, err := p.c.listedTools(ctx)
	return slices.DeleteFunc(slices.Clone(tools), func(t *mcp.Tool) bool { return !AppVisible(t) }), err
}

func (p *toolPeer) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	ctx, done := p.c.bind(ctx)
	defer done()
	return p.c.session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
}

func (p *toolPeer) ListResources(ctx context.Context) ([]*mcp.Resource, error) {
	ctx, done := p.c.bind(ctx)
	defer done()
	return collect(p.c.session.Resources(ctx, nil))
}

func (p *toolPeer) OpenLink(ctx context.Context, url string) error {
	if p.opts.OpenLink == nil {
		return errors.New("links are not opened here")
	}
	return p.opts.OpenLink(ctx, url)
}

func (p *toolPeer) Message(kind string, params json.RawMessage) {
	p.c.wire.Note(fmt.Sprintf("app %s: %s", kind, textclean.Cut(string(params), 500, textclean.InBytes())))
	if p.opts.Message != nil {
		p.opts.Message(DecodeAppMessage(kind, params))
	}
}

func (p *toolPeer) AppToolsChanged() {
	p.c.wire.Note("app: its own tools changed (notifications/tools/list_changed)")
	if p.opts.AppToolsChanged != nil {
		p.opts.AppToolsChanged()
	}
}

package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answer is one entry of an answers file.
type Answer struct {
	Match struct {
		// Message matches when it is a substring of the request's message.
		Message string `json:"message,omitempty"`
		// ResourceURI matches when it equals the request's _meta.ui.resourceUri.
		ResourceURI string `json:"resourceUri,omitempty"`
	} `json:"match"`
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

func (a *Answer) fits(req *NativeRequest) bool {
	if a.Match.Message != "" && !strings.Contains(req.Params.Message, a.Match.Message) {
		return false
	}
	if a.Match.ResourceURI != "" && a.Match.ResourceURI != req.ResourceURI() {
		return false
	}
	return true
}

// ParseAnswers reads an answers file: a JSON array of answers, each with an
// action of accept, decline or cancel, and content only with accept.
func ParseAnswers(data []byte) ([]Answer, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var answers []Answer
	if err := dec.Decode(&answers); err != nil {
		return nil, fmt.Errorf("not a JSON array of answers: %w", err)
	}
	if answers == nil {
		return nil, errors.New("not a JSON array of answers: got null")
	}
	// dec.More would miss a stray "]" or "}": only the end of input will do.
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON array")
	}
	for i, a := range answers {
		switch a.Action {
		case "accept":
		case "decline", "cancel":
			if a.Content != nil {
				return nil, fmt.Errorf("entry %d: content is only allowed with action accept", i+1)
			}
		case "":
			return nil, fmt.Errorf("entry %d: action is missing (want accept, decline or cancel)", i+1)
		default:
			return nil, fmt.Errorf("entry %d: unknown action %q (want accept, decline or cancel)", i+1, a.Action)
		}
	}
	return answers, nil
}

// LoadAnswers reads and parses an answers file.
func LoadAnswers(path string) ([]Answer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("answers file: %w", err)
	}
	answers, err := ParseAnswers(data)
	if err != nil {
		return nil, fmt.Errorf("answers file %s: %w", path, err)
	}
	return answers, nil
}

// Policy answers elicitations no answers-file entry matched.
type Policy string

// Policies for --on-elicit.
const (
	PolicyCancel         Policy = "cancel"
	PolicyDecline        Policy = "decline"
	PolicyAcceptDefaults Policy = "accept-defaults"
)

// ParsePolicy checks a --on-elicit value.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyCancel, PolicyDecline, PolicyAcceptDefaults:
		return p, nil
	}
	return "", fmt.Errorf("unknown --on-elicit policy %q (want cancel, decline or accept-defaults)", s)
}

// HeadlessAsker answers elicitations from an answers file, then by policy.
// Content is checked against the requested schema first: content that does
// not fit is never sent; the request is cancelled and the failure reported.
type HeadlessAsker struct {
	Answers []Answer
	Policy  Policy
	// Stderr receives one line per rejected answer and per URL consent.
	Stderr io.Writer

	mu       sync.Mutex
	used     []bool
	rejected atomic.Int32
}

// Rejected is the number of answers that were not sent because their content
// did not fit the requested schema.
func (h *HeadlessAsker) Rejected() int { return int(h.rejected.Load()) }

func (h *HeadlessAsker) take(req *NativeRequest) (int, *Answer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.used == nil {
		h.used = make([]bool, len(h.Answers))
	}
	for i := range h.Answers {
		if !h.used[i] && h.Answers[i].fits(req) {
			h.used[i] = true
			return i, &h.Answers[i]
		}
	}
	return -1, nil
}

// Ask implements [NativeAsker].
func (h *HeadlessAsker) Ask(ctx context.Context, req *NativeRequest) (*mcp.ElicitResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if req.Fallback != FallbackNone && req.ResourceURI() != "" {
		// The server asked for its app: say why it is answered here.
		h.say("mcpeek: %s: %s asked for its app; answering here instead: %s", req.Key, req.ResourceURI(), req.Fallback.Describe())
	}
	var action string
	var content map[string]any
	var source string
	if i, a := h.take(req); a != nil {
		action, content = a.Action, a.Content
		source = fmt.Sprintf("answers file entry %d", i+1)
	} else {
		switch h.Policy {
		case PolicyDecline:
			action = "decline"
		case PolicyAcceptDefaults:
			action = "accept"
			if req.Schema != nil {
				content = req.Schema.Defaults()
			}
		case PolicyCancel, "":
			action = "cancel"
		}
		source = "--on-elicit " + string(h.Policy)
	}
	if action != "accept" {
		return &mcp.ElicitResult{Action: action}, nil
	}
	if req.Schema == nil { // URL mode: consent without a browser
		h.say("mcpeek: %s consented to open %s; open it yourself to continue", source, req.Params.URL)
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	if content == nil {
		content = map[string]any{}
	}
	if err := req.Schema.Check(content); err != nil {
		h.rejected.Add(1)
		h.say("mcpeek: %s does not fit the request %q, so it was cancelled instead: %v", source, req.Params.Message, err)
		return &mcp.ElicitResult{Action: "cancel"}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// say writes one line; what it quotes from the server (a URL, a message)
// is shown, never obeyed by the terminal, and cannot break the line.
func (h *HeadlessAsker) say(format string, args ...any) {
	if h.Stderr != nil {
		line := strings.Join(strings.Fields(formschema.Clean(fmt.Sprintf(format, args...))), " ")
		fmt.Fprintln(h.Stderr, line)
	}
}

// CapsReport is the output of `mcpeek caps`.
type CapsReport struct {
	ProtocolVersion string          `json:"protocolVersion"`
	Client          json.RawMessage `json:"client"`
	Server          ServerReport    `json:"server"`
}

// ServerReport describes the server in a [CapsReport].
type ServerReport struct {
	Name         string                  `json:"name"`
	Title        string                  `json:"title,omitempty"`
	Version      string                  `json:"version"`
	Capabilities *mcp.ServerCapabilities `json:"capabilities"`
	Instructions string                  `json:"instructions,omitempty"`
}

// Caps reports the negotiated revision and both sides' capabilities.
func (c *Conn) Caps() *CapsReport {
	info := c.ServerInfo()
	return &CapsReport{
		ProtocolVersion: c.ProtocolVersion(),
		Client:          c.sentWire,
		Server: ServerReport{
			Name:         info.Name,
			Title:        info.Title,
			Version:      info.Version,
			Capabilities: c.ServerCapabilities(),
			Instructions: c.Instructions(),
		},
	}
}

// List returns every tool, resource (and resource template) or prompt of
// the server, following pagination, as {"tools":[…]} and so on.
func (c *Conn) List(ctx context.Context, what string) (map[string]any, error) {
	ctx, done := c.bind(ctx)
	defer done()
	s := c.session
	switch what {
	case "tools":
		items, err := collect(s.Tools(ctx, nil))
		return map[string]any{"tools": items}, err
	case "resources":
		items, err := collect(s.Resources(ctx, nil))
		if err != nil {
			return nil, err
		}
		out := map[string]any{"resources": items}
		templates, err := collect(s.ResourceTemplates(ctx, nil))
		if err == nil && len(templates) > 0 {
			out["resourceTemplates"] = templates
		}
		return out, nil
	case "prompts":
		items, err := collect(s.Prompts(ctx, nil))
		return map[string]any{"prompts": items}, err
	}
	return nil, fmt.Errorf("cannot list %q (want tools, resources or prompts)", what)
}

func collect[T any](seq func(func(*T, error) bool)) ([]*T, error) {
	items := []*T{}
	for item, err := range seq {
		if err != nil {
			return items, err
		}
		items = append(items, item)
	}
	return items, nil
}

// learnTools lists the tools once per connection over streamable HTTP in
// the 2026-07-28 era, where a call must mirror the arguments its tool marks
// with x-mcp-header into Mcp-Param-* headers: the SDK does that only for
// tools it has seen listed. A failed listing is noted and the call goes on.
func (c *Conn) learnTools(ctx context.Context) {
	if c.cfg.Target.Kind != TargetHTTP || c.ProtocolVersion() < ProtocolModern {
		return
	}
	c.toolsSeen.Do(func() {
		for _, err := range c.session.Tools(ctx, nil) {
			if err != nil {
				c.wire.Note("listing tools before the first call failed: " + err.Error())
				return
			}
		}
	})
}

// Call calls a tool with the given arguments (a JSON object or nil).
func (c *Conn) Call(ctx context.Context, tool string, args json.RawMessage) (*mcp.CallToolResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	var arguments any
	if len(args) > 0 {
		arguments = args
	}
	c.learnTools(ctx)
	res, err := c.session.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: arguments})
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) || ctx.Err() != nil {
			if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
				err = fmt.Errorf("%w: %w", cause, err)
			}
			return nil, fmt.Errorf("call %s: %w", tool, err)
		}
		// The connection failed under the call: close it, which waits for
		// a server process to exit, so that its last words are known.
		_ = c.Close()
		if errors.Is(err, errServerGone) { // it ended the call's pending questions
			return nil, c.explain(fmt.Errorf("call %s: %w while a question waited for its answer", tool, errServerGone))
		}
		return nil, c.explain(fmt.Errorf("call %s: the server went away: %w", tool, err))
	}
	return res, nil
}

//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

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

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answer is one entry of an answers file: for an elicitation (the
// default method) an action with content; for a sampling request a
// result, or the action reject.
type Answer struct {
	// Method is elicitation/create (when empty) or sampling/createMessage.
	Method string `json:"method,omitempty"`
	Match  struct {
		// Message matches when it is a substring of the request's message
		// (for sampling: of the text of any of its messages).
		Message string `json:"message,omitempty"`
		// ResourceURI matches when it equals the request's _meta.ui.resourceUri.
		ResourceURI string `json:"resourceUri,omitempty"`
	} `json:"match"`
	Action  string         `json:"action,omitempty"`
	Content map[string]any `json:"content,omitempty"`
	// Defaults, when false, sends the content as written. Otherwise (the
	// default) an accept's content starts from the requested schema's
	// defaults, those it may send ([formschema.Field.Default]), and the
	// entry's own values replace them.
	Defaults *bool `json:"defaults,omitempty"`
	// Result is a sampling reply: role (assistant if omitted), content (a
	// content block or an array of them), model (mcpeek if omitted) and
	// stopReason (endTurn if omitted).
	Result *SampleAnswer `json:"result,omitempty"`
}

// SampleAnswer is the result of a sampling entry, as written in the file.
type SampleAnswer struct {
	Role       string          `json:"role,omitempty"`
	Content    json.RawMessage `json:"content"`
	Model      string          `json:"model,omitempty"`
	StopReason string          `json:"stopReason,omitempty"`
}

func (a *Answer) method() string {
	if a.Method == "" {
		return MethodElicit
	}
	return a.Method
}

func (a *Answer) fits(req *NativeRequest) bool {
	if a.method() != MethodElicit {
		return false
	}
	if a.Match.Message != "" && !strings.Contains(req.Params.Message, a.Match.Message) {
		return false
	}
	if a.Match.ResourceURI != "" && a.Match.ResourceURI != req.ResourceURI() {
		return false
	}
	return true
}

func (a *Answer) fitsSample(p *mcp.CreateMessageWithToolsParams) bool {
	if a.method() != MethodSample {
		return false
	}
	if a.Match.Message == "" {
		return true
	}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		for _, c := range m.Content {
			if strings.Contains(ContentText(c, 0), a.Match.Message) {
				return true
			}
		}
	}
	return false
}

// ParseAnswers reads an answers file: a JSON array of entries. An
// elicitation entry has an action of accept, decline or cancel, and
// content only with accept; a sampling entry has a result, or the action
// reject. A key the format does not know is an error that names it.
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
	for i := range answers {
		a := &answers[i]
		var err error
		switch a.method() {
		case MethodElicit:
			err = a.checkElicit()
		case MethodSample:
			err = a.checkSample()
		default:
			err = fmt.Errorf("unknown method %q (want %s or %s)", a.Method, MethodElicit, MethodSample)
		}
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
	}
	return answers, nil
}

func (a *Answer) checkElicit() error {
	if a.Result != nil {
		return fmt.Errorf("result is only for %s entries; an elicitation answers with action and content", MethodSample)
	}
	if a.Defaults != nil && a.Action != "accept" {
		return errors.New("defaults is only allowed with action accept")
	}
	switch a.Action {
	case "accept":
	case "decline", "cancel":
		if a.Content != nil {
			return errors.New("content is only allowed with action accept")
		}
	case "":
		return errors.New("action is missing (want accept, decline or cancel)")
	default:
		return fmt.Errorf("unknown action %q (want accept, decline or cancel)", a.Action)
	}
	return nil
}

func (a *Answer) checkSample() error {
	switch {
	case a.Content != nil:
		return fmt.Errorf("a %s entry answers with result, not content", MethodSample)
	case a.Defaults != nil:
		return fmt.Errorf("defaults is only for elicitations; a %s entry answers with result", MethodSample)
	case a.Match.ResourceURI != "":
		return errors.New("match.resourceUri is only for elicitations")
	case a.Action == "reject":
		if a.Result != nil {
			return errors.New("result is not allowed with action reject")
		}
		return nil
	case a.Action != "" && a.Action != "accept":
		return fmt.Errorf("unknown action %q for %s (want reject, or a result)", a.Action, MethodSample)
	case a.Result == nil:
		return errors.New("result is missing (or give action reject)")
	}
	_, err := a.Result.reply()
	return err
}

// reply is the sampling result the entry gives, with defaults filled in.
func (r *SampleAnswer) reply() (*mcp.CreateMessageWithToolsResult, error) {
	if r.Role != "" && r.Role != "assistant" && r.Role != "user" {
		return nil, fmt.Errorf("result.role %q is not assistant or user", r.Role)
	}
	if len(bytes.TrimSpace(r.Content)) == 0 || string(bytes.TrimSpace(r.Content)) == "null" {
		return nil, errors.New("result.content is missing")
	}
	var reply mcp.CreateMessageWithToolsResult
	if err := json.Unmarshal(fmt.Appendf(nil, `{"content":%s}`, r.Content), &reply); err != nil {
		return nil, fmt.Errorf("result.content: %w", err)
	}
	reply.Role, reply.Model, reply.StopReason = mcp.Role(r.Role), r.Model, r.StopReason
	return CompleteSample(&reply), nil
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
// It answers sampling requests from the file's sampling entries, and
// rejects the others.
type HeadlessAsker struct {
	Answers []Answer
	Policy  Policy
	// Stderr receives one line per rejected answer and per URL consent.
	Stderr io.Writer
	// Strict fails a question no entry matches with an [UnexpectedError]
	// instead of answering it by Policy (or rejecting a sampling request):
	// a test suite asserts the whole conversation, so a question it did
	// not foresee is a failure, not a cancel.
	Strict bool

	mu       sync.Mutex
	used     []bool
	rejected atomic.Int32
}

// UnexpectedError is a question a strict [HeadlessAsker] had no entry for.
type UnexpectedError struct {
	// Kind is KindElicitation or KindSampling.
	Kind string
	// Message is the elicitation's message, or the sampling request's
	// summary; Schema the requested schema as the server wrote it.
	Message string
	Schema  json.RawMessage
}

func (e *UnexpectedError) Error() string {
	if e.Kind == KindSampling {
		return fmt.Sprintf("unexpected sampling request: %s", e.Message)
	}
	msg := fmt.Sprintf("unexpected elicitation: %q", e.Message)
	if len(e.Schema) > 0 {
		msg += " with schema " + string(e.Schema)
	}
	return msg
}

// Unused returns the entries (from 0) that answered nothing so far.
func (h *HeadlessAsker) Unused() []int {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []int
	for i := range h.Answers {
		if i >= len(h.used) || !h.used[i] {
			out = append(out, i)
		}
	}
	return out
}

// Rejected is the number of answers that were not sent because their content
// did not fit the requested schema.
func (h *HeadlessAsker) Rejected() int { return int(h.rejected.Load()) }

func (h *HeadlessAsker) take(fits func(*Answer) bool) (int, *Answer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.used == nil {
		h.used = make([]bool, len(h.Answers))
	}
	for i := range h.Answers {
		if !h.used[i] && fits(&h.Answers[i]) {
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
	defaults := false // start from the schema's defaults
	if i, a := h.take(func(a *Answer) bool { return a.fits(req) }); a != nil {
		action, content = a.Action, a.Content
		defaults = a.Defaults == nil || *a.Defaults
		source = fmt.Sprintf("answers file entry %d", i+1)
	} else if h.Strict {
		return nil, &UnexpectedError{Kind: KindElicitation, Message: req.Params.Message, Schema: requestedSchema(req.RawParams)}
	} else {
		switch h.Policy {
		case PolicyDecline:
			action = "decline"
		case PolicyAcceptDefaults:
			action, defaults = "accept", true
		case PolicyCancel, "":
			action = "cancel"
			h.sayCancelled(req)
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
	if defaults {
		content = h.withDefaults(req, content)
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

// withDefaults is content over the schema's defaults: those a field may
// send, each replaced by the content's own value. A declared default the
// field refuses is left out, and a line says so.
func (h *HeadlessAsker) withDefaults(req *NativeRequest, content map[string]any) map[string]any {
	out := req.Schema.Defaults()
	for k, v := range content {
		out[k] = v
	}
	for _, f := range req.Schema.Fields {
		if _, given := content[f.Key]; !given && f.DefaultNote != "" {
			h.say("mcpeek: %s: %s: %s", req.Key, f.Label, f.DefaultNote)
		}
	}
	return out
}

// sayCancelled says why a request no answer matched is cancelled, and how
// to answer it instead: without it, a call that asks looks as if the
// server had been told no by a person.
func (h *HeadlessAsker) sayCancelled(req *NativeRequest) {
	why := "no --answers given"
	if len(h.Answers) > 0 {
		why = "no --answers entry matched it"
	}
	if req.Refused != "" {
		return // a page to open before a refused call: the call's error names it, and how to go on
	}
	what := fmt.Sprintf("%q", req.Params.Message)
	switch {
	case req.Schema == nil:
		what = "to open " + req.Params.URL
	case req.Params.Message == "":
		what = "(without a message)"
	}
	h.say("mcpeek: %s: cancelled the request %s (%s, and --on-elicit is cancel): answer it with --answers FILE or --interactive, "+
		"or choose --on-elicit decline or accept-defaults", req.Key, what, why)
}

// Sample implements [Sampler]: the first unused sampling entry that
// matches answers; with none, the request is rejected (--on-sample reject)
// and a line says so.
func (h *HeadlessAsker) Sample(ctx context.Context, req *SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	i, a := h.take(func(a *Answer) bool { return a.fitsSample(req.Params) })
	if a == nil && h.Strict {
		return nil, &UnexpectedError{Kind: KindSampling, Message: SampleSummary(req.Params, 200)}
	}
	if a == nil {
		h.say("mcpeek: %s: sampling request rejected: no answers-file entry matched (--on-sample reject): %s",
			req.Key, SampleSummary(req.Params, 120))
		return nil, ErrSampleRejected
	}
	if a.Action == "reject" || a.Result == nil {
		h.say("mcpeek: %s: sampling request rejected by answers file entry %d", req.Key, i+1)
		return nil, ErrSampleRejected
	}
	reply, err := a.Result.reply()
	if err != nil {
		h.say("mcpeek: %s: answers file entry %d cannot answer it, so it was rejected: %v", req.Key, i+1, err)
		return nil, ErrSampleRejected
	}
	return reply, nil
}

// say writes one line; what it quotes from the server (a URL, a message)
// is shown, never obeyed by the terminal, and cannot break the line.
func (h *HeadlessAsker) say(format string, args ...any) {
	if h.Stderr != nil {
		line := textclean.OneLine(fmt.Sprintf(format, args...))
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
func (c *Conn) List(ctx context.Context, what string) (_ map[string]any, err error) {
	ctx, done := c.bind(ctx)
	defer done()
	mark := c.tooLargeN.Load()
	defer func() {
		if big := c.tooLargeFor(err, mark); big != nil {
			err = big
		}
	}()
	s := c.session
	switch what {
	case "tools":
		items, err := collect(s.Tools(ctx, nil))
		for _, t := range items {
			// Where the tool as written was not kept: its schema as the
			// server wrote it at least (go-sdk's map has its properties in
			// alphabetical order).
			if raw := c.InputSchema(t.Name); raw != nil {
				t.InputSchema = raw
			}
		}
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
	return c.CallWithProgress(ctx, tool, args, nil)
}

// CallWithProgress calls a tool, as Call does, and hands the call's
// progress notifications to progress (which may be nil) as they arrive.
// Every call carries a progress token. Cancelling ctx sends the server
// notifications/cancelled.
func (c *Conn) CallWithProgress(ctx context.Context, tool string, args json.RawMessage, progress func(ProgressEvent)) (*mcp.CallToolResult, error) {
	ctx, done := c.bind(ctx)
	defer done()
	var arguments any
	if len(args) > 0 {
		arguments = args
	}
	c.learnTools(ctx)
	params := &mcp.CallToolParams{Name: tool, Arguments: arguments}
	token, untrack := c.notify.track(progress)
	defer untrack()
	params.SetProgressToken(token)
	c.withLogLevel(params)
	mark := c.tooLargeN.Load()
	res, err := c.session.CallTool(ctx, params)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) || ctx.Err() != nil {
			if cause := context.Cause(ctx); cause != nil && !errors.Is(err, cause) {
				err = fmt.Errorf("%w: %w", cause, err)
			}
			return nil, fmt.Errorf("call %s: %w", tool, err)
		}
		if errors.As(err, new(*UnexpectedError)) {
			// A strict asker refused a question: the call ended at mcpeek,
			// and the connection is as good as before.
			return nil, fmt.Errorf("call %s: %w", tool, err)
		}
		if unreadable(err) {
			// The server is still there: what failed is reading its
			// answer, which the wire log holds as it came.
			return nil, fmt.Errorf("call %s: mcpeek could not read the server's answer (--wire-log keeps it): %w", tool, err)
		}
		// The connection failed under the call: close it, which waits for
		// a server process to exit, so that its last words are known.
		_ = c.Close()
		if big := c.tooLargeFor(err, mark); big != nil {
			return nil, fmt.Errorf("call %s: %w", tool, big)
		}
		if errors.Is(err, errServerGone) { // it ended the call's pending questions
			return nil, c.explain(fmt.Errorf("call %s: %w while a question waited for its answer", tool, errServerGone), mark)
		}
		if status := c.failedStatus(); status != "" {
			return nil, c.explain(fmt.Errorf("call %s: the server answered HTTP %s: %w", tool, status, err), mark)
		}
		return nil, c.explain(fmt.Errorf("call %s: the server went away: %w", tool, err), mark)
	}
	return res, nil
}

// unreadable reports whether a call failed in decoding the server's answer
// rather than in reaching the server: the connection is still up.
func unreadable(err error) bool {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	return errors.As(err, &syntax) || errors.As(err, &typ) ||
		strings.Contains(err.Error(), "unsupported InputRequest method") // go-sdk's, for a method it cannot answer
}

// backChannelRefusals are how SDKs word a server's failure to send a
// request of its own (a question, a roots listing, a sampling request) in
// the 2026-07-28 era, where a server may ask only in a tool's input rounds.
var backChannelRefusals = []string{
	"back-channel", "backchannel", "back channel", // the Python SDK
	"server-to-client requests are not available", // the TypeScript SDK
	"cannot be sent while serving a request",      // go-sdk
}

// NeedsBackChannel reports whether a call's failure (its error, or the
// text of its isError result) is the server's own refusal to ask outside
// a tool's input rounds, on a connection in the 2026-07-28 era: the
// server still asks the 2025-11-25 way, which that revision has no
// channel for.
func (c *Conn) NeedsBackChannel(err error, res *mcp.CallToolResult) bool {
	if c.ProtocolVersion() < ProtocolModern {
		return false
	}
	var text strings.Builder
	if err != nil {
		text.WriteString(err.Error())
	}
	if res != nil && res.IsError {
		for _, content := range res.Content {
			text.WriteString("\n" + ContentText(content, 4096))
		}
	}
	return backChannelRefusal(text.String())
}

// backChannelRefusal reports whether text words an SDK's refusal to send a
// server's request outside a tool's input rounds.
func backChannelRefusal(text string) bool {
	lower := strings.ToLower(text)
	for _, phrase := range backChannelRefusals {
		if strings.Contains(lower, phrase) {
			return true
		}
	}
	return false
}

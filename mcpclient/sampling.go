//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// SampleRequest is a sampling/createMessage request handed to a [Sampler]:
// the server asks for a model's reply, and a person (or an answers file)
// writes it.
type SampleRequest struct {
	// Key identifies the request on its connection ("s-2").
	Key string
	// Server and Connection say who asks, as for elicitations.
	Server     *mcp.Implementation
	Connection string
	// Params are the request's parameters as the SDK decoded them.
	Params *mcp.CreateMessageWithToolsParams
}

// Sampler answers sampling requests. Sample returns the reply to send, or
// [ErrSampleRejected] to refuse; it must return when ctx is done.
type Sampler interface {
	Sample(ctx context.Context, req *SampleRequest) (*mcp.CreateMessageWithToolsResult, error)
}

// ErrSampleRejected is what a [Sampler] returns when the person refused to
// answer. The server receives the JSON-RPC error the specification gives
// for it (code -1), which it can tell from a timeout or a failure.
var ErrSampleRejected = errors.New("the user rejected the sampling request")

// ErrSampleDismissed is what a [Sampler] returns when the person closed
// the request without deciding: the server receives the same error -1,
// and the record says cancel.
var ErrSampleDismissed = errors.New("the user dismissed the sampling request")

// codeUserRejected is the JSON-RPC error code for a refused sampling request.
const codeUserRejected = -1

// IsSampleRejected reports whether err is a call ending because mcpeek
// refused one of its sampling requests (in the 2026-07-28 era a refusal
// ends the call at the client: the input response can only be a result).
func IsSampleRejected(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == codeUserRejected && rpcErr.Message == ErrSampleRejected.Error()
}

// DefaultModel is the model name a reply carries when nobody names one.
const DefaultModel = "mcpeek"

// CompleteSample fills in what a reply left out: the assistant role, the
// model name mcpeek, end of turn as the stop reason, and an empty text when
// it has no content.
func CompleteSample(res *mcp.CreateMessageWithToolsResult) *mcp.CreateMessageWithToolsResult {
	out := *res
	if out.Role == "" {
		out.Role = "assistant"
	}
	if out.Model == "" {
		out.Model = DefaultModel
	}
	if out.StopReason == "" {
		out.StopReason = "endTurn"
	}
	if len(out.Content) == 0 {
		out.Content = []mcp.Content{&mcp.TextContent{Text: ""}}
	}
	return &out
}

// TextReply is a reply of one text, from the model named (mcpeek if empty).
func TextReply(text, model, stopReason string) *mcp.CreateMessageWithToolsResult {
	return CompleteSample(&mcp.CreateMessageWithToolsResult{
		Content:    []mcp.Content{&mcp.TextContent{Text: text}},
		Model:      model,
		StopReason: stopReason,
	})
}

// sample is the connection's sampling/createMessage handler, in either era
// (the SDK hands it the input requests of an input_required result too).
func (r *router) sample(ctx context.Context, req *mcp.CreateMessageWithToolsRequest) (*mcp.CreateMessageWithToolsResult, error) {
	p := req.Params
	key := fmt.Sprintf("s-%d", r.next.Add(1))
	ctx, cancel := context.WithCancelCause(ctx)
	rec := Record{
		Key:        key,
		Kind:       KindSampling,
		Server:     r.conn.ServerName(),
		Era:        r.conn.ProtocolVersion(),
		Path:       PathNative,
		ReceivedAt: time.Now(),
	}
	if p != nil {
		rec.Message = SampleSummary(p, 200)
		rec.Request, _ = json.Marshal(p)
		rec.TaskID = relatedTask(p.Meta)
	}
	pr := &pendingRequest{key: key, message: rec.Message, path: PathNative, started: rec.ReceivedAt, cancel: cancel, kind: KindSampling}
	if !r.add(pr) {
		cancel(r.closedCause())
	}
	defer func() {
		cancel(nil)
		r.remove(key)
	}()
	res, err := r.askSample(ctx, key, p)
	switch {
	case err == nil:
		rec.Action = "accept"
		rec.Response, _ = json.Marshal(res)
	case errors.Is(err, ErrSampleRejected):
		rec.Action = "reject"
		err = &jsonrpc.Error{Code: codeUserRejected, Message: ErrSampleRejected.Error()}
	case errors.Is(err, ErrSampleDismissed), errors.Is(context.Cause(ctx), errDismissed):
		rec.Action = "cancel"
		err = &jsonrpc.Error{Code: codeUserRejected, Message: ErrSampleDismissed.Error()}
	default: // unanswered: the countdown ran out, the request ended, the sampler failed
		rec.Action = "cancel"
		if ctx.Err() != nil {
			if cause := context.Cause(ctx); !errors.Is(err, cause) {
				err = fmt.Errorf("%w: %w", cause, err)
			}
		}
	}
	if err != nil {
		rec.Error = err.Error()
	}
	r.conn.records.settle(rec)
	return res, err
}

func (r *router) askSample(ctx context.Context, key string, p *mcp.CreateMessageWithToolsParams) (*mcp.CreateMessageWithToolsResult, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p == nil || len(p.Messages) == 0 {
		r.conn.wire.Note(key + ": sampling request without messages; refused")
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "sampling request has no messages"}
	}
	req := &SampleRequest{
		Key:        key,
		Server:     r.conn.ServerInfo(),
		Connection: r.conn.Target().String(),
		Params:     p,
	}
	var res *mcp.CreateMessageWithToolsResult
	var err error
	switch s := r.standing(); {
	case s != nil:
		res, err = s.sample(ctx, req)
	case r.sampler == nil:
		return nil, ErrSampleRejected
	default:
		res, err = r.sampler.Sample(ctx, req)
	}
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("the sampler returned no reply")
	}
	return CompleteSample(res), nil
}

// SampleSummary is a one-line account of a sampling request, at most n
// runes: the text of its last message.
func SampleSummary(p *mcp.CreateMessageWithToolsParams, n int) string {
	if p == nil || len(p.Messages) == 0 {
		return "(no messages)"
	}
	last := p.Messages[len(p.Messages)-1]
	var parts []string
	for _, c := range last.Content {
		parts = append(parts, ContentText(c, n))
	}
	return textclean.Cut(strings.Join(strings.Fields(strings.Join(parts, " ")), " "), n, textclean.SayRest())
}

// SampleTranscript renders a sampling request for a person: the system
// prompt, each message with its role, images and audio as a bracketed
// note, tool uses and results, then what the server asked of the model.
// Each content block is cut at perBlock runes, so a huge message shows a
// bounded preview.
func SampleTranscript(p *mcp.CreateMessageWithToolsParams, perBlock int) string {
	if p == nil {
		return "(no request)"
	}
	var b strings.Builder
	if p.SystemPrompt != "" {
		fmt.Fprintf(&b, "system: %s\n", textclean.Cut(p.SystemPrompt, perBlock, textclean.SayRest()))
	}
	if len(p.Messages) == 0 {
		b.WriteString("(no messages)\n")
	}
	for _, m := range p.Messages {
		if m == nil {
			continue
		}
		for _, c := range m.Content {
			fmt.Fprintf(&b, "%s: %s\n", m.Role, ContentText(c, perBlock))
		}
	}
	var asks []string
	if p.MaxTokens > 0 {
		asks = append(asks, fmt.Sprintf("maxTokens %d", p.MaxTokens))
	}
	if p.Temperature != 0 {
		asks = append(asks, fmt.Sprintf("temperature %g", p.Temperature))
	}
	if len(p.StopSequences) > 0 {
		q := make([]string, len(p.StopSequences))
		for i, s := range p.StopSequences {
			q[i] = fmt.Sprintf("%q", textclean.Cut(s, 40, textclean.SayRest()))
		}
		asks = append(asks, "stop at "+strings.Join(q, ", "))
	}
	if p.IncludeContext != "" && p.IncludeContext != "none" {
		asks = append(asks, "context "+p.IncludeContext)
	}
	if mp := p.ModelPreferences; mp != nil {
		var names []string
		for _, h := range mp.Hints {
			if h != nil && h.Name != "" {
				names = append(names, textclean.Cut(h.Name, 60, textclean.SayRest()))
			}
		}
		if len(names) > 0 {
			asks = append(asks, "models "+strings.Join(names, ", "))
		}
		for _, pr := range []struct {
			name string
			v    float64
		}{{"cost", mp.CostPriority}, {"speed", mp.SpeedPriority}, {"intelligence", mp.IntelligencePriority}} {
			if pr.v != 0 {
				asks = append(asks, fmt.Sprintf("%s priority %g", pr.name, pr.v))
			}
		}
	}
	if len(p.Tools) > 0 {
		names := make([]string, 0, len(p.Tools))
		for _, t := range p.Tools {
			if t != nil {
				names = append(names, t.Name)
			}
		}
		asks = append(asks, "tools "+textclean.Cut(strings.Join(names, ", "), 200, textclean.SayRest()))
	}
	if len(asks) > 0 {
		fmt.Fprintf(&b, "asks: %s\n", strings.Join(asks, " · "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// ContentText words one content block for a person, cut at n runes.
func ContentText(c mcp.Content, n int) string {
	switch c := c.(type) {
	case *mcp.TextContent:
		return textclean.Cut(c.Text, n, textclean.SayRest())
	case *mcp.ImageContent:
		return fmt.Sprintf("[image %s, %s]", c.MIMEType, size(len(c.Data)))
	case *mcp.AudioContent:
		return fmt.Sprintf("[audio %s, %s]", c.MIMEType, size(len(c.Data)))
	case *mcp.ToolUseContent:
		in, _ := json.Marshal(c.Input)
		return textclean.Cut(fmt.Sprintf("[tool use %s %s]", c.Name, in), n, textclean.SayRest())
	case *mcp.ToolResultContent:
		var parts []string
		for _, inner := range c.Content {
			parts = append(parts, ContentText(inner, n))
		}
		return textclean.Cut(fmt.Sprintf("[tool result for %s: %s]", c.ToolUseID, strings.Join(parts, " ")), n, textclean.SayRest())
	case *mcp.ResourceLink:
		return "[resource link " + textclean.Cut(c.URI, n, textclean.SayRest()) + "]"
	case *mcp.EmbeddedResource:
		if c.Resource != nil {
			return "[resource " + textclean.Cut(c.Resource.URI, n, textclean.SayRest()) + "]"
		}
		return "[resource]"
	case nil:
		return "[empty]"
	}
	return fmt.Sprintf("[%T]", c)
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

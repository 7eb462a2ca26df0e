package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Asker answers one question of the server's: params are the params of
// an elicitation/create (a 2025-11-25 request, or one 2026-07-28 input
// request's), and the answer is an ElicitResult ({"action":"accept",
// "content":{...}}, decline or cancel). An asker with nobody to ask
// returns an error that is [ErrNobody] (errors.Is): the next is asked.
type Asker func(ctx context.Context, params json.RawMessage) (json.RawMessage, error)

// NamedAsker is an asker with the name the proxy says it by ("--answers
// FILE", "mcpeek watch").
type NamedAsker struct {
	Name string
	Ask  Asker
}

// ErrNobody is an asker's answer when it has nobody to ask (no answers-file
// entry matches, no watcher is attached): the next asker is asked, and
// after the last the --on-elicit policy answers.
var ErrNobody = errors.New("nobody to ask")

// errNotFor is an asker's ErrNobody for a question that is not its kind
// (the app host's, for one that names no app): it was not asked.
var errNotFor = fmt.Errorf("%w: not a question for it", ErrNobody)

// AnswerMode is --answer: when the proxy answers the server's questions
// itself instead of the host.
type AnswerMode int

// The answer modes.
const (
	// AnswerNever forwards every question to the host (the default).
	AnswerNever AnswerMode = iota
	// AnswerMissing (--answer) advertises elicitation to the server when
	// the host did not, and answers the server's questions then; a host
	// that advertised elicitation is asked as usual.
	AnswerMissing
	// AnswerAlways (--answer=always) answers every question of the
	// server's itself, whatever the host advertised.
	AnswerAlways
)

// ParseAnswerMode reads an --answer value: true or missing (what a bare
// --answer says), always, or false or never.
func ParseAnswerMode(s string) (AnswerMode, error) {
	switch strings.ToLower(s) {
	case "true", "missing", "1":
		return AnswerMissing, nil
	case "always":
		return AnswerAlways, nil
	case "false", "never", "0", "":
		return AnswerNever, nil
	}
	return AnswerNever, fmt.Errorf("unknown --answer %q (want --answer, --answer=always or --answer=false)", s)
}

func (m AnswerMode) String() string {
	switch m {
	case AnswerMissing:
		return "true"
	case AnswerAlways:
		return "always"
	case AnswerNever:
	}
	return "false"
}

// elicitAdvertised is the elicitation capability the proxy adds to a
// host's that has none: form and URL mode, which the askers answer.
var elicitAdvertised = json.RawMessage(`{"form":{},"url":{}}`)

// asking is the proxy's side of answering: the askers in turn, then the
// policy, each answer said on stderr and in the wire log.
type asking struct {
	opts Options
	keys atomic.Int64
}

// ask answers one elicitation of the server's (its params): the first
// asker that answers does, else the --on-elicit policy. what names the
// question in what the proxy says ("the server's elicitation/create 3").
func (a *asking) ask(ctx context.Context, what string, params json.RawMessage) (json.RawMessage, error) {
	var p mcp.ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("its params: %w", err)
	}
	question := textclean.OneLine(p.Message)
	if len(question) > 120 {
		question = question[:117] + "..."
	}
	var asked []string
	for _, asker := range a.opts.Askers {
		res, err := asker.Ask(ctx, params)
		switch {
		case err == nil:
			a.opts.report(fmt.Sprintf("answered %s %q itself (by %s): %s", what, question, asker.Name, action(res)))
			return res, nil
		case ctx.Err() != nil:
			return nil, context.Cause(ctx)
		case !errors.Is(err, ErrNobody):
			a.opts.report(fmt.Sprintf("%s could not answer %s %q: %v", asker.Name, what, question, err))
		}
		if !errors.Is(err, errNotFor) {
			asked = append(asked, asker.Name)
		}
	}
	res, err := a.policy(ctx, params)
	if err != nil {
		return nil, err
	}
	why := "nothing to answer it with: give --answers FILE"
	if len(asked) > 0 {
		why = "asked " + strings.Join(asked, ", then ")
	}
	a.opts.report(fmt.Sprintf("nobody answered %s %q (%s): --on-elicit %s: %s", what, question, why, a.policyName(), action(res)))
	return res, nil
}

func (a *asking) policyName() mcpclient.Policy {
	if a.opts.OnElicit == "" {
		return mcpclient.PolicyCancel
	}
	return a.opts.OnElicit
}

// policy is the --on-elicit answer: cancel, decline, or accept with the
// requested schema's defaults (cancel when they do not fit it).
func (a *asking) policy(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
	switch a.policyName() {
	case mcpclient.PolicyDecline:
		return json.RawMessage(`{"action":"decline"}`), nil
	case mcpclient.PolicyAcceptDefaults:
		h := &mcpclient.HeadlessAsker{Policy: mcpclient.PolicyAcceptDefaults, Stderr: a.opts.ErrOut}
		return headlessAnswer(ctx, h, fmt.Sprintf("e-%d", a.keys.Add(1)), params)
	case mcpclient.PolicyCancel:
	}
	return json.RawMessage(`{"action":"cancel"}`), nil
}

// action is what an ElicitResult says to do.
func action(res json.RawMessage) string {
	var r struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(res, &r)
	return textclean.OneLine(r.Action)
}

// AnswersAsker answers from an answers file's entries (mcpeek call
// --answers), each entry used once, the first that matches: content is
// checked against the requested schema, and one that does not fit it is
// cancelled and said on errOut. With no entry matching, it returns
// [ErrNobody].
func AnswersAsker(answers []mcpclient.Answer, errOut io.Writer) Asker {
	h := &mcpclient.HeadlessAsker{Answers: answers, Strict: true, Stderr: errOut}
	var keys atomic.Int64
	return func(ctx context.Context, params json.RawMessage) (json.RawMessage, error) {
		res, err := headlessAnswer(ctx, h, fmt.Sprintf("e-%d", keys.Add(1)), params)
		if unexpected := (*mcpclient.UnexpectedError)(nil); errors.As(err, &unexpected) {
			return nil, ErrNobody
		}
		return res, err
	}
}

// headlessAnswer has h answer the elicitation params, as key.
func headlessAnswer(ctx context.Context, h *mcpclient.HeadlessAsker, key string, params json.RawMessage) (json.RawMessage, error) {
	var p mcp.ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("its params: %w", err)
	}
	req := &mcpclient.NativeRequest{Key: key, Params: &p, RawParams: params}
	switch p.Mode {
	case "url":
	case "", "form":
		schema, err := formschema.Parse(getPath(params, "requestedSchema"))
		if err != nil {
			return nil, fmt.Errorf("its requested schema: %w", err)
		}
		req.Schema = schema
	default:
		return nil, fmt.Errorf("unsupported elicitation mode %q", textclean.OneLine(p.Mode))
	}
	res, err := h.Ask(ctx, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

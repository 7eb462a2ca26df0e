// Checking a step's outcome against its expectations.

package suite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// check compares a step's outcome with its expectations; it also keeps
// the redacted result, for snapshots and era parity.
func (r *runner) check(ctx context.Context, u *unit, conn *mcpclient.Conn, st *Step, out *outcome, vs vars) []Failure {
	out.redacted = hideSecrets(redact(comparable(out.doc), append(append([]*Redaction(nil), u.suite.Redact...), st.Redact...)), r.opts.Secrets)
	out.redacted = hideSecrets(out.redacted, u.suite.secrets)
	e := st.Expect
	if e == nil {
		if out.err != nil {
			return []Failure{{Line: st.Line, What: "result", Message: "protocol error: " + out.err.Error()}}
		}
		return nil
	}
	var fails []Failure
	add := func(key, what string, ok bool, expected, actual string) {
		if !ok {
			fails = append(fails, Failure{Line: e.line(key), What: what, Expected: expected, Actual: actual})
		}
	}
	if fail := checkError(e, st, out); fail != nil {
		return append(fails, *fail)
	}
	if out.err == nil {
		fails = append(fails, r.checkResult(ctx, conn, st, out, vs, add)...)
	}
	if e.Asked != nil {
		fails = append(fails, checkAsked(e, out.asked, vs)...)
	}
	if e.Rounds != nil {
		add("rounds", "rounds", out.rounds == *e.Rounds, fmt.Sprint(*e.Rounds), fmt.Sprint(out.rounds))
	}
	if e.Latency != nil {
		ok, why, err := e.Latency.Check(out.latency, true, vs)
		if err != nil {
			why = err.Error()
		}
		add("latency", "latency", ok, why, out.latency.Round(1e6).String())
	}
	if e.Snapshot != "" && out.err == nil {
		if f := u.snaps.check(e.Snapshot, out.redacted, r.opts.Update); f != nil {
			f.Line = e.line("snapshot")
			fails = append(fails, *f)
		}
	}
	return fails
}

// checkError checks the protocol error a step must, or must not, end in;
// nil when the rest can be checked.
func checkError(e *Expect, st *Step, out *outcome) *Failure {
	switch {
	case e.Error == nil && out.err != nil:
		return &Failure{Line: st.Line, What: "result", Message: "protocol error: " + out.err.Error()}
	case e.Error != nil && out.err == nil:
		return &Failure{Line: e.line("error"), What: "error", Expected: "a protocol error", Actual: "a result: " + show(out.doc)}
	case e.Error == nil:
		return nil
	}
	var rpc *jsonrpc.Error
	code, msg := 0, out.err.Error()
	if errors.As(out.err, &rpc) {
		code, msg = int(rpc.Code), rpc.Message
	}
	if e.Error.Code != nil && code != *e.Error.Code {
		return &Failure{Line: e.line("error"), What: "error.code", Expected: fmt.Sprint(*e.Error.Code), Actual: fmt.Sprintf("%d (%s)", code, textclean.Cut(msg, 200, textclean.InBytes()))}
	}
	if e.Error.Message != nil {
		if ok, why, err := e.Error.Message.Check(msg, true, nil); !ok || err != nil {
			return &Failure{Line: e.line("error"), What: "error.message", Expected: why, Actual: show(msg)}
		}
	}
	return nil
}

func (r *runner) checkResult(ctx context.Context, conn *mcpclient.Conn, st *Step, out *outcome, vs vars, add func(key, what string, ok bool, expected, actual string)) []Failure {
	e := st.Expect
	var fails []Failure
	if e.IsError != nil {
		add("isError", "isError", out.isError == *e.IsError, fmt.Sprint(*e.IsError), fmt.Sprintf("%t (%s)", out.isError, textclean.Cut(strings.Join(texts(out.doc), " "), 200, textclean.InBytes())))
	}
	if e.Text != nil {
		ok, why := false, ""
		all := texts(out.doc)
		for _, t := range all {
			var err error
			if ok, why, err = e.Text.Check(t, true, vs); err != nil {
				why = err.Error()
			}
			if ok {
				break
			}
		}
		if len(all) == 0 {
			_, why, _ = e.Text.Check(nil, false, vs)
		}
		add("text", "text", ok, "a text block that "+why, show(all))
	}
	for _, p := range e.JSONPath {
		nodes := p.Path.Select(out.doc)
		var actual any
		switch len(nodes) {
		case 0:
		case 1:
			actual = nodes[0]
		default:
			actual = []any(nodes)
		}
		ok, why, err := p.Pred.Check(actual, len(nodes) > 0, vs)
		if err != nil {
			why = err.Error()
		}
		if !ok {
			got := p.Pred.Got(actual, len(nodes) > 0, vs)
			if len(nodes) == 0 {
				got = "nothing"
			}
			fails = append(fails, Failure{Line: p.Line, What: p.Expr, Expected: why, Actual: got})
		}
	}
	if e.Schema != "" {
		if msg := r.checkOutputSchema(ctx, conn, st.Target, out.doc); msg != "" {
			fails = append(fails, Failure{Line: e.line("schema"), What: "schema output", Message: msg})
		}
	}
	return fails
}

// checkOutputSchema validates a call's structuredContent against its
// tool's outputSchema; "" when it passes.
func (r *runner) checkOutputSchema(ctx context.Context, conn *mcpclient.Conn, tool string, doc any) string {
	sch, msg := outputSchema(ctx, conn, tool)
	if sch == nil {
		return msg
	}
	m, _ := doc.(map[string]any)
	sc, ok := m["structuredContent"]
	if !ok {
		return "the result has no structuredContent"
	}
	b, err := json.Marshal(sc)
	if err != nil {
		return "the result's structuredContent: " + err.Error()
	}
	if err := formschema.ValidateJSON(sch, b); err != nil {
		return "structuredContent does not match the outputSchema: " + err.Error()
	}
	return ""
}

// outputSchema is the tool's outputSchema compiled: the draft its
// $schema declares (2020-12 when none), formats asserted. formschema
// keeps what it compiled, so the many steps of a suite that check one
// tool compile its schema once. Without one, it says why.
func outputSchema(ctx context.Context, conn *mcpclient.Conn, tool string) (*jsonschema.Schema, string) {
	t, err := conn.Tool(ctx, tool)
	switch {
	case err != nil:
		return nil, "listing the tools: " + err.Error()
	case t == nil:
		return nil, fmt.Sprintf("the server lists no tool %q", tool)
	case t.OutputSchema == nil:
		return nil, fmt.Sprintf("the tool %q declares no outputSchema", tool)
	}
	raw, err := json.Marshal(t.OutputSchema)
	if err != nil {
		return nil, "the tool's outputSchema: " + err.Error()
	}
	sch, err := formschema.Compile(raw)
	if err != nil {
		return nil, "the tool's outputSchema does not compile: " + textclean.OneLine(err.Error())
	}
	return sch, ""
}

// checkAsked compares the questions asked with those expected, in order.
func checkAsked(e *Expect, asked []mcpclient.Record, vs vars) []Failure {
	var fails []Failure
	for i, want := range e.Asked {
		what := fmt.Sprintf("asked[%d]", i+1)
		if i >= len(asked) {
			fails = append(fails, Failure{Line: want.Line, What: what, Expected: "a " + want.Kind + " question", Actual: fmt.Sprintf("%d questions", len(asked))})
			continue
		}
		got := asked[i]
		if f := askedMismatch(want, got, vs); f != "" {
			fails = append(fails, Failure{Line: want.Line, What: what, Message: f})
		}
	}
	if len(asked) > len(e.Asked) {
		extra := make([]string, 0, len(asked)-len(e.Asked))
		for _, rec := range asked[len(e.Asked):] {
			extra = append(extra, describeRecord(rec))
		}
		fails = append(fails, Failure{Line: e.line("asked"), What: "asked", Expected: fmt.Sprintf("%d questions", len(e.Asked)),
			Actual: fmt.Sprintf("%d, also %s", len(asked), strings.Join(extra, "; "))})
	}
	return fails
}

func askedMismatch(want AskedExpect, got mcpclient.Record, vs vars) string {
	if got.Kind != want.Kind {
		return fmt.Sprintf("expected a %s question, got %s", want.Kind, describeRecord(got))
	}
	if want.Mode != "" && got.Mode != want.Mode {
		return fmt.Sprintf("expected mode %s, got %s", want.Mode, got.Mode)
	}
	if want.Action != "" && got.Action != want.Action {
		return fmt.Sprintf("expected it answered %s, got %s", want.Action, got.Action)
	}
	if want.Message != nil {
		ok, why, err := want.Message.Check(got.Message, true, vs)
		if err != nil {
			return err.Error()
		}
		if !ok {
			return fmt.Sprintf("message: expected %s, got %s", why, show(got.Message))
		}
	}
	return ""
}

func describeRecord(rec mcpclient.Record) string {
	s := rec.Kind
	if rec.Mode != "" {
		s += " (" + rec.Mode + ")"
	}
	if rec.Message != "" {
		s += " " + show(rec.Message)
	}
	return s
}

// texts are the text of a result's text blocks: a call's content, a
// read's contents, a prompt's messages.
func texts(doc any) []string {
	m, _ := doc.(map[string]any)
	var out []string
	add := func(block any) {
		b, _ := block.(map[string]any)
		if t, ok := b["text"].(string); ok {
			out = append(out, t)
		}
	}
	for _, key := range []string{"content", "contents"} {
		list, _ := m[key].([]any)
		for _, b := range list {
			add(b)
		}
	}
	msgs, _ := m["messages"].([]any)
	for _, msg := range msgs {
		mm, _ := msg.(map[string]any)
		add(mm["content"])
	}
	return out
}

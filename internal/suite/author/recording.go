// A suite from a recording (mcpeek record REC --to-suite OUT): a test per
// tool call, with its answers, what was asked, its rounds and a snapshot.

package author

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// Recording is a recording read to make tests of its tool calls.
type Recording struct {
	// File is the recording's path, as the person named it.
	File   string
	header record.Header
	calls  []record.Exchange
	// schemas are the input schemas of the tools the recording listed,
	// by name: the secret rule reads them.
	schemas map[string]any
}

// ReadRecording reads the recording file and its tool calls that got a
// response; a recording without one is refused.
func ReadRecording(file string) (*Recording, error) {
	header, entries, err := record.ReadFile(file)
	if err != nil {
		return nil, err
	}
	r := &Recording{File: file, header: header, schemas: map[string]any{}}
	for _, x := range record.Exchanges(entries) {
		switch {
		case x.Method == "tools/list" && x.Result != nil:
			r.keepSchemas(x.Result)
		case x.Method == "tools/call" && !x.Side && x.Response != nil:
			r.calls = append(r.calls, x)
		}
	}
	if len(r.calls) == 0 {
		return nil, fmt.Errorf("%s has no tool call to make a test of", file)
	}
	return r, nil
}

// keepSchemas keeps the input schemas of a tools/list result's tools.
func (r *Recording) keepSchemas(result json.RawMessage) {
	var list struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema any    `json:"inputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &list) != nil {
		return
	}
	for _, t := range list.Tools {
		if t.InputSchema != nil {
			r.schemas[t.Name] = t.InputSchema
		}
	}
}

// Drafts are the tests of the recording's tool calls, in order, their
// secrets (the one rule, with known: the values the session knows as
// secrets) written as {{env.X}} templates. A name used again gets " (2)"
// and so on.
func (r *Recording) Drafts(known secret.Known) ([]*suite.Draft, error) {
	names := map[string]int{}
	var drafts []*suite.Draft
	for _, x := range r.calls {
		d, err := r.draft(x, names, known)
		if err != nil {
			return nil, err
		}
		drafts = append(drafts, d)
	}
	return drafts, nil
}

// Write writes the tests of the recording's tool calls to the suite file
// (created naming server, nil for the fixture, or added to), all or
// nothing, with their snapshots; known are the values the session knows
// as secrets, neither written nor kept in a snapshot. It returns the
// tests written.
func (r *Recording) Write(file string, server []string, known *mcpclient.Secrets) ([]*suite.Draft, error) {
	drafts, err := r.Drafts(known)
	if err != nil {
		return nil, err
	}
	// All or nothing: a test that cannot be written leaves the suite as it was.
	if err := suite.WriteTests(file, drafts, suite.WriteOptions{New: suite.NewSuite{Server: server}, Secrets: known}); err != nil {
		return nil, err
	}
	return drafts, nil
}

// draft is the test of one recorded call; names counts the names taken.
func (r *Recording) draft(x record.Exchange, names map[string]int, known secret.Known) (*suite.Draft, error) {
	step, err := CallStep(x, r.header.Protocol)
	if err != nil {
		return nil, fmt.Errorf("%s is malformed: %w", r.File, err)
	}
	tool := step.Target
	names[tool]++
	name := tool
	if n := names[tool]; n > 1 {
		name = fmt.Sprintf("%s (%d)", tool, n)
	}
	d, err := suite.BuildTest(name, Secrets(step, r.schemas[tool], known))
	if err != nil {
		return nil, fmt.Errorf("the test of %s: %w", name, err)
	}
	return d, nil
}

// CallStep is the step of a tools/call exchange, as a test takes it: the
// tool, its arguments, the questions asked with their answers, the rounds
// and the result or error, in era (the session's protocol revision). A
// recording's calls and those a watcher saw go by become tests alike.
func CallStep(x record.Exchange, era string) (suite.SessionStep, error) {
	var p struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(x.Params, &p)
	var tool string
	if json.Unmarshal(p.Name, &tool) != nil || strings.TrimSpace(tool) == "" {
		return suite.SessionStep{}, fmt.Errorf("its tools/call (id %s) names no tool (a string)", x.Request.ID)
	}
	step := suite.SessionStep{Kind: suite.StepCall, Target: tool, Era: era, Eras: []string{era}, Rounds: x.Rounds}
	if era < mcpclient.ProtocolModern {
		// Before 2026-07-28 each question the server asks is a round.
		step.Rounds = len(x.Questions)
	}
	if len(p.Arguments) > 0 && string(p.Arguments) != "null" {
		step.Args = p.Arguments
	}
	for _, q := range x.Questions {
		step.Questions = append(step.Questions, suiteQuestion(q))
	}
	if x.Error != nil {
		var e struct {
			Code    *int   `json:"code"`
			Message string `json:"message"`
		}
		if json.Unmarshal(x.Error, &e) != nil || e.Code == nil {
			return suite.SessionStep{}, fmt.Errorf("the error answering tools/call %s (id %s) is not a JSON-RPC error object with a code", tool, x.Request.ID)
		}
		step.ErrorCode, step.ErrorMessage = e.Code, e.Message
	} else {
		step.Result = x.Result
	}
	return step, nil
}

// suiteQuestion is a recorded question as the suite writer takes it.
func suiteQuestion(q record.Question) suite.Question {
	out := suite.Question{Params: q.Params, Answer: q.Answer}
	var p struct {
		Mode    string `json:"mode"`
		Message string `json:"message"`
		Meta    struct {
			UI struct {
				ResourceURI string `json:"resourceUri"`
			} `json:"ui"`
		} `json:"_meta"`
	}
	_ = json.Unmarshal(q.Params, &p)
	var a struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(q.Answer, &a)
	switch q.Method {
	case "elicitation/create":
		out.Kind, out.Mode, out.Message, out.ResourceURI, out.Action = mcpclient.KindElicitation, p.Mode, p.Message, p.Meta.UI.ResourceURI, a.Action
		if out.Mode == "" {
			out.Mode = "form"
		}
	case "sampling/createMessage":
		out.Kind, out.Action = mcpclient.KindSampling, "accept"
		if q.AnswerError != nil || q.Answer == nil {
			out.Action = "reject"
		}
	case "roots/list":
		out.Kind, out.Action = mcpclient.KindRoots, "accept"
	default:
		out.Kind = strings.TrimSuffix(q.Method, "/create")
	}
	return out
}

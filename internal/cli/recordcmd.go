package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// recordOptions are `mcpeek record`'s: what to make of a recording.
type recordOptions struct {
	toSuite string

	// Set by parse.
	file   string
	server []string
	header record.Header
	calls  []record.Exchange
}

func newRecordOptions(fs *flagSet) options {
	o := &recordOptions{}
	fs.StringVar(&o.toSuite, "to-suite", "", "write a test per tool call of the recording to this suite `FILE` (created, or added to), with its answers, what was asked, its rounds and a snapshot")
	return o
}

func (o *recordOptions) parse(fs *flagSet, args []string) error {
	rest, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(rest) == 0 || dashBefore(args, rest) {
		return usagef("record: name the recording (a file --record wrote)")
	}
	o.file = rest[0]
	if rest, err = fs.parse(rest[1:]); err != nil {
		return err
	}
	if o.toSuite == "" {
		return usagef("record: say what to make of %s: --to-suite FILE", o.file)
	}
	o.server = rest
	header, entries, err := record.ReadFile(o.file)
	if err != nil {
		return usagef("record: %v", err)
	}
	o.header = header
	for _, x := range record.Exchanges(entries) {
		if x.Method == "tools/call" && !x.Side && x.Response != nil {
			o.calls = append(o.calls, x)
		}
	}
	if len(o.calls) == 0 {
		return usagef("record: %s has no tool call to make a test of", o.file)
	}
	return nil
}

func (o *recordOptions) run(_ context.Context, s streams) error {
	names := map[string]int{}
	var drafts []*suite.Draft
	for _, x := range o.calls {
		d, err := o.draft(x, names)
		if err != nil {
			return err
		}
		drafts = append(drafts, d)
	}
	// All or nothing: a test that cannot be written leaves the suite as it was.
	if err := suite.WriteTests(o.toSuite, drafts, suite.WriteOptions{New: suite.NewSuite{Server: o.server}, Secrets: s.secrets}); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	for _, d := range drafts {
		fmt.Fprintf(s.errOut, "mcpeek: wrote the test %q to %s\n", d.Name, o.toSuite)
	}
	return nil
}

// draft is the test of one recorded call; names counts the names taken,
// a name used again getting " (2)" and so on.
func (o *recordOptions) draft(x record.Exchange, names map[string]int) (*suite.Draft, error) {
	var p struct {
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(x.Params, &p)
	var tool string
	if json.Unmarshal(p.Name, &tool) != nil || strings.TrimSpace(tool) == "" {
		return nil, fmt.Errorf("record: %s is malformed: its tools/call (id %s) names no tool (a string)", o.file, x.Request.ID)
	}
	names[tool]++
	name := tool
	if n := names[tool]; n > 1 {
		name = fmt.Sprintf("%s (%d)", tool, n)
	}
	step := suite.SessionStep{Kind: suite.StepCall, Target: tool, Era: o.header.Protocol, Rounds: x.Rounds}
	if o.header.Protocol < mcpclient.ProtocolModern {
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
			return nil, fmt.Errorf("record: %s is malformed: the error answering tools/call %s (id %s) is not a JSON-RPC error object with a code", o.file, tool, x.Request.ID)
		}
		step.ErrorCode, step.ErrorMessage = e.Code, e.Message
	} else {
		step.Result = x.Result
	}
	d, err := suite.BuildTest(name, step)
	if err != nil {
		return nil, fmt.Errorf("record: the test of %s: %w", name, err)
	}
	return d, nil
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

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
	for _, x := range o.calls {
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(x.Params, &p)
		names[p.Name]++
		name := p.Name
		if n := names[p.Name]; n > 1 {
			name = fmt.Sprintf("%s (%d)", p.Name, n)
		}
		step := suite.SessionStep{Kind: suite.StepCall, Target: p.Name, Era: o.header.Protocol, Rounds: x.Rounds}
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
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			_ = json.Unmarshal(x.Error, &e)
			step.ErrorCode, step.ErrorMessage = &e.Code, e.Message
		} else {
			step.Result = x.Result
		}
		d, err := suite.BuildTest(name, step)
		if err != nil {
			return fmt.Errorf("record: the test of %s: %w", name, err)
		}
		if err := suite.WriteTest(o.toSuite, d, suite.WriteOptions{New: suite.NewSuite{Server: o.server}, Secrets: s.secrets}); err != nil {
			return fmt.Errorf("record: %w", err)
		}
		fmt.Fprintf(s.errOut, "mcpeek: wrote the test %q to %s\n", name, o.toSuite)
	}
	return nil
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

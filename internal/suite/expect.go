// Expectations: what a step's result, and the conversation that led to
// it, must be.

package suite

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/theory/jsonpath"
	"go.yaml.in/yaml/v3"
)

// Expect is what a step's answer must be; each part keeps its line.
type Expect struct {
	IsError  *bool
	Text     *Predicate
	Asked    []AskedExpect
	Rounds   *int
	Schema   string
	JSONPath []PathExpect
	Snapshot string
	Latency  *Predicate
	Error    *ErrorExpect
	// lines are where each key is written.
	lines map[string]int
}

// AskedExpect is one question the server must have asked, in order.
type AskedExpect struct {
	Kind, Mode, Action string
	Message            *Predicate
	Line               int
}

// PathExpect is a predicate on what a JSONPath selects.
type PathExpect struct {
	Expr string
	Path *jsonpath.Path
	Pred *Predicate
	Line int
}

// ErrorExpect is the protocol error a step must end in.
type ErrorExpect struct {
	Code    *int
	Message *Predicate
}

var expectKeys = []string{"isError", "text", "asked", "rounds", "schema", "jsonpath", "snapshot", "latency", "error"}

func readExpect(file string, n *yaml.Node, kind string) (*Expect, error) {
	if err := checkKeys(file, n, expectKeys...); err != nil {
		return nil, err
	}
	e := &Expect{lines: map[string]int{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		e.lines[k.Value] = k.Line
		if err := e.read(file, k.Value, v, kind); err != nil {
			return nil, err
		}
	}
	return e, nil
}

func (e *Expect) read(file, key string, v *yaml.Node, kind string) error {
	fail := func(format string, args ...any) error {
		return &Error{File: file, Line: v.Line, Msg: key + ": " + fmt.Sprintf(format, args...)}
	}
	var err error
	switch key {
	case "isError":
		var b bool
		if v.Decode(&b) != nil {
			return fail("want true or false")
		}
		if !StepKindOf(kind).ToolResult {
			return fail("only a call's result has isError")
		}
		e.IsError = &b
	case "text":
		e.Text, err = parsePredicate(file, v)
	case "latency":
		e.Latency, err = parsePredicate(file, v)
	case "rounds":
		var r int
		if v.Decode(&r) != nil || r < 0 {
			return fail("want a number of rounds")
		}
		e.Rounds = &r
	case "schema":
		if v.Value != "output" || !StepKindOf(kind).ToolResult {
			return fail(`only "output" (a call's structuredContent against its tool's outputSchema)`)
		}
		e.Schema = v.Value
	case "snapshot":
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			return fail("want the snapshot's name")
		}
		e.Snapshot = v.Value
	case "asked":
		return e.readAsked(file, v)
	case "jsonpath":
		return e.readPaths(file, v)
	case "error":
		return e.readError(file, v)
	}
	return err
}

func (e *Expect) readAsked(file string, v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return &Error{File: file, Line: v.Line, Msg: "asked: want a list of questions, in order"}
	}
	e.Asked = []AskedExpect{}
	for _, q := range v.Content {
		if err := checkKeys(file, q, "kind", "mode", "message", "action"); err != nil {
			return err
		}
		a := AskedExpect{Line: q.Line}
		for i := 0; i+1 < len(q.Content); i += 2 {
			k, qv := q.Content[i], q.Content[i+1]
			switch k.Value {
			case "kind":
				a.Kind = qv.Value
				if !slices.Contains([]string{mcpclient.KindElicitation, mcpclient.KindSampling, mcpclient.KindRoots}, a.Kind) {
					return &Error{File: file, Line: qv.Line, Msg: "asked: kind is elicitation, sampling or roots"}
				}
			case "mode":
				a.Mode = qv.Value
			case "action":
				a.Action = qv.Value
			case "message":
				p, err := parsePredicate(file, qv)
				if err != nil {
					return err
				}
				a.Message = p
			}
		}
		if a.Kind == "" {
			return &Error{File: file, Line: q.Line, Msg: "asked: each question needs its kind (elicitation, sampling or roots)"}
		}
		e.Asked = append(e.Asked, a)
	}
	return nil
}

func (e *Expect) readPaths(file string, v *yaml.Node) error {
	if v.Kind != yaml.MappingNode {
		return &Error{File: file, Line: v.Line, Msg: "jsonpath: want JSONPaths mapped to what they select"}
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, pv := v.Content[i], v.Content[i+1]
		p, err := jsonpath.Parse(k.Value)
		if err != nil {
			return &Error{File: file, Line: k.Line, Msg: fmt.Sprintf("jsonpath: %q does not parse: %v", k.Value, err)}
		}
		pred, err := parsePredicate(file, pv)
		if err != nil {
			return err
		}
		e.JSONPath = append(e.JSONPath, PathExpect{Expr: k.Value, Path: p, Pred: pred, Line: k.Line})
	}
	return nil
}

func (e *Expect) readError(file string, v *yaml.Node) error {
	if err := checkKeys(file, v, "code", "message"); err != nil {
		return err
	}
	e.Error = &ErrorExpect{}
	if c := mapValue(v, "code"); c != nil {
		var code int
		if c.Decode(&code) != nil {
			return &Error{File: file, Line: c.Line, Msg: "error: code is a JSON-RPC error code"}
		}
		e.Error.Code = &code
	}
	if m := mapValue(v, "message"); m != nil {
		p, err := parsePredicate(file, m)
		if err != nil {
			return err
		}
		e.Error.Message = p
	}
	return nil
}

// line is where key is written in the expectation.
func (e *Expect) line(key string) int { return e.lines[key] }

// Failure is one expectation a step did not meet.
type Failure struct {
	// Step is the step's number (from 1; 0: the test as a whole), Line
	// where the expectation is written.
	Step int `json:"step,omitempty"`
	Line int `json:"line"`
	// What names the expectation (a JSONPath, "isError", "asked[1]").
	What     string `json:"what"`
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	// Message is the failure in a sentence, when there is no
	// expected/actual pair.
	Message string `json:"message,omitempty"`
}

// String is the failure on one line.
func (f Failure) String() string {
	var b strings.Builder
	if f.Step > 0 {
		fmt.Fprintf(&b, "step %d: ", f.Step)
	}
	b.WriteString(f.What)
	if f.Message != "" {
		b.WriteString(": " + f.Message)
	}
	if f.Expected != "" || f.Actual != "" {
		fmt.Fprintf(&b, ": expected %s, got %s", f.Expected, f.Actual)
	}
	return b.String()
}

// The step kinds, one entry each: the key a suite writes the step with and
// how its target is read, the request it sends (for the runner and for
// `mcpeek replay`), and what a test writer may save of it. Adding a kind
// is adding an entry here.

package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"
)

// Step kinds.
const (
	StepCall     = "call"
	StepRead     = "read"
	StepPrompt   = "prompt"
	StepList     = "list"
	StepComplete = "complete"
)

// Request is what a step sends: its target, expanded, and its arguments.
type Request struct {
	// Target is the tool, URI, prompt, list, or completed prompt or
	// resource template.
	Target string
	// Args are a call's or a prompt's arguments: decoded JSON (a suite's
	// args) or raw JSON as recorded (a replay), sent as they are.
	Args any
	// Complete is a complete step's reference and argument.
	Complete *CompleteSpec
}

// StepKind is one kind of step.
type StepKind struct {
	// Name is the step's key in a suite: call, read, prompt…
	Name string
	// Args: the step takes args (a call's or a prompt's arguments).
	Args bool
	// ToolResult: its result is a tool's, which isError and
	// schema: output check.
	ToolResult bool
	// Saved: a step of a session of this kind can be saved as a test
	// ([BuildTest]).
	Saved bool
	// Writes: the request may change what the server holds (a tool
	// call): a replay sends it only when the tool is read-only or writes
	// are allowed.
	Writes bool
	// Replays are the recorded requests `mcpeek replay` sends again as a
	// step of this kind; replayTarget reads the step's target from one's
	// method and its params' name and uri.
	Replays      []string
	replayTarget func(method, name, uri string) string
	// mapping: the key's value is a mapping that parse reads, not the
	// target as a string.
	mapping bool
	// parse reads the target (the key's value) into st and checks it.
	parse func(file string, key, value *yaml.Node, target string, st *Step) error
	do    func(ctx context.Context, conn *mcpclient.Conn, req Request) (res any, isError bool, err error)
}

// Do sends the request of a step of the kind on conn; the result is the
// server's (nil when there is none), isError a call's.
func (k *StepKind) Do(ctx context.Context, conn *mcpclient.Conn, req Request) (res any, isError bool, err error) {
	return k.do(ctx, conn, req)
}

// stepKinds is every kind, in the order a suite's messages name them.
var stepKinds []*StepKind

// The table refers to the suite reader, whose messages name the kinds: it
// is filled in when the package starts rather than in its declaration.
func init() {
	stepKinds = []*StepKind{
		{Name: StepCall, Args: true, ToolResult: true, Saved: true, Writes: true,
			Replays: []string{mcpclient.MethodCallTool}, replayTarget: recordedName, do: doCall},
		{Name: StepRead, Saved: true, Replays: []string{"resources/read"}, replayTarget: recordedURI,
			do: func(ctx context.Context, conn *mcpclient.Conn, req Request) (any, bool, error) {
				res, err := conn.Read(ctx, req.Target)
				return res, false, err
			}},
		{Name: StepPrompt, Args: true, Saved: true, Replays: []string{"prompts/get"}, replayTarget: recordedName, do: doPrompt},
		{Name: StepList, parse: parseList,
			Replays:      []string{mcpclient.MethodListTools, mcpclient.MethodListPrompts, mcpclient.MethodListResources, mcpclient.MethodListResourceTemplates},
			replayTarget: func(method, _, _ string) string { return listed[method] },
			do: func(ctx context.Context, conn *mcpclient.Conn, req Request) (any, bool, error) {
				res, err := conn.List(ctx, req.Target)
				return res, false, err
			}},
		{Name: StepComplete, mapping: true, parse: parseComplete, do: doComplete},
	}
}

// listed is what a list step lists to send each list request (resources
// sends resources/templates/list too).
var listed = map[string]string{
	mcpclient.MethodListTools: "tools", mcpclient.MethodListPrompts: "prompts",
	mcpclient.MethodListResources: "resources", mcpclient.MethodListResourceTemplates: "resources",
}

// StepKindOf is the kind named name, or nil.
func StepKindOf(name string) *StepKind {
	for _, k := range stepKinds {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// ReplayStep is the kind of step a recorded request of method is replayed
// as, with its target read from the request's name and uri; nil when a
// replay does not send such a request.
func ReplayStep(method, name, uri string) (*StepKind, string) {
	for _, k := range stepKinds {
		if slices.Contains(k.Replays, method) {
			return k, k.replayTarget(method, name, uri)
		}
	}
	return nil, ""
}

func recordedName(_, name, _ string) string { return name }
func recordedURI(_, _, uri string) string   { return uri }

// kindNames are the names of the kinds keep keeps, as a sentence says
// them: "call, read or prompt", each with article before it when given.
func kindNames(article string, keep func(*StepKind) bool) string {
	var names []string
	for _, k := range stepKinds {
		if keep == nil || keep(k) {
			names = append(names, article+k.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func doCall(ctx context.Context, conn *mcpclient.Conn, req Request) (any, bool, error) {
	var raw json.RawMessage
	switch a := req.Args.(type) {
	case json.RawMessage:
		raw = a
	case nil:
	default:
		raw, _ = json.Marshal(a)
	}
	cr, err := conn.Call(ctx, req.Target, raw)
	if cr == nil {
		return nil, false, err
	}
	return cr, cr.IsError, err
}

func doPrompt(ctx context.Context, conn *mcpclient.Conn, req Request) (any, bool, error) {
	var args map[string]string
	switch a := req.Args.(type) {
	case json.RawMessage:
		args = map[string]string{}
		_ = json.Unmarshal(a, &args)
	case map[string]any:
		args = map[string]string{}
		for k, v := range a {
			args[k] = fmt.Sprint(v)
		}
	}
	res, err := conn.GetPrompt(ctx, req.Target, args)
	return res, false, err
}

func doComplete(ctx context.Context, conn *mcpclient.Conn, req Request) (any, bool, error) {
	c := req.Complete
	ref := &mcp.CompleteReference{Type: c.Ref}
	if c.Ref == "ref/prompt" {
		ref.Name = req.Target
	} else {
		ref.URI = req.Target
	}
	res, err := conn.Complete(ctx, ref, mcp.CompleteParamsArgument{Name: c.Argument, Value: c.Value}, c.Context)
	return res, false, err
}

func parseList(file string, key, _ *yaml.Node, target string, st *Step) error {
	if !slices.Contains([]string{"tools", "resources", "prompts"}, target) {
		return &Error{File: file, Line: key.Line, Msg: fmt.Sprintf("list takes tools, resources or prompts (got %q)", target)}
	}
	return nil
}

func parseComplete(path string, _, n *yaml.Node, _ string, st *Step) error {
	var c completeDoc
	if err := checkKeys(path, n, "prompt", "resource", "argument", "value", "context"); err != nil {
		return err
	}
	if err := n.Decode(&c); err != nil {
		return yamlError(path, err)
	}
	st.Complete = &CompleteSpec{Argument: c.Argument, Value: c.Value, Context: c.Context}
	switch {
	case c.Prompt != "" && c.Resource == "":
		st.Complete.Ref, st.Complete.Name = "ref/prompt", c.Prompt
	case c.Resource != "" && c.Prompt == "":
		st.Complete.Ref, st.Complete.Name = "ref/resource", c.Resource
	default:
		return &Error{File: path, Line: n.Line, Msg: "complete names a prompt or a resource (template), one of them"}
	}
	if c.Argument == "" {
		return &Error{File: path, Line: n.Line, Msg: "complete needs the argument to complete"}
	}
	st.Target = st.Complete.Name
	return nil
}

// stepDoc is a step as written: its kind's key (kinds, read by the
// kind's entry) and the keys every step may have.
type stepDoc struct {
	stepFields
	kinds []kindKey
}

// kindKey is a step kind's key in a step, with its value; text is a
// string target's value.
type kindKey struct {
	kind       *StepKind
	key, value *yaml.Node
	text       string
}

type stepFields struct {
	Args    yaml.Node `yaml:"args"`
	Answers yaml.Node `yaml:"answers"`
	Expect  yaml.Node `yaml:"expect"`
	Capture yaml.Node `yaml:"capture"`
	Explore []string  `yaml:"explore"`
	Timeout string    `yaml:"timeout"`
	Redact  []string  `yaml:"redact"`
}

// stepFieldNames are stepFields' keys.
var stepFieldNames = func() []string {
	var out []string
	t := reflect.TypeFor[stepFields]()
	for i := range t.NumField() {
		out = append(out, t.Field(i).Tag.Get("yaml"))
	}
	return out
}()

// errorLine is the line a decoder's error names.
var errorLine = regexp.MustCompile(`^line (\d+): `)

// UnmarshalYAML reads a step as the decoder reads the rest of the suite:
// unknown keys and values of the wrong kind reported in the order they
// are written, each with its line; the kinds' keys come from the table.
func (d *stepDoc) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return n.Decode(&d.stepFields)
	}
	var dups, errs []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kind := StepKindOf(k.Value)
		switch {
		case kind != nil && kind.mapping:
			d.kinds = append(d.kinds, kindKey{kind: kind, key: k, value: v})
		case kind != nil:
			var s string
			if err := v.Decode(&s); err != nil {
				errs = append(errs, typeErrors(err)...)
			} else if s != "" {
				d.kinds = append(d.kinds, kindKey{kind: kind, key: k, value: v, text: s})
			}
		case !slices.Contains(stepFieldNames, k.Value) && k.ShortTag() != "!!merge":
			errs = append(errs, fmt.Sprintf("line %d: field %s not found in type suite.stepDoc", k.Line, k.Value))
		}
	}
	for _, e := range typeErrors(n.Decode(&d.stepFields)) {
		if strings.Contains(e, "already defined at line") {
			dups = append(dups, e)
		} else {
			errs = append(errs, e)
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return lineOfError(errs[i]) < lineOfError(errs[j]) })
	if all := append(dups, errs...); len(all) > 0 {
		return &yaml.TypeError{Errors: all}
	}
	return nil
}

// typeErrors are the messages of a decoder's error.
func typeErrors(err error) []string {
	if te, ok := err.(*yaml.TypeError); ok {
		return te.Errors
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

func lineOfError(e string) int {
	if m := errorLine.FindStringSubmatch(e); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// readKind reads what the step asks: exactly one of the kinds.
func (st *Step) readKind(path string, d *stepDoc, n *yaml.Node) error {
	// A kind written as a mapping is read first: its mistakes are
	// reported before a second kind is.
	for _, k := range d.kinds {
		if k.kind.mapping {
			st.Kind = k.kind.Name
			if err := k.kind.parse(path, k.key, k.value, k.text, st); err != nil {
				return err
			}
		}
	}
	if len(d.kinds) != 1 {
		return &Error{File: path, Line: n.Line, Msg: fmt.Sprintf("a step is one of %s (found %d)", kindNames("", nil), len(d.kinds))}
	}
	k := d.kinds[0]
	if k.kind.mapping {
		return nil
	}
	st.Kind, st.Target = k.kind.Name, k.text
	if k.kind.parse == nil {
		return nil
	}
	return k.kind.parse(path, k.key, k.value, k.text, st)
}

// Writing suites: a test built from one request of a session (the
// inspector's `+`, a recording's exchanges) and written to a suite file,
// new or existing, with its snapshot (docs/architecture.md, "Saving a
// test").

package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/yamlout"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/theory/jsonpath"
	"go.yaml.in/yaml/v3"
)

// Question is one server→client request asked during a step, and the
// answer the client gave it.
type Question struct {
	// Kind is mcpclient.KindElicitation, KindSampling or KindRoots.
	Kind string
	// Mode is an elicitation's form or url.
	Mode string
	// Message is an elicitation's message.
	Message string
	// ResourceURI is the app an elicitation asked for, if any (no part
	// of the answers entry: the runner renders no app).
	ResourceURI string
	// Action is what the answer was: accept, decline or cancel (an
	// elicitation), accept, reject or cancel (sampling).
	Action string
	// Params are the request's params and Answer the result sent back,
	// as JSON; either may be empty.
	Params json.RawMessage
	Answer json.RawMessage
	// Secret are the fields of an accepted form's content that hold a
	// secret: written as {{env.MCPEEK_SECRET_<FIELD>}} templates, never
	// their values.
	Secret []string
}

// QuestionFromRecord is the question a settled record describes.
func QuestionFromRecord(r mcpclient.Record) Question {
	return Question{Kind: r.Kind, Mode: r.Mode, Message: r.Message, ResourceURI: r.ResourceURI, Action: r.Action,
		Params: r.Request, Answer: r.Response}
}

// SessionStep is one request of a session, as it went.
type SessionStep struct {
	// Kind is StepCall, StepRead or StepPrompt; Target the tool, URI or
	// prompt.
	Kind, Target string
	// Args are a call's or a prompt's arguments (a JSON object or its
	// encoding); nil for none.
	Args any
	// Era is the protocol revision the session spoke.
	Era string
	// Eras are the revisions the server is known to speak
	// (mcpclient.Conn.Revisions), or those the test is for (a
	// recording's); nil when not known: the test then names no protocol
	// and runs in those the server speaks.
	Eras []string
	// Questions are those asked during the step, in the order asked.
	Questions []Question
	// Rounds are the step's input rounds (as `rounds:` counts them).
	Rounds int
	// Result is the result (a value or its JSON encoding): the snapshot
	// keeps it. Nil with ErrorCode set: the step ended in that protocol
	// error.
	Result any
	// ErrorCode and ErrorMessage are the protocol error the step ended
	// in, when Result is nil.
	ErrorCode    *int
	ErrorMessage string
	// Redact are JSONPaths of the result to redact before the snapshot
	// (values that differ from one run to the next).
	Redact []string
	// NoSnapshot leaves the snapshot out (then Result is not needed).
	NoSnapshot bool
	// SecretArgs are the arguments that hold a secret, nested ones as a
	// path (auth.token): written as {{env.MCPEEK_SECRET_<FIELD>}}
	// templates, never their values (see Draft.Env).
	SecretArgs []string
	// Known are the values the session knows as secrets (nil: none):
	// the expected error message leaves them out, as it leaves out the
	// values written as templates (see errorMessage).
	Known secret.Known
}

// Draft is a test built from a session step, to be written to a suite.
type Draft struct {
	Name string
	// Snapshot is the snapshot's name ("" for none).
	Snapshot string
	// Protocol is set when the test runs in one revision: the one the
	// session negotiated, when the server is not known to speak the
	// other, or when the test can only pass in it (its rounds are counted
	// differently in the other).
	Protocol string
	// Revisions are the test's protocol: as written: Protocol, or both
	// eras when the server speaks both (nil when the session's is not
	// known).
	Revisions []string
	// Env are the environment variables the test needs, sorted: those
	// its secret arguments and answers are written as.
	Env    []string
	result any
	redact []string
	node   *yaml.Node
	// hidden are the secret values written as templates: the snapshot
	// hides them too.
	hidden  []string
	secrets map[string]string // a variable's name → the value it stands for
}

// Node is the test as YAML (a copy: changing it changes nothing here).
func (d *Draft) Node() *yaml.Node {
	n := *d.node
	return &n
}

// placeholder-looking text a saved value must not hold: the runner would
// read it as a capture.
func hasTemplate(v any) bool {
	switch t := v.(type) {
	case string:
		return placeholder().MatchString(t)
	case []any:
		for _, e := range t {
			if hasTemplate(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range t {
			if hasTemplate(k) || hasTemplate(e) {
				return true
			}
		}
	}
	return false
}

// asJSON is v as a JSON value: raw JSON is decoded, anything else goes
// through JSON.
func asJSON(v any) (any, error) {
	switch t := v.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		if len(bytes.TrimSpace(t)) == 0 {
			return nil, nil
		}
		var out any
		err := json.Unmarshal(t, &out)
		return out, err
	case []byte:
		return asJSON(json.RawMessage(t))
	}
	return jsonValue(v)
}

// BuildTest builds the test named name that repeats st: its request, the
// answers given to each question (as answers entries matching them, in
// order), what was asked, the rounds, and a snapshot of the result named
// after the test.
func BuildTest(name string, st SessionStep) (*Draft, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, errors.New("a test needs a name")
	}
	kind := StepKindOf(st.Kind)
	if kind == nil || !kind.Saved {
		return nil, fmt.Errorf("only %s can be saved as a test (got %q)", kindNames("a ", func(k *StepKind) bool { return k.Saved }), st.Kind)
	}
	if st.Target == "" {
		return nil, errors.New("the step names no tool, resource or prompt")
	}
	args, err := asJSON(st.Args)
	if err != nil {
		return nil, fmt.Errorf("arguments: %w", err)
	}
	if args != nil {
		if _, ok := args.(map[string]any); !ok {
			return nil, errors.New("arguments must be a JSON object")
		}
		if !kind.Args {
			return nil, fmt.Errorf("a %s takes no arguments", kind.Name)
		}
	}
	if hasTemplate(args) || hasTemplate(st.Target) {
		return nil, errors.New("the request holds text such as {{name}}, which a suite reads as a capture: write this test by hand")
	}
	d := &Draft{Name: name, redact: st.Redact}
	for _, p := range st.SecretArgs {
		args = d.template(args, strings.Split(p, "."))
	}
	for _, r := range st.Redact {
		if _, err := jsonpath.Parse(r); err != nil {
			return nil, fmt.Errorf("redact: %q is not a JSONPath: %v", r, err)
		}
	}
	if !st.NoSnapshot && st.Result != nil {
		if d.result, err = asJSON(st.Result); err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		d.Snapshot = name
	}
	d.Revisions = draftRevisions(st)
	if len(d.Revisions) == 1 {
		d.Protocol = d.Revisions[0]
	}
	step, err := stepNode(st, args, d)
	if err != nil {
		return nil, err
	}
	sort.Strings(d.Env)
	test := mapping()
	addScalar(test, "name", name)
	if len(d.Revisions) > 0 {
		if err := addValue(test, "protocol", d.Revisions); err != nil {
			return nil, err
		}
		test.Content[len(test.Content)-1].Style = yaml.FlowStyle
	}
	addKey(test, "steps", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{step}})
	d.node = test
	return d, nil
}

// draftRevisions are the revisions a test saved from st names: the one
// the session negotiated when the server is known to speak it alone,
// both eras when it is known to speak both, none when that is not known
// (the runner then runs those the server speaks). A test whose questions
// were asked together in one 2026-07-28 round holds in that era only
// (the other asks them one at a time).
func draftRevisions(st SessionStep) []string {
	if st.Era == mcpclient.ProtocolModern && st.Rounds != len(st.Questions) {
		return []string{st.Era}
	}
	var out []string
	for _, rev := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		if slices.Contains(st.Eras, rev) {
			out = append(out, rev)
		}
	}
	return out
}

func stepNode(st SessionStep, args any, d *Draft) (*yaml.Node, error) {
	step := mapping()
	addScalar(step, st.Kind, st.Target)
	if args != nil {
		if err := addValue(step, "args", args); err != nil {
			return nil, err
		}
	}
	answers := &yaml.Node{Kind: yaml.SequenceNode}
	asked := &yaml.Node{Kind: yaml.SequenceNode}
	for i, q := range st.Questions {
		entry, want, err := answerEntry(q, d)
		if err != nil {
			return nil, fmt.Errorf("question %d: %w", i+1, err)
		}
		if entry != nil {
			answers.Content = append(answers.Content, entry)
		}
		asked.Content = append(asked.Content, want)
	}
	if len(answers.Content) > 0 {
		addKey(step, "answers", answers)
	}
	if len(st.Redact) > 0 {
		if err := addValue(step, "redact", st.Redact); err != nil {
			return nil, err
		}
	}
	expect := mapping()
	if st.Result == nil && st.ErrorCode != nil {
		e := mapping()
		_ = addValue(e, "code", *st.ErrorCode)
		if st.ErrorMessage != "" && !placeholder().MatchString(st.ErrorMessage) {
			errorMessage(e, st.ErrorMessage, st.Known, d.hidden)
		}
		addKey(expect, "error", e)
	}
	addKey(expect, "asked", asked)
	_ = addValue(expect, "rounds", st.Rounds)
	if d.Snapshot != "" {
		addScalar(expect, "snapshot", d.Snapshot)
	}
	addKey(step, "expect", expect)
	return step, nil
}

// errorMessage adds to e the expected error message msg: as it is, or,
// when it quotes a secret (a value known knows, or one of hidden, written
// as templates), as a pattern that leaves each secret out, which the
// same message passes. A suite is committed: a server that quotes the
// bearer token it was sent must not put it there.
func errorMessage(e *yaml.Node, msg string, known secret.Known, hidden []string) {
	shown := msg
	if known != nil {
		shown = known.Redact(shown)
	}
	for _, h := range hidden {
		if h != "" {
			shown = strings.ReplaceAll(shown, h, Placeholder)
		}
	}
	if shown == msg {
		addScalar(e, "message", msg)
		return
	}
	parts := strings.Split(shown, Placeholder)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	m := mapping()
	addScalar(m, "matches", "^"+strings.Join(parts, ".+")+"$")
	addKey(e, "message", m)
}

// template is v (decoded JSON) with the value at path, if there is one,
// replaced by the {{env.X}} template that stands for it; the variable is
// one of d's.
func (d *Draft) template(v any, path []string) any {
	m, ok := v.(map[string]any)
	if !ok || len(path) == 0 {
		return v
	}
	x, ok := m[path[0]]
	if !ok {
		return v
	}
	if len(path) > 1 {
		m[path[0]] = d.template(x, path[1:])
		return v
	}
	if x == nil {
		return v
	}
	value, isString := x.(string)
	if !isString {
		b, _ := json.Marshal(x)
		value = string(b)
	}
	name := d.secretVar(path[0], value)
	m[path[0]] = "{{env." + name + "}}"
	return v
}

// secretVar is the environment variable that stands for a secret field's
// value, MCPEEK_SECRET_ and the field's name in capitals (api_key,
// apiKey: MCPEEK_SECRET_API_KEY); a name taken by another value gets a
// number.
func (d *Draft) secretVar(field, value string) string {
	if d.secrets == nil {
		d.secrets = map[string]string{}
	}
	base := SecretVar(field)
	name := base
	for i := 2; ; i++ {
		was, taken := d.secrets[name]
		if !taken {
			break
		}
		if was == value {
			return name
		}
		name = fmt.Sprintf("%s_%d", base, i)
	}
	d.secrets[name] = value
	d.Env = append(d.Env, name)
	d.hidden = append(d.hidden, value)
	return name
}

// SecretVar is the environment variable a saved test reads a secret
// field's value from: MCPEEK_SECRET_ and the field's name in capitals,
// its words joined by _.
func SecretVar(field string) string {
	var b strings.Builder
	b.WriteString(secretPrefix)
	rs := []rune(field)
	gap := false
	for i, r := range rs {
		alnum := r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		if !alnum {
			gap = true
			continue
		}
		upperAfterLower := i > 0 && r >= 'A' && r <= 'Z' && (rs[i-1] >= 'a' && rs[i-1] <= 'z' || rs[i-1] >= '0' && rs[i-1] <= '9')
		if (gap || upperAfterLower) && b.Len() > len(secretPrefix) {
			b.WriteByte('_')
		}
		gap = false
		b.WriteString(strings.ToUpper(string(r)))
	}
	if b.Len() == len(secretPrefix) {
		b.WriteString("VALUE")
	}
	return b.String()
}

// answerEntry is the answers entry that gives q's answer again (nil for
// roots, which the suite's roots answer), and the asked expectation that
// q was asked.
func answerEntry(q Question, d *Draft) (*yaml.Node, *yaml.Node, error) {
	want := mapping()
	addScalar(want, "kind", q.Kind)
	switch q.Kind {
	case mcpclient.KindElicitation:
		entry, err := elicitEntry(q, d)
		if err != nil {
			return nil, nil, err
		}
		if q.Mode != "" {
			addScalar(want, "mode", q.Mode)
		}
		if q.Message != "" && !placeholder().MatchString(q.Message) {
			addScalar(want, "message", q.Message)
		}
		addScalar(want, "action", q.Action)
		return entry, want, nil
	case mcpclient.KindSampling:
		entry, action, err := sampleEntry(q)
		if err != nil {
			return nil, nil, err
		}
		addScalar(want, "action", action)
		return entry, want, nil
	case mcpclient.KindRoots:
		return nil, want, nil
	}
	return nil, nil, fmt.Errorf("unknown kind of question %q", q.Kind)
}

func elicitEntry(q Question, d *Draft) (*yaml.Node, error) {
	entry := mapping()
	match := mapping()
	if q.Message != "" && !placeholder().MatchString(q.Message) {
		addScalar(match, "message", q.Message)
	}
	// Not the app's URI, even when an app answered: the runner hosts no
	// app, and a server names one only to a client that can render it.
	if len(match.Content) > 0 {
		addKey(entry, "match", match)
	}
	switch q.Action {
	case "accept", "decline", "cancel":
	default:
		return nil, fmt.Errorf("an elicitation answered %q (want accept, decline or cancel)", q.Action)
	}
	addScalar(entry, "action", q.Action)
	if q.Action != "accept" || q.Mode == "url" {
		return entry, nil
	}
	var answer struct {
		Content map[string]any `json:"content"`
	}
	if len(q.Answer) > 0 {
		if err := json.Unmarshal(q.Answer, &answer); err != nil {
			return nil, fmt.Errorf("the answer: %w", err)
		}
	}
	if answer.Content == nil {
		answer.Content = map[string]any{}
	}
	for _, f := range q.Secret {
		d.template(answer.Content, strings.Split(f, "."))
	}
	if err := addValue(entry, "content", answer.Content); err != nil {
		return nil, err
	}
	if defaultsDiffer(q.Params, answer.Content) {
		// The content as it was sent, not over the schema's defaults.
		_ = addValue(entry, "defaults", false)
	}
	return entry, nil
}

// defaultsDiffer reports whether the requested schema gives a default for
// a field the answer left out: the runner would fill it in.
func defaultsDiffer(params json.RawMessage, content map[string]any) bool {
	var p struct {
		Schema struct {
			Properties map[string]map[string]any `json:"properties"`
		} `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) != nil {
		return false
	}
	for k, prop := range p.Schema.Properties {
		if _, ok := prop["default"]; ok {
			if _, given := content[k]; !given {
				return true
			}
		}
	}
	return false
}

// sampleEntry is the sampling entry that answers q again, and the action
// the runner will record for it.
func sampleEntry(q Question) (*yaml.Node, string, error) {
	entry := mapping()
	addScalar(entry, "method", mcpclient.MethodSample)
	if m := sampleMatch(q.Params); m != "" {
		match := mapping()
		addScalar(match, "message", m)
		addKey(entry, "match", match)
	}
	if q.Action != "accept" {
		// A cancel cannot be scripted: the nearest answer is a reject.
		addScalar(entry, "action", "reject")
		return entry, "reject", nil
	}
	var res struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		Model      string          `json:"model"`
		StopReason string          `json:"stopReason"`
	}
	if err := json.Unmarshal(q.Answer, &res); err != nil {
		return nil, "", fmt.Errorf("the sampling answer: %w", err)
	}
	content, err := asJSON(res.Content)
	if err != nil || content == nil {
		return nil, "", errors.New("the sampling answer has no content")
	}
	result := mapping()
	if res.Role != "" && res.Role != "assistant" {
		addScalar(result, "role", res.Role)
	}
	if err := addValue(result, "content", content); err != nil {
		return nil, "", err
	}
	if res.Model != "" {
		addScalar(result, "model", res.Model)
	}
	if res.StopReason != "" {
		addScalar(result, "stopReason", res.StopReason)
	}
	addKey(entry, "result", result)
	return entry, "accept", nil
}

// sampleMatch is text of a sampling request's first text message, for an
// entry to match it by: its first line, cut.
func sampleMatch(params json.RawMessage) string {
	var p struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	for _, m := range p.Messages {
		var blocks []struct {
			Type, Text string
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			var one struct{ Type, Text string }
			if json.Unmarshal(m.Content, &one) != nil {
				continue
			}
			blocks = append(blocks, one)
		}
		for _, b := range blocks {
			if b.Type != "text" || strings.TrimSpace(b.Text) == "" {
				continue
			}
			t, _, _ := strings.Cut(b.Text, "\n")
			if r := []rune(t); len(r) > 80 {
				t = string(r[:80])
			}
			return t
		}
	}
	return ""
}

// The YAML nodes a test is made of, keys in the order a person writes them.

func mapping() *yaml.Node { return &yaml.Node{Kind: yaml.MappingNode} }

func addKey(m *yaml.Node, key string, v *yaml.Node) {
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

func addScalar(m *yaml.Node, key, value string) {
	v, _ := yamlout.Node(value) // a string; quoted when it would read as another type
	addKey(m, key, v)
}

func addValue(m *yaml.Node, key string, value any) error {
	v, err := yamlout.Node(value)
	if err != nil {
		return fmt.Errorf("%s: %w", key, err)
	}
	addKey(m, key, v)
	return nil
}

// NewSuite is what a suite file made for a saved test says besides it.
type NewSuite struct {
	// Server is the server's words (a command and its arguments, a URL
	// or @NAME); nil is the embedded fixture.
	Server []string
	// Roots are offered to the server (paths or file:// URIs).
	Roots []string
}

// WriteOptions are how a test is written.
type WriteOptions struct {
	// New is what a new file says; an existing file keeps its own.
	New NewSuite
	// Secrets are redacted from the snapshot, as the runner does.
	Secrets *mcpclient.Secrets
}

// DuplicateError is a test name the suite already has.
type DuplicateError struct {
	File, Name string
	Line       int
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%s:%d: the suite already has a test named %q", e.File, e.Line, e.Name)
}

// WriteTest writes d to the suite file: a new file (version, server, the
// test) or the test appended to an existing one, its text and comments
// kept; and d's snapshot, written at once beside it. A test name the
// suite has, or a snapshot name its snapshots have, is refused.
func WriteTest(file string, d *Draft, opts WriteOptions) error {
	old, err := safefile.Read(file)
	exists := err == nil
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var data []byte
	var suiteRedact []string
	if exists {
		if data, suiteRedact, err = appendTest(file, old, d); err != nil {
			return err
		}
	} else {
		if data, err = newSuiteText(d, opts.New); err != nil {
			return err
		}
	}
	// What is written must read back: a check before anything is.
	s, err := Parse(file, data, func(string) (string, bool) { return "", true })
	if err != nil {
		return fmt.Errorf("the suite would not read back: %w", err)
	}
	s.Cleanup()
	restore, err := writeSnapshot(file, d, suiteRedact, opts.Secrets)
	if err != nil {
		return err
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		restore()
		return err
	}
	if err := writeAtomic(file, data, mode); err != nil {
		restore()
		return err
	}
	return nil
}

func newSuiteText(d *Draft, ns NewSuite) ([]byte, error) {
	doc := mapping()
	_ = addValue(doc, "version", 1)
	switch {
	case len(ns.Server) == 0:
		addScalar(doc, "server", FixtureServer)
	case len(ns.Server) == 1 && (strings.Contains(ns.Server[0], "://") || strings.HasPrefix(ns.Server[0], "@")):
		addScalar(doc, "server", ns.Server[0])
	default:
		if err := addValue(doc, "server", ns.Server); err != nil {
			return nil, err
		}
		doc.Content[len(doc.Content)-1].Style = yaml.FlowStyle
	}
	if len(ns.Roots) > 0 {
		if err := addValue(doc, "roots", ns.Roots); err != nil {
			return nil, err
		}
	}
	addKey(doc, "tests", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{d.Node()}})
	return encodeYAML(doc)
}

// encodeYAML is n as a suite's text, two spaces a level, in a style that
// reads back as n (yamlout.Encode).
func encodeYAML(n *yaml.Node) ([]byte, error) {
	return yamlout.Encode(n, 2)
}

// appendTest is the suite's text with d added to its tests, and the
// suite's own redactions. When tests is the file's last key, a block
// list, the test is added at the end of the text, which is left as it
// was; otherwise the document is written again from its nodes, comments
// kept.
func appendTest(file string, old []byte, d *Draft) ([]byte, []string, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(old, &root); err != nil {
		return nil, nil, yamlError(file, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, nil, &Error{File: file, Msg: "not a suite (a mapping of version, server, tests…)"}
	}
	top := root.Content[0]
	var redactions []string
	if r := mapValue(mapValue(top, "defaults"), "redact"); r != nil {
		_ = r.Decode(&redactions)
	}
	tests := mapValue(top, "tests")
	if tests == nil {
		tests = &yaml.Node{Kind: yaml.SequenceNode}
		addKey(top, "tests", tests)
	}
	if tests.Kind != yaml.SequenceNode {
		return nil, nil, &Error{File: file, Line: tests.Line, Msg: "tests must be a list of tests"}
	}
	for _, t := range tests.Content {
		if n := mapValue(t, "name"); n != nil && strings.TrimSpace(n.Value) == d.Name {
			return nil, nil, &DuplicateError{File: file, Name: d.Name, Line: t.Line}
		}
	}
	if text, ok := appendText(old, top, tests, d); ok {
		return text, redactions, nil
	}
	tests.Style = 0
	tests.Content = append(tests.Content, d.Node())
	out, err := encodeYAML(&root)
	return out, redactions, err
}

// appendText adds d at the end of the text when the tests list ends it;
// false when it does not, or when the result does not read as the suite
// with d added.
func appendText(old []byte, top, tests *yaml.Node, d *Draft) ([]byte, bool) {
	if len(tests.Content) == 0 || tests.Style&yaml.FlowStyle != 0 || top.Content[len(top.Content)-1] != tests {
		return nil, false
	}
	lines := strings.Split(string(old), "\n")
	first := tests.Content[0]
	if first.Line-1 >= len(lines) {
		return nil, false
	}
	line := lines[first.Line-1]
	dash := strings.LastIndex(line[:min(first.Column-1, len(line))], "-")
	if dash < 0 || strings.TrimSpace(line[:dash]) != "" {
		return nil, false
	}
	item, err := encodeYAML(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{d.Node()}})
	if err != nil {
		return nil, false
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	pad := strings.Repeat(" ", dash)
	for _, l := range strings.SplitAfter(strings.TrimSuffix(string(item), "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(pad)
		}
		b.WriteString(l)
	}
	b.WriteByte('\n')
	// The text must read as the old tests and then this one.
	var check yaml.Node
	if yaml.Unmarshal(b.Bytes(), &check) != nil || len(check.Content) == 0 {
		return nil, false
	}
	got := mapValue(check.Content[0], "tests")
	if got == nil || len(got.Content) != len(tests.Content)+1 {
		return nil, false
	}
	added := got.Content[len(got.Content)-1]
	if n := mapValue(added, "name"); n == nil || n.Value != d.Name {
		return nil, false
	}
	// And the test as written: indenting it kept every value.
	var want, have any
	if d.Node().Decode(&want) != nil || added.Decode(&have) != nil || !reflect.DeepEqual(want, have) {
		return nil, false
	}
	return b.Bytes(), true
}

// writeSnapshot writes d's snapshot beside the suite, redacted as the
// runner will redact the result; restore puts the snapshot file back as
// it was.
func writeSnapshot(file string, d *Draft, suiteRedact []string, secrets *mcpclient.Secrets) (restore func(), err error) {
	restore = func() {}
	if d.Snapshot == "" {
		return restore, nil
	}
	var paths []*Redaction
	for _, e := range append(append([]string(nil), suiteRedact...), d.redact...) {
		p, err := jsonpath.Parse(e)
		if err != nil {
			return restore, fmt.Errorf("redact: %q is not a JSONPath: %v", e, err)
		}
		paths = append(paths, &Redaction{Path: p})
	}
	sn := loadSnapshots(&Suite{File: file})
	if sn.loadErr != nil {
		return restore, sn.loadErr
	}
	if _, taken := sn.stored[d.Snapshot]; taken {
		return restore, fmt.Errorf("%s already has a snapshot named %q", sn.path, d.Snapshot)
	}
	old, readErr := safefile.ReadNoLink(sn.path)
	// The secret values written as templates are hidden as the runner
	// hides the values it reads from the environment for them.
	sn.updated = map[string]any{d.Snapshot: hideSecrets(SnapshotValue(d.result, paths, secrets), secretSet(d.hidden))}
	if err := sn.write(); err != nil {
		return restore, err
	}
	return func() {
		if readErr == nil {
			_ = sn.store(old)
		} else {
			_ = os.Remove(sn.path)
		}
	}, nil
}

// SnapshotValue is what the runner compares with a snapshot: the result
// without its era's envelope, redacted, the secrets hidden.
func SnapshotValue(result any, redactions []*Redaction, secrets *mcpclient.Secrets) any {
	return hideSecrets(redact(comparable(jsondoc.Copy(result)), redactions), secrets)
}

// secretSet is the set that hides the values written as templates.
func secretSet(values []string) *secret.Values {
	s := &secret.Values{}
	for _, v := range values {
		s.Add(v)
	}
	return s
}

// writeAtomic writes a suite file by the file policy for a repository's
// files: never through a link, by a temporary file renamed over it.
func writeAtomic(file string, data []byte, mode os.FileMode) error {
	return safefile.WriteInside(filepath.Dir(file), file, data, mode)
}

// Difference is a value that differs between two results of the same
// request: where (a JSONPath) and the two values (nil: absent).
type Difference struct {
	Path string
	A, B any
}

// ProposeRedactions are the values that differ between two results of
// the same request (a run and its re-run): timestamps, ids and the like,
// which a snapshot should not hold, each a JSONPath to redact. Results
// are compared as the snapshot will keep them (without their era's
// envelope); a list whose length differs is proposed whole.
func ProposeRedactions(a, b any) ([]Difference, error) {
	x, err := asJSON(a)
	if err != nil {
		return nil, err
	}
	y, err := asJSON(b)
	if err != nil {
		return nil, err
	}
	var out []Difference
	for _, d := range jsondoc.AllDiffs(comparable(x), comparable(y), jsondoc.Options{}) {
		out = append(out, Difference{Path: d.Path.JSONPath(), A: d.A, B: d.B})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// StepQuestions are the questions settled on conn since the first before
// records, in the order asked, and the input rounds since the step
// started (as `rounds:` counts them): what a step asked, read as soon as
// it ends.
func StepQuestions(conn *mcpclient.Conn, before int, since time.Time) ([]Question, int) {
	recs := stepRecords(conn.Records(), before)
	qs := make([]Question, len(recs))
	for i, r := range recs {
		qs[i] = QuestionFromRecord(r)
	}
	return qs, countRounds(conn, since, recs)
}

// Answers are the draft's answers entries, as the runner will read them:
// what answers the questions again (a re-run's).
func (d *Draft) Answers() ([]mcpclient.Answer, error) {
	step := mapValue(d.node, "steps").Content[0]
	n := mapValue(step, "answers")
	if n == nil {
		return nil, nil
	}
	v, err := nodeValue(n)
	if err != nil {
		return nil, err
	}
	data, err := jsonMarshal(v)
	if err != nil {
		return nil, err
	}
	return mcpclient.ParseAnswers(data)
}

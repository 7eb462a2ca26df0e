// Suite files: the YAML format of `mcpeek test`, read into tests, steps and
// expectations, every mistake reported with the file and line it is on
// (docs/architecture.md, "Test suites").

package suite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/theory/jsonpath"
	"go.yaml.in/yaml/v3"
)

// Revisions a suite runs in when it names none: both eras.
var defaultRevisions = []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern}

// Session kinds.
const (
	SessionPerTest = "per-test"
	SessionShared  = "shared"
)

// FixtureServer is the server word that names mcpeek's embedded fixture.
const FixtureServer = "fixture"

// Suite is one suite file, read and checked.
type Suite struct {
	// File is the path it was read from; Dir its folder ({{suite_dir}}).
	File, Dir string
	// Server is the server's words: a command and its arguments, a URL or
	// @NAME; nil is the embedded fixture. ServerLine is where it is given.
	Server     []string
	ServerLine int
	// Revisions are the protocol revisions each test runs in.
	Revisions []string
	// AnyRevision is set when the suite names no protocol: it runs in
	// those of Revisions the server speaks, and reports one it does not
	// speak as skipped, once (see eras.go).
	AnyRevision bool
	// Env is KEY=VALUE entries for a server command, expanded.
	Env []string
	// Headers are "Name: Value" HTTP headers for a URL server, expanded.
	Headers []string
	// Roots are offered to the server (paths or file:// URIs, expanded).
	Roots []string
	// Session is per-test or shared.
	Session string
	// Timeout is each step's unless it says otherwise.
	Timeout time.Duration
	// Redact are replaced by placeholders before snapshots and era parity.
	Redact []*Redaction
	Tests  []*Test
	// EnvReads are the environment variables the suite reads through
	// {{env.X}} (in server:, env:, roots:, args and answers), sorted;
	// ServerSecrets the values of those read to reach its server (in
	// server: and env:), which the run holds secret: a URL's key, a
	// command's token.
	EnvReads, ServerSecrets []string
	// Digest is the SHA-256 of the file as read: what an approval of the
	// suite is remembered by.
	Digest string
	// tmp is {{tmp}}: a folder made for the run when the suite names it.
	tmp string
	// secrets are the values of the MCPEEK_SECRET_ variables its steps
	// read: hidden from results as the run's secrets are, however short.
	secrets *secret.Values
}

// Redaction is a JSONPath whose values are replaced by a placeholder.
type Redaction struct {
	Path *jsonpath.Path
	Line int
}

// Test is one test of a suite.
type Test struct {
	Name string
	Line int
	Skip bool
	// SkipReason is why, when skip: gives one instead of true: the report
	// prints it.
	SkipReason string
	// Parity: a test run in two revisions also reports whether its
	// results are equal after redaction (default true).
	Parity    bool
	Revisions []string // nil: the suite's
	Steps     []*Step
}

// Step is one request of a test and what its answer must be.
type Step struct {
	Line int
	// Kind is call, read, prompt, list or complete; Target the tool,
	// URI, prompt, list, or the completed prompt or resource template.
	Kind, Target string
	// Args are the tool's or prompt's arguments, templates unexpanded.
	Args any
	// Complete is a complete step's reference and argument.
	Complete *CompleteSpec
	Answers  []mcpclient.Answer
	// AnswersLines are the lines of inline answers entries (for
	// --strict-answers); 0 for entries read from a file.
	AnswersLines []int
	Expect       *Expect
	Capture      []Capture
	Explore      []mcpclient.Policy
	Timeout      time.Duration
	Redact       []*Redaction
}

// CompleteSpec is what a complete step completes.
type CompleteSpec struct {
	// Ref is ref/prompt or ref/resource; Name the prompt or template.
	Ref, Name string
	Argument  string
	Value     string
	Context   map[string]string
}

// Capture keeps a value of a step's result for the test's later steps.
type Capture struct {
	Name string
	Path *jsonpath.Path
	Line int
}

// Error is a mistake in a suite or answers file, at a line (exit 2).
type Error struct {
	File string
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Files finds the suites paths name: a file as it is, a folder's
// *.mcpeek.yaml files (and every .yaml file under a folder named mcpeek
// but diff's config), outside __snapshots__. With no paths it looks in dir: its
// *.mcpeek.yaml files and those under its mcpeek folder.
func Files(dir string, paths []string) ([]string, error) {
	if len(paths) == 0 {
		var out []string
		top, _ := filepath.Glob(filepath.Join(dir, "*.mcpeek.yaml"))
		out = append(out, top...)
		if st, err := os.Stat(filepath.Join(dir, "mcpeek")); err == nil && st.IsDir() {
			found, err := walkSuites(filepath.Join(dir, "mcpeek"))
			if err != nil {
				return nil, err
			}
			out = append(out, found...)
		}
		sort.Strings(out)
		return slices.Compact(out), nil
	}
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		found, err := walkSuites(p)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no suite (*.mcpeek.yaml)", p)
		}
		out = append(out, found...)
	}
	// A suite named twice (a folder and a file in it) runs once.
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(p string) bool {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = filepath.Clean(p)
		}
		dup := seen[abs]
		seen[abs] = true
		return dup
	}), nil
}

// diffConfig is mcpeek diff's config, which a project keeps in its mcpeek
// folder beside the suites (surface.DefaultConfig): not a suite.
var diffConfig = filepath.Base(surface.DefaultConfig)

func walkSuites(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == snapshotDir {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		inMcpeek := filepath.Base(filepath.Dir(path)) == "mcpeek" && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) &&
			name != diffConfig
		if strings.HasSuffix(name, ".mcpeek.yaml") || inMcpeek {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// The documents the YAML decoder fills in, unknown keys refused.
type suiteDoc struct {
	Version  int               `yaml:"version"`
	Server   yaml.Node         `yaml:"server"`
	Protocol yaml.Node         `yaml:"protocol"`
	Env      map[string]string `yaml:"env"`
	Headers  map[string]string `yaml:"headers"`
	Roots    []string          `yaml:"roots"`
	Session  string            `yaml:"session"`
	Defaults struct {
		Timeout string   `yaml:"timeout"`
		Redact  []string `yaml:"redact"`
	} `yaml:"defaults"`
	Tests []testDoc `yaml:"tests"`
}

type testDoc struct {
	Name     string    `yaml:"name"`
	Skip     yaml.Node `yaml:"skip"`
	Parity   *bool     `yaml:"parity"`
	Protocol yaml.Node `yaml:"protocol"`
	Steps    []stepDoc `yaml:"steps"`
}

type completeDoc struct {
	Prompt   string            `yaml:"prompt"`
	Resource string            `yaml:"resource"`
	Argument string            `yaml:"argument"`
	Value    string            `yaml:"value"`
	Context  map[string]string `yaml:"context"`
}

// unknownField is how the YAML decoder words a key the document does not
// know.
var unknownField = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+): field (\S+) not found in type`) })

// Load reads and checks the suite at path; getenv resolves {{env.X}}.
// Every mistake is an [*Error].
func Load(path string, getenv func(string) (string, bool)) (*Suite, error) {
	data, err := safefile.Read(path)
	if err != nil {
		return nil, &Error{File: path, Msg: err.Error()}
	}
	return Parse(path, data, getenv)
}

// Parse reads and checks a suite's text, read from path.
func Parse(path string, data []byte, getenv func(string) (string, bool)) (_ *Suite, err error) {
	var s *Suite
	defer func() {
		if err != nil && s != nil {
			s.Cleanup() // a {{tmp}} made before the mistake was found
		}
	}()
	fail := func(line int, format string, args ...any) error {
		return &Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var doc suiteDoc
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, &Error{File: path, Msg: "the file is empty (a suite starts with version: 1)"}
	} else if err != nil {
		return nil, yamlError(path, err)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, yamlError(path, err)
	}
	top := root.Content[0]
	if doc.Version != 1 {
		return nil, fail(lineOf(top, "version"), "version must be 1 (got %d)", doc.Version)
	}
	dir, _ := filepath.Abs(filepath.Dir(path))
	sum := sha256.Sum256(data)
	s = &Suite{File: path, Dir: dir, Session: SessionPerTest, Timeout: 10 * time.Second, Digest: hex.EncodeToString(sum[:])}
	x := &expander{suite: s, getenv: getenv, file: path, connection: true}
	if err := s.readServer(&doc.Server, x); err != nil {
		return nil, err
	}
	revs, err := readRevisions(path, &doc.Protocol)
	if err != nil {
		return nil, err
	}
	s.Revisions = revs
	if s.Revisions == nil {
		s.Revisions, s.AnyRevision = defaultRevisions, true
	}
	if s.Env, err = expandEntries(x, top, "env", "=", doc.Env); err != nil {
		return nil, err
	}
	if s.Headers, err = expandEntries(x, top, "headers", ": ", doc.Headers); err != nil {
		return nil, err
	}
	x.connection = false
	for i, r := range doc.Roots {
		v, err := x.expand(r, itemLine(top, "roots", i))
		if err != nil {
			return nil, err
		}
		s.Roots = append(s.Roots, v)
	}
	switch doc.Session {
	case "", SessionPerTest:
	case SessionShared:
		s.Session = SessionShared
	default:
		return nil, fail(lineOf(top, "session"), "session must be per-test or shared (got %q)", doc.Session)
	}
	defaults := mapValue(top, "defaults")
	if doc.Defaults.Timeout != "" {
		if s.Timeout, err = parseDuration(doc.Defaults.Timeout); err != nil {
			return nil, fail(lineOf(defaults, "timeout"), "defaults.timeout: %v", err)
		}
	}
	if s.Redact, err = readRedactions(path, doc.Defaults.Redact, mapValue(defaults, "redact")); err != nil {
		return nil, err
	}
	tests := mapValue(top, "tests")
	if len(doc.Tests) == 0 {
		return nil, fail(lineOf(top, "tests"), "the suite has no tests")
	}
	names := map[string]int{}
	for i := range doc.Tests {
		t, err := readTest(path, &doc.Tests[i], tests.Content[i], x)
		if err != nil {
			return nil, err
		}
		if first, dup := names[t.Name]; dup {
			return nil, fail(t.Line, "a second test named %q (the first is on line %d)", t.Name, first)
		}
		names[t.Name] = t.Line
		s.Tests = append(s.Tests, t)
	}
	return s, nil
}

// cannotUnmarshal is how the YAML decoder words a value of the wrong
// kind, naming the Go type it was decoding into.
var cannotUnmarshal = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("cannot unmarshal !!(\\w+)(?: `[^`]*`)? into (\\S+)") })

var yamlKinds = map[string]string{"str": "a string", "int": "a number", "float": "a number", "bool": "true or false",
	"null": "nothing", "seq": "a list", "map": "a mapping", "timestamp": "a date"}

// wanted is a Go type the suite is decoded into, in the suite's words.
func wanted(goType string) string {
	switch goType {
	case "suite.suiteDoc":
		return "a suite (a mapping of version, server, tests…)"
	case "[]suite.testDoc":
		return "a list of tests"
	case "[]suite.stepDoc":
		return "a list of steps"
	case "suite.testDoc":
		return "a test (a mapping of name, steps…)"
	case "suite.stepDoc", "suite.stepFields":
		return "a step (a mapping of " + kindNames("", nil) + ", and what it expects)"
	case "map[string]string":
		return "a mapping of names to strings"
	case "[]string":
		return "a list of strings"
	case "string":
		return "a string"
	case "int":
		return "a whole number"
	case "bool", "*bool":
		return "true or false"
	}
	return "a mapping" // the structs of the other keys
}

// yamlError is a decoder's error as a suite error with its line.
func yamlError(path string, err error) error {
	msg := err.Error()
	if m := unknownField().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: path, Line: line, Msg: fmt.Sprintf("unknown key %q", m[2])}
	}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
		if m := cannotUnmarshal().FindStringSubmatch(msg); m != nil {
			msg = strings.Replace(msg, m[0], fmt.Sprintf("want %s, got %s", wanted(m[2]), yamlKinds[m[1]]), 1)
		}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := regexp.MustCompile(`^(?:unmarshal errors:\s*)?line (\d+): (.*)$`).FindStringSubmatch(strings.TrimSpace(msg)); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{File: path, Line: line, Msg: m[2]}
	}
	return &Error{File: path, Msg: msg}
}

// expandEntries are the entries of the map under key, sorted, each
// KEY<sep>VALUE with its value expanded.
func expandEntries(x *expander, top *yaml.Node, key, sep string, m map[string]string) ([]string, error) {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, err := x.expand(m[k], valueLine(top, key, k))
		if err != nil {
			return nil, err
		}
		out = append(out, k+sep+v)
	}
	return out, nil
}

func (s *Suite) readServer(n *yaml.Node, x *expander) error {
	s.ServerLine = n.Line
	var words []string
	switch n.Kind {
	case 0:
		return &Error{File: s.File, Msg: `server is missing (a command as a list, a URL, "@NAME" or "fixture")`}
	case yaml.ScalarNode:
		words = []string{n.Value}
	case yaml.SequenceNode:
		if err := n.Decode(&words); err != nil || len(words) == 0 {
			return &Error{File: s.File, Line: n.Line, Msg: "server must be a command as a list of words, a URL, \"@NAME\" or \"fixture\""}
		}
	default:
		return &Error{File: s.File, Line: n.Line, Msg: "server must be a command as a list of words, a URL, \"@NAME\" or \"fixture\""}
	}
	if len(words) == 1 && words[0] == FixtureServer {
		return nil
	}
	for i, w := range words {
		v, err := x.expand(w, n.Line)
		if err != nil {
			return err
		}
		words[i] = v
	}
	s.Server = words
	return nil
}

// readRevisions reads protocol: a revision or a list of them.
func readRevisions(path string, n *yaml.Node) ([]string, error) {
	if n.Kind == 0 {
		return nil, nil
	}
	var list []string
	switch n.Kind {
	case yaml.ScalarNode:
		list = strings.Split(n.Value, ",")
	case yaml.SequenceNode:
		if err := n.Decode(&list); err != nil {
			return nil, &Error{File: path, Line: n.Line, Msg: "protocol must be a revision or a list of them"}
		}
	}
	out, err := Revisions(list)
	if err != nil {
		return nil, &Error{File: path, Line: n.Line, Msg: err.Error()}
	}
	return out, nil
}

// Revisions checks a list of protocol revisions: 2025-11-25 (or legacy)
// and 2026-07-28 (or modern).
func Revisions(list []string) ([]string, error) {
	var out []string
	for _, r := range list {
		switch r = strings.TrimSpace(r); r {
		case mcpclient.ProtocolLegacy, "legacy":
			r = mcpclient.ProtocolLegacy
		case mcpclient.ProtocolModern, "modern":
			r = mcpclient.ProtocolModern
		default:
			return nil, fmt.Errorf("unknown protocol revision %q (want %s or %s)", r, mcpclient.ProtocolLegacy, mcpclient.ProtocolModern)
		}
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no protocol revision given")
	}
	return out, nil
}

func readRedactions(path string, exprs []string, n *yaml.Node) ([]*Redaction, error) {
	var out []*Redaction
	for i, e := range exprs {
		line := 0
		if n != nil && i < len(n.Content) {
			line = n.Content[i].Line
		}
		p, err := jsonpath.Parse(e)
		if err != nil {
			return nil, &Error{File: path, Line: line, Msg: fmt.Sprintf("redact: %q is not a JSONPath: %v", e, err)}
		}
		out = append(out, &Redaction{Path: p, Line: line})
	}
	return out, nil
}

func readTest(path string, d *testDoc, n *yaml.Node, x *expander) (*Test, error) {
	t := &Test{Name: d.Name, Line: n.Line, Parity: d.Parity == nil || *d.Parity}
	if t.Name == "" {
		return nil, &Error{File: path, Line: n.Line, Msg: "a test needs a name"}
	}
	if d.Skip.Kind != 0 {
		if d.Skip.Kind != yaml.ScalarNode || d.Skip.Decode(&t.Skip) != nil && d.Skip.Tag != "!!str" {
			return nil, &Error{File: path, Line: d.Skip.Line, Msg: "skip: is true, false or the reason the test is skipped"}
		}
		if d.Skip.Tag == "!!str" {
			t.SkipReason = strings.TrimSpace(d.Skip.Value)
			t.Skip = t.SkipReason != ""
		}
	}
	revs, err := readRevisions(path, &d.Protocol)
	if err != nil {
		return nil, err
	}
	t.Revisions = revs
	if len(d.Steps) == 0 {
		return nil, &Error{File: path, Line: n.Line, Msg: fmt.Sprintf("test %q has no steps", t.Name)}
	}
	steps := mapValue(n, "steps")
	for i := range d.Steps {
		st, err := readStep(path, &d.Steps[i], steps.Content[i], x)
		if err != nil {
			return nil, err
		}
		t.Steps = append(t.Steps, st)
	}
	return t, nil
}

func readStep(path string, d *stepDoc, n *yaml.Node, x *expander) (*Step, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: path, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	st := &Step{Line: n.Line}
	if err := st.readKind(path, d, n); err != nil {
		return nil, err
	}
	if d.Args.Kind != 0 {
		if !StepKindOf(st.Kind).Args {
			return nil, fail(d.Args.Line, "args belong to %s step", kindNames("a ", func(k *StepKind) bool { return k.Args }))
		}
		if d.Args.Kind != yaml.MappingNode {
			return nil, fail(d.Args.Line, "args must be a mapping")
		}
		v, err := nodeValue(&d.Args)
		if err != nil {
			return nil, fail(d.Args.Line, "args: %v", err)
		}
		if v, err = x.expandEnv(v, d.Args.Line); err != nil {
			return nil, err
		}
		st.Args = v
	}
	var err error
	if st.Answers, st.AnswersLines, err = readAnswers(path, &d.Answers, x); err != nil {
		return nil, err
	}
	if d.Timeout != "" {
		if st.Timeout, err = parseDuration(d.Timeout); err != nil {
			return nil, fail(lineOf(n, "timeout"), "timeout: %v", err)
		}
	}
	if st.Redact, err = readRedactions(path, d.Redact, mapValue(n, "redact")); err != nil {
		return nil, err
	}
	for i, e := range d.Explore {
		p, err := mcpclient.ParsePolicy(e)
		if err != nil {
			return nil, fail(itemLine(n, "explore", i), "explore: %q is not decline, cancel or accept-defaults", e)
		}
		st.Explore = append(st.Explore, p)
	}
	if st.Capture, err = readCaptures(path, &d.Capture); err != nil {
		return nil, err
	}
	if d.Expect.Kind != 0 {
		if st.Expect, err = readExpect(path, &d.Expect, st.Kind); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func readCaptures(path string, n *yaml.Node) ([]Capture, error) {
	if n.Kind == 0 {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, &Error{File: path, Line: n.Line, Msg: "capture must map names to JSONPaths"}
	}
	var out []Capture
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		p, err := jsonpath.Parse(v.Value)
		if err != nil {
			return nil, &Error{File: path, Line: v.Line, Msg: fmt.Sprintf("capture %s: %q is not a JSONPath: %v", k.Value, v.Value, err)}
		}
		out = append(out, Capture{Name: k.Value, Path: p, Line: k.Line})
	}
	return out, nil
}

// readAnswers reads a step's answers: inline entries of the answers-file
// format, or the path of an answers file (from the suite's folder).
func readAnswers(path string, n *yaml.Node, x *expander) ([]mcpclient.Answer, []int, error) {
	switch n.Kind {
	case 0:
		return nil, nil, nil
	case yaml.ScalarNode:
		file, err := x.expand(n.Value, n.Line)
		if err != nil {
			return nil, nil, err
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(filepath.Dir(path), file)
		}
		answers, err := mcpclient.LoadAnswers(file)
		if err != nil {
			return nil, nil, &Error{File: path, Line: n.Line, Msg: err.Error()}
		}
		return answers, make([]int, len(answers)), nil
	case yaml.SequenceNode:
		v, err := nodeValue(n)
		if err != nil {
			return nil, nil, &Error{File: path, Line: n.Line, Msg: "answers: " + err.Error()}
		}
		lines := make([]int, len(n.Content))
		for i, c := range n.Content {
			lines[i] = c.Line
			e, err := x.expandEnv(v.([]any)[i], c.Line)
			if err != nil {
				return nil, nil, err
			}
			v.([]any)[i] = e
			// Each entry alone, so that a mistake names its line.
			data, _ := jsonMarshal([]any{v.([]any)[i]})
			if _, err := mcpclient.ParseAnswers(data); err != nil {
				return nil, nil, &Error{File: path, Line: c.Line, Msg: "answers: " + strings.TrimPrefix(err.Error(), "entry 1: ")}
			}
		}
		data, _ := jsonMarshal(v)
		answers, err := mcpclient.ParseAnswers(data)
		if err != nil {
			return nil, nil, &Error{File: path, Line: n.Line, Msg: "answers: " + err.Error()}
		}
		return answers, lines, nil
	}
	return nil, nil, &Error{File: path, Line: n.Line, Msg: "answers must be a list of entries or the path of an answers file"}
}

// checkKeys refuses a key of mapping n that is not one of known.
func checkKeys(path string, n *yaml.Node, known ...string) error {
	if n.Kind != yaml.MappingNode {
		return &Error{File: path, Line: n.Line, Msg: "expected a mapping"}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !slices.Contains(known, k.Value) {
			return &Error{File: path, Line: k.Line, Msg: fmt.Sprintf("unknown key %q (want %s)", k.Value, strings.Join(known, ", "))}
		}
	}
	return nil
}

// parseDuration reads a duration such as 10s or 250ms.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q is not a duration such as 10s or 250ms", s)
	}
	return d, nil
}

// mapValue is the value of key in a mapping node, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// lineOf is the line of key in a mapping node (0 if absent).
func lineOf(n *yaml.Node, key string) int {
	if n == nil || n.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i].Line
		}
	}
	return n.Line
}

func valueLine(n *yaml.Node, key, sub string) int {
	if v := mapValue(n, key); v != nil {
		return lineOf(v, sub)
	}
	return 0
}

func itemLine(n *yaml.Node, key string, i int) int {
	if v := mapValue(n, key); v != nil && i < len(v.Content) {
		return v.Content[i].Line
	}
	return lineOf(n, key)
}

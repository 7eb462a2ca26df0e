// `mcpeek test init`: a starter suite written from a server's tools.

package author

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/internal/yamlout"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"
)

// StarterInput is what a starter suite is written from.
type StarterInput struct {
	// Server is the server's words (nil: the fixture).
	Server []string
	// Tools are the server's tools, one test each.
	Tools []*mcp.Tool
	// Known are the values the session knows as secrets.
	Known secret.Known
	// Revisions are those the server speaks (of the two eras), the
	// suite's protocol:; nil leaves protocol: out, and the suite runs in
	// the eras the server speaks.
	Revisions []string
	// Env are the -e KEY=VALUE entries the server command was given, and
	// Headers the -H "Name: Value" ones: the suite's env: and headers:.
	Env, Headers []string
	// Try calls a tool once with arguments, as its test will, and tells
	// what it asked (nil: no tool is called, and no answers are written).
	Try func(tool string, args map[string]any) Tried
}

// Tried is what one call of a tool did, as test init saw it.
type Tried struct {
	// Questions are those the call asked, with the answers given, and
	// Rounds its input rounds (suite.StepQuestions).
	Questions []suite.Question
	Rounds    int
	// Era is the revision the call was made in.
	Era string
	// Failed says, in mcpeek's words (never the server's), why the call
	// did not succeed: "" when it did.
	Failed string
	// Result is what the call returned, as decoded JSON (nil: it failed).
	Result any
}

// Starter is a suite with one test per tool, named after it: a call with
// arguments its input schema accepts (SampleArgs), expected not to fail.
// A tool destructive by its hints and the spec's defaults, as diff reads
// them (surface.Destructive), is written skipped with a comment saying
// why and how to run it. Each other tool is tried once (in.Try): one that
// asked questions is written with the answers given and what it asked
// (as + writes it), one whose call failed is written skipped saying so.
// When the suite runs in both eras a tool is tried twice, and one whose
// result differed from one call to the next (an id, a time) is written
// with parity: false, saying where: era parity compares the eras'
// results, and would fail on what differs from call to call.
// An argument, env: or headers: value the one secret rule holds secret is
// written as an {{env.MCPEEK_SECRET_…}} template, never a value: env are
// those variables, sorted, to be set when the suite runs.
func Starter(in StarterInput) (text []byte, env []string, err error) {
	var b strings.Builder
	b.WriteString("# A starter suite written by mcpeek test init: one test per tool.\n")
	b.WriteString("# Fill in the arguments, add answers for the questions each tool asks\n")
	b.WriteString("# (a question without an answer fails its step), then run: mcpeek test\n")
	b.WriteString("version: 1\n")
	srv := any(suite.FixtureServer)
	if in.Server != nil {
		srv = in.Server
	}
	if err := writeYAML(&b, map[string]any{"server": srv}); err != nil {
		return nil, nil, err
	}
	if len(in.Revisions) > 0 {
		b.WriteString("protocol: [" + strings.Join(in.Revisions, ", ") + "]\n")
	}
	for _, set := range []struct {
		key, sep string
		entries  []string
	}{{"env", "=", in.Env}, {"headers", ":", in.Headers}} {
		m, vars := templateEntries(set.entries, set.sep, in.Known)
		env = append(env, vars...)
		if len(m) > 0 {
			if err := writeYAML(&b, map[string]any{set.key: m}); err != nil {
				return nil, nil, err
			}
		}
	}
	b.WriteString("tests:\n")
	sorted := append([]*mcp.Tool(nil), in.Tools...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		item, vars, err := starterTest(t, in)
		if err != nil {
			return nil, nil, err
		}
		env = append(env, vars...)
		b.WriteString(indent(item, "  "))
	}
	sort.Strings(env)
	return []byte(b.String()), slices.Compact(env), nil
}

// starterTest is the test of tool t, as YAML (a one-item sequence), and
// the variables its secrets are read from.
func starterTest(t *mcp.Tool, in StarterInput) (string, []string, error) {
	var env []string
	args := SampleArgs(t.InputSchema)
	var tried *Tried
	var item strings.Builder
	skip, how := "", ""
	switch {
	case IsDestructive(t):
		skip = "may change or lose data: not annotated readOnlyHint: true or destructiveHint: false (the spec's defaults)"
		how = "# " + oneLine(t.Name) + " is skipped so that the suite changes nothing. To run it, point the suite\n" +
			"# at a server whose data you can lose and delete the skip: line.\n"
	case in.Try != nil:
		r := in.Try(t.Name, args)
		tried = &r
		if r.Failed != "" {
			skip = "the call with these arguments " + oneLine(r.Failed) + " when test init tried it"
			how = "# " + oneLine(t.Name) + " is skipped: fill in arguments it accepts and delete the skip: line.\n"
		}
	}
	varies := ""
	if tried != nil && skip == "" && len(in.Revisions) > 1 {
		varies = variesAt(in.Try(t.Name, args), *tried)
	}
	if tried != nil && skip == "" && len(tried.Questions) > 0 {
		text, vars, err := askingTest(t, args, *tried, in, varies)
		return text, vars, err
	}
	test := starterTestDoc{Name: t.Name, Skip: skip}
	if varies != "" {
		test.Parity = new(false)
		how = variesComment(t.Name, varies)
	}
	call := starterStep{Call: t.Name, Expect: map[string]any{"isError": false}}
	if len(args) > 0 {
		for _, p := range secret.Paths(t.InputSchema, args, in.Known) {
			env = templateSecret(args, strings.Split(p, "."), env)
		}
		call.Args = args
	}
	item.WriteString(how)
	test.Steps = []starterStep{call}
	if err := writeYAML(&item, []any{test}); err != nil {
		return "", nil, err
	}
	return item.String(), env, nil
}

// starterTestDoc and starterStep are a starter's test as written, its
// keys in the order a person reads them.
type starterTestDoc struct {
	Name   string        `yaml:"name"`
	Skip   string        `yaml:"skip,omitempty"`
	Parity *bool         `yaml:"parity,omitempty"`
	Steps  []starterStep `yaml:"steps"`
}

// variesAt is where a second call's result differed from the first's, as
// a JSONPath, comparing them as era parity does; "" when they are the
// same or the second call failed.
func variesAt(again, first Tried) string {
	if again.Failed != "" {
		return ""
	}
	if d, differ := suite.CompareResults(first.Result, again.Result, nil); differ {
		return d.Path.JSONPath()
	}
	return ""
}

// variesComment says why a test is written with parity: false, on
// comment lines whatever the server named its tool or members.
func variesComment(tool, at string) string {
	return "# " + oneLine(tool) + "'s result differed from one call to the next (at " + oneLine(at) + "), so era parity,\n" +
		"# which compares one era's result with the other's, is off for it: parity: false.\n"
}

type starterStep struct {
	Call   string         `yaml:"call"`
	Args   map[string]any `yaml:"args,omitempty"`
	Expect map[string]any `yaml:"expect"`
}

// askingTest is the test of a tool that asked questions when tried: the
// call with the answers it was given and what it asked, as + writes it,
// expected not to fail.
func askingTest(t *mcp.Tool, args map[string]any, tried Tried, in StarterInput, varies string) (string, []string, error) {
	step := Secrets(suite.SessionStep{Kind: suite.StepCall, Target: t.Name, Args: args, Era: tried.Era, Eras: in.Revisions,
		Questions: tried.Questions, Rounds: tried.Rounds, NoSnapshot: true}, t.InputSchema, in.Known)
	d, err := suite.BuildTest(t.Name, step)
	if err != nil {
		return "", nil, err
	}
	n := d.Node()
	if varies != "" && len(n.Content) >= 2 { // after the name
		n.Content = slices.Insert(n.Content, 2, &yaml.Node{Kind: yaml.ScalarNode, Value: "parity"},
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "steps" || len(n.Content[i+1].Content) == 0 {
			continue
		}
		stepNode := n.Content[i+1].Content[0]
		for j := 0; j+1 < len(stepNode.Content); j += 2 {
			if stepNode.Content[j].Value == "expect" {
				e := stepNode.Content[j+1]
				e.Content = append([]*yaml.Node{{Kind: yaml.ScalarNode, Value: "isError"}, {Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}}, e.Content...)
			}
		}
	}
	data, err := yamlout.Marshal(&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}})
	if err != nil {
		return "", nil, err
	}
	text := "# " + oneLine(t.Name) + " asks questions: test init called it and wrote the answers it gave.\n" + string(data)
	if varies != "" {
		text = variesComment(t.Name, varies) + text
	}
	return text, d.Env, nil
}

// oneLine is text on one line, for a YAML comment.
func oneLine(text string) string {
	return strings.Join(strings.Fields(text), " ")
}

// templateEntries are KEY<sep>VALUE entries (-e, -H) as a map, each value
// the one secret rule holds secret (by its name or a value known knows)
// written as an {{env.MCPEEK_SECRET_…}} template, and those variables.
func templateEntries(entries []string, sep string, known secret.Known) (map[string]any, []string) {
	var env []string
	out := map[string]any{}
	for _, e := range entries {
		k, v, ok := strings.Cut(e, sep)
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		out[k] = v
		if len(secret.Paths(nil, map[string]any{k: v}, known)) > 0 {
			name := suite.SecretVar(k)
			out[k] = "{{env." + name + "}}"
			env = append(env, name)
		}
	}
	return out, env
}

// templateSecret writes the value at path in args, if there is one, as
// the {{env.X}} template + writes for its field (suite.SecretVar), and
// adds X to env.
func templateSecret(args map[string]any, path []string, env []string) []string {
	for len(path) > 1 {
		sub, ok := args[path[0]].(map[string]any)
		if !ok {
			return env
		}
		args, path = sub, path[1:]
	}
	if _, ok := args[path[0]]; !ok {
		return env
	}
	name := suite.SecretVar(path[0])
	args[path[0]] = "{{env." + name + "}}"
	return append(env, name)
}

func writeYAML(b *strings.Builder, v any) error {
	data, err := yamlout.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(data)
	return nil
}

func indent(text, pad string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i := range lines {
		lines[i] = pad + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// IsDestructive reports whether test init leaves t skipped: destructive by
// its hints and the spec's defaults, as diff reads them.
func IsDestructive(t *mcp.Tool) bool {
	var a map[string]any
	if t.Annotations != nil {
		a = asObject(t.Annotations)
	}
	return surface.Destructive(surface.Item{"annotations": a})
}

// TemplateSecrets writes the values a server's URL carries in its query
// or user information (API keys, tokens), and those of a command's flags
// whose names say they hold a secret (--api-key=…, --token …: the one
// secret rule's [secret.FlagValues], written as MCPEEK_SECRET_<FLAG>), as
// {{env.NAME}} templates, so that a starter suite meant to be committed
// holds none of them: the words with the templates, and each variable's
// value, to be set when the suite runs.
func TemplateSecrets(words []string) ([]string, map[string]string) {
	out := append([]string(nil), words...)
	vars := map[string]string{}
	if len(out) > 0 && !strings.HasPrefix(out[0], "@") {
		for _, f := range secret.FlagValues(out) {
			name := envName(suite.SecretVar(f.Name), vars)
			vars[name] = strings.TrimPrefix(out[f.Index], f.Prefix)
			out[f.Index] = f.Prefix + "{{env." + name + "}}"
		}
	}
	for i, w := range out {
		u, err := url.Parse(w)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue
		}
		if p, ok := u.User.Password(); ok {
			name := envName("MCPEEK_URL_PASSWORD", vars)
			vars[name] = p
			u.User = url.UserPassword(u.User.Username(), "__"+name+"__")
		}
		q := u.Query()
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var parts []string
		for _, k := range keys {
			for _, v := range q[k] {
				name := envName("MCPEEK_URL_"+k, vars)
				vars[name] = v
				parts = append(parts, url.QueryEscape(k)+"=__"+name+"__")
			}
		}
		u.RawQuery = strings.Join(parts, "&")
		s := u.String()
		for name := range vars {
			s = strings.ReplaceAll(s, "__"+name+"__", "{{env."+name+"}}")
		}
		out[i] = s
	}
	return out, vars
}

// envName is an environment variable's name for a value: base in upper
// case, letters, digits and underscores, told apart from those taken.
func envName(base string, taken map[string]string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 'a' + 'A'
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			return r
		}
		return '_'
	}, base)
	for n, try := 2, name; ; n++ {
		if _, ok := taken[try]; !ok {
			return try
		}
		try = fmt.Sprintf("%s_%d", name, n)
	}
}

// `mcpeek test init`: a starter suite written from a server's tools.

package author

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/mcpeek/mcpeek/internal/secret"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/internal/yamlout"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Starter is a suite with one test per tool: a call with arguments for
// the required fields of its input schema, expected not to fail. Tools
// annotated destructive are written skipped. server is the server's
// words (nil: the fixture). An argument the one secret rule holds secret
// (secret.Paths, with known: the values the session knows as secrets) is
// written as an {{env.MCPEEK_SECRET_…}} template, never a value: env are
// those variables, sorted, to be set when the suite runs. revisions are
// those the server speaks (of the two eras), the suite's protocol:; nil
// leaves protocol: out, and the suite runs in the eras the server speaks.
func Starter(server []string, tools []*mcp.Tool, known secret.Known, revisions []string) (text []byte, env []string, err error) {
	var b strings.Builder
	b.WriteString("# A starter suite written by mcpeek test init: one test per tool.\n")
	b.WriteString("# Fill in the arguments, add answers for the questions each tool asks\n")
	b.WriteString("# (a question without an answer fails its step), then run: mcpeek test\n")
	b.WriteString("version: 1\n")
	srv := any(suite.FixtureServer)
	if server != nil {
		srv = server
	}
	if err := writeYAML(&b, map[string]any{"server": srv}); err != nil {
		return nil, nil, err
	}
	if len(revisions) > 0 {
		b.WriteString("protocol: [" + strings.Join(revisions, ", ") + "]\n")
	}
	b.WriteString("tests:\n")
	sorted := append([]*mcp.Tool(nil), tools...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, t := range sorted {
		test := map[string]any{}
		call := map[string]any{"call": t.Name, "expect": map[string]any{"isError": false}}
		if args := requiredArgs(t.InputSchema); len(args) > 0 {
			for _, p := range secret.Paths(t.InputSchema, args, known) {
				env = templateSecret(args, strings.Split(p, "."), env)
			}
			call["args"] = args
		}
		var name strings.Builder
		fmt.Fprintf(&name, "%s answers", t.Name)
		test["name"] = name.String()
		if destructive(t) {
			test["skip"] = true
		}
		test["steps"] = []any{call}
		var item strings.Builder
		if destructive(t) {
			item.WriteString("# destructive (annotations.destructiveHint): skipped until you point it at something safe\n")
		}
		if err := writeYAML(&item, []any{test}); err != nil {
			return nil, nil, err
		}
		b.WriteString(indent(item.String(), "  "))
	}
	sort.Strings(env)
	return []byte(b.String()), slices.Compact(env), nil
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

func destructive(t *mcp.Tool) bool {
	a := t.Annotations
	return a != nil && a.DestructiveHint != nil && *a.DestructiveHint
}

// requiredArgs are the required properties of an input schema, each with
// its default, first enum value or example, else an empty value of its
// type.
func requiredArgs(schema any) map[string]any {
	data, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var s struct {
		Required   []string                  `json:"required"`
		Properties map[string]map[string]any `json:"properties"`
	}
	if json.Unmarshal(data, &s) != nil {
		return nil
	}
	out := map[string]any{}
	for _, name := range s.Required {
		out[name] = placeholderValue(s.Properties[name])
	}
	return out
}

func placeholderValue(p map[string]any) any {
	if v, ok := p["default"]; ok {
		return v
	}
	if e, ok := p["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if ex, ok := p["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	switch p["type"] {
	case "integer", "number":
		return 0
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return ""
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

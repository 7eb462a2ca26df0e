// Templates in suite files: {{env.X}}, {{tmp}} and {{suite_dir}} when the
// suite is read, captures ({{id}}) when a step runs.

package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/internal/secret"
	"go.yaml.in/yaml/v3"
)

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}`) })

// expander expands the templates a suite may use where it is read.
type expander struct {
	suite  *Suite
	getenv func(string) (string, bool)
	file   string
	// connection: what is expanded is how the server is reached (server:
	// and env:), whose values the run holds secret.
	connection bool
}

// expand replaces {{env.X}}, {{tmp}} and {{suite_dir}} in s; any other
// name is an error at line.
func (x *expander) expand(s string, line int) (string, error) {
	var bad error
	out := placeholder().ReplaceAllStringFunc(s, func(m string) string {
		v, err := x.value(placeholder().FindStringSubmatch(m)[1])
		if err != nil && bad == nil {
			bad = &Error{File: x.file, Line: line, Msg: err.Error()}
		}
		return v
	})
	return out, bad
}

func (x *expander) value(name string) (string, error) {
	switch {
	case name == "tmp":
		return x.suite.tmpDir()
	case name == "suite_dir":
		return x.suite.Dir, nil
	case strings.HasPrefix(name, "env."):
		key := strings.TrimPrefix(name, "env.")
		v, ok := x.getenv(key)
		if !ok {
			return "", fmt.Errorf("the environment variable %s is not set ({{%s}})", key, name)
		}
		x.suite.read(key, v, x.connection)
		return v, nil
	}
	return "", fmt.Errorf("{{%s}} is not known here (use {{env.X}}, {{tmp}} or {{suite_dir}})", name)
}

// expandEnv is v (decoded JSON, a step's args or answers) with {{env.X}}
// expanded in its strings, at line; other templates are left as they
// are (captures, expanded when the step runs). The values of
// MCPEEK_SECRET_ variables, which a saved test writes secrets as, are
// hidden from results as the run's secrets are.
func (x *expander) expandEnv(v any, line int) (any, error) {
	switch t := v.(type) {
	case string:
		var bad error
		out := placeholder().ReplaceAllStringFunc(t, func(m string) string {
			name := placeholder().FindStringSubmatch(m)[1]
			if !strings.HasPrefix(name, "env.") {
				return m
			}
			val, err := x.value(name)
			if err != nil {
				if bad == nil {
					bad = &Error{File: x.file, Line: line, Msg: err.Error()}
				}
				return m
			}
			if strings.HasPrefix(name, "env."+secretPrefix) {
				x.suite.hide(val)
			}
			return val
		})
		return out, bad
	case []any:
		for i, e := range t {
			e, err := x.expandEnv(e, line)
			if err != nil {
				return nil, err
			}
			t[i] = e
		}
	case map[string]any:
		for k, e := range t {
			e, err := x.expandEnv(e, line)
			if err != nil {
				return nil, err
			}
			t[k] = e
		}
	}
	return v, nil
}

// secretPrefix begins the variables a saved test writes secrets as.
const secretPrefix = "MCPEEK_SECRET_"

// hide makes the runner hide a secret value read for a step from the
// results it compares with snapshots.
func (s *Suite) hide(v string) {
	if s.secrets == nil {
		s.secrets = &secret.Values{}
	}
	s.secrets.Add(v)
}

// read notes that the suite reads the environment variable name, whose
// value is v: a value read to reach the server (connection) is one of
// its ServerSecrets.
func (s *Suite) read(name, v string, connection bool) {
	if i, found := slices.BinarySearch(s.EnvReads, name); !found {
		s.EnvReads = slices.Insert(s.EnvReads, i, name)
	}
	if connection && v != "" && !slices.Contains(s.ServerSecrets, v) {
		s.ServerSecrets = append(s.ServerSecrets, v)
	}
}

// tmpDir is {{tmp}}: a folder made once per suite, removed by Cleanup.
func (s *Suite) tmpDir() (string, error) {
	if s.tmp == "" {
		dir, err := os.MkdirTemp("", "mcpeek-test-")
		if err != nil {
			return "", err
		}
		s.tmp = dir
	}
	return s.tmp, nil
}

// Cleanup removes what reading the suite made ({{tmp}}).
func (s *Suite) Cleanup() {
	if s.tmp != "" {
		_ = os.RemoveAll(s.tmp)
	}
}

// vars are a test's captures, with {{tmp}} and {{suite_dir}}.
type vars map[string]any

// expandValue expands templates in every string of v: a string that is
// one placeholder alone becomes the captured value, whatever its type.
func (vs vars) expandValue(v any) (any, error) {
	switch t := v.(type) {
	case string:
		if m := placeholder().FindStringSubmatch(t); m != nil && m[0] == t {
			val, ok := vs[m[1]]
			if !ok {
				return nil, fmt.Errorf("{{%s}} names no capture of this test", m[1])
			}
			return val, nil
		}
		var bad error
		out := placeholder().ReplaceAllStringFunc(t, func(m string) string {
			name := placeholder().FindStringSubmatch(m)[1]
			val, ok := vs[name]
			if !ok {
				bad = fmt.Errorf("{{%s}} names no capture of this test", name)
				return m
			}
			if s, ok := val.(string); ok {
				return s
			}
			b, _ := json.Marshal(val)
			return string(b)
		})
		return out, bad
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			x, err := vs.expandValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			x, err := vs.expandValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = x
		}
		return out, nil
	}
	return v, nil
}

// nodeValue is a YAML node as the JSON value it stands for: numbers as
// float64, mappings as map[string]any.
func nodeValue(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return jsonValue(v)
}

// jsonValue is v after a round trip through JSON.
func jsonValue(v any) (any, error) {
	data, err := jsonMarshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonMarshal marshals v, whose maps YAML may have keyed by any value.
func jsonMarshal(v any) ([]byte, error) {
	return json.Marshal(stringKeys(v))
}

func stringKeys(v any) any {
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[fmt.Sprint(k)] = stringKeys(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = stringKeys(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = stringKeys(e)
		}
		return out
	}
	return v
}

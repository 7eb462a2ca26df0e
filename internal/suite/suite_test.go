package suite

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// TestPredicates keeps one firing and one near-miss case per operator.
func TestPredicates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		predicate string
		actual    any
		absent    bool
		want      bool
	}{
		{`hello`, "hello", false, true},
		{`hello`, "hello!", false, false},
		{`{a: 1, b: [x]}`, map[string]any{"a": 1.0, "b": []any{"x"}}, false, true},
		{`{a: 1}`, map[string]any{"a": 1.0, "b": 2.0}, false, false},
		{`{equals: {contains: x}}`, map[string]any{"contains": "x"}, false, true},
		{`{contains: ell}`, "hello", false, true},
		{`{contains: ell}`, "help", false, false},
		{`{contains: 2}`, []any{1.0, 2.0}, false, true},
		{`{contains: 3}`, []any{1.0, 2.0}, false, false},
		{`{contains: id}`, map[string]any{"id": 1.0}, false, true},
		{`{matches: "^n[0-9]+$"}`, "n12", false, true},
		{`{matches: "^n[0-9]+$"}`, "n12a", false, false},
		{`{matches: "x"}`, 12.0, false, false},
		{`{type: string}`, "x", false, true},
		{`{type: string}`, 1.0, false, false},
		{`{type: integer}`, 3.0, false, true},
		{`{type: integer}`, 3.5, false, false},
		{`{type: number}`, 3.0, false, true},
		{`{type: array}`, []any{}, false, true},
		{`{type: object}`, []any{}, false, false},
		{`{type: "null"}`, nil, false, true},
		{`{type: boolean}`, false, false, true},
		{`{length: 3}`, "héé", false, true},
		{`{length: {gte: 2}}`, []any{1.0}, false, false},
		{`{length: 1}`, map[string]any{"a": 1.0}, false, true},
		{`{length: 1}`, 5.0, false, false},
		{`{gte: 2}`, 2.0, false, true},
		{`{gte: 2}`, 1.9, false, false},
		{`{gt: 2}`, 2.1, false, true},
		{`{gt: 2}`, 2.0, false, false},
		{`{lte: 2}`, 2.0, false, true},
		{`{lte: 2}`, 2.5, false, false},
		{`{lt: 2}`, 1.0, false, true},
		{`{lt: 2}`, 2.0, false, false},
		{`{lt: 2}`, "1", false, false},
		{`{lt: 2s}`, 1500 * time.Millisecond, false, true},
		{`{lt: 2s}`, 2 * time.Second, false, false},
		{`{gte: 1, lte: 3}`, 2.0, false, true},
		{`{gte: 1, lte: 3}`, 4.0, false, false},
		{`{includes: {name: a}}`, []any{map[string]any{"name": "a", "x": 1.0}}, false, true},
		{`{includes: {name: b}}`, []any{map[string]any{"name": "a"}}, false, false},
		{`{includes: [a, c]}`, []any{"a", "b", "c"}, false, true},
		{`{includes: [a, d]}`, []any{"a", "b", "c"}, false, false},
		{`{includes: {a: {b: 1}}}`, map[string]any{"a": map[string]any{"b": 1.0, "c": 2.0}}, false, true},
		{`{exists: true}`, nil, false, true},
		{`{exists: true}`, nil, true, false},
		{`{exists: false}`, nil, true, true},
		{`{absent: true}`, nil, true, true},
		{`{absent: true}`, "x", false, false},
		{`x`, nil, true, false},
		{`"{{id}}"`, "n1", false, true},
		{`"{{id}}"`, "n2", false, false},
		{`"note {{id}}"`, "note n1", false, true},
		{`"{{count}}"`, 3.0, false, true},
	}
	vs := vars{"id": "n1", "count": 3.0}
	for _, tt := range tests {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tt.predicate), &n); err != nil {
			t.Fatal(err)
		}
		p, err := parsePredicate("t.yaml", n.Content[0])
		if err != nil {
			t.Fatalf("%s: %v", tt.predicate, err)
		}
		got, why, err := p.Check(tt.actual, !tt.absent, vs)
		if err != nil {
			t.Fatalf("%s: %v", tt.predicate, err)
		}
		if got != tt.want {
			t.Errorf("%s on %#v (absent %t): %t (%s), want %t", tt.predicate, tt.actual, tt.absent, got, why, tt.want)
		}
	}
}

func TestBadSuites(t *testing.T) {
	t.Setenv("MCPEEK_TEST_SET", "x")
	head := "version: 1\nserver: fixture\n"
	tests := []struct {
		name, text, want string
	}{
		{"unknown top key", head + "tset: []\n", `t.mcpeek.yaml:3: unknown key "tset"`},
		{"unknown test key", head + "tests:\n  - name: a\n    stpes: []\n", `t.mcpeek.yaml:5: unknown key "stpes"`},
		{"unknown step key", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expcet: {}\n", `t.mcpeek.yaml:7: unknown key "expcet"`},
		{"unknown expectation", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expect:\n          isEror: true\n", `t.mcpeek.yaml:8: unknown key "isEror"`},
		{"unknown asked key", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expect:\n          asked:\n            - {kind: elicitation, msg: x}\n", `t.mcpeek.yaml:9: unknown key "msg"`},
		{"JSONPath", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expect:\n          jsonpath: {\"$.a[\": 1}\n", `t.mcpeek.yaml:8: jsonpath: "$.a[" does not parse`},
		{"redaction JSONPath", head + "defaults: {redact: [\"$$\"]}\ntests: [{name: a, steps: [{list: tools}]}]\n", `t.mcpeek.yaml:3: redact: "$$" is not a JSONPath`},
		{"regular expression", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expect:\n          text: {matches: \"a(\"}\n", `t.mcpeek.yaml:8: matches: "a(" does not compile`},
		{"capture", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        capture: {id: \"$[\"}\n", `t.mcpeek.yaml:7: capture id: "$[" is not a JSONPath`},
		{"environment", "version: 1\nserver: [node, \"{{env.MCPEEK_TEST_UNSET}}\"]\ntests: [{name: a, steps: [{list: tools}]}]\n", `t.mcpeek.yaml:2: the environment variable MCPEEK_TEST_UNSET is not set`},
		{"answers entry", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        answers:\n          - {action: accept}\n          - {action: maybe}\n", `t.mcpeek.yaml:9: answers: unknown action "maybe"`},
		{"answers file", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        answers: missing.json\n", `t.mcpeek.yaml:7: answers file: open`},
		{"revision", head + "protocol: [2025-06-18]\ntests: [{name: a, steps: [{list: tools}]}]\n", `t.mcpeek.yaml:3: unknown protocol revision "2025-06-18"`},
		{"two kinds in a step", head + "tests:\n  - name: a\n    steps:\n      - {call: x, read: y}\n", `t.mcpeek.yaml:6: a step is one of call, read, prompt, list or complete (found 2)`},
		{"version", "version: 2\nserver: fixture\ntests: []\n", `t.mcpeek.yaml:1: version must be 1`},
		{"predicate argument", head + "tests:\n  - name: a\n    steps:\n      - call: x\n        expect:\n          text: {type: text}\n", `t.mcpeek.yaml:8: type: want one of`},
		{"duplicate test", head + "tests:\n  - {name: a, steps: [{list: tools}]}\n  - {name: a, steps: [{list: tools}]}\n", `t.mcpeek.yaml:5: a second test named "a" (the first is on line 4)`},
		{"not YAML", head + "tests: [\n", `t.mcpeek.yaml:`},
		{"empty", "# nothing yet\n", `t.mcpeek.yaml: the file is empty (a suite starts with version: 1)`},
		{"not a mapping", "hello\n", `t.mcpeek.yaml:1: want a suite (a mapping of version, server, tests…), got a string`},
		{"tests not a list", head + "tests: {a: 1}\n", `t.mcpeek.yaml:3: want a list of tests, got a mapping`},
		{"steps not a list", head + "tests:\n  - name: a\n    steps: call\n", `t.mcpeek.yaml:5: want a list of steps, got a string`},
		{"env not a mapping", head + "env: [A]\ntests: [{name: a, steps: [{list: tools}]}]\n", `t.mcpeek.yaml:3: want a mapping of names to strings, got a list`},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "t.mcpeek.yaml")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path, os.LookupEnv)
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Load: %v, want a suite error", err)
			}
			got := strings.Replace(err.Error(), dir+string(filepath.Separator), "", 1)
			if !strings.Contains(got, tt.want) || strings.Contains(got, "suite.") {
				t.Fatalf("error %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTemplates(t *testing.T) {
	t.Setenv("MCPEEK_TEST_DB", "notes")
	dir := t.TempDir()
	path := filepath.Join(dir, "t.mcpeek.yaml")
	text := "version: 1\nserver: [srv, \"{{suite_dir}}/x\"]\nenv: {DB: \"{{tmp}}/{{env.MCPEEK_TEST_DB}}.db\"}\ntests: [{name: a, steps: [{list: tools}]}]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Cleanup()
	if s.Server[1] != filepath.Join(s.Dir, "x") {
		t.Errorf("server %v", s.Server)
	}
	if len(s.Env) != 1 || !strings.HasPrefix(s.Env[0], "DB="+s.tmp+"/notes.db") || s.tmp == "" {
		t.Errorf("env %v (tmp %q)", s.Env, s.tmp)
	}
	if _, err := os.Stat(s.tmp); err != nil {
		t.Fatal(err)
	}
	s.Cleanup()
	if _, err := os.Stat(s.tmp); !os.IsNotExist(err) {
		t.Fatalf("{{tmp}} outlived the suite: %v", err)
	}
}

// TestEnvReads: a suite names every environment variable it reads, and
// the values read to reach its server (server: and env:) are its server's
// secrets, which the run redacts; a value read for a step's arguments is
// read, but the step's own to send.
func TestEnvReads(t *testing.T) {
	env := map[string]string{"API_KEY": "key-0123456789", "UPSTREAM": "https://up.example/?k=abcdefgh", "QUERY": "weather in paris"}
	text := `version: 1
server: [srv, "--api-key={{env.API_KEY}}"]
env: {UP: "{{env.UPSTREAM}}"}
tests: [{name: a, steps: [{call: search, args: {q: "{{env.QUERY}}"}}]}]
`
	s, err := Parse("t.mcpeek.yaml", []byte(text), func(name string) (string, bool) { v, ok := env[name]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"API_KEY", "QUERY", "UPSTREAM"}; !slices.Equal(s.EnvReads, want) {
		t.Errorf("EnvReads = %q, want %q", s.EnvReads, want)
	}
	if want := []string{env["API_KEY"], env["UPSTREAM"]}; !slices.Equal(s.ServerSecrets, want) {
		t.Errorf("ServerSecrets = %q, want %q", s.ServerSecrets, want)
	}
	other, err := Parse("t.mcpeek.yaml", []byte(text+"# edited\n"), func(name string) (string, bool) { v, ok := env[name]; return v, ok })
	if err != nil || other.Digest == s.Digest || len(s.Digest) != 64 {
		t.Errorf("an edited suite's digest %q, the suite's %q (%v)", other.Digest, s.Digest, err)
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// mcpeek/diff.yaml is mcpeek diff's config, beside the suites.
	for _, f := range []string{"a.mcpeek.yaml", "notes.yaml", "mcpeek/b.yaml", "mcpeek/diff.yaml", "mcpeek/__snapshots__/b.snap.yaml", "sub/c.mcpeek.yaml"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Files(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.mcpeek.yaml"), filepath.Join(dir, "mcpeek", "b.yaml")}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("found %v, want %v", got, want)
	}
	got, err = Files(dir, []string{filepath.Join(dir, "mcpeek")})
	if err != nil || strings.Join(got, ",") != filepath.Join(dir, "mcpeek", "b.yaml") {
		t.Errorf("the mcpeek folder: %v %v", got, err)
	}
	// A suite named twice (a folder and a file in it) runs once.
	got, err = Files(dir, []string{filepath.Join(dir, "mcpeek"), filepath.Join(dir, "mcpeek", "b.yaml"), filepath.Join(dir, "mcpeek", ".", "b.yaml")})
	if err != nil || len(got) != 1 {
		t.Errorf("a suite named twice: %v %v", got, err)
	}
	got, err = Files(dir, []string{filepath.Join(dir, "sub")})
	if err != nil || len(got) != 1 || filepath.Base(got[0]) != "c.mcpeek.yaml" {
		t.Errorf("a folder: %v %v", got, err)
	}
}

// TestBadSuiteLeavesNoTmp: a suite refused after its {{tmp}} was made
// removes it, as a suite that ran does.
func TestBadSuiteLeavesNoTmp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	path := filepath.Join(t.TempDir(), "t.mcpeek.yaml")
	text := "version: 1\nserver: fixture\nenv: {DB: \"{{tmp}}/notes.db\"}\nsession: sometimes\ntests: [{name: a, steps: [{list: tools}]}]\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path, os.LookupEnv); err == nil {
		t.Fatal("a bad session was taken")
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

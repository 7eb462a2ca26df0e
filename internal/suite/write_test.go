package suite

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionStep calls tool on the fixture in rev, answering with answers,
// and returns the step as a session saw it.
func sessionStep(t *testing.T, rev, tool string, answers []mcpclient.Answer, roots []string) SessionStep {
	t.Helper()
	asker := &Asker{}
	asker.use(&mcpclient.HeadlessAsker{Answers: answers, Strict: true})
	records := mcpclient.NewRecorder(nil)
	conn, _, err := dialFixture(t.Context(), Dial{Suite: &Suite{Roots: roots}, Revision: rev, Asker: asker, Records: records})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	res, err := conn.Call(t.Context(), tool, nil)
	if err != nil {
		t.Fatal(err)
	}
	qs, rounds := StepQuestions(conn, 0, start)
	return SessionStep{Kind: StepCall, Target: tool, Era: rev, Questions: qs, Rounds: rounds, Result: res}
}

// A step saved as a test, answers and all, passes when the suite runs it
// against the same server, in both eras, whichever era it was saved in.
func TestSavedTestsPass(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	rootsDir := filepath.Join(root, "roots")
	if err := os.Mkdir(rootsDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rev := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		t.Run(rev, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "mcpeek", "saved.yaml")
			choose := mcpclient.Answer{Action: "accept", Content: map[string]any{"choice": "option-b"}}
			sample := mcpclient.Answer{Method: mcpclient.MethodSample, Result: &mcpclient.SampleAnswer{Content: json.RawMessage(`{"type":"text","text":"a broken build"}`), Model: "m1"}}
			steps := map[string]SessionStep{
				"choose B":  sessionStep(t, rev, "choose_option", []mcpclient.Answer{choose}, nil),
				"ask model": sessionStep(t, rev, "ask_model", []mcpclient.Answer{sample}, nil),
				"roots":     sessionStep(t, rev, "list_roots", nil, []string{rootsDir}),
			}
			for _, name := range []string{"choose B", "ask model", "roots"} {
				st := steps[name]
				if len(st.Questions) != 1 || st.Rounds != 1 {
					t.Fatalf("%s: %d questions, %d rounds: the fixture should ask once", name, len(st.Questions), st.Rounds)
				}
				d, err := BuildTest(name, st)
				if err != nil {
					t.Fatal(err)
				}
				// The entries answer as the session did (a re-run's answers).
				if a, err := d.Answers(); err != nil || name != "roots" && len(a) != 1 {
					t.Errorf("%s: answers %+v, %v", name, a, err)
				}
				if err := WriteTest(file, d, WriteOptions{New: NewSuite{Roots: []string{rootsDir}}}); err != nil {
					t.Fatal(err)
				}
			}
			s, err := Load(file, os.LookupEnv)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Cleanup()
			checkReadBack(t, s, choose)
			rep, err := Run(t.Context(), []*Suite{s}, Options{Dial: dialFixture})
			if err != nil {
				t.Fatal(err)
			}
			if f := failures(rep); len(f) > 0 {
				t.Fatalf("the saved tests fail:\n%s", strings.Join(f, "\n"))
			}
			if p, _, _ := rep.Counts(); p != 2*3+3 { // each test in two eras, and their parity
				t.Errorf("%d passed, want 9", p)
			}
			// A different answer is a different test: the snapshot holds it.
			sn, _ := os.ReadFile(SnapshotPath(file))
			if !strings.Contains(string(sn), "accept: option-b") || !strings.Contains(string(sn), "a broken build") {
				t.Errorf("the snapshots do not hold the answers' results:\n%s", sn)
			}
		})
	}
}

const commented = `# The notes suite.
version: 1
server: fixture   # the embedded one

tests:
    # first
    - name: counter
      steps:
        - read: mcpeek-fixture://counter   # a read
          expect:
            jsonpath:
              $.contents[0].text: {type: string}
`

func promptStep() SessionStep {
	return SessionStep{Kind: StepPrompt, Target: "greet", Args: map[string]any{"language": "fr", "name": "Ann: {x}"},
		Result: map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Bonjour"}}},
			"_meta": map[string]any{"io.modelcontextprotocol/serverInfo": map[string]any{"name": "x"}}, "resultType": "complete"}}
}

// Appending keeps the file's text as it was, comments and all, and the
// test reads back as it was built.
func TestAppendKeepsTheText(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "notes.mcpeek.yaml")
	if err := os.WriteFile(file, []byte(commented), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := BuildTest("greet in French", promptStep())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(got), commented) {
		t.Fatalf("the file's text changed:\n%s", got)
	}
	if st, _ := os.Stat(file); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", st.Mode().Perm())
	}
	s, err := Load(file, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if len(s.Tests) != 2 {
		t.Fatalf("%d tests", len(s.Tests))
	}
	st := s.Tests[1].Steps[0]
	if s.Tests[1].Name != "greet in French" || st.Kind != StepPrompt || st.Target != "greet" ||
		!reflect.DeepEqual(st.Args, map[string]any{"language": "fr", "name": "Ann: {x}"}) {
		t.Errorf("read back as %q %+v", s.Tests[1].Name, st)
	}
	if st.Expect.Asked == nil || len(st.Expect.Asked) != 0 || st.Expect.Rounds == nil || *st.Expect.Rounds != 0 {
		t.Errorf("a step that asked nothing must expect nothing asked: %+v", st.Expect)
	}
	snap := loadSnapshots(s)
	want := map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "Bonjour"}}}}
	if !reflect.DeepEqual(snap.stored["greet in French"], want) {
		t.Errorf("snapshot %v, want the result without its era's envelope", snap.stored)
	}

	// The same name again is refused, and nothing is written.
	err = WriteTest(file, d, WriteOptions{})
	var dup *DuplicateError
	if !errors.As(err, &dup) || dup.Name != "greet in French" {
		t.Errorf("a second test of the same name: %v", err)
	}
	again, _ := os.ReadFile(file)
	if string(again) != string(got) {
		t.Error("a refused test changed the file")
	}
}

// When tests is not the file's last key, the document is written again
// from its nodes: its comments stay, and the suite's redactions apply to
// the snapshot as the runner will apply them.
func TestAppendRewritesKeepingComments(t *testing.T) {
	t.Parallel()
	text := `version: 1
server: [node, server.js]  # the server
tests:
  - name: one   # the first test
    steps:
      - call: echo
defaults:
  redact: ["$.messages[0].content.text"]
`
	file := filepath.Join(t.TempDir(), "x.mcpeek.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	st := promptStep()
	st.Redact = []string{"$.messages[0].role"}
	d, err := BuildTest("two", st)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	for _, c := range []string{"# the server", "# the first test"} {
		if !strings.Contains(string(got), c) {
			t.Errorf("comment %q lost:\n%s", c, got)
		}
	}
	s, err := Load(file, os.LookupEnv)
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if len(s.Tests) != 2 || s.Tests[1].Name != "two" || len(s.Tests[1].Steps[0].Redact) != 1 {
		t.Fatalf("read back: %+v", s.Tests)
	}
	snap := loadSnapshots(s).stored["two"]
	want := map[string]any{"messages": []any{map[string]any{"role": Placeholder, "content": map[string]any{"type": "text", "text": Placeholder}}}}
	if !reflect.DeepEqual(snap, want) {
		t.Errorf("snapshot %v, want both redactions applied", snap)
	}
}

func TestNewSuiteServerWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		server []string
		want   string
	}{
		{nil, "server: fixture\n"},
		{[]string{"http://127.0.0.1:3000/mcp"}, "server: http://127.0.0.1:3000/mcp\n"},
		{[]string{"@notes"}, "server: '@notes'\n"},
		{[]string{"node", "server.js", "--port", "1"}, `server: [node, server.js, --port, "1"]` + "\n"},
	} {
		file := filepath.Join(t.TempDir(), "s.mcpeek.yaml")
		d, err := BuildTest("t", promptStep())
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteTest(file, d, WriteOptions{New: NewSuite{Server: tc.server}}); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(file)
		if !strings.HasPrefix(string(got), "version: 1\n"+tc.want) {
			t.Errorf("server %q written as:\n%s", tc.server, got)
		}
		s, err := Load(file, os.LookupEnv)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s.Server, tc.server) {
			t.Errorf("server %q read back as %q", tc.server, s.Server)
		}
	}
}

func TestBuildTestRefuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		st   SessionStep
		want string
	}{
		{"", SessionStep{Kind: StepCall, Target: "x"}, "needs a name"},
		{"t", SessionStep{Kind: StepList, Target: "tools"}, "only a call"},
		{"t", SessionStep{Kind: StepCall, Target: "x", Args: map[string]any{"a": "{{id}}"}}, "capture"},
		{"t", SessionStep{Kind: StepCall, Target: "x", Args: []any{1}}, "JSON object"},
		{"t", SessionStep{Kind: StepCall, Target: "x", Redact: []string{"$["}}, "not a JSONPath"},
		{"t", SessionStep{Kind: StepCall, Target: "x", Questions: []Question{{Kind: "elicitation", Action: "maybe"}}}, "question 1"},
	} {
		if _, err := BuildTest(tc.name, tc.st); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error saying %q", tc.st, err, tc.want)
		}
	}
}

// A question answered with content the schema has defaults for, the
// defaults left out, is written to send the content as it was sent.
func TestAnswerKeepsOmittedDefaultsOut(t *testing.T) {
	t.Parallel()
	q := Question{Kind: mcpclient.KindElicitation, Mode: "form", Message: "Name?", Action: "accept",
		Params: json.RawMessage(`{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","default":3}}}}`),
		Answer: json.RawMessage(`{"action":"accept","content":{"name":"Ann"}}`)}
	d, err := BuildTest("t", SessionStep{Kind: StepCall, Target: "x", Questions: []Question{q}, Rounds: 1, Era: mcpclient.ProtocolLegacy})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a.mcpeek.yaml")
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	s, err := Load(file, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Tests[0].Steps[0].Answers
	if len(a) != 1 || a[0].Defaults == nil || *a[0].Defaults || !reflect.DeepEqual(a[0].Content, map[string]any{"name": "Ann"}) {
		t.Errorf("answers %+v", a)
	}
}

// A question an app answered is matched by its message only: the runner
// hosts no app, so the server it runs against names none.
func TestAppAnswerMatchesWithoutTheApp(t *testing.T) {
	q := Question{Kind: mcpclient.KindElicitation, Mode: "form", Message: "Choose option", ResourceURI: "ui://fixture/choose-option.html",
		Action: "accept", Answer: json.RawMessage(`{"action":"accept","content":{"choice":"option-a"}}`)}
	d, err := BuildTest("t", SessionStep{Kind: StepCall, Target: "choose_option", Questions: []Question{q}, Rounds: 1, Era: mcpclient.ProtocolLegacy})
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.Answers()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 1 || a[0].Match.ResourceURI != "" || a[0].Match.Message != "Choose option" {
		t.Errorf("answers %+v, want one matched by the message alone", a)
	}
}

// Questions asked together in one 2026-07-28 round are asked one at a time
// before it: such a test runs in its own era only.
func TestBatchedRoundsPinTheEra(t *testing.T) {
	t.Parallel()
	q := Question{Kind: mcpclient.KindRoots}
	d, err := BuildTest("t", SessionStep{Kind: StepCall, Target: "x", Questions: []Question{q, q}, Rounds: 1, Era: mcpclient.ProtocolModern})
	if err != nil {
		t.Fatal(err)
	}
	if d.Protocol != mcpclient.ProtocolModern {
		t.Errorf("protocol %q", d.Protocol)
	}
}

func TestProposeRedactions(t *testing.T) {
	t.Parallel()
	a := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "at 10:01"}, &mcp.TextContent{Text: "same"}},
		StructuredContent: map[string]any{"id": "a1", "odd key": 1, "list": []any{1}}}
	b := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "at 10:02"}, &mcp.TextContent{Text: "same"}},
		StructuredContent: map[string]any{"id": "b2", "odd key": 2, "list": []any{1, 2}}}
	diffs, err := ProposeRedactions(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diffs {
		got = append(got, d.Path)
	}
	if diffs[0].A != "at 10:01" || diffs[0].B != "at 10:02" {
		t.Errorf("first difference %+v, want both values", diffs[0])
	}
	want := []string{"$.content[0].text", "$.structuredContent.id", "$.structuredContent.list", `$.structuredContent["odd key"]`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("proposed %q, want %q", got, want)
	}
	// Each one parses, and redacting them makes the two equal.
	x, _ := asJSON(a)
	y, _ := asJSON(b)
	var paths []*Redaction
	for _, p := range got {
		d, err := BuildTest("t", SessionStep{Kind: StepCall, Target: "x", Redact: []string{p}})
		if err != nil || d == nil {
			t.Fatalf("%s: %v", p, err)
		}
		r, _ := readRedactions("f", []string{p}, nil)
		paths = append(paths, r...)
	}
	if !reflect.DeepEqual(SnapshotValue(x, paths, nil), SnapshotValue(y, paths, nil)) {
		t.Error("the proposed redactions leave a difference")
	}
	if same, _ := ProposeRedactions(a, a); len(same) != 0 {
		t.Errorf("equal results: %q", same)
	}
}

// checkReadBack checks that the saved tests read back as they were built.
func checkReadBack(t *testing.T, s *Suite, choose mcpclient.Answer) {
	t.Helper()
	call := s.Tests[0].Steps[0]
	if len(call.Answers) != 1 || call.Answers[0].Action != "accept" || !reflect.DeepEqual(call.Answers[0].Content, choose.Content) ||
		call.Answers[0].Match.Message != "Choose option A or B." {
		t.Errorf("choose B's answers read back as %+v", call.Answers)
	}
	if a := call.Expect.Asked; len(a) != 1 || a[0].Kind != mcpclient.KindElicitation || a[0].Action != "accept" || a[0].Mode != "form" {
		t.Errorf("choose B's asked read back as %+v", a)
	}
	if r := call.Expect.Rounds; r == nil || *r != 1 {
		t.Errorf("choose B's rounds read back as %v", r)
	}
	if call.Expect.Snapshot != "choose B" {
		t.Errorf("snapshot %q", call.Expect.Snapshot)
	}
	if a := s.Tests[1].Steps[0].Answers; len(a) != 1 || a[0].Result == nil || a[0].Result.Model != "m1" || a[0].Match.Message != fixture.SampleQuestion {
		t.Errorf("ask model's answers read back as %+v", a)
	}
}

// A secret form answer, typed by the person and quoted back by the
// server, is written as an {{env.X}} template and hidden in the
// snapshot; the suite reads the value from the environment into the
// answers entry, and says which variable is missing without it.
func TestSecretAnswerWrittenAsEnvTemplate(t *testing.T) {
	t.Parallel()
	const secret = "correct-horse-battery"
	q := Question{Kind: mcpclient.KindElicitation, Mode: "form", Message: "Sign in", Action: "accept",
		Params: json.RawMessage(`{"message":"Sign in","requestedSchema":{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string","format":"password"}}}}`),
		Answer: json.RawMessage(`{"action":"accept","content":{"user":"ann","password":"` + secret + `"}}`),
		Secret: []string{"password"}}
	st := SessionStep{Kind: StepCall, Target: "sign_in", Args: map[string]any{"apiKey": "k-0123456789", "n": 1}, SecretArgs: []string{"apiKey"},
		Questions: []Question{q}, Rounds: 1, Era: mcpclient.ProtocolLegacy,
		Result: map[string]any{"content": []any{map[string]any{"type": "text", "text": "signed in ann with " + secret}}}}
	d, err := BuildTest("sign in", st)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"MCPEEK_SECRET_API_KEY", "MCPEEK_SECRET_PASSWORD"}; !reflect.DeepEqual(d.Env, want) {
		t.Errorf("Env %v, want %v", d.Env, want)
	}
	file := filepath.Join(t.TempDir(), "a.mcpeek.yaml")
	if err := WriteTest(file, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(file)
	snap, _ := os.ReadFile(SnapshotPath(file))
	for _, b := range [][]byte{text, snap} {
		if strings.Contains(string(b), secret) || strings.Contains(string(b), "k-0123456789") {
			t.Errorf("a secret was written:\n%s", b)
		}
	}
	if !strings.Contains(string(text), "{{env.MCPEEK_SECRET_PASSWORD}}") || !strings.Contains(string(text), "user: ann") {
		t.Errorf("the answer should template the password only:\n%s", text)
	}
	_, err = Parse(file, text, func(string) (string, bool) { return "", false })
	var se *Error
	if !errors.As(err, &se) || se.Line == 0 || !strings.Contains(se.Msg, "MCPEEK_SECRET_") || !strings.Contains(se.Msg, "is not set") {
		t.Fatalf("without the variables: %v", err)
	}
	env := map[string]string{"MCPEEK_SECRET_PASSWORD": secret, "MCPEEK_SECRET_API_KEY": "k-0123456789"}
	s, err := Parse(file, text, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	step := s.Tests[0].Steps[0]
	if a := step.Answers; len(a) != 1 || !reflect.DeepEqual(a[0].Content, map[string]any{"user": "ann", "password": secret}) {
		t.Errorf("answers %+v", a)
	}
	if !reflect.DeepEqual(step.Args, map[string]any{"apiKey": "k-0123456789", "n": float64(1)}) {
		t.Errorf("args %#v", step.Args)
	}
	// The runner hides the values it read for secrets as the snapshot does.
	if got := hideSecrets("with "+secret, s.secrets); got != "with "+mcpclient.Redacted {
		t.Errorf("the runner shows %q", got)
	}
}

// The runner hides a value it read for an MCPEEK_SECRET_ variable however
// short (4 bytes on), digits too, as the writer hid it in the snapshot.
func TestShortSecretValuesAreHidden(t *testing.T) {
	t.Parallel()
	text := []byte("version: 1\nserver: fixture\ntests:\n  - name: t\n    steps:\n      - call: login\n        args: {password: '{{env.MCPEEK_SECRET_PASSWORD}}', pin: '{{env.MCPEEK_SECRET_PIN}}'}\n")
	env := map[string]string{"MCPEEK_SECRET_PASSWORD": "hunter2", "MCPEEK_SECRET_PIN": "4815"}
	s, err := Parse("t.mcpeek.yaml", text, func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	if got := hideSecrets("password hunter2, pin 4815", s.secrets); got != "password [redacted], pin [redacted]" {
		t.Errorf("the runner shows %q", got)
	}
}

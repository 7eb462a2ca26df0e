package author

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/record/recordtest"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// A recorded call's secrets by each arm of the rule: a field the tool's
// listed schema makes write-only through a $ref (pin), a value the
// session knows as a secret (note), a form answer whose name says it is
// secret (token). None is written, in the suite or in its snapshot,
// though the server quotes them in its result; each is an {{env.X}}
// template the test reads. A result's own field named as a secret
// (access_token) is not kept in the snapshot either.
func TestRecordingSecretsByEveryArmOfTheRule(t *testing.T) {
	dir := t.TempDir()
	rec := recordtest.Write(t, dir,
		"send", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`,
		"recv", `{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"login","inputSchema":{"type":"object","$defs":{"Secret":{"type":"string","writeOnly":true}},"properties":{"pin":{"$ref":"#/$defs/Secret"},"user":{"type":"string"}}}}]}}`,
		"send", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"login","arguments":{"pin":"pin-48151623","user":"ada","note":"sess-abcdef123456"}}}`,
		"recv", `{"jsonrpc":"2.0","id":"s1","method":"elicitation/create","params":{"mode":"form","message":"Your token?","requestedSchema":{"type":"object","properties":{"token":{"type":"string"}}}}}`,
		"send", `{"jsonrpc":"2.0","id":"s1","result":{"action":"accept","content":{"token":"tok-9876543210"}}}`,
		"recv", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hello ada: pin pin-48151623, token tok-9876543210, session sess-abcdef123456"}],"structuredContent":{"pin":"pin-48151623","session":{"access_token":"at-never-seen-before","expires":3600}}}}`,
	)
	r, err := ReadRecording(rec)
	if err != nil {
		t.Fatal(err)
	}
	known := &mcpclient.Secrets{}
	known.Add("sess-abcdef123456")
	out := filepath.Join(dir, "saved.mcpeek.yaml")
	drafts, err := r.Write(out, nil, known)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"MCPEEK_SECRET_NOTE", "MCPEEK_SECRET_PIN", "MCPEEK_SECRET_TOKEN"}
	if len(drafts) != 1 || strings.Join(drafts[0].Env, ",") != strings.Join(want, ",") {
		t.Fatalf("the tests need %v, want %v", drafts[0].Env, want)
	}
	text, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := os.ReadFile(suite.SnapshotPath(out))
	if err != nil {
		t.Fatal(err)
	}
	for file, b := range map[string][]byte{"the suite": text, "the snapshot": snap} {
		for _, s := range []string{"48151623", "sess-abcdef123456", "tok-9876543210", "at-never-seen-before"} {
			if strings.Contains(string(b), s) {
				t.Errorf("%s holds %q:\n%s", file, s, b)
			}
		}
	}
	for _, name := range want {
		if !strings.Contains(string(text), "{{env."+name+"}}") {
			t.Errorf("the suite does not read %s:\n%s", name, text)
		}
	}
	if !strings.Contains(string(text), "user: ada") {
		t.Errorf("the suite lost what is not secret:\n%s", text)
	}
}

// A secret shorter than a session's set takes (8 bytes), such as the
// password hunter2, is still a secret once the rule has templated it: the
// server quoting it back leaves it out of the snapshot (the runner hides
// it alike: suite.TestShortSecretValuesAreHidden).
func TestShortSecretsStayOutOfTheSnapshot(t *testing.T) {
	dir := t.TempDir()
	rec := recordtest.Write(t, dir,
		"send", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"login","arguments":{"password":"hunter2","pin":"4815","user":"ada"}}}`,
		"recv", `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"ada's password hunter2 is weak"}],"structuredContent":{"echo":"hunter2"}}}`,
	)
	r, err := ReadRecording(rec)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "saved.mcpeek.yaml")
	if _, err := r.Write(out, nil, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := os.ReadFile(suite.SnapshotPath(out))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(snap), "hunter2") {
		t.Errorf("the snapshot holds the password:\n%s", snap)
	}
}

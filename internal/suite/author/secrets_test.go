package author

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// A server that quotes a secret in its error (the -H bearer token the
// session knows, a secret argument written as a template) does not put it
// in expect.error.message: the message is expected as a pattern with the
// secrets left out, which the server's same answer still passes.
func TestErrorMessageKeepsNoSecret(t *testing.T) {
	known := &mcpclient.Secrets{}
	known.Add("bearer-tok-123456")
	code := -32001
	msg := `refused: token bearer-tok-123456 (api_key sk-live-123) is not allowed (see https://x.example/?a=1)`
	step := Secrets(suite.SessionStep{Kind: suite.StepCall, Target: "login", Era: "2025-11-25",
		Args: map[string]any{"api_key": "sk-live-123", "user": "ada"}, ErrorCode: &code, ErrorMessage: msg}, nil, known)
	d, err := suite.BuildTest("login refused", step)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "saved.mcpeek.yaml")
	if err := suite.WriteTest(file, d, suite.WriteOptions{Secrets: known}); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"bearer-tok-123456", "sk-live-123"} {
		if strings.Contains(string(text), s) {
			t.Errorf("the suite holds %q:\n%s", s, text)
		}
	}
	s, err := suite.Parse(file, text, func(string) (string, bool) { return "sk-live-123", true })
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	e := s.Tests[0].Steps[0].Expect.Error
	if e == nil || e.Message == nil {
		t.Fatalf("no expected message:\n%s", text)
	}
	if ok, why, err := e.Message.Check(msg, true, nil); !ok || err != nil {
		t.Errorf("the server's same error fails the test: %s %v\n%s", why, err, text)
	}
	if ok, _, _ := e.Message.Check("refused: something else", true, nil); ok {
		t.Errorf("another error passes the test:\n%s", text)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// vaultServer's sign_in takes a user and an api_key, and quotes both
// back.
func vaultServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "vault", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "sign_in", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"user":{"type":"string"},"api_key":{"type":"string"}}}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var a struct{ User, APIKey string }
			var raw map[string]string
			_ = json.Unmarshal(req.Params.Arguments, &raw)
			a.User, a.APIKey = raw["user"], raw["api_key"]
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "signed in " + a.User + " with " + a.APIKey}}}, nil
		})
	return s
}

const vaultKey = "sk-live-0123456789"

// A call with a secret argument, then +: the layer says which variable
// the test will read it from, the suite and the snapshot hold neither
// the key nor its echo, and the test passes with the variable set and
// fails naming it without.
func TestSaveWritesSecretArgumentsAsEnvTemplates(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	dir := t.TempDir()
	in := open(t, Options{Dir: dir, Connect: inMemory(vaultServer, "")}, 120, 40).expect("sign_in")
	in.keys("enter").argsOpen("Arguments for sign_in")
	in.typeText("ada").keys("enter").typeText(vaultKey)
	in.keys("ctrl+s").expect("signed in ada")
	in.press(k.Tabs.SaveTest).expectAll("Save as a test: call sign_in", "set MCPEEK_SECRET_API_KEY to run it")
	in.press(layer.SaveTestKeys.Confirm).expect(`saved the test "sign_in" (set MCPEEK_SECRET_API_KEY to run it`)

	file := filepath.Join(dir, "mcpeek", "session.yaml")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := os.ReadFile(suite.SnapshotPath(file))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "{{env.MCPEEK_SECRET_API_KEY}}") || !strings.Contains(string(text), "user: ada") {
		t.Errorf("the suite should write the key as a template, the user as typed:\n%s", text)
	}
	for name, b := range map[string][]byte{"suite": text, "snapshot": snap} {
		if strings.Contains(string(b), vaultKey) || strings.Contains(string(b), "sk-live") {
			t.Errorf("the %s holds the secret:\n%s", name, b)
		}
	}

	// Without the variable: a clear error naming it.
	_, err = suite.Load(file, func(string) (string, bool) { return "", false })
	if err == nil || !strings.Contains(err.Error(), "MCPEEK_SECRET_API_KEY is not set") {
		t.Fatalf("without the variable: %v", err)
	}
	// With it: the test passes in both eras.
	s, err := suite.Load(file, func(name string) (string, bool) {
		if name == "MCPEEK_SECRET_API_KEY" {
			return vaultKey, true
		}
		return "", false
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Cleanup()
	dial := func(ctx context.Context, d suite.Dial) (*mcpclient.Conn, func(), error) {
		conn, err := mcpclient.Connect(ctx, mcpclient.Config{
			Target:   mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: vaultServer},
			Protocol: d.Revision, ConnectTimeout: 10 * time.Second,
			Asker: d.Asker, Records: d.Records, Wire: mcpclient.NewWireLog(0, nil),
		})
		return conn, nil, err
	}
	rep, err := suite.Run(t.Context(), []*suite.Suite{s}, suite.Options{Dial: dial})
	if err != nil {
		t.Fatal(err)
	}
	if passed, failed, _ := rep.Counts(); failed > 0 || passed != 3 {
		for _, sr := range rep.Suites {
			for _, tr := range sr.Tests {
				for _, f := range tr.Failures {
					t.Log(sr.Revision + ": " + f.String())
				}
			}
		}
		t.Fatalf("%d passed, %d failed", passed, failed)
	}
}

// The values of a form's secret fields (marked a password, or named so)
// and of any field whose value the session knows as a secret are marked
// to be written as templates; others are not.
func TestSecretStepMarksSecretAnswersAndKnownValues(t *testing.T) {
	t.Parallel()
	known := &mcpclient.Secrets{}
	known.Add("tok-abcdefgh-1234")
	st := &savedStep{schema: json.RawMessage(`{"type":"object","properties":{"login":{"type":"object","properties":{"pin":{"type":"string","writeOnly":true}}}}}`),
		step: suite.SessionStep{Kind: suite.StepCall, Target: "t",
			Args: json.RawMessage(`{"q":"x","login":{"pin":"1234"},"note":"Bearer tok-abcdefgh-1234","client_secret":"c"}`),
			Questions: []suite.Question{{Kind: mcpclient.KindElicitation, Mode: "form", Action: "accept",
				Params: json.RawMessage(`{"requestedSchema":{"type":"object","properties":{"code":{"type":"string","format":"password"},"name":{"type":"string"}}}}`),
				Answer: json.RawMessage(`{"action":"accept","content":{"code":"2468","name":"ada","password":"pw"}}`)}}}}
	got := secretStep(st, known)
	if want := []string{"client_secret", "login.pin", "note"}; !equalStrings(got.SecretArgs, want) {
		t.Errorf("secret arguments %v, want %v", got.SecretArgs, want)
	}
	if want := []string{"code", "password"}; !equalStrings(got.Questions[0].Secret, want) {
		t.Errorf("secret answers %v, want %v", got.Questions[0].Secret, want)
	}
	if st.step.Questions[0].Secret != nil {
		t.Error("the step kept should not change")
	}
}

func equalStrings(a, b []string) bool { return strings.Join(a, "\x00") == strings.Join(b, "\x00") }

// hangServer's read-only wait answers its first call at once and blocks
// every later one until it is cancelled, saying so on cancelled.
func hangServer(started, cancelled chan<- struct{}) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "hang", Version: "1"}, nil)
		var n atomic.Int64
		s.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
			func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if n.Add(1) > 1 {
					started <- struct{}{}
					<-ctx.Done()
					cancelled <- struct{}{}
					return nil, ctx.Err()
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "waited"}}}, nil
			})
		return s
	}
}

// Closing the save layer stops its re-run: the request is cancelled, not
// left to run for a minute holding the connection's stand-in.
func TestClosingTheSaveLayerStopsItsRerun(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	started, cancelled := make(chan struct{}, 4), make(chan struct{}, 4)
	in := open(t, Options{Dir: t.TempDir(), Connect: inMemory(hangServer(started, cancelled), "")}, 120, 40).expect("wait")
	in.selectTool("wait").keys("enter").expect("waited")
	in.press(k.Tabs.SaveTest).expect("running it again")
	awaitSignal(t, started, "the re-run to reach the server")
	in.press(layer.SaveTestKeys.Cancel)
	awaitSignal(t, cancelled, "the re-run to be cancelled")
}

// Stopping a re-run gives the stand-in back at once, before its request
// has ended.
func TestStopRerunReleasesTheStandInAtOnce(t *testing.T) {
	t.Parallel()
	started, cancelled := make(chan struct{}, 4), make(chan struct{}, 4)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	conn, err := inMemory(hangServer(started, cancelled), "")(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Call(ctx, "wait", json.RawMessage(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	s := &savedSteps{}
	s.saving = &savedStep{readOnly: true, args: json.RawMessage(`{}`), step: suite.SessionStep{Kind: suite.StepCall, Target: "wait", Result: res}}
	m := New(Options{})
	l, _ := layer.NewSaveTest(&m.c, "call wait", nil, "wait", false)
	cmd := s.rerun(l, conn, "")
	msgs := make(chan any, 1)
	go func() { msgs <- cmd() }()
	awaitSignal(t, started, "the re-run to reach the server")
	if _, err := conn.StandIn(&mcpclient.HeadlessAsker{}); !errors.Is(err, mcpclient.ErrStandIn) {
		t.Fatalf("during the re-run the stand-in should be held: %v", err)
	}
	s.stopRerun()
	restore, err := conn.StandIn(&mcpclient.HeadlessAsker{})
	if err != nil {
		t.Fatalf("the stand-in should be given back at once: %v", err)
	}
	restore()
	select {
	case msg := <-msgs:
		if p, ok := msg.(layer.Proposed); !ok || p.Err != "stopped" {
			t.Errorf("the stopped re-run said %#v", msg)
		}
	case <-ctx.Done():
		t.Fatal("the re-run did not end once stopped")
	}
	awaitSignal(t, cancelled, "the request to be cancelled")
}

func awaitSignal(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(20 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}

const bearerToken = "bearer-tok-0123456789"

// refuseServer's whoami refuses with a protocol error that quotes the
// bearer token it was sent, as a careless server does.
func refuseServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "refuse", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32001, Message: "token " + bearerToken + " is not allowed here"}
		})
	return s
}

// + on a call whose error quotes the session's bearer token (an -H
// credential) writes no token into expect.error.message: the message is
// a pattern leaving it out, which the server's same error passes.
func TestSaveKeepsTheBearerTokenOutOfTheErrorMessage(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	dir := t.TempDir()
	connect := func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		known := &mcpclient.Secrets{}
		known.AddCredential("Bearer " + bearerToken)
		wire := mcpclient.NewWireLog(0, nil)
		wire.UseSecrets(known)
		return mcpclient.Connect(ctx, mcpclient.Config{
			Target: mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: refuseServer},
			Asker:  asker, Records: mcpclient.NewRecorder(nil), Wire: wire,
		})
	}
	in := open(t, Options{Dir: dir, Connect: connect}, 120, 40).expect("whoami")
	in.keys("enter").expect("token [redacted] is not")
	in.press(k.Tabs.SaveTest).expect("Save as a test: call whoami")
	in.press(layer.SaveTestKeys.Confirm).expect(`saved the test "whoami"`)

	file := filepath.Join(dir, "mcpeek", "session.yaml")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), bearerToken) {
		t.Errorf("the suite holds the bearer token:\n%s", text)
	}
	s, err := suite.Parse(file, text, func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	e := s.Tests[0].Steps[0].Expect.Error
	if e == nil || e.Message == nil {
		t.Fatalf("no expected error message:\n%s", text)
	}
	if ok, why, err := e.Message.Check("token "+bearerToken+" is not allowed here", true, nil); !ok || err != nil {
		t.Errorf("the server's same error fails the test: %s %v\n%s", why, err, text)
	}
}

package suite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// refusingAsker is a connection's own asker that must not be asked.
type refusingAsker struct{ asked atomic.Int32 }

func (a *refusingAsker) Ask(context.Context, *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	a.asked.Add(1)
	return &mcp.ElicitResult{Action: "decline"}, nil
}

const oneSuite = `
version: 1
server: fixture
tests:
  - name: accepts B
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-b}}]
        expect: {text: "accept: option-b", asked: [{kind: elicitation, action: accept}]}
  - name: wants A
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-b}}]
        expect: {text: "accept: option-a"}
  - name: snapshot
    steps:
      - call: choose_option
        answers: [{match: {message: "Choose option"}, action: accept, content: {choice: option-a}}]
        expect: {snapshot: chosen}
  - name: legacy only
    protocol: 2025-11-25
    steps: [{call: choose_option}]
`

func testByName(t *testing.T, s *Suite, name string) *Test {
	t.Helper()
	for _, tt := range s.Tests {
		if tt.Name == name {
			return tt
		}
	}
	t.Fatalf("no test %q", name)
	return nil
}

// A test runs on a connection it did not make, in the connection's
// revision, its answers standing in for the connection's own asker; the
// connection stays open and usable; a missing snapshot is pending until
// accepted, and then the test passes.
func TestRunOneOnAnExistingConnection(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "one.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(oneSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	own := &refusingAsker{}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
		Protocol:     mcpclient.ProtocolModern,
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        own,
		Records:      mcpclient.NewRecorder(nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	on := On{Conn: conn, StandIn: func(a *Asker) (func(), error) { return conn.StandIn(a) }}
	run := func(name string) *One {
		t.Helper()
		one, err := RunOne(ctx, on, s, testByName(t, s, name))
		if err != nil {
			t.Fatal(err)
		}
		return one
	}

	if one := run("accepts B"); one.Result.Status != StatusPassed || one.Result.Revision != mcpclient.ProtocolModern {
		t.Errorf("accepts B: %s in %s %v, want passed in the connection's revision", one.Result.Status, one.Result.Revision, one.Result.Failures)
	}
	one := run("wants A")
	if one.Result.Status != StatusFailed || len(one.Result.Failures) != 1 {
		t.Fatalf("wants A: %s %v, want one failure", one.Result.Status, one.Result.Failures)
	}
	if f := one.Result.Failures[0]; !strings.Contains(f.Expected, "option-a") || !strings.Contains(f.Actual, "option-b") {
		t.Errorf("failure %+v, want expected option-a and actual option-b", f)
	}
	if one := run("legacy only"); one.Result.Status != StatusSkipped || len(one.Result.Failures) != 1 {
		t.Errorf("legacy only: %s %v, want skipped saying why", one.Result.Status, one.Result.Failures)
	}

	checkAcceptedSnapshot(t, path, run)

	if n := own.asked.Load(); n != 0 {
		t.Errorf("the connection's own asker was asked %d times", n)
	}
	if conn.Context().Err() != nil {
		t.Fatal("the run closed the connection")
	}
	if _, err := conn.Call(ctx, "choose_option", nil); err != nil || own.asked.Load() != 1 {
		t.Errorf("after the runs the connection's own asker answers again: err %v, asked %d", err, own.asked.Load())
	}
}

// A run whose answers cannot stand in (another stands) says so and runs
// nothing; a cancelled run settles with the context's error.
func TestRunOneRefusedAndCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.mcpeek.yaml")
	if err := os.WriteFile(path, []byte(oneSuite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
		Protocol:     mcpclient.ProtocolLegacy,
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Records:      mcpclient.NewRecorder(nil),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	restore, err := conn.StandIn(&refusingAsker{})
	if err != nil {
		t.Fatal(err)
	}
	on := On{Conn: conn, StandIn: func(a *Asker) (func(), error) { return conn.StandIn(a) }}
	if _, err := RunOne(ctx, on, s, testByName(t, s, "accepts B")); err == nil {
		t.Error("a run while another stand-in stands: no error")
	}
	restore()
	cctx, ccancel := context.WithCancel(ctx)
	ccancel()
	one, err := RunOne(cctx, on, s, testByName(t, s, "accepts B"))
	if err == nil || one == nil || one.Result.Status != StatusFailed {
		t.Errorf("a cancelled run: %v, %+v; want the context's error and a failed result", err, one)
	}
}

// checkAcceptedSnapshot runs the snapshot test: its missing snapshot is
// pending, Accept writes it as -u does, and the test then passes.
func checkAcceptedSnapshot(t *testing.T, path string, run func(string) *One) {
	t.Helper()
	one := run("snapshot")
	if one.Result.Status != StatusFailed || len(one.Pending) != 1 || one.Pending[0].Name != "chosen" || one.Pending[0].Stored {
		t.Fatalf("snapshot before accepting: %s, pending %+v; want failed with chosen missing", one.Result.Status, one.Pending)
	}
	if err := Accept(path, one.Pending); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(SnapshotPath(path))
	if err != nil || !strings.Contains(string(data), "option-a") || !strings.HasPrefix(string(data), "# Written by mcpeek test -u") {
		t.Errorf("snapshot file %q (%v), want what -u writes", data, err)
	}
	if one := run("snapshot"); one.Result.Status != StatusPassed || len(one.Pending) != 0 {
		t.Errorf("snapshot after accepting: %s %v pending %v, want passed", one.Result.Status, one.Result.Failures, one.Pending)
	}
}

// A snapshot file that cannot be read is not written over: its other
// snapshots would be lost.
func TestAcceptKeepsAnUnreadableSnapshotFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.mcpeek.yaml")
	snap := SnapshotPath(path)
	if err := os.MkdirAll(filepath.Dir(snap), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(snap, []byte("a: [unclosed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Accept(path, []Pending{{Name: "chosen", Value: "x"}}); err == nil {
		t.Error("Accept over an unreadable snapshot file: no error")
	}
	if data, _ := os.ReadFile(snap); string(data) != "a: [unclosed\n" {
		t.Errorf("the file was written over: %q", data)
	}
	if err := Accept(path, nil); err == nil {
		t.Error("Accept of nothing: no error")
	}
}

package tui

import (
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool that asks, answered in the native form by keys, then +: the test
// written under mcpeek/ passes when the runner runs it against the same
// server, in both eras, whichever era it was saved in.
func TestSaveAsTestPasses(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	for _, era := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := open(t, Options{Dir: dir, Connect: inMemory(fixtureServer, era)}, 120, 40).expect("choose_option")
			in.selectTool("choose_option").keys("enter").formOpen().keys("down").press(layer.FormKeys.Submit).expect("accept: option-a")
			in.press(k.Tabs.SaveTest).expect("Save as a test: call choose_option")
			// Marked read-only: run again at once, answering as the
			// person did.
			in.expect("ran it again: no value changed")
			in.press(layer.SaveTestKeys.Confirm).expect("saved the test")
			file := filepath.Join(dir, "mcpeek", "session.yaml")
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"call: choose_option", "choice: option-a", "kind: elicitation", "rounds: 1", "snapshot: choose_option"} {
				if !strings.Contains(string(text), want) {
					t.Errorf("the suite lacks %q:\n%s", want, text)
				}
			}
			runSaved(t, file, 1)

			// The same name again is refused, in the layer, which stays.
			in.press(k.Tabs.SaveTest).expect("Save as a test").press(layer.SaveTestKeys.Confirm).expect("already has a test")
			in.press(layer.SaveTestKeys.Cancel)

			// A tool not marked read-only (it adds one to a counter) is
			// run again only when asked; what changed is offered for
			// redaction.
			in.selectTool("touch_counter").keys("enter").expect("counter is 1")
			in.press(k.Tabs.SaveTest).expect("Save as a test: call touch_counter")
			in.expect("not run again").press(layer.SaveTestKeys.Rerun).expect("values changed; redact them?")
			in.press(layer.SaveTestKeys.Cancel)
		})
	}
}

// A resource read (a template's, its variable filled in) and a prompt got
// with its arguments, then +: each runs again at once (reading and
// getting change nothing), and the test written passes when the runner
// runs it against the same server, in both eras.
func TestSaveReadAndPromptAsTestsPass(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	for _, era := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := open(t, Options{Dir: dir, Connect: inMemory(fixtureServer, era)}, 120, 40).expect("touch_counter")

			// Nothing read yet: + says what to do first.
			in.keys("2", "/", "g", "r", "e", "e", "t", "enter").press(k.Tabs.SaveTest).expect("no read of this resource to save")
			in.keys("enter").argsOpen("Variables of fixture://greeting/{language}")
			in.tm.Type("French")
			in.press(layer.FormKeys.Submit).expect("Bonjour")
			in.press(k.Tabs.SaveTest).expect("Save as a test: read fixture://greeting/French")
			in.expect("no value changed")
			in.keys("ctrl+u").typeText("greeting in French").press(layer.SaveTestKeys.Confirm).expect("saved the test")

			in.keys("3").expect("Greet someone").press(k.Tabs.SaveTest).expect("nothing got of this prompt to save")
			in.keys("enter").argsOpen("Arguments for the prompt greet")
			in.tm.Type("French")
			in.press(layer.FormKeys.Submit).expect("description: A greeting in French.")
			in.press(k.Tabs.SaveTest).expect("Save as a test: prompt greet").expect("no value changed")
			in.press(layer.SaveTestKeys.Confirm).expect("saved the test")

			file := filepath.Join(dir, "mcpeek", "session.yaml")
			text, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"read: fixture://greeting/French", "snapshot: greeting in French",
				"prompt: greet", "language: French", "snapshot: greet", "rounds: 0"} {
				if !strings.Contains(string(text), want) {
					t.Errorf("the suite lacks %q:\n%s", want, text)
				}
			}
			runSaved(t, file, 2)
		})
	}
}

// stampServer's read-only stamp gives another number each call: a value
// a snapshot should not hold, unless the person says it should.
func stampServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "stamps", Version: "1"}, nil)
	var n atomic.Int64
	s.AddTool(&mcp.Tool{Name: "stamp", InputSchema: json.RawMessage(`{"type":"object"}`), Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			i := n.Add(1)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("stamp %d", i)}},
				StructuredContent: map[string]any{"n": i, "kind": "stamp"}}, nil
		})
	return s
}

// A read-only tool runs again as soon as + is pressed; each value that
// came back different is proposed, and one the person drops is kept in
// the snapshot as it was, while the one kept is redacted there and
// written as the step's redact.
func TestSaveDroppedRedactionKeepsTheValue(t *testing.T) {
	t.Parallel()
	k := keys.NewMap()
	dir := t.TempDir()
	in := open(t, Options{Dir: dir, Connect: inMemory(stampServer, "")}, 120, 40).expect("stamp")
	in.selectTool("stamp").keys("enter").expect("stamp 1")
	in.press(k.Tabs.SaveTest).expectAll("Save as a test: call stamp", "2 values changed")
	in.expectAll(`[x] redact $.content[0].text: "stamp 1", then "stamp 2"`, "[x] redact $.structuredContent.n: 1, then 2")
	in.press(layer.SaveTestKeys.Next, layer.SaveTestKeys.Toggle).expect("[ ] redact $.content[0].text")
	in.press(layer.SaveTestKeys.Confirm).expect("saved the test")

	file := filepath.Join(dir, "mcpeek", "session.yaml")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "$.structuredContent.n") || strings.Contains(string(text), "$.content") {
		t.Errorf("the step should redact the number kept only:\n%s", text)
	}
	snap, err := os.ReadFile(suite.SnapshotPath(file))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(snap), "stamp 1") || !strings.Contains(string(snap), `"n": '`+suite.Placeholder) {
		t.Errorf("the snapshot should keep the text dropped from the redactions, and redact the number:\n%s", snap)
	}
}

// runSaved runs a suite of tests tests against the fixture in both eras
// and fails the test on any failure.
func runSaved(t *testing.T, file string, tests int) {
	t.Helper()
	s, err := suite.Load(file, os.LookupEnv)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Cleanup()
	dial := func(ctx context.Context, d suite.Dial) (*mcpclient.Conn, func(), error) {
		conn, err := mcpclient.Connect(ctx, mcpclient.Config{
			Target:   mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixtureServer() }},
			Protocol: d.Revision, ConnectTimeout: 10 * time.Second,
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
			Asker:        d.Asker, Sampler: d.Asker, Records: d.Records, Wire: mcpclient.NewWireLog(0, nil),
		})
		return conn, nil, err
	}
	rep, err := suite.Run(t.Context(), []*suite.Suite{s}, suite.Options{Dial: dial})
	if err != nil {
		t.Fatal(err)
	}
	passed, failed, _ := rep.Counts()
	if failed > 0 || passed != 3*tests { // each test in two eras, and their parity
		var why []string
		for _, sr := range rep.Suites {
			for _, tr := range sr.Tests {
				for _, f := range tr.Failures {
					why = append(why, sr.Revision+": "+f.String())
				}
			}
		}
		t.Fatalf("%d passed, %d failed:\n%s", passed, failed, strings.Join(why, "\n"))
	}
}

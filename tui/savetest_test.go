package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool that asks, answered in the native form by keys, then +: the test
// written under mcpeek/ passes when the runner runs it against the same
// server, in both eras, whichever era it was saved in.
func TestSaveAsTestPasses(t *testing.T) {
	k := keys.NewMap()
	for _, era := range []string{mcpclient.ProtocolLegacy, mcpclient.ProtocolModern} {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			in := open(t, Options{Dir: dir, Connect: inMemory(fixtureServer, era)}, 120, 40).expect("choose_option")
			in.selectTool("choose_option").keys("enter").formOpen().keys("down").press(k.Form.Submit).expect("accept: option-a")
			in.press(k.Tabs.SaveTest).expect("Save as a test: call choose_option")
			// Not marked read-only: run again only when asked, answering
			// as the person did.
			in.expect("not run again").press(k.SaveTest.Rerun).expect("no value changed")
			in.press(k.SaveTest.Confirm).expect("saved the test")
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
			runSaved(t, file)

			// The same name again is refused, in the layer, which stays.
			in.press(k.Tabs.SaveTest).expect("Save as a test").press(k.SaveTest.Confirm).expect("already has a test")
			in.press(k.SaveTest.Cancel)
		})
	}
}

// runSaved runs a suite against the fixture in both eras and fails the
// test on any failure.
func runSaved(t *testing.T, file string) {
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
	if failed > 0 || passed != 3 { // the test in two eras, and their parity
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

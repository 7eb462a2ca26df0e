package tui

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverEverything is the pinned @modelcontextprotocol/server-everything:
// $MCPEEK_SERVER_EVERYTHING (an installed mcp-server-everything, as CI
// provides), else npx. Without either the test skips, unless
// MCPEEK_REQUIRE_BROWSER=1 says the interop tools must be there.
func serverEverything(t *testing.T) []string {
	t.Helper()
	if bin := os.Getenv("MCPEEK_SERVER_EVERYTHING"); bin != "" {
		return []string{bin, "stdio"}
	}
	if npx, err := exec.LookPath("npx"); err == nil {
		return []string{npx, "-y", "@modelcontextprotocol/server-everything@2026.8.31", "stdio"}
	}
	if os.Getenv("MCPEEK_REQUIRE_BROWSER") == "1" {
		t.Fatal("server-everything is required (MCPEEK_REQUIRE_BROWSER=1) but neither $MCPEEK_SERVER_EVERYTHING nor npx is available")
	}
	t.Skip("needs Node.js: set MCPEEK_SERVER_EVERYTHING or install npx to run @modelcontextprotocol/server-everything")
	return nil
}

// drivenAsker shows each elicitation in a real form program and answers it
// with keys, as a person at the terminal would.
type drivenAsker struct {
	t     *testing.T
	steps func(tm *teatest.TestModel, form *nativeform.Form)
	seen  *nativeform.Form
}

func (a *drivenAsker) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	form := nativeform.New(FormRequest(req, widget.Redact), nativeform.Options{Grace: time.Nanosecond})
	a.seen = form
	tm := teatest.NewTestModel(a.t, nativeform.Standalone(form), teatest.WithInitialTermSize(100, 200))
	a.steps(tm, form)
	tm.WaitFinished(a.t, teatest.WithFinalTimeout(10*time.Second))
	res, ok := form.Result()
	if !ok {
		a.t.Fatal("the form did not settle")
	}
	return &mcp.ElicitResult{Action: string(res.Action), Content: res.Content}, nil
}

func TestServerEverythingElicitationForm(t *testing.T) {
	t.Parallel()
	cmd := serverEverything(t)
	asker := &drivenAsker{t: t, steps: func(tm *teatest.TestModel, _ *nativeform.Form) {
		// wait waits until the screen shows every text.
		wait := func(texts ...string) {
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				for _, s := range texts {
					if !bytes.Contains(b, []byte(s)) {
						return false
					}
				}
				return true
			}, teatest.WithDuration(10*time.Second))
		}
		press := func(k tea.KeyType, shows ...string) {
			tm.Send(tea.KeyMsg{Type: k})
			wait(shows...)
		}
		wait("String with default")
		tm.Type("Grace Hopper") // the required name, the first field
		wait("> Grace Hopper")
		for _, label := range []string{"Boolean", "String with default", "String with email format", "String with uri format", "String with date format"} {
			press(tea.KeyEnter, "┃ "+label)
		}
		// The birthdate on its calendar: typed, then a day later with →.
		tm.Type("1990-05-17")
		wait("May 1990", "[17]")
		press(tea.KeyRight, "> 1990-05-18")
		// The integer's slider from its default, 42, two steps up; the
		// number's from its default, 3.14, to the next twentieth of its
		// range.
		press(tea.KeyEnter, "┃ Integer")
		press(tea.KeyRight, "> 43")
		press(tea.KeyRight, "> 44")
		press(tea.KeyEnter, "┃ Number in range 1-1000")
		press(tea.KeyRight, "> 50")
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, mcpclient.Config{
		Target:         mcpclient.Target{Kind: mcpclient.TargetStdio, Command: cmd},
		ConnectTimeout: 90 * time.Second, // npx may have to fetch the package first
		Capabilities:   mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:          asker,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	res, err := conn.Call(ctx, "trigger-elicitation-request", nil)
	if err != nil {
		t.Fatal(err)
	}
	form := asker.seen
	if form == nil {
		t.Fatal("the server's elicitation never reached the form")
	}
	for key, want := range map[string]string{
		"name": "text", "check": "segmented", "firstLine": "text", "email": "text", "homepage": "text",
		"birthdate": "date", "integer": "slider", "number": "slider",
		"untitledSingleSelectEnum": "select", "untitledMultipleSelectEnum": "multi-select",
		"titledSingleSelectEnum": "segmented", "titledMultipleSelectEnum": "multi-select", "legacyTitledEnum": "select",
	} {
		if got := form.Control(key); got != want {
			t.Errorf("field %s is rendered as %q, want %q", key, got, want)
		}
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	got := text.String()
	for _, want := range []string{`"action": "accept"`, `"name": "Grace Hopper"`, `"titledSingleSelectEnum": "hero-1"`, `"legacyTitledEnum": "pet-1"`,
		"- Birthdate: 1990-05-18", "- Favorite Integer: 44", "- Favorite Number: 50",
		`"birthdate": "1990-05-18"`, `"integer": 44`, `"number": 50`} {
		if !strings.Contains(got, want) {
			t.Errorf("the server did not get %s back; it reported:\n%s", want, got)
		}
	}
}

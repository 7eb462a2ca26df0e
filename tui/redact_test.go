//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// longToken is a 200-character credential, of a pattern whose every
// three-character piece shows it leaked, however it is wrapped or cut.
var longToken = "sk-" + strings.Repeat("Q7zX", 50)[:197]

// leakedPiece is a piece of longToken in text, wrapped or not, or "".
func leakedPiece(text string) string {
	text = ansi.Strip(text)
	for _, piece := range []string{"Q7z", "7zX", "zXQ", "XQ7"} {
		if strings.Contains(text, piece) {
			return piece
		}
	}
	return ""
}

// tokenWire is a wire log that knows longToken, as the command line's
// knows a -H credential.
func tokenWire() *mcpclient.WireLog {
	wire := mcpclient.NewWireLog(0, nil)
	wire.Secret("Bearer " + longToken)
	wire.Secret(longToken)
	return wire
}

// A long token the server quotes where the inspector wraps or cuts text
// (an elicitation's message and field, a sampling request's system
// prompt, the failure of a connection in the header and the Info tab)
// shows in no piece at 40 to 60 columns: it is redacted before it is
// wrapped or cut, not only in the finished frame.
func TestLongTokenNeverShowsInPieces(t *testing.T) {
	t.Parallel()
	quote := "invalid credentials: Bearer " + longToken
	schema, err := formschema.Parse(map[string]any{"type": "object", "properties": map[string]any{
		"ok": map[string]any{"type": "string", "title": "Token " + longToken, "description": quote, "default": longToken}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, width := range []int{40, 50, 60} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			t.Parallel()
			screens := map[string]string{}

			m := New(Options{Wire: tokenWire(), Target: "https://example.com/mcp?key=" + longToken})
			m.Update(tea.WindowSizeMsg{Width: width, Height: 30})
			m.Update(connectedMsg{err: &mcpclient.ConnectError{Target: "https://example.com/mcp", Err: errors.New(longToken + " is refused")}})
			screens["the header of a failed connection"] = m.View()
			m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("6")}) // the Info tab
			screens["the Info tab"] = m.View()

			m.Update(askMsg{&ask{req: &mcpclient.NativeRequest{Key: "e-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
				Params: &mcp.ElicitParams{Message: "Confirm the request made with " + quote}, Schema: schema}, reply: make(chan *mcp.ElicitResult, 1)}})
			screens["an elicitation"] = m.View()

			m = New(Options{Wire: tokenWire()})
			m.Update(tea.WindowSizeMsg{Width: width, Height: 30})
			m.Update(askMsg{sampleAsk("s-1", &mcp.CreateMessageWithToolsParams{SystemPrompt: strings.Repeat("x", 1990) + longToken,
				Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: quote}}}}})})
			screens["a sampling request"] = m.View()

			for what, screen := range screens {
				if piece := leakedPiece(screen); piece != "" {
					t.Errorf("%s shows %q of the token:\n%s", what, piece, screen)
				}
			}
			if !strings.Contains(screens["the Info tab"], "[redacted]") {
				t.Errorf("the Info tab does not say [redacted]:\n%s", screens["the Info tab"])
			}
		})
	}
}

// call --interactive draws its forms on the terminal itself, not through
// the run's redacting writers: a token an elicitation or a sampling
// request quotes is redacted before the form is built, in the full form
// and in plain mode.
func TestFormsOnTheTerminalRedactTheRunsSecrets(t *testing.T) {
	t.Parallel()
	secrets := tokenWire().Secrets()
	quote := "invalid credentials: Bearer " + longToken
	schema, err := formschema.Parse(map[string]any{"type": "object", "properties": map[string]any{
		"ok": map[string]any{"type": "string", "description": quote}}})
	if err != nil {
		t.Fatal(err)
	}
	elicit := &mcpclient.NativeRequest{Key: "e-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.ElicitParams{Message: "Confirm the request made with " + quote}, Schema: schema}
	sample := &mcpclient.SampleRequest{Key: "s-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.CreateMessageWithToolsParams{SystemPrompt: strings.Repeat("x", 1990) + longToken,
			Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: quote}}}}}}
	for _, plain := range []bool{true, false} {
		out := &syncBuffer{}
		in := io.Reader(strings.NewReader("c\nr\n"))
		if !plain { // the full form: it times out, having drawn itself
			r, w := io.Pipe()
			defer w.Close()
			in = r
		}
		a := &FormAsker{In: in, Out: out, Plain: plain, Timeout: 300 * time.Millisecond, Secrets: secrets}
		if _, err := a.Ask(context.Background(), elicit); err != nil {
			t.Fatalf("plain %v: the elicitation: %v", plain, err)
		}
		_, _ = a.Sample(context.Background(), sample)
		text := out.String()
		if piece := leakedPiece(text); piece != "" || !strings.Contains(ansi.Strip(text), "[redacted]") {
			t.Errorf("plain %v: the terminal shows %q of the token, or no [redacted]:\n%s", plain, piece, text)
		}
	}
}

// The wire log and its connections share one set: the inspector redacts
// it once, however often it is told of it, and forgets a set nobody
// holds any more.
func TestShownSetsAreRedactedOnce(t *testing.T) {
	t.Parallel()
	var sets widget.SecretSets
	a, b := &mcpclient.Secrets{}, &mcpclient.Secrets{}
	sets.Add(a)
	sets.Add(a)
	sets.Add(b)
	sets.Add(nil)
	n := 0
	sets.Each(func(*mcpclient.Secrets) { n++ })
	if n != 2 {
		t.Errorf("%d sets redacted, want 2", n)
	}
}

package tui

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// gatedServer has a tool, a_later, that waits until release is closed and
// then asks with params (a form, or a URL to open), reporting the
// action it got back on got; and a tool, b_args, whose arguments a form
// asks for.
func gatedServer(release <-chan struct{}, params *mcp.ElicitParams, got chan<- string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "gated", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "a_later", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case <-release:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
				res, err := req.Session.Elicit(ctx, params)
				if err != nil {
					got <- "error: " + err.Error()
					return nil, err
				}
				got <- res.Action
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "later: " + res.Action}}}, nil
			})
		s.AddTool(&mcp.Tool{Name: "b_args", InputSchema: json.RawMessage(`{"type":"object","properties":{"note":{"type":"string","title":"Note"}},"required":["note"]}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "args taken"}}}, nil
			})
		return s
	}
}

// answered waits for what the server's elicitation got back.
func answered(t *testing.T, got <-chan string, want string) {
	t.Helper()
	select {
	case action := <-got:
		if action != want {
			t.Errorf("the server's elicitation got %q, want %q", action, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the server's elicitation never got an answer (want %q): the keys went elsewhere", want)
	}
}

// A URL-consent card that arrives while a tool's arguments form is open
// goes on top of it: it is drawn, it takes the keys (d declines the URL,
// it is not typed into the hidden form), and once answered the arguments
// form is back as it was.
func TestURLConsentOverArgumentsFormTakesTheKeys(t *testing.T) {
	t.Parallel()
	release, got := make(chan struct{}), make(chan string, 1)
	url := &mcp.ElicitParams{Mode: "url", Message: "Sign in, please.", URL: "https://example.com/sign-in", ElicitationID: "u1"}
	in := open(t, Options{Connect: inMemory(gatedServer(release, url, got), "legacy")}, 100, 30).expect("b_args")
	in.keys("enter")                                        // a_later runs, waiting
	in.keys("down", "enter").expect("Arguments for b_args") // b_args's form opens
	close(release)
	in.expect("asks you to open a page")
	in.keys("d")
	answered(t, got, "decline")
	view := in.screen()
	if !strings.Contains(view, "Arguments for b_args") {
		t.Errorf("the arguments form should be back once the card is answered:\n%s", view)
	}
	if strings.Contains(view, "asks you to open a page") {
		t.Errorf("the answered card is still drawn:\n%s", view)
	}
}

// An elicitation that arrives while the help screen is open goes on top
// of it: the form is drawn and takes the keys. Help stays under it, and is
// back once the form is answered, where the person left it.
func TestElicitationOverHelpTakesTheKeys(t *testing.T) {
	t.Parallel()
	release, got := make(chan struct{}), make(chan string, 1)
	form := &mcp.ElicitParams{Message: "Proceed?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean","title":"OK?"}}}`)}
	in := open(t, Options{Connect: inMemory(gatedServer(release, form, got), "legacy")}, 100, 30).expect("b_args")
	in.keys("enter", "?").expect("Keys")
	close(release)
	in.formOpen()
	in.keys("ctrl+d")
	answered(t, got, "decline")
	view := in.screen()
	if strings.Contains(view, "is asking for input") {
		t.Errorf("the answered form is still drawn:\n%s", view)
	}
	if !strings.Contains(view, "Keys") {
		t.Errorf("the help screen should be back once the form is answered:\n%s", view)
	}
}

// formAsk and urlAsk are elicitations as the native asker delivers them.
func formAsk(t *testing.T, reqKey string) *ask {
	t.Helper()
	schema, err := formschema.Parse(map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}})
	if err != nil {
		t.Fatal(err)
	}
	return &ask{req: &mcpclient.NativeRequest{Key: reqKey, Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.ElicitParams{Message: "Proceed?"}, Schema: schema}, reply: make(chan *mcp.ElicitResult, 1)}
}

func urlAsk(reqKey string) *ask {
	return &ask{req: &mcpclient.NativeRequest{Key: reqKey, Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
		Params: &mcp.ElicitParams{Mode: "url", Message: "Sign in.", URL: "https://example.com/in"}}, reply: make(chan *mcp.ElicitResult, 1)}
}

// footerOf is the last line of the screen.
func footerOf(view string) string { return view[strings.LastIndex(view, "\n")+1:] }

// Where layers open, and what is then drawn, gets the keys and gives the
// footer: the newest on top, except the app card (under everything, over
// the tabs) and the quit prompt (over everything until answered).
func TestLayersOpenByRank(t *testing.T) {
	t.Parallel()
	t.Run("an elicitation goes over the JSON editor, which is back as it was once it is answered", func(t *testing.T) {
		m := New(Options{Grace: noGrace})
		m.openJSON(&mcp.Tool{Name: "deep"}, false)
		x := urlAsk("e-1")
		m.Update(askMsg{x})
		if v := m.View(); !strings.Contains(v, "asks you to open a page") || !strings.Contains(footerOf(v), "o open") {
			t.Errorf("the card should be drawn, with its footer:\n%s", v)
		}
		_, cmd := m.Update(keyMsg("d"))
		if cmd != nil {
			cmd() // the answer, to the asker
		}
		if res := <-x.reply; res.Action != "decline" {
			t.Errorf("the card was answered %q, want decline", res.Action)
		}
		ed, ok := findTop[*layer.JSONEditor](m)
		if !ok || ed.Editor().Value() != "{\n  \n}" {
			t.Errorf("top %T; the JSON editor should be back untouched", m.top().layer())
		}
	})
	t.Run("the quit prompt stays over an elicitation that arrives", func(t *testing.T) {
		m := New(Options{})
		withAppPending(m)
		m.Update(keyMsg("q"))
		m.Update(askMsg{formAsk(t, "e-2")})
		v := m.View()
		if _, ok := findTop[*layer.QuitPrompt](m); !ok {
			t.Fatalf("top %T, want the quit prompt", m.top().layer())
		}
		if !strings.Contains(v, "is asking for input") || !strings.Contains(footerOf(v), "2 request(s) pending: quit and cancel them? y/n") {
			t.Errorf("the form should show under the prompt, which counts it:\n%s", v)
		}
		m.Update(keyMsg("n"))
		if _, ok := findTop[*layer.ElicitForm](m); !ok || m.quitting {
			t.Errorf("top %T, quitting %v: n should leave the form on top", m.top().layer(), m.quitting)
		}
	})
	t.Run("the app card lies under an open form", func(t *testing.T) {
		m := New(Options{Grace: noGrace})
		m.openToolAs(&mcp.Tool{Name: "b_args", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}}}}, false)
		withAppPending(m)
		if _, ok := findTop[*layer.ArgsForm](m); !ok || len(m.layers) != 2 {
			t.Fatalf("layers %v: the form should stay on top of the card", m.layers)
		}
		if v := m.View(); strings.Contains(v, "answering in the browser") || !strings.Contains(v, "Arguments for b_args") {
			t.Errorf("the form should cover the card:\n%s", v)
		}
		m.close(m.top().layer())
		if v := m.View(); !strings.Contains(v, "answering in the browser") {
			t.Errorf("the card should show once the form is gone:\n%s", v)
		}
	})
}

// ctrl+n shows the next pending elicitation, from a form or the URL card,
// and ctrl+c quits from every layer, as the help screen says.
func TestKeysOfTheLayers(t *testing.T) {
	t.Parallel()
	t.Run("ctrl+n goes round the queue, the URL card included", func(t *testing.T) {
		t.Parallel()
		m := New(Options{})
		m.Update(askMsg{urlAsk("e-1")})
		m.Update(askMsg{formAsk(t, "e-2")})
		if v := m.View(); !strings.Contains(footerOf(v), "1 of 2 pending · ctrl+n shows the next · o open") {
			t.Errorf("the card's footer should count the queue:\n%s", footerOf(v))
		}
		var shown []string
		for range 3 {
			m.Update(keyMsg("ctrl+n"))
			l, _ := findLayer[layer.Head](&m.stack)
			shown = append(shown, l.Head().(*mcpclient.NativeRequest).Key)
		}
		if want := []string{"e-2", "e-1", "e-2"}; !slices.Equal(shown, want) {
			t.Errorf("ctrl+n showed %v, want %v", shown, want)
		}
	})
	t.Run("ctrl+c in the JSON editor", func(t *testing.T) {
		t.Parallel()
		m := New(Options{})
		m.openJSON(&mcp.Tool{Name: "deep"}, false)
		m.Update(keyMsg("ctrl+c"))
		wantQuitting(true)(t, m)
	})
	t.Run("ctrl+c at the quit prompt", func(t *testing.T) {
		t.Parallel()
		m := New(Options{})
		withAppPending(m)
		m.Update(keyMsg("ctrl+c"))
		wantQuitting(false)(t, m)
		m.Update(keyMsg("ctrl+c"))
		wantQuitting(true)(t, m)
	})
	t.Run("ctrl+c in an arguments form", func(t *testing.T) {
		t.Parallel()
		m := New(Options{Grace: noGrace})
		m.openToolAs(&mcp.Tool{Name: "b_args", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}}}}, false)
		_, cmd := m.Update(keyMsg("ctrl+c"))
		if cmd == nil {
			t.Fatal("the form did not take ctrl+c")
		}
		m.Update(cmd()) // the form's DoneMsg
		wantQuitting(true)(t, m)
	})
}

//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sampleOpen waits for a sampling request's form.
func (in *inspector) sampleOpen() *inspector {
	in.t.Helper()
	return in.expect("asks for a model's reply")
}

// typeText types text into what has the keys, one key per character.
func (in *inspector) typeText(s string) *inspector {
	in.t.Helper()
	in.tm.Type(s)
	return in
}

var eras = []string{"legacy", "modern"}

// The fixture's ask_model, answered in the inspector in both eras: the
// reply typed, the model renamed, and the server reports what it got.
func TestAnswerSamplingInTheInspector(t *testing.T) {
	t.Parallel()
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, era)}, 100, 30).expect("ask_model")
			in.selectTool("ask_model").keys("enter").expectAll("asks for a model's reply", fixture.SampleQuestion)
			in.typeText("It is about logins.").keys("tab", "ctrl+u").typeText("gpt-test").press(layer.FormKeys.Submit)
			in.expect("gpt-test (assistant) replied: It is about logins.")
			recs := in.m.conn.Records()
			if len(recs) != 1 || recs[0].Kind != mcpclient.KindSampling || recs[0].Action != "accept" {
				t.Errorf("records = %+v", recs)
			}
		})
	}
}

// ctrl+r rejects, and so does esc (the protocol has no other refusal):
// in the legacy era the fixture reports the refusal in its result; in the
// 2026-07-28 era the call itself fails.
func TestRejectSamplingInTheInspector(t *testing.T) {
	t.Parallel()
	k := layer.FormKeys
	for _, tc := range []struct {
		era, key, want string
	}{
		{"legacy", k.Reject.Keys()[0], "rejected: the user rejected the sampling request"},
		{"legacy", k.Cancel.Keys()[0], "rejected: the user rejected the sampling request"},
		{"modern", k.Reject.Keys()[0], "error: "},
	} {
		t.Run(tc.era+"/"+tc.key, func(t *testing.T) {
			t.Parallel()
			in := open(t, Options{Connect: inMemory(fixtureServer, tc.era)}, 100, 30).expect("ask_model")
			in.selectTool("ask_model").keys("enter").sampleOpen().typeText("never sent").keys(tc.key).expect(tc.want)
			view := in.screen()
			if !strings.Contains(view, "rejected") || strings.Contains(view, "never sent") {
				t.Errorf("the screen should show the refusal, and not the reply typed:\n%s", view)
			}
			if recs := in.m.conn.Records(); len(recs) != 1 || recs[0].Action != "reject" {
				t.Errorf("records = %+v", recs)
			}
		})
	}
}

// A sampling request nobody answers fails when the countdown runs out,
// with an error saying so (not a refusal).
func TestSamplingCountdownExpires(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy"), ElicitTimeout: 2 * time.Second}, 100, 30).expect("ask_model")
	in.selectTool("ask_model").keys("enter").expect("cancels in 0:0")
	in.expectAll("sampling failed", "within 2s")
	view := in.screen()
	if strings.Contains(view, "asks for a model's reply") || strings.Contains(view, "rejected:") {
		t.Errorf("the form should be gone, and the request failed, not rejected:\n%s", view)
	}
}

// bothServer asks for input, and for a model's reply once release is
// closed: the sampling request queues behind the elicitation shown.
func bothServer(release <-chan struct{}) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "both", Title: "Both kinds", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "both", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				elicited := make(chan string, 1)
				go func() {
					res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "Well?",
						RequestedSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`)})
					if err != nil {
						elicited <- "error"
						return
					}
					elicited <- res.Action
				}()
				<-release
				sampled := "error"
				res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10,
					Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "Say hi."}}}})
				if err == nil {
					sampled = res.Content.(*mcp.TextContent).Text
				}
				text := "elicitation " + <-elicited + ", sampling " + sampled
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
			})
		return s
	}
}

// A sampling request that arrives while an elicitation is shown waits
// behind it in the one queue: the footer counts both, ctrl+n shows the
// sampling request, and answering one shows the other.
func TestSamplingQueuesBehindAnElicitation(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	in := open(t, Options{Connect: inMemory(bothServer(release), "legacy")}, 100, 30).expect("both")
	in.keys("enter").formOpen()
	close(release)
	in.expect("1 of 2 pending").press(layer.FormKeys.Next).sampleOpen()
	in.typeText("hi").press(layer.FormKeys.Next).formOpen().press(layer.FormKeys.Decline)
	in.sampleOpen().press(layer.FormKeys.Submit) // what was typed is still there
	in.expect("elicitation decline, sampling hi")
}

// sampleAsk is a sampling request as the inspector's asker delivers it.
func sampleAsk(key string, params *mcp.CreateMessageWithToolsParams) *ask {
	return &ask{sample: &mcpclient.SampleRequest{Key: key, Server: &mcp.Implementation{Name: "srv"}, Connection: "test", Params: params},
		sampled: make(chan sampleAnswer, 1)}
}

// A sampling request of a megabyte of text and an image shows a bounded
// preview of each, and the form keeps its fields and keys on an 80×24
// screen.
func TestHugeSamplingRequestShowsABoundedPreview(t *testing.T) {
	m := New(Options{Grace: noGrace})
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	huge := strings.Repeat("word ", 200_000) // 1 MB
	image := base64.StdEncoding.EncodeToString(make([]byte, 300_000))
	m.Update(askMsg{sampleAsk("s-1", &mcp.CreateMessageWithToolsParams{MaxTokens: 5, Messages: []*mcp.SamplingMessageV2{
		{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: huge}}},
		{Role: "user", Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: []byte(image)}}},
	}})})
	start := time.Now()
	view := m.View()
	if took := time.Since(start); took > time.Second {
		t.Errorf("drawing took %s", took)
	}
	lines := strings.Split(view, "\n")
	if len(lines) != 24 {
		t.Errorf("%d lines, want 24:\n%s", len(lines), view)
	}
	for i, l := range lines {
		if w := lipgloss.Width(l); w > 80 {
			t.Errorf("line %d is %d cells wide", i+1, w)
		}
	}
	for _, want := range []string{"srv asks for a model's reply", "user: word word", "Reply", "Model", "Stop reason", "ctrl+s submit", "ctrl+r reject"} {
		if !strings.Contains(view, want) {
			t.Errorf("the screen lacks %q:\n%s", want, view)
		}
	}
	for range 40 { // to the end of the request
		m.Update(keyMsg("pgdown"))
	}
	if view := m.View(); !strings.Contains(view, "[image image/png") || !strings.Contains(view, "more bytes") {
		t.Errorf("the end of the request should show the image as a note, after a cut text:\n%s", view)
	}
}

// A sampling request whose context ends (the server cancelled it) leaves
// the screen, and the next request shows.
func TestWithdrawnSamplingRequestLeaves(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	params := &mcp.CreateMessageWithToolsParams{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "first"}}}}}
	m.Update(askMsg{sampleAsk("s-1", params)})
	m.Update(askMsg{formAsk(t, "e-2")})
	if v := m.View(); !strings.Contains(v, "asks for a model's reply") || !strings.Contains(v, "1 of 2 pending") {
		t.Fatalf("the sampling request should show, counted:\n%s", v)
	}
	m.Update(withdrawnMsg{"s-1"})
	if v := m.View(); !strings.Contains(v, "is asking for input") || strings.Contains(v, "of 2 pending") {
		t.Errorf("the elicitation should show alone:\n%s", v)
	}
}

// call --interactive in plain mode: the sampling request waits for the
// terminal while an elicitation has it, then is answered in its turn.
func TestFormAskerSamplesInTurn(t *testing.T) {
	t.Parallel()
	r, w := io.Pipe()
	defer w.Close()
	out := &syncBuffer{}
	a := &FormAsker{In: r, Out: out, Plain: true}
	schema := formAsk(t, "e-1").req
	elicited := make(chan *mcp.ElicitResult, 1)
	go func() {
		res, _ := a.Ask(context.Background(), schema)
		elicited <- res
	}()
	waitFor(t, func() bool { return strings.Contains(out.String(), "Answer, decline or cancel?") }, "the elicitation's prompt")
	type outcome struct {
		res *mcp.CreateMessageWithToolsResult
		err error
	}
	sampled := make(chan outcome, 1)
	params := &mcp.CreateMessageWithToolsParams{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "Say hi."}}}}}
	go func() {
		res, err := a.Sample(context.Background(), &mcpclient.SampleRequest{Key: "s-2", Server: &mcp.Implementation{Name: "srv"}, Connection: "test", Params: params})
		sampled <- outcome{res, err}
	}()
	waitFor(t, func() bool { return a.waiting.Load() == 2 }, "the sampling request to wait")
	if strings.Contains(out.String(), "asks for a model's reply") {
		t.Fatal("the sampling request took the terminal from the elicitation")
	}
	io.WriteString(w, "d\n")
	if res := <-elicited; res == nil || res.Action != "decline" {
		t.Fatalf("the elicitation got %+v", res)
	}
	waitFor(t, func() bool { return strings.Contains(out.String(), "user: Say hi.") }, "the sampling request")
	io.WriteString(w, "a\nHi there.\n.\nsmall-model\n\n")
	got := <-sampled
	if got.err != nil || got.res.Model != "small-model" || got.res.Content[0].(*mcp.TextContent).Text != "Hi there." || got.res.StopReason != "endTurn" {
		t.Errorf("the sampling request got %+v, %v", got.res, got.err)
	}
}

// call --interactive: reject refuses the request as the protocol says;
// a request nobody answers in time fails, and says so on the log.
func TestFormAskerRejectsAndTimesOut(t *testing.T) {
	t.Parallel()
	params := &mcp.CreateMessageWithToolsParams{Messages: []*mcp.SamplingMessageV2{{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: "Say hi."}}}}}
	req := &mcpclient.SampleRequest{Key: "s-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test", Params: params}
	a := &FormAsker{In: strings.NewReader("r\n"), Out: io.Discard, Plain: true}
	if _, err := a.Sample(context.Background(), req); !errors.Is(err, mcpclient.ErrSampleRejected) {
		t.Errorf("reject: %v, want ErrSampleRejected", err)
	}
	r, w := io.Pipe()
	defer w.Close()
	var log strings.Builder
	a = &FormAsker{In: r, Out: io.Discard, Plain: true, Timeout: 200 * time.Millisecond, Log: &log}
	_, err := a.Sample(context.Background(), req)
	if err == nil || errors.Is(err, mcpclient.ErrSampleRejected) || !strings.Contains(err.Error(), "nobody answered") {
		t.Errorf("timeout: %v, want an error saying nobody answered", err)
	}
	if !strings.Contains(log.String(), "s-1") {
		t.Errorf("the log says %q", log.String())
	}
}

// ctrl+c over a sampling request asks first, as over an elicitation; y
// quits, and the request is settled as dismissed, not left hanging.
func TestQuitWithAPendingSamplingRequestDismissesIt(t *testing.T) {
	t.Parallel()
	in := open(t, Options{Connect: inMemory(fixtureServer, "legacy")}, 100, 30).expect("ask_model")
	in.selectTool("ask_model").keys("enter").sampleOpen().press(layer.FormKeys.Interrupt)
	in.expect("1 request(s) pending: quit and cancel them?").keys("y")
	in.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	waitFor(t, func() bool {
		recs := in.m.conn.Records()
		return len(recs) == 1 && recs[0].Kind == mcpclient.KindSampling && recs[0].Action == "cancel"
	}, "a sampling record settled as cancel")
}

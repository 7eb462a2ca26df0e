//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// connectFixture connects to the embedded fixture in the given era with
// the configuration cfg adds to.
func connectFixture(t *testing.T, era string, cfg mcpclient.Config) *mcpclient.Conn {
	t.Helper()
	cfg.Target = mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }}
	cfg.Protocol = era
	cfg.Capabilities.FormElicitation = true
	if cfg.Records == nil {
		cfg.Records = mcpclient.NewRecorder(nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func callText(t *testing.T, conn *mcpclient.Conn, tool string, args string) (*mcp.CallToolResult, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var raw json.RawMessage
	if args != "" {
		raw = json.RawMessage(args)
	}
	res, err := conn.Call(ctx, tool, raw)
	if err != nil {
		return nil, "", err
	}
	var texts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, tc.Text)
		}
	}
	return res, strings.Join(texts, " "), nil
}

func mustAnswers(t *testing.T, text string) []mcpclient.Answer {
	t.Helper()
	a, err := mcpclient.ParseAnswers([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The fixture's ask_model is answered from an answers file in both eras:
// the server receives the reply's text and model, and the record says so.
func TestSamplingAnsweredFromFile(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			asker := &mcpclient.HeadlessAsker{Answers: mustAnswers(t, `[
				{"method":"sampling/createMessage","match":{"message":"T-7"},
				 "result":{"content":{"type":"text","text":"T-7 is the login bug."},"model":"test-model"}}]`)}
			records := mcpclient.NewRecorder(nil)
			conn := connectFixture(t, era, mcpclient.Config{Asker: asker, Sampler: asker, Records: records})
			if !strings.Contains(string(conn.SentCapabilities()), `"sampling":{}`) {
				t.Errorf("capabilities %s do not advertise plain sampling", conn.SentCapabilities())
			}
			_, text, err := callText(t, conn, "ask_model", "")
			if err != nil {
				t.Fatal(err)
			}
			if want := "test-model (assistant) replied: T-7 is the login bug."; text != want {
				t.Errorf("result %q, want %q", text, want)
			}
			recs := records.Records()
			if len(recs) != 1 || recs[0].Kind != mcpclient.KindSampling || recs[0].Action != "accept" {
				t.Fatalf("records %+v, want one accepted sampling record", recs)
			}
			if !strings.Contains(recs[0].Message, "T-7") || !strings.Contains(string(recs[0].Response), "test-model") {
				t.Errorf("record message %q response %s", recs[0].Message, recs[0].Response)
			}
		})
	}
}

// A rejected sampling request reaches a legacy server as the JSON-RPC
// error -1; in the modern era the call ends at the client, saying why.
func TestSamplingRejected(t *testing.T) {
	t.Run("legacy", func(t *testing.T) {
		var stderr strings.Builder
		asker := &mcpclient.HeadlessAsker{Stderr: &stderr}
		records := mcpclient.NewRecorder(nil)
		conn := connectFixture(t, "legacy", mcpclient.Config{Asker: asker, Sampler: asker, Records: records})
		res, text, err := callText(t, conn, "ask_model", "")
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || !strings.HasPrefix(text, "rejected: ") {
			t.Errorf("result %q (isError %v), want the server to see a rejection", text, res.IsError)
		}
		if !strings.Contains(stderr.String(), "sampling request rejected") {
			t.Errorf("stderr %q does not say the request was rejected", stderr.String())
		}
		if recs := records.Records(); len(recs) != 1 || recs[0].Action != "reject" {
			t.Errorf("records %+v, want one rejected", recs)
		}
	})
	t.Run("modern", func(t *testing.T) {
		asker := &mcpclient.HeadlessAsker{Answers: mustAnswers(t, `[{"method":"sampling/createMessage","action":"reject"}]`)}
		conn := connectFixture(t, "modern", mcpclient.Config{Asker: asker, Sampler: asker})
		_, _, err := callText(t, conn, "ask_model", "")
		if err == nil || !strings.Contains(err.Error(), "rejected") {
			t.Errorf("err = %v, want the call to end with the rejection", err)
		}
	})
}

// Without a sampler mcpeek does not claim sampling.
func TestNoSamplerNoSampling(t *testing.T) {
	conn := connectFixture(t, "legacy", mcpclient.Config{Asker: &mcpclient.HeadlessAsker{}})
	if caps := string(conn.SentCapabilities()); strings.Contains(caps, "sampling") || strings.Contains(caps, "roots") {
		t.Errorf("capabilities %s claim sampling or roots", caps)
	}
}

// Roots given at connect, and added later, are what list_roots reports, in
// both eras; each listing is recorded.
func TestRootsListed(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			uri, err := mcpclient.RootURI("testdata")
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(uri, "file:///") || !strings.HasSuffix(uri, "/mcpclient/testdata") {
				t.Fatalf("RootURI(testdata) = %q", uri)
			}
			records := mcpclient.NewRecorder(nil)
			conn := connectFixture(t, era, mcpclient.Config{Roots: []*mcp.Root{{URI: uri}}, Records: records})
			if !strings.Contains(string(conn.SentCapabilities()), `"roots":{"listChanged":true}`) {
				t.Errorf("capabilities %s do not advertise roots", conn.SentCapabilities())
			}
			_, text, err := callText(t, conn, "list_roots", "")
			if err != nil {
				t.Fatal(err)
			}
			if text != "1 roots: "+uri {
				t.Errorf("result %q", text)
			}
			conn.AddRoot("file:///srv/repo", "repo")
			both := []string{"file:///srv/repo", uri} // listed by URI, wherever the checkout is
			slices.Sort(both)
			if _, text, _ = callText(t, conn, "list_roots", ""); text != "2 roots: "+strings.Join(both, ", ") {
				t.Errorf("after adding, result %q", text)
			}
			conn.RemoveRoot(uri)
			if _, text, _ = callText(t, conn, "list_roots", ""); text != "1 roots: file:///srv/repo" {
				t.Errorf("after removing, result %q", text)
			}
			recs := records.Records()
			if len(recs) != 3 || recs[0].Kind != mcpclient.KindRoots || recs[2].Message != "listed 1 roots" {
				t.Errorf("records %+v, want three roots listings", recs)
			}
		})
	}
}

// An inspector offers roots before there are any: roots/list answers an
// empty list, not an error.
func TestRootsBeforeAny(t *testing.T) {
	conn := connectFixture(t, "legacy", mcpclient.Config{OfferRoots: true})
	if _, text, err := callText(t, conn, "list_roots", ""); err != nil || text != "0 roots" {
		t.Errorf("list_roots = %q, %v", text, err)
	}
}

type events struct {
	mu  sync.Mutex
	got []mcpclient.Event
}

func (e *events) add(ev mcpclient.Event) { e.mu.Lock(); e.got = append(e.got, ev); e.mu.Unlock() }
func (e *events) all() []mcpclient.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]mcpclient.Event(nil), e.got...)
}

// --log-level warning: of log_burst's eight messages, the five at warning
// and above arrive, in order, with their logger and data.
func TestLogLevelFilters(t *testing.T) {
	for _, era := range []string{"legacy", "modern"} {
		t.Run(era, func(t *testing.T) {
			ev := &events{}
			conn := connectFixture(t, era, mcpclient.Config{LogLevel: "warning", OnEvent: ev.add})
			if _, _, err := callText(t, conn, "log_burst", ""); err != nil {
				t.Fatal(err)
			}
			var levels []string
			deadline := time.Now().Add(5 * time.Second)
			for time.Now().Before(deadline) {
				levels = levels[:0]
				for _, e := range ev.all() {
					if l, ok := e.(mcpclient.LogEvent); ok {
						levels = append(levels, l.Level)
						if l.Logger != "fixture" || !strings.Contains(string(l.Data), `"text":"a `+l.Level+` message"`) {
							t.Errorf("log event %+v", l)
						}
					}
				}
				if len(levels) >= 5 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			if got := strings.Join(levels, " "); got != "warning error critical alert emergency" {
				t.Errorf("levels %q", got)
			}
		})
	}
}

// Every call carries a progress token; count_down's progress reaches the
// call's own callback with total and message.
func TestCallProgress(t *testing.T) {
	conn := connectFixture(t, "legacy", mcpclient.Config{})
	var mu sync.Mutex
	var got []mcpclient.ProgressEvent
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := conn.CallWithProgress(ctx, "count_down", json.RawMessage(`{"steps":3,"delayMs":10}`), func(p mcpclient.ProgressEvent) {
		mu.Lock()
		got = append(got, p)
		mu.Unlock()
	})
	if err != nil || res.IsError {
		t.Fatalf("count_down: %v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	// Notifications are handled beside the response: the last may come
	// after the call has returned, and is then no longer the call's.
	if len(got) < 2 || got[1].Progress != 2 || got[1].Total != 3 || got[1].Message != "step 2 of 3" {
		t.Errorf("progress %+v", got)
	}
}

// Cancelling a call sends notifications/cancelled: the server stops early.
func TestCallCancelled(t *testing.T) {
	conn := connectFixture(t, "legacy", mcpclient.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		_, err := conn.CallWithProgress(ctx, "count_down", json.RawMessage(`{"steps":100,"delayMs":20}`), func(mcpclient.ProgressEvent) {
			once.Do(func() { close(first) })
		})
		done <- err
	}()
	<-first
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled call returned no error")
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range conn.Wire().Entries() {
			if e.Method == "notifications/cancelled" && e.Dir == mcpclient.DirSend {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("no notifications/cancelled went to the server")
}

func TestRootURI(t *testing.T) {
	for _, tc := range []struct{ arg, want, err string }{
		{"file:///srv/repo", "file:///srv/repo", ""},
		{"/srv/repo", "file:///srv/repo", ""},
		{"/srv/a b", "file:///srv/a%20b", ""},
		{"https://example.com/x", "", "not a file:// URI"},
		{"file://", "", "has no path"},
		{"", "", "empty root"},
	} {
		got, err := mcpclient.RootURI(tc.arg)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("RootURI(%q) = %q, %v; want %q, %q", tc.arg, got, err, tc.want, tc.err)
		}
	}
}

// hostileServer is a legacy-era server whose one tool, "ask", does what
// act does with the session.
func hostileServer(act func(ctx context.Context, ss *mcp.ServerSession) string) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, &mcp.ServerOptions{
			Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}, Completions: &mcp.CompletionCapabilities{}},
			CompletionHandler: func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
				values := make([]string, 150)
				for i := range values {
					values[i] = fmt.Sprintf("v%03d", i)
				}
				return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: 150}}, nil
			},
		})
		s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: act(ctx, req.Session)}}}, nil
			})
		return s
	}
}

func connectHostile(t *testing.T, cfg mcpclient.Config, act func(ctx context.Context, ss *mcp.ServerSession) string) *mcpclient.Conn {
	t.Helper()
	cfg.Target = mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: hostileServer(act)}
	cfg.Protocol = "legacy"
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := mcpclient.Connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

// sampler records what it was asked and replies with text.
type sampler struct {
	mu   sync.Mutex
	seen []*mcpclient.SampleRequest
}

func (s *sampler) Sample(_ context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, req)
	return mcpclient.TextReply("ok", "", ""), nil
}

// Bad sampling requests are answered with an error the server can read,
// and never reach the person.
func TestBadSamplingRequests(t *testing.T) {
	for _, tc := range []struct {
		name   string
		params *mcp.CreateMessageParams
		want   string
	}{
		{"no messages", &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{}}, "no messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &sampler{}
			conn := connectHostile(t, mcpclient.Config{Sampler: s}, func(ctx context.Context, ss *mcp.ServerSession) string {
				_, err := ss.CreateMessage(ctx, tc.params)
				return fmt.Sprint(err)
			})
			_, text, err := callText(t, conn, "ask", "")
			if err != nil || !strings.Contains(text, tc.want) {
				t.Errorf("server saw %q (%v), want an error saying %q", text, err, tc.want)
			}
			if len(s.seen) != 0 {
				t.Errorf("the person was asked %d times", len(s.seen))
			}
		})
	}
	t.Run("a well-formed request is answered", func(t *testing.T) {
		// Beside the refusals above (an unknown content type, which the
		// server SDK would not encode, is in e2e's hostile server tests).
		s := &sampler{}
		conn := connectHostile(t, mcpclient.Config{Sampler: s}, func(ctx context.Context, ss *mcp.ServerSession) string {
			_, err := ss.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 10, Messages: []*mcp.SamplingMessage{
				{Role: "user", Content: &mcp.TextContent{Text: "fine"}}}})
			return fmt.Sprint(err)
		})
		if _, text, err := callText(t, conn, "ask", ""); err != nil || text != "<nil>" {
			t.Fatalf("a plain request failed: %q %v", text, err)
		}
	})
}

// A huge message shows as a bounded preview; images and tool results as
// bracketed notes.
func TestSampleTranscriptBounded(t *testing.T) {
	p := &mcp.CreateMessageWithToolsParams{
		SystemPrompt: "be brief",
		MaxTokens:    5,
		Messages: []*mcp.SamplingMessageV2{
			{Role: "user", Content: []mcp.Content{&mcp.TextContent{Text: strings.Repeat("x", 1<<20)}}},
			{Role: "user", Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: make([]byte, 3000)}}},
			{Role: "assistant", Content: []mcp.Content{&mcp.ToolUseContent{ID: "t1", Name: "lookup", Input: map[string]any{"q": "T-7"}}}},
			{Role: "user", Content: []mcp.Content{&mcp.ToolResultContent{ToolUseID: "t1", Content: []mcp.Content{&mcp.TextContent{Text: "found"}}}}},
		},
		StopSequences: []string{"END"},
	}
	got := mcpclient.SampleTranscript(p, 100)
	if len(got) > 1000 {
		t.Errorf("transcript is %d bytes for a 1 MB message", len(got))
	}
	for _, want := range []string{"system: be brief", "user: xxxx", "more bytes)", "user: [image image/png, 2 KB]",
		`assistant: [tool use lookup {"q":"T-7"}]`, "user: [tool result for t1: found]", `asks: maxTokens 5 · stop at "END"`} {
		if !strings.Contains(got, want) {
			t.Errorf("transcript lacks %q:\n%s", want, got)
		}
	}
	if s := mcpclient.SampleSummary(&mcp.CreateMessageWithToolsParams{}, 50); s != "(no messages)" {
		t.Errorf("summary of nothing = %q", s)
	}
}

// A log message carrying megabytes arrives cut to MaxLogData, saying how
// long it was.
func TestHugeLogMessageBounded(t *testing.T) {
	ev := &events{}
	conn := connectHostile(t, mcpclient.Config{LogLevel: "debug", OnEvent: ev.add}, func(ctx context.Context, ss *mcp.ServerSession) string {
		_ = ss.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: strings.Repeat("é", 2<<20)})
		return "logged"
	})
	if _, _, err := callText(t, conn, "ask", ""); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range ev.all() {
			if l, ok := e.(mcpclient.LogEvent); ok {
				if len(l.Data) > mcpclient.MaxLogData+100 || l.Cut < 4<<20 || !json.Valid(l.Data) {
					t.Errorf("kept %d bytes (cut %d), valid JSON %v", len(l.Data), l.Cut, json.Valid(l.Data))
				}
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("no log event")
}

// Of a completion with 150 values, 100 are kept and the rest counted.
func TestCompletionBounded(t *testing.T) {
	conn := connectHostile(t, mcpclient.Config{}, func(context.Context, *mcp.ServerSession) string { return "" })
	got, err := conn.Complete(context.Background(), &mcp.CompleteReference{Type: "ref/prompt", Name: "p"}, mcp.CompleteParamsArgument{Name: "a"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Values) != mcpclient.MaxCompletions || got.Dropped != 50 || got.Total != 150 || got.Values[99] != "v099" {
		t.Errorf("kept %d values, dropped %d, total %d", len(got.Values), got.Dropped, got.Total)
	}
}

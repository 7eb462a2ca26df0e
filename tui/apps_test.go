package tui

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeApps is an app host that opens no tab: it records each tool app it
// is asked to open, and what its sessions are told.
type fakeApps struct {
	opened chan *fakeApp // each session, as it opens
}

func newFakeApps() *fakeApps { return &fakeApps{opened: make(chan *fakeApp, 16)} }

func (h *fakeApps) OpenToolApp(_ context.Context, app *mcpclient.ToolApp) (mcpclient.ToolAppSession, error) {
	s := &fakeApp{app: app, url: "http://127.0.0.1:8123/e/" + app.Request.Key + "#TOKEN", done: make(chan struct{}), told: make(chan string, 64)}
	h.opened <- s
	return s, nil
}

// next is the next session opened.
func (h *fakeApps) next(t *testing.T) *fakeApp {
	t.Helper()
	select {
	case s := <-h.opened:
		return s
	case <-time.After(10 * time.Second):
		t.Fatal("no tool app was opened")
		return nil
	}
}

// fakeApp is one session of fakeApps.
type fakeApp struct {
	app   *mcpclient.ToolApp
	url   string
	told  chan string // "result TEXT", "cancelled REASON", "close", in order
	done  chan struct{}
	end   sync.Once
	mu    sync.Mutex
	err   error
	tools []*mcp.Tool // the app's own tools; nil: it declared none
}

func (s *fakeApp) Result(res *mcp.CallToolResult) {
	text := ""
	if len(res.Content) > 0 {
		if c, ok := res.Content[0].(*mcp.TextContent); ok {
			text = c.Text
		}
	}
	s.told <- "result " + text
}
func (s *fakeApp) Cancelled(reason string) { s.told <- "cancelled " + reason }
func (s *fakeApp) SetTheme(theme string)   { s.told <- "theme " + theme }

// AppTools lists the app's own tools: tools, or none declared.
func (s *fakeApp) AppTools(context.Context) ([]*mcp.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tools == nil {
		return nil, mcpclient.ErrNoAppTools
	}
	return s.tools, nil
}

func (s *fakeApp) CallAppTool(_ context.Context, name string, args json.RawMessage) (*mcp.CallToolResult, error) {
	s.told <- "app tool " + name + " " + string(args)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran in the app"}}}, nil
}
func (s *fakeApp) Done() <-chan struct{} { return s.done }
func (s *fakeApp) URL() string           { return s.url }
func (s *fakeApp) Close() {
	s.told <- "close"
	s.finish(nil)
}

func (s *fakeApp) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// finish ends the session, as its tab closing (nil) or the app asking to
// close would.
func (s *fakeApp) finish(err error) {
	s.end.Do(func() {
		s.mu.Lock()
		s.err = err
		s.mu.Unlock()
		close(s.done)
	})
}

// expectTold waits for what the session is told next.
func (s *fakeApp) expectTold(t *testing.T, want string) {
	t.Helper()
	select {
	case got := <-s.told:
		if got != want {
			t.Errorf("the app was told %q, want %q", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the app was never told %q", want)
	}
}

// boardServer has tools with apps that take no arguments: board answers
// at once, slow_board when its call is cancelled.
func boardServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "boards", Version: "1"}, nil)
	meta := mcp.Meta{"ui": map[string]any{"resourceUri": "ui://boards/board.html"}}
	s.AddTool(&mcp.Tool{Name: "board", InputSchema: json.RawMessage(`{"type":"object"}`), Meta: meta},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the board is drawn"}}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "slow_board", InputSchema: json.RawMessage(`{"type":"object"}`), Meta: meta},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
	return s
}

// withApps opens the inspector with host as its app host.
func withApps(t *testing.T, host mcpclient.ToolAppHost, opts Options, w, h int) *inspector {
	t.Helper()
	opts.ToolApps, opts.AppHost = host, "127.0.0.1:8123"
	if opts.Connect == nil {
		opts.Connect = inMemory(boardServer, "")
	}
	return open(t, opts, w, h)
}

// callNotes calls the fixture's notes tool with a note typed into its
// arguments form.
func (in *inspector) callNotes(text string) *inspector {
	in.t.Helper()
	in.selectTool("notes").keys("enter").expect("Arguments for notes")
	in.keys("ctrl+u") // the note of an earlier run's call
	in.tm.Type(text)
	return in.keys("ctrl+s")
}

// Calling notes opens its app with the tool and the arguments typed, the
// app gets the call's result, and the Apps panel lists the session: its
// tool, state, URL whole and the SSH hint; y copies the URL.
func TestToolAppOpensWithItsCall(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{Connect: inMemory(fixtureServer, ""), AppSSHHint: "ssh -L 8123:127.0.0.1:8123 user@host"}, 100, 30).expect("notes")
	in.callNotes("first")
	app := host.next(t)
	if app.app.Tool == nil || app.app.Tool.Name != "notes" || string(app.app.Arguments) != `{"text":"first"}` {
		t.Errorf("opened the app of %+v with %s", app.app.Tool, app.app.Arguments)
	}
	if app.app.Request.ResourceURI != "ui://fixture/notes.html" {
		t.Errorf("the app's resource is %q", app.app.Request.ResourceURI)
	}
	app.expectTold(t, `result notes: 1 notes, the last "first"`)
	in.expect("1 notes").keys("A").expect("Tool apps")
	if u := copied(t, in); u != "http://127.0.0.1:8123/e/t-1#TOKEN" {
		t.Errorf("y copied %q, not the app's URL", u)
	}
	wantOnScreen(t, in.screen(), "notes", "t-1 open", "http://127.0.0.1:8123/e/t-1#TOKEN", "ssh -L 8123:127.0.0.1:8123 user@host",
		`arguments: {"text":"first"}`, "sent to the app", "copied the app's URL")
}

// c in the Apps panel closes the selected app, which then shows ended.
func TestToolAppClosedFromThePanel(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	app.expectTold(t, "result the board is drawn")
	in.keys("A").expect("t-1 open").keys("c")
	app.expectTold(t, "close")
	in.expect("ended: closed here")
}

// A session that ends on its own shows ended, and why.
func TestToolAppEndsOnItsOwn(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"the tab closed", nil, "ended: the tab closed"},
		{"the app asked to close", mcpclient.ErrAppClosed, "ended: the app asked to close"},
		{"it failed", errors.New("the app never initialized"), "ended: the app never initialized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			host := newFakeApps()
			in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
			in.keys("enter").expect("the board is drawn")
			app := host.next(t)
			in.keys("A").expect("t-1 open")
			app.finish(tc.err)
			in.expect(tc.want)
			if view := in.screen(); strings.Contains(strings.SplitN(view, "\n", 2)[0], "app open ·") {
				t.Errorf("the header still counts the app open:\n%s", view)
			}
		})
	}
}

// Esc cancels a call whose app is open: the app is told it was cancelled,
// and r sends that again.
func TestToolAppToldOfTheCancelledCall(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
	in.keys("j", "enter").expect("calling slow_board")
	app := host.next(t)
	in.keys("esc").expect("You cancelled the call")
	app.expectTold(t, "cancelled the person cancelled the call")
	in.keys("A").expect("t-1 open").keys("r")
	app.expectTold(t, "cancelled the person cancelled the call")
	in.expect("sent to the app 2 times")
}

// r in the Apps panel sends the app its call's result again.
func TestToolAppResultSentAgain(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	app.expectTold(t, "result the board is drawn")
	in.keys("A").expect("t-1 open").keys("r")
	app.expectTold(t, "result the board is drawn")
	in.expect("sent to the app 2 times")
}

// The app's link goes through the consent card: o opens it (OpenURL) and
// the app hears it was opened; d refuses, the app hears so, and nothing
// opens. The panel records both.
func TestToolAppLinkThroughConsent(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	browsed := make(chan string, 4)
	in := withApps(t, host, Options{OpenURL: func(u string) error { browsed <- u; return nil }}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	ask := func(link string) <-chan error {
		out := make(chan error, 1)
		go func() { out <- app.app.Peer.OpenLink(context.Background(), link) }()
		return out
	}
	answer := func(got <-chan error) error {
		t.Helper()
		select {
		case err := <-got:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("the app never heard back about its link")
			return nil
		}
	}

	opened := ask("https://example.com/notes")
	in.expect("host: example.com")
	in.keys("o")
	if err := answer(opened); err != nil {
		t.Errorf("an accepted link: %v", err)
	}
	if u := <-browsed; u != "https://example.com/notes" {
		t.Errorf("opened %q", u)
	}

	refused := ask("http://203.0.113.9/login")
	in.expect("the host is a bare IP address")
	in.keys("d")
	if err := answer(refused); err == nil {
		t.Error("a refused link reached the app as opened")
	}
	select {
	case u := <-browsed:
		t.Errorf("a refused link was opened: %s", u)
	default:
	}
	in.keys("A").expect("Tool apps")
	wantOnScreen(t, in.screen(), "ui/open-link · opened", "https://example.com/notes", "ui/open-link · refused", "http://203.0.113.9/login")
}

// A link whose app stops waiting (its session ended) takes its card away.
func TestToolAppLinkWithdrawn(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() { got <- app.app.Peer.OpenLink(ctx, "https://example.com/x") }()
	in.expect("asks you to open a page")
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Errorf("the link's wait ended with %v", err)
	}
	in.expect("the board is drawn") // the tabs are back
	view := in.screen()
	if strings.Contains(view, "asks you to open a page") {
		t.Errorf("the card of a withdrawn link is still drawn:\n%s", view)
	}
}

// The app's ui/message and ui/update-model-context show in the panel,
// readable: the text of their content blocks.
func TestToolAppMessagesInThePanel(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	in := withApps(t, host, Options{}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	in.keys("A").expect("No messages from the app yet")
	app.app.Peer.Message("ui/message", json.RawMessage(`{"role":"user","content":[{"type":"text","text":"Please summarize the board."}]}`))
	app.app.Peer.Message("ui/update-model-context", json.RawMessage(`{"content":[{"type":"text","text":"3 cards on the board"},{"type":"image","mimeType":"image/png","data":"AA=="}],"structuredContent":{"cards":3}}`))
	in.expect("from the app (2)")
	wantOnScreen(t, in.screen(), "ui/message · user", "Please summarize the board.", "ui/update-model-context",
		"3 cards on the board", "[image image/png]", `structuredContent: {"cards":3}`)
}

// Without an app host, the Tools pane says the tool has an app and how to
// open it; nothing is opened.
func TestToolAppWithoutTheHost(t *testing.T) {
	t.Parallel()
	in := open(t, Options{}, 120, 40).expect("notes")
	in.selectTool("notes").expect("app ui://fixture/notes.html")
	wantOnScreen(t, in.screen(), "--app-host")
}

// The Tools list marks a tool with an app and dims a tool only apps may
// call, which its pane explains.
func TestToolRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		tool  *mcp.Tool
		mark  string
		faint bool
	}{
		{"plain", &mcp.Tool{Name: "a"}, "", false},
		{"with an app", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://x/a.html"}}}, "app", false},
		{"the flat key", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui/resourceUri": "ui://x/a.html"}}, "app", false},
		{"app only", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{"app"}}}}, "app only", true},
		{"model only", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{"model"}}}}, "", false},
		{"an app, app only", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://x/a.html", "visibility": []any{"app"}}}}, "app · app only", true},
		{"no one", &mcp.Tool{Name: "a", Meta: mcp.Meta{"ui": map[string]any{"visibility": []any{}}}}, "hidden", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := page.ToolRow(tc.tool); r.Mark != tc.mark || r.Faint != tc.faint {
				t.Errorf("row %+v, want mark %q faint %v", r, tc.mark, tc.faint)
			}
		})
	}
	m := New(Options{})
	r := widget.Row{Name: "a_long_tool_name_that_does_not_fit", Mark: "app only"}
	for _, selected := range []bool{false, true} {
		if got := r.Text(&m.c, 26, selected); !strings.HasSuffix(got, "app only") || len([]rune(got)) != 26 {
			t.Errorf("selected %v: %q is not 26 cells ending in its mark", selected, got)
		}
	}
}

// What an app sends is kept readable and bounded.
func TestReadableAppMessage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, params, head, text string
	}{
		{"text blocks", `{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`, "user", "a\nb"},
		{"one block, not in a list", `{"role":"user","content":{"type":"text","text":"solo"}}`, "user", "solo"},
		{"a resource link", `{"content":[{"type":"resource_link","uri":"file:///x","name":"x"}]}`, "", "[resource link] file:///x"},
		{"no content", `{"other":1}`, "", `{"other":1}`},
		{"not an object", `[1, 2]`, "", "[1, 2]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := readableAppMessage(mcpclient.DecodeAppMessage("ui/message", json.RawMessage(tc.params)), time.Now())
			if msg.head != tc.head || msg.text != tc.text {
				t.Errorf("head %q text %q, want %q %q", msg.head, msg.text, tc.head, tc.text)
			}
		})
	}
	huge := `{"content":[{"type":"text","text":"` + strings.Repeat("x", 100000) + `"}]}`
	if msg := readableAppMessage(mcpclient.DecodeAppMessage("ui/message", json.RawMessage(huge)), time.Now()); len(msg.text) > maxAppMessageText {
		t.Errorf("a huge message is kept whole: %d bytes", len(msg.text))
	}
}

// A flood of messages from an app costs bounded memory: the queue drops
// what comes too fast and says how many, and a session keeps the newest.
func TestAppMessagesBounded(t *testing.T) {
	t.Parallel()
	a := &toolApp{tool: &mcp.Tool{Name: "board"}}
	q := &appQueue{ready: make(chan struct{}, 1), dropped: map[*toolApp]int{}}
	for range maxQueuedAppReports + 10 {
		q.put(appMessageMsg{a, appMessage{kind: "ui/message", text: "x"}})
	}
	reports := q.wait(make(chan struct{}))().(appReportsMsg)
	if len(reports.msgs) != maxQueuedAppReports || reports.dropped[a] != 10 {
		t.Errorf("%d queued, %d dropped", len(reports.msgs), reports.dropped[a])
	}
	for range maxAppMessages + 5 {
		a.note(appMessage{kind: "ui/message"})
	}
	if len(a.messages) != maxAppMessages || a.dropped != 5 {
		t.Errorf("%d kept, %d dropped", len(a.messages), a.dropped)
	}
}

// d tells the selected app the theme is now the other one; t lists the
// app's own tools (saying so when it declared none), lists them again
// when the app says they changed, and calls the one selected with the
// arguments typed, which must be a JSON object; the call is recorded
// with the app's messages.
func TestToolAppOwnToolsAndTheme(t *testing.T) {
	t.Parallel()
	host := newFakeApps()
	k := keys.NewMap()
	in := withApps(t, host, Options{Theme: "light"}, 100, 30).expect("slow_board")
	in.keys("enter").expect("the board is drawn")
	app := host.next(t)
	app.expectTold(t, "result the board is drawn")
	in.press(k.Tabs.Apps).expect("theme: light")
	in.press(layer.AppsKeys.Theme).expect("the app's theme is now dark")
	app.expectTold(t, "theme dark")
	in.press(layer.AppsKeys.Theme).expect("the app's theme is now light")
	app.expectTold(t, "theme light")

	in.press(layer.AppsKeys.Tools).expect("declared no tools of its own")
	app.mu.Lock()
	app.tools = []*mcp.Tool{{Name: "app_first", Description: "The first"}, {Name: "app_echo", Description: "Echoes in the app"}}
	app.mu.Unlock()
	app.app.Peer.AppToolsChanged()
	in.expectAll("app_first", "Echoes in the app")
	in.press(layer.AppToolsKeys.Down).typeText("nope").press(layer.AppToolsKeys.Call).expect("must be a JSON object")
	in.keys("ctrl+u").typeText(`{"x":1}`).press(layer.AppToolsKeys.Call)
	app.expectTold(t, `app tool app_echo {"x":1}`)
	in.expect("app_echo ran in the app")
	in.press(layer.AppToolsKeys.Back)
	wantOnScreen(t, in.screen(), "app tool · app_echo", "tools changed", "the theme is now dark")
}

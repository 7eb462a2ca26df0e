package tui

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/internal/mcpconfig"
	"github.com/mcpeek/mcpeek/internal/teasync"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/muesli/termenv"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	waitingParallel()
	// The arguments of tool calls are remembered in the state folder:
	// each test's inspector has one of its own (open), and a model made
	// without one writes to the tests' folder, never the person's.
	state, err := os.MkdirTemp("", "mcpeek-tui-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_STATE_HOME", state)
	// Nor are the tests' approvals the person's.
	os.Setenv("XDG_CONFIG_HOME", state)
	unknown := failOnUnknownActions()
	code := m.Run()
	os.RemoveAll(state)
	if unknown() {
		code = 1
	}
	os.Exit(code)
}

// waitingParallel lets more tests run at once than there are CPUs, unless
// -parallel says otherwise: these tests mostly wait, on a server, a
// countdown or the program's next frame. Those that measure how fast the
// inspector answers do not run in parallel.
func waitingParallel() {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}

// inspector drives the whole program against an in-memory server, as a
// person at a terminal would. Each key is waited for until the program has
// processed it and what it quickly led to (teasync), never for a fixed
// time.
type inspector struct {
	t  *testing.T
	tm *teasync.Program
	m  *Model

	// mu guards what follows and the reads of the program's output: the
	// program's goroutine reads it too, after each key (dropped).
	mu sync.Mutex
	// shown is the screen as the last key left it, read before what the
	// program wrote after it: its frame may have been written (and
	// dropped) already.
	shown []byte
	// wrote gets a copy of every byte the program wrote to the terminal,
	// when a test checks all of it (nil: none does).
	wrote io.Writer
}

// output reads what the program drew since the last read, or since the
// last key: the screen that key left, then what the program wrote after.
func (in *inspector) output() []byte {
	in.mu.Lock()
	defer in.mu.Unlock()
	b := append(in.shown, in.written()...)
	in.shown = nil
	return b
}

// dropped runs after each key, on the program's goroutine (AfterEach):
// what the program wrote before it is dropped, so that an expect after
// keys waits for what they brought (or what is still on screen), never
// for a frame from before them.
func (in *inspector) dropped(view string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.written()
	in.shown = []byte(view)
}

// written reads what the program wrote since the last read, keeping a
// copy in wrote. in.mu is held.
func (in *inspector) written() []byte {
	b, _ := io.ReadAll(in.tm.Output())
	if in.wrote != nil {
		_, _ = in.wrote.Write(b)
	}
	return b
}

// keepWritten has every byte the program writes from now on copied to w
// (which is written to with in.mu held).
func (in *inspector) keepWritten(w io.Writer) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.wrote = w
}

func inMemory(server func() *mcp.Server, protocol string) func(context.Context, mcpclient.NativeAsker) (*mcpclient.Conn, error) {
	return func(ctx context.Context, asker mcpclient.NativeAsker) (*mcpclient.Conn, error) {
		cfg := mcpclient.Config{
			Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: server},
			Protocol:     protocol,
			Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
			Asker:        asker, Records: mcpclient.NewRecorder(nil),
			OfferRoots: true,
		}
		if s, ok := asker.(mcpclient.Sampler); ok {
			cfg.Sampler = s
		}
		if l, ok := asker.(mcpclient.Listener); ok {
			cfg.OnEvent = l.OnEvent
		}
		return mcpclient.Connect(ctx, cfg)
	}
}

func fixtureServer() *mcp.Server { return fixture.New(fixture.Options{}) }

func open(t *testing.T, opts Options, w, h int) *inspector {
	t.Helper()
	if opts.Connect == nil {
		opts.Connect = inMemory(fixtureServer, "")
	}
	if opts.Target == "" {
		opts.Target = "embedded fixture"
	}
	if opts.Grace == 0 {
		opts.Grace = noGrace
	}
	if opts.StateDir == "" { // no arguments remembered by another test
		opts.StateDir = t.TempDir()
	}
	if opts.Approvals == nil { // no test approved by another test
		opts.Approvals = mcpconfig.OpenTrustStore(filepath.Join(t.TempDir(), "approved.json"))
	}
	m := New(opts)
	in := &inspector{t: t, m: m, tm: teasync.New(t, m, teatest.WithInitialTermSize(w, h))}
	in.tm.AfterEach(in.dropped)
	t.Cleanup(func() {
		_ = in.tm.Quit()
		in.tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		if m.conn != nil {
			m.conn.Close()
		}
	})
	return in
}

// noGrace turns off the grace period of forms and cards, during which they
// ignore keys: the tests' keys are typed once what they are for is on
// screen. A test of the grace period sets Options.Grace and Clock.
const noGrace = -1

// formOpen waits for an elicitation form.
func (in *inspector) formOpen() *inspector {
	in.t.Helper()
	return in.expect("is asking for input")
}

// expect waits (20 s at most: the race detector on a busy machine is
// slow) until text is on screen, or was drawn since the last expect.
func (in *inspector) expect(text string) *inspector {
	in.t.Helper()
	return in.expectAll(text)
}

// expectAll waits for texts that may come in one frame: expect consumes
// what it read, so that a second expect would miss a text the first read.
// A text counts once it is in what the program wrote since the last
// expect (so that one shown for a moment counts), or on the screen as it
// is now: the program writes only the lines that changed, so a frame
// like the one before writes nothing.
func (in *inspector) expectAll(texts ...string) *inspector {
	in.t.Helper()
	var seen []byte
	holds := func(b []byte) bool {
		for _, text := range texts {
			if !bytes.Contains(b, []byte(text)) {
				return false
			}
		}
		return true
	}
	deadline := time.Now().Add(20 * time.Second)
	for poll := 0; ; poll++ {
		seen = append(seen, in.output()...)
		if holds(seen) || poll%5 == 0 && holds([]byte(in.tm.View())) {
			return in
		}
		if time.Now().After(deadline) {
			in.t.Fatalf("%q never came on screen; the screen:\n%s\nwhat was drawn since the last expect:\n%s", texts, in.tm.View(), seen)
		}
		time.Sleep(5 * time.Millisecond) // polling, with the deadline above
	}
}

// keys types keys by name ("enter", "ctrl+s", "x"), one by one, each
// once the program has taken the one before. What the program drew before
// the last key is dropped (dropped).
func (in *inspector) keys(keys ...string) *inspector {
	in.t.Helper()
	for _, k := range keys {
		in.tm.Send(keyMsg(k))
	}
	return in
}

// press types the first key of each binding: what its help names.
func (in *inspector) press(bs ...key.Binding) *inspector {
	for _, b := range bs {
		in.keys(b.Keys()[0])
	}
	return in
}

// keyMsg is the key event a terminal delivers for a key's name.
func keyMsg(name string) tea.KeyMsg {
	if t, ok := keyTypes[name]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(name)}
}

// keyTypes names Bubble Tea's key types as key.Binding does.
var keyTypes = func() map[string]tea.KeyType {
	types := map[string]tea.KeyType{}
	for t := tea.KeyType(-128); t < 128; t++ {
		if name := t.String(); name != "" && t != tea.KeyRunes {
			types[name] = t
		}
	}
	return types
}()

// selectTool moves the cursor to a tool by name.
func (in *inspector) selectTool(name string) *inspector {
	in.t.Helper()
	in.keys("/")
	in.tm.Type(name)
	return in.keys("enter")
}

// screen stops the program and returns the last frame, with clock times
// and durations masked so goldens do not depend on when they ran.
func (in *inspector) screen() string {
	in.t.Helper()
	if err := in.tm.Quit(); err != nil {
		in.t.Fatal(err)
	}
	in.tm.WaitFinished(in.t, teatest.WithFinalTimeout(5*time.Second))
	for i := range in.m.records {
		// How long requests took to answer is masked too, but before the
		// layout: its digits take room that moves what a row cuts.
		in.m.records[i].AnsweredMs = answeredMs
	}
	in.m.syncPages() // the Requests page shows them
	return mask(in.m.View())
}

// answeredMs is the time every request on a screen took to answer: as
// long as a person who waited out a form's grace period.
const answeredMs = 450

var (
	clockTimes = regexp.MustCompile(`\d\d:\d\d:\d\d(\.\d{3})?`)
	durations  = regexp.MustCompile(`\d+(ms|s)\b`)
	ids        = regexp.MustCompile(`id=[A-Z0-9]+`)
	spinners   = regexp.MustCompile(`[\x{2800}-\x{28FF}]`)
)

func mask(s string) string {
	s = clockTimes.ReplaceAllString(s, "hh:mm:ss")
	s = durations.ReplaceAllString(s, "N$1")
	s = ids.ReplaceAllString(s, "id=ID")
	return spinners.ReplaceAllString(s, "*")
}

// findTop is the layer on top when it is of type L.
func findTop[L layer.Layer](m *Model) (L, bool) {
	l, ok := m.top().layer().(L)
	return l, ok
}

// sentBy waits until conn has sent a request of method. The inspector
// sends some only once it holds a new connection (its lists, its log
// level), so keys pressed after that reach an inspector that is connected:
// the connection's own return comes before the inspector hears of it.
func sentBy(t *testing.T, conn *mcpclient.Conn, method string) {
	t.Helper()
	seen := make(chan struct{}, 1)
	stop := conn.Wire().Tap(lineFunc(func(line []byte) {
		if bytes.Contains(line, []byte(`"dir":"send","method":"`+method+`"`)) {
			select {
			case seen <- struct{}{}:
			default:
			}
		}
	}))
	defer stop()
	for _, e := range conn.Wire().Entries() {
		if e.Dir == mcpclient.DirSend && e.Method == method {
			return
		}
	}
	select {
	case <-seen:
	case <-time.After(20 * time.Second):
		t.Fatalf("the inspector never sent %s on the new connection", method)
	}
}

// lineFunc is an io.Writer that hands each write (a wire log line) to f.
type lineFunc func([]byte)

func (f lineFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

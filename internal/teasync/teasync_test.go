package teasync

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// chain is a model whose keys start commands of every kind: a chain of
// quick ones (each message starts the next, as huh's focus moves do), a
// batch and a sequence of them, one that waits on a channel the test
// holds, and a tick.
type chain struct {
	log     []string
	release chan struct{}
}

type (
	stepMsg     int
	releasedMsg struct{}
	tickedMsg   struct{}
)

func (c *chain) Init() tea.Cmd { return step(1) }

func step(n int) tea.Cmd {
	return func() tea.Msg { return stepMsg(n) }
}

func (c *chain) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case stepMsg:
		c.log = append(c.log, "step "+string(rune('0'+msg)))
		if msg%3 != 0 {
			return c, step(int(msg) + 1)
		}
	case releasedMsg:
		c.log = append(c.log, "released")
	case tickedMsg:
		c.log = append(c.log, "ticked")
	case tea.KeyMsg:
		c.log = append(c.log, msg.String())
		switch msg.String() {
		case "a":
			return c, step(4)
		case "b":
			return c, tea.Batch(step(7), tea.Sequence(step(3), step(6)))
		case "w":
			release := c.release
			return c, tea.Batch(step(4), func() tea.Msg { <-release; return releasedMsg{} })
		case "t":
			return c, tea.Tick(time.Hour, func(time.Time) tea.Msg { return tickedMsg{} })
		}
	}
	return c, nil
}

func (c *chain) View() string { return strings.Join(c.log, ", ") }

func TestSendWaitsForWhatTheMessageLedTo(t *testing.T) {
	c := &chain{release: make(chan struct{})}
	p := New(t, c, teatest.WithInitialTermSize(80, 24))
	defer func() { _ = p.Quit() }()
	want := func(view string) {
		t.Helper()
		if got := p.View(); got != view {
			t.Fatalf("the view is %q, want %q", got, view)
		}
	}
	want("step 1, step 2, step 3") // Init's chain, before New returns
	p.Send(keyMsg("a"))
	want("step 1, step 2, step 3, a, step 4, step 5, step 6")
	p.Send(keyMsg("b")) // a batch's commands run side by side; a sequence's in order
	_, after, _ := strings.Cut(p.View(), ", b, ")
	got := strings.Split(after, ", ")
	at := func(s string) int {
		for i, g := range got {
			if g == s {
				return i
			}
		}
		return -1
	}
	if len(got) != 5 || at("step 7") < 0 || at("step 8") < at("step 7") || at("step 9") < at("step 8") || at("step 3") < 0 || at("step 6") < at("step 3") {
		t.Fatalf("after b: %q, want steps 7 to 9, and 3 then 6", got)
	}
	c2 := &chain{release: make(chan struct{})}
	p2 := New(t, c2, teatest.WithInitialTermSize(80, 24))
	defer func() { _ = p2.Quit() }()
	p2.Send(keyMsg("w")) // returns with a command parked on a channel
	p2.Send(keyMsg("t")) // and one waiting an hour
	if got := p2.View(); got != "step 1, step 2, step 3, w, step 4, step 5, step 6, t" {
		t.Fatalf("the view is %q", got)
	}
	close(c2.release) // what a parked command brings comes when it comes
	for deadline := time.Now().Add(5 * time.Second); !strings.HasSuffix(p2.View(), "released"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the view is %q, without the released command's message", p2.View())
		}
	}
}

func keyMsg(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// last is a model that shows the last key it got.
type last struct{ key string }

func (l *last) Init() tea.Cmd { return nil }

func (l *last) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		l.key = k.String()
	}
	return l, nil
}

func (l *last) View() string { return "last key: " + l.key }

// AfterEach runs once for each message sent, before Send returns, with
// the frame drawn for it; what the program wrote until then can be cut
// off there, so that no frame from before the message is read after it.
func TestAfterEachFollowsTheMessagesFrame(t *testing.T) {
	p := New(t, &last{}, teatest.WithInitialTermSize(80, 24))
	var (
		mu    sync.Mutex
		all   []byte   // what the program wrote
		cut   int      // where what follows the last message starts
		views []string // what AfterEach saw
	)
	read := func() []byte {
		mu.Lock()
		defer mu.Unlock()
		b, _ := io.ReadAll(p.Output())
		all = append(all, b...)
		return all
	}
	p.AfterEach(func(view string) {
		read()
		mu.Lock()
		defer mu.Unlock()
		cut, views = len(all), append(views, view)
	})
	for _, k := range []string{"x", "y", "z"} {
		p.Send(keyMsg(k))
		mu.Lock()
		got := slices.Clone(views)
		mu.Unlock()
		if want := "last key: " + k; len(got) == 0 || got[len(got)-1] != want {
			t.Fatalf("after %s, AfterEach saw %q, want %q last", k, got, want)
		}
		// The renderer writes the frame in its own time: once it has, the
		// next key's cut comes after it.
		for deadline := time.Now().Add(5 * time.Second); !bytes.Contains(read(), []byte("last key: "+k)); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the frame of %s was never written", k)
			}
		}
	}
	if len(views) != 3 {
		t.Errorf("AfterEach ran %d times for 3 keys: %q", len(views), views)
	}
	if err := p.Quit(); err != nil {
		t.Fatal(err)
	}
	p.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second)) // the renderer has written its last frame
	after := read()[cut:]
	if bytes.Contains(after, []byte("last key: x")) || bytes.Contains(after, []byte("last key: y")) {
		t.Errorf("after z, the output holds a frame from before it: %q", after)
	}
}

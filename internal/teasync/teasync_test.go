package teasync

import (
	"strings"
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

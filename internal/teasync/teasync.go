// Package teasync drives a Bubble Tea program in tests and waits for it to
// have processed what it was sent, never for a fixed time.
//
// A program's Update runs one message at a time, but what it returns is a
// command that runs on its own goroutine and comes back as another message
// later: huh moves the focus to the next field that way, a form starts
// that way, and a key typed before that message is back lands on the wrong
// field. So [Program.Send] gives the program a message and waits until
// Update has run for it and for every message its commands brought back,
// and theirs in turn — except the commands that wait: for time to pass
// (tea.Tick, tea.Every, a cursor's blink), or for something from outside,
// which the Go runtime shows as their goroutine being parked on a channel,
// a select or the network (a call waiting on its server, a queue waiting
// for the next event). Those the test waits for in its own way, by what
// appears on screen.
//
// The program is teatest's (output, quit, final model), with the model
// wrapped in one that numbers what the test sent and keeps count of the
// commands each message started.
package teasync

import (
	"bytes"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// settleTimeout bounds the wait for the program to take a message and do
// what follows from it.
const settleTimeout = 20 * time.Second

// Program is a running program whose messages are waited for.
type Program struct {
	*teatest.TestModel
	t testing.TB
	w *wrapper
}

// New starts m at the given terminal size, and waits until its Init has
// run and the commands it started are done or waiting (as for Send).
func New(t testing.TB, m tea.Model, opts ...teatest.TestOption) *Program {
	t.Helper()
	w := &wrapper{inner: m, gen: initGen, flights: map[uint64]*flight{}, changed: make(chan struct{}, 1), quit: make(chan struct{})}
	p := &Program{t: t, w: w}
	p.TestModel = teatest.NewTestModel(t, w, opts...)
	p.wait(initGen)
	return p
}

// Send gives msg to the program and waits until it is processed, with the
// messages its commands bring back unless they wait.
//
// A second message follows msg at once: the program handles it right
// after msg, once the frame drawn for msg is with the renderer, and msg
// counts as processed only then; the function given to [Program.AfterEach]
// runs there.
func (p *Program) Send(msg tea.Msg) {
	p.t.Helper()
	p.w.mu.Lock()
	p.w.gen++
	gen := p.w.gen
	p.w.mu.Unlock()
	p.TestModel.Send(sent{gen, msg})
	p.TestModel.Send(handled{gen})
	p.wait(gen)
}

// AfterEach has f run on the program's goroutine right after each message
// of Send, once the frame drawn for it is with the renderer (written
// then, or with the next frames), and before Send returns; view is that
// frame, the screen as it stands. A test drops there what the program
// wrote before, so that what it reads next follows from the message — and
// keeps view, as what it drew may have been written already. Call it
// before the first Send.
func (p *Program) AfterEach(f func(view string)) {
	p.w.mu.Lock()
	defer p.w.mu.Unlock()
	p.w.afterEach = f
}

// View is what the program draws now: the screen as it is, where its
// output holds only what changed between frames (and nothing for a frame
// that looks like the one before).
func (p *Program) View() string {
	p.t.Helper()
	answer := make(chan string, 1)
	p.TestModel.Send(viewQuery{answer})
	select {
	case v := <-answer:
		return v
	case <-p.w.quit:
		return "" // the program ends, or has ended: it may draw no more
	case <-time.After(settleTimeout):
		p.t.Fatalf("the program did not draw within %s (has it ended?)", settleTimeout)
		return ""
	}
}

// viewQuery asks the wrapper for the view.
type viewQuery struct{ answer chan<- string }

// handled follows the test's message gen: by the time the program has it,
// the frame of gen is with the renderer.
type handled struct{ gen uint64 }

// Quit ends the program, as teatest's Quit does.
func (p *Program) Quit() error {
	p.w.quitting()
	return p.TestModel.Quit()
}

// Type types s, one key per character, each as Send does.
func (p *Program) Type(s string) {
	p.t.Helper()
	for _, r := range s {
		p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

// wait returns once message gen is processed and its commands are done
// or waiting.
func (p *Program) wait(gen uint64) {
	p.t.Helper()
	deadline := time.Now().Add(settleTimeout)
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 10*time.Millisecond) {
		running := p.w.running(gen)
		if len(running) == 0 {
			return
		}
		// Reading every goroutine's state stops the world: only once the
		// commands had a moment to come back on their own.
		if pause >= time.Millisecond && parked(running) {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the program was still busy after %s", settleTimeout)
		}
		select { // until something changes, or to look at the goroutines again
		case <-p.w.quit:
			return // what is left will not run
		case <-p.w.changed:
			pause = 50 * time.Microsecond
		case <-time.After(pause):
		}
	}
}

// sent is a message from the test, numbered.
type sent struct {
	gen uint64
	msg tea.Msg
}

// back is what a tracked command returned.
type back struct {
	id  uint64
	msg tea.Msg
}

// flight is a command started and not yet back.
type flight struct {
	gen       uint64  // the message of the test it follows from (0: none)
	timer     bool    // it waits for time to pass
	goroutine int64   // the goroutine running it, once it runs (0: not yet)
	returned  bool    // it returned: its message is on its way
	after     *flight // in a sequence, the command that runs before it
}

// initGen numbers Init, as if the test had sent it.
const initGen = 1

// wrapper runs the model, keeping count of the commands in flight.
type wrapper struct {
	inner tea.Model

	mu        sync.Mutex
	gen       uint64 // the last message the test numbered
	processed uint64 // the last numbered message Update has run for
	nextID    uint64
	flights   map[uint64]*flight
	changed   chan struct{} // a flight ended or a message was processed
	quit      chan struct{} // closed once the program was told to quit
	quitOnce  sync.Once
	afterEach func(view string) // nil: nothing to do after a message
}

func (w *wrapper) quitting() { w.quitOnce.Do(func() { close(w.quit) }) }

func (w *wrapper) Init() tea.Cmd {
	defer w.processedUpTo(initGen)
	cmd := w.inner.Init()
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.track(initGen, cmd, nil)
}

func (w *wrapper) View() string { return w.inner.View() }

func (w *wrapper) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var gen uint64
	switch m := msg.(type) {
	case viewQuery:
		m.answer <- w.inner.View()
		return w, nil
	case handled:
		w.mu.Lock()
		f := w.afterEach
		w.mu.Unlock()
		if f != nil {
			f(w.inner.View())
		}
		w.processedUpTo(m.gen)
		return w, nil
	case sent:
		gen, msg = m.gen, m.msg
	case back:
		w.mu.Lock()
		if f := w.flights[m.id]; f != nil {
			gen = f.gen
		}
		w.mu.Unlock()
		// The command is done only once what it brought is tracked in its
		// turn, so that its message never counts as settled in between.
		defer w.land(m.id)
		if cmd, ok := w.program(gen, m.msg); ok {
			return w, cmd
		}
		msg = m.msg
	}
	inner, cmd := w.inner.Update(msg)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.inner = inner
	return w, w.track(gen, cmd, nil)
}

// land ends the flight of a command whose message Update has run for.
func (w *wrapper) land(id uint64) {
	w.mu.Lock()
	delete(w.flights, id)
	w.mu.Unlock()
	w.signal()
}

// processedUpTo notes that Update has run for the test's message gen.
func (w *wrapper) processedUpTo(gen uint64) {
	w.mu.Lock()
	w.processed = max(w.processed, gen)
	w.mu.Unlock()
	w.signal()
}

func (w *wrapper) signal() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// program handles what a command brought back that is for the program,
// not the model: nothing; the commands of a batch or a sequence, tracked
// in their turn; the program's own messages (quit, exec, window title…),
// handed back to it.
func (w *wrapper) program(gen uint64, msg tea.Msg) (tea.Cmd, bool) {
	if msg == nil {
		return nil, true
	}
	v := reflect.ValueOf(msg)
	t := v.Type()
	if t.PkgPath() != teaPkg || isModelMsg(msg) {
		return nil, false
	}
	if t.Kind() == reflect.Slice && t.Elem() == reflect.TypeFor[tea.Cmd]() { // BatchMsg, and Sequence's
		w.mu.Lock()
		defer w.mu.Unlock()
		cmds := make([]tea.Cmd, v.Len())
		var before *flight
		for i := range cmds {
			c := v.Index(i).Interface().(tea.Cmd)
			if t == reflect.TypeFor[tea.BatchMsg]() {
				cmds[i] = w.track(gen, c, nil)
				continue
			}
			cmds[i] = w.track(gen, c, before)
			if cmds[i] != nil {
				before = w.flights[w.nextID]
			}
		}
		if t == reflect.TypeFor[tea.BatchMsg]() {
			return tea.Batch(cmds...), true
		}
		return tea.Sequence(cmds...), true
	}
	switch msg.(type) {
	case tea.QuitMsg, tea.InterruptMsg: // the program ends once it has it
		w.quitting()
	}
	if t.Name() == "execMsg" {
		msg = w.trackExec(gen, v)
	}
	return func() tea.Msg { return msg }, true
}

// trackExec tracks the message a tea.Exec's callback sends once the
// program ran the command: Bubble Tea sends it itself, so the callback
// is swapped for one whose message comes back as back.
func (w *wrapper) trackExec(gen uint64, v reflect.Value) tea.Msg {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	field := c.FieldByName("fn")
	fn := reflect.NewAt(field.Type(), unsafe.Pointer(field.UnsafeAddr())).Elem()
	callback, ok := fn.Interface().(tea.ExecCallback)
	if !ok || callback == nil {
		return v.Interface()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.nextID++
	id := w.nextID
	f := &flight{gen: gen}
	w.flights[id] = f
	fn.Set(reflect.ValueOf(tea.ExecCallback(func(err error) tea.Msg {
		msg := callback(err)
		w.mu.Lock()
		f.returned = true
		w.mu.Unlock()
		return back{id, msg}
	})))
	return c.Interface()
}

// isModelMsg tells the messages of Bubble Tea's that the model gets.
func isModelMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case tea.KeyMsg, tea.MouseMsg, tea.WindowSizeMsg, tea.FocusMsg, tea.BlurMsg:
		return true
	}
	return false
}

var teaPkg = reflect.TypeFor[tea.QuitMsg]().PkgPath()

// track wraps cmd so that its message comes back as back, counted as in
// flight for message gen until then; after is the command a sequence runs
// before it. w.mu is held.
func (w *wrapper) track(gen uint64, cmd tea.Cmd, after *flight) tea.Cmd {
	if cmd == nil {
		return nil
	}
	w.nextID++
	id := w.nextID
	f := &flight{gen: gen, timer: timer(cmd), after: after}
	w.flights[id] = f
	return func() tea.Msg {
		g := goroutineID()
		w.mu.Lock()
		f.goroutine = g
		w.mu.Unlock()
		msg := cmd()
		w.mu.Lock()
		f.returned = true
		w.mu.Unlock()
		return back{id, msg}
	}
}

// running lists the goroutines of the commands that follow from message
// gen and still run; a command not started yet is -1, unless it waits for
// one before it in a sequence that is running (then that one stands for
// it). Nil means settled; nil with the message not yet processed is never
// returned.
func (w *wrapper) running(gen uint64) []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if gen > w.processed {
		return []int64{-1}
	}
	var ids []int64
	for _, f := range w.flights {
		if f.gen != gen || f.timer {
			continue
		}
		for f.goroutine == 0 && f.after != nil && !f.after.returned {
			f = f.after
		}
		switch {
		case f.returned:
			ids = append(ids, -1) // its message is on its way
		case f.goroutine == 0:
			ids = append(ids, -1)
		default:
			ids = append(ids, f.goroutine)
		}
	}
	return ids
}

// timer tells the commands that only wait for time to pass: Bubble Tea's
// Tick and Every (spinners, countdowns, debounces) and a cursor's blink.
func timer(cmd tea.Cmd) bool {
	name := runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name()
	for _, prefix := range timers {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

var timers = []string{
	teaPkg + ".Tick.",
	teaPkg + ".Every.",
	"github.com/charmbracelet/bubbles/cursor.(*Model).BlinkCmd.",
}

// goroutineID is the calling goroutine's number, as stack traces show it.
func goroutineID() int64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	id, _ := strconv.ParseInt(string(b[:bytes.IndexByte(b, ' ')]), 10, 64)
	return id
}

// parked tells whether every goroutine of ids is parked waiting for
// something from outside — a channel, a select, a timer, the network —
// rather than running, ready to run, or held a moment by a lock. -1 is a
// command about to run or whose message is on its way: never parked.
func parked(ids []int64) bool {
	for _, id := range ids {
		if id < 0 {
			return false
		}
	}
	states := goroutineStates()
	for _, id := range ids {
		if !waiting(states[id]) {
			return false
		}
	}
	return true
}

// waiting tells the states of a goroutine parked until something from
// outside comes (runtime/traceback.go's waitReason strings).
func waiting(state string) bool {
	state, _, _ = strings.Cut(state, ",") // "select, 2 minutes"
	switch state {
	case "chan receive", "chan send", "select", "sleep", "IO wait", "sync.Cond.Wait",
		"select (no cases)", "chan receive (nil chan)", "chan send (nil chan)",
		"sync.WaitGroup.Wait": // for goroutines of its own, which wait in their turn
		return true
	}
	return false
}

// goroutineStates reads every goroutine's state from a dump of all the
// stacks: "goroutine 7 [select]:".
func goroutineStates() map[int64]string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	states := map[int64]string{}
	for _, line := range bytes.Split(buf, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("goroutine "))
		if !ok {
			continue
		}
		num, state, ok := bytes.Cut(rest, []byte(" ["))
		if !ok {
			continue
		}
		id, err := strconv.ParseInt(string(num), 10, 64)
		if err != nil {
			continue
		}
		states[id] = string(bytes.TrimSuffix(state, []byte("]:")))
	}
	return states
}

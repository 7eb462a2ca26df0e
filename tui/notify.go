package tui

import (
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
)

// What the server tells the inspector (log messages, progress, changes)
// arrives on the connection's reading goroutine, which must never wait
// for the screen. It is queued here, bounded, and the program takes the
// queue whole at most 30 times a second, so that a flood of progress or
// log notifications costs at most 30 redraws a second.

// maxQueuedEvents bounds the queue between two deliveries; beyond it the
// oldest are dropped and counted.
const maxQueuedEvents = 5000

// eventInterval is the least time between two deliveries (≤ 30 a second).
const eventInterval = time.Second / 30

// eventsMsg delivers the events queued since the last delivery, oldest
// first, and how many were dropped because the queue was full.
type eventsMsg struct {
	events  []mcpclient.Event
	dropped int
}

// eventQueue is the bounded queue between the connection and the program.
type eventQueue struct {
	mu      sync.Mutex
	events  []mcpclient.Event
	dropped int
	ready   wakeup // notified while events wait
}

func newEventQueue() *eventQueue { return &eventQueue{ready: newWakeup()} }

// OnEvent queues an event; it never blocks.
func (q *eventQueue) OnEvent(e mcpclient.Event) {
	q.mu.Lock()
	if len(q.events) >= maxQueuedEvents {
		q.events[0] = nil
		q.events = q.events[1:]
		q.dropped++
	}
	q.events = append(q.events, e)
	q.mu.Unlock()
	q.ready.notify()
}

func (q *eventQueue) take() eventsMsg {
	q.mu.Lock()
	defer q.mu.Unlock()
	msg := eventsMsg{events: q.events, dropped: q.dropped}
	q.events, q.dropped = nil, 0
	return msg
}

// wait delivers the next batch: it waits for an event, then for the rest
// of the interval, so that what arrives meanwhile comes in the same batch.
// The model issues it again after each batch.
func (q *eventQueue) wait(ended <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-q.ready:
		case <-ended:
			return nil
		}
		select {
		case <-time.After(eventInterval):
		case <-ended:
			return nil
		}
		return q.take()
	}
}

// wakeup is the signal of a queue that the program drains: whoever
// queues notifies it, never waiting, and wait's command delivers what
// take returns once it has been notified (or nothing, once the program
// has ended).
type wakeup chan struct{}

func newWakeup() wakeup { return make(chan struct{}, 1) }

func (w wakeup) notify() {
	select {
	case w <- struct{}{}:
	default:
	}
}

func (w wakeup) wait(ended <-chan struct{}, take func() tea.Msg) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-w:
		case <-ended:
			return nil
		}
		return take()
	}
}

// events takes in a batch of the server's notifications.
func (m *Model) events(msg eventsMsg) tea.Cmd {
	cmds := []tea.Cmd{m.asker.queue.wait(m.asker.ended)}
	var logs page.LogEvents
	reload := false
	for _, e := range msg.events {
		switch e := e.(type) {
		case mcpclient.ListChangedEvent:
			reload = true
		case mcpclient.LogEvent:
			logs = append(logs, e)
		case mcpclient.ProgressEvent:
			if m.call.heard(e) {
				m.tell(m.pages) // the Tools tab shows the call's progress
			}
		case mcpclient.TaskEvent:
			m.tasks.heard(e)
		case mcpclient.ResourceUpdatedEvent:
			cmds = append(cmds, m.do(origin{}, pageOf[*page.Resources](m).Update(page.ResourceUpdated{URI: e.URI, At: time.Now()})))
		}
	}
	m.droppedEvents += msg.dropped
	if len(logs) > 0 {
		pageOf[*page.Log](m).Update(logs)
	}
	if reload && m.conn != nil && m.state == stateConnected {
		cmds = append(cmds, load(m.conn), m.lock.start(m.conn, m.opts.Dir))
	}
	return tea.Batch(cmds...)
}

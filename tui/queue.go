package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// elicitation is the head of the queue of requests waiting for the
// person, on screen, when it is an elicitation: its native form, or for a
// URL-mode request the consent card. (A sampling request at the head is
// shown by the sampling layer, sampling.go.) One at a time is shown; the
// footer counts the others and ctrl+n puts the head back at the end to
// show the next.
type elicitation struct {
	x     *ask
	form  *nativeform.Form // nil: the URL consent card
	shown time.Time        // when it appeared: the card's grace period and timeout
}

// headLayer is the layer that shows the head of the queue.
type headLayer interface {
	layer
	head() *ask
}

func (l *elicitation) head() *ask                   { return l.x }
func (l *elicitation) nativeForm() *nativeform.Form { return l.form }
func (l *elicitation) typesText() bool              { return l.form != nil }

func (l *elicitation) resize(m *Model) tea.Cmd {
	if l.form == nil {
		return nil
	}
	return m.sizeForm(l.form)
}

func (l *elicitation) view(m *Model, _ int, _ *level) string {
	if l.form == nil {
		return m.urlView(l.x)
	}
	return l.form.View()
}

func (l *elicitation) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	if cmd, ok := m.queueKey(msg); ok {
		return cmd
	}
	if l.form == nil {
		return m.urlKey(l, msg)
	}
	if key.Matches(msg, m.c.keys.form.interrupt) { // the quit prompt, over the form
		return m.askQuit()
	}
	_, cmd := l.form.Update(msg)
	return cmd
}

// queueKey handles ctrl+n, which puts the head of the queue back at the
// end so that the next shows, reporting whether it did.
func (m *Model) queueKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	if !key.Matches(msg, m.c.keys.form.next) || len(m.queue) < 2 {
		return nil, false
	}
	m.queue = append(m.queue[1:], m.queue[0])
	return m.showHead(), true
}

// queueFooter counts the queue, when more than one request waits.
func (m *Model) queueFooter() string {
	if len(m.queue) < 2 {
		return ""
	}
	s := m.c.styles
	return s.warn.Render(fmt.Sprintf("1 of %d pending", len(m.queue))) + s.dim.Render(" · ") + m.c.keyLine(m.c.keys.form.ShortHelp()...)
}

// footer counts the queue; the form draws its own keys, the URL card's
// are here.
func (l *elicitation) footer(m *Model, _ *level) string {
	s := m.c.styles
	var parts []string
	if q := m.queueFooter(); q != "" {
		parts = append(parts, q)
	}
	if l.form == nil {
		parts = append(parts, m.urlFooter(l.x.req.Params.URL))
	}
	return strings.Join(parts, s.dim.Render(" · "))
}

// enqueue takes in a request; it shows if none is showing.
func (m *Model) enqueue(x *ask) tea.Cmd {
	m.queue = append(m.queue, x)
	return m.showHead()
}

// withdraw drops a request that ended elsewhere.
func (m *Model) withdraw(reqKey string) tea.Cmd {
	for i, x := range m.queue {
		if x.key() == reqKey {
			m.queue = append(m.queue[:i], m.queue[i+1:]...)
			break
		}
	}
	return m.showHead()
}

// showHead keeps the layer of the queue's head showing it: it opens it
// over everything else when the first request arrives, shows the next in
// its place when the head changes, and closes it when none is left.
func (m *Model) showHead() tea.Cmd {
	cur, shown := find[headLayer](m)
	if len(m.queue) == 0 {
		if shown {
			m.close(cur)
		}
		return nil
	}
	x := m.queue[0]
	if shown && cur.head() == x {
		return nil
	}
	var next headLayer
	var cmd tea.Cmd
	switch {
	case x.sample != nil:
		next, cmd = m.showSample(x)
	case x.req.Params.Mode == "url":
		next = &elicitation{x: x, shown: m.opts.now()}
	default:
		l := &elicitation{x: x, shown: m.opts.now()}
		l.form = nativeform.New(FormRequest(x.req, redactShown), m.opts.formOptions())
		next, cmd = l, tea.Batch(l.form.Init(), m.sizeForm(l.form))
	}
	if shown {
		m.replace(cur, next)
	} else {
		m.open(next)
	}
	return cmd
}

// reply answers the elicitation shown and shows the next.
func (m *Model) reply(l *elicitation, res *mcp.ElicitResult) tea.Cmd {
	m.queue = deleteAsk(m.queue, l.x)
	return tea.Batch(answer(l.x, res), m.showHead())
}

func deleteAsk(queue []*ask, x *ask) []*ask {
	for i, y := range queue {
		if y == x {
			return append(queue[:i], queue[i+1:]...)
		}
	}
	return queue
}

// settleForms acts on every form in the stack that has settled: an
// elicitation's or a sampling request's answer goes to its server,
// arguments to what asked for them. (A form's DoneMsg does not say which
// form it came from.)
func (m *Model) settleForms() tea.Cmd {
	var cmds []tea.Cmd
	for _, l := range slices.Clone(m.layers) {
		switch l := l.(type) {
		case *elicitation:
			if r, ok := l.formResult(); ok {
				out := &mcp.ElicitResult{Action: string(r.Action)}
				if r.Action == nativeform.Accept {
					out.Content = r.Content
				}
				cmds = append(cmds, m.reply(l, out))
			}
		case *sampling:
			if r, ok := l.x.form.Result(); ok {
				cmds = append(cmds, m.sampleDone(l, r))
			}
		case *argsForm:
			if r, ok := l.form.Result(); ok {
				cmds = append(cmds, m.argsDone(l, r))
			}
		}
	}
	return tea.Batch(cmds...)
}

func (l *elicitation) formResult() (nativeform.Result, bool) {
	if l.form == nil {
		return nativeform.Result{}, false
	}
	return l.form.Result()
}

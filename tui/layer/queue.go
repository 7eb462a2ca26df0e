// The layers that show the head of the queue of requests waiting for the
// person: an elicitation's form, and a sampling request's form (the URL
// consent card of a URL-mode elicitation is in urlcard.go). One request
// at a time is shown; the footer counts the others and ctrl+n shows the
// next.

package layer

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Head is a layer that shows the head of the queue of requests waiting
// for the person.
type Head interface {
	Layer
	// Head is the request shown: its *mcpclient.NativeRequest or
	// *mcpclient.SampleRequest.
	Head() any
}

type (
	// NextInQueue puts the head of the queue back at its end, so that
	// the next request shows (ctrl+n).
	NextInQueue struct{}
	// AnswerSample answers the sampling request Req, shown at the head
	// of the queue, with what its form settled on: the program sends it
	// and shows the next.
	AnswerSample struct {
		Req    *mcpclient.SampleRequest
		Result nativeform.SampleResult
	}
)

// nextInQueue is ctrl+n's action, when more than one request waits.
func nextInQueue(c *widget.Common, msg tea.KeyMsg, queued func() int) (Action, bool) {
	if !key.Matches(msg, FormKeys.Next) || queued() < 2 {
		return nil, false
	}
	return NextInQueue{}, true
}

// queueFooter counts the queue, when more than one request waits.
func queueFooter(c *widget.Common, queued func() int) string {
	n := queued()
	if n < 2 {
		return ""
	}
	s := c.Styles
	return s.Warn.Render(fmt.Sprintf("1 of %d pending", n)) + s.Dim.Render(" · ") + c.KeyLine(FormKeys.ShortHelp()...)
}

// ElicitForm shows an elicitation's native form. ctrl+c asks to quit
// over it; its answer, once the form settles, goes to the server.
type ElicitForm struct {
	c      *widget.Common
	req    *mcpclient.NativeRequest
	form   *nativeform.Form
	queued func() int
	inited bool
}

// NewElicitForm shows form, the form of req; queued says how many
// requests wait, this one included.
func NewElicitForm(c *widget.Common, req *mcpclient.NativeRequest, form *nativeform.Form, queued func() int) *ElicitForm {
	return &ElicitForm{c: c, req: req, form: form, queued: queued}
}

// Head is the request the form answers.
func (l *ElicitForm) Head() any { return l.req }

// Form is the form shown.
func (l *ElicitForm) Form() *nativeform.Form { return l.form }

// TypesText: the form takes text.
func (*ElicitForm) TypesText() bool { return true }

// HoldsForm: the form's countdown and cursor come here.
func (*ElicitForm) HoldsForm() bool { return true }

// Update gives the form its room, keys and ticks, and answers the
// request once the form settled.
func (l *ElicitForm) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return sizeForm(l.form, msg, &l.inited)
	case tea.KeyMsg:
		if a, ok := nextInQueue(l.c, msg, l.queued); ok {
			return a
		}
		if key.Matches(msg, FormKeys.Interrupt) { // the quit prompt, over the form
			return AskQuit{}
		}
	case nativeform.DoneMsg, nativeform.SampleDoneMsg: // a form settled: this one?
		r, ok := l.form.Result()
		if !ok {
			return nil
		}
		out := &mcp.ElicitResult{Action: string(r.Action)}
		if r.Action == nativeform.Accept {
			out.Content = r.Content
		}
		return AnswerElicitation{l.req, out}
	}
	_, cmd := l.form.Update(msg)
	return cmdOf(cmd)
}

// View is the form.
func (l *ElicitForm) View(int, int) string { return l.form.View() }

// Help is none: the form draws its own keys.
func (l *ElicitForm) Help() []key.Binding { return nil }

// Footer counts the queue.
func (l *ElicitForm) Footer(int) string { return queueFooter(l.c, l.queued) }

// Sampling shows a sampling request's form: the server asks for a
// model's reply, the person writes it (or rejects the request). It waits
// in the same queue as elicitations, with the same countdown.
type Sampling struct {
	c      *widget.Common
	req    *mcpclient.SampleRequest
	form   *nativeform.SampleForm
	queued func() int
	inited bool
}

// NewSampling shows form, the form of req, kept with the request so that
// what was typed, and the countdown, survive showing another request in
// its place; queued says how many requests wait, this one included.
func NewSampling(c *widget.Common, req *mcpclient.SampleRequest, form *nativeform.SampleForm, queued func() int) *Sampling {
	return &Sampling{c: c, req: req, form: form, queued: queued}
}

// Head is the request the form answers.
func (l *Sampling) Head() any { return l.req }

// TypesText: the form takes text.
func (*Sampling) TypesText() bool { return true }

// HoldsForm: the form's countdown and cursor come here.
func (*Sampling) HoldsForm() bool { return true }

// Update gives the form its room, keys and ticks, and answers the
// request once the form settled.
func (l *Sampling) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return sizeForm(l.form, msg, &l.inited)
	case tea.KeyMsg:
		if a, ok := nextInQueue(l.c, msg, l.queued); ok {
			return a
		}
		if key.Matches(msg, FormKeys.Interrupt) { // the quit prompt, over the form
			return AskQuit{}
		}
	case nativeform.DoneMsg, nativeform.SampleDoneMsg:
		if r, ok := l.form.Result(); ok {
			return AnswerSample{l.req, r}
		}
		return nil
	}
	_, cmd := l.form.Update(msg)
	return cmdOf(cmd)
}

// View is the form.
func (l *Sampling) View(int, int) string { return l.form.View() }

// Help is none: the form draws its own keys.
func (l *Sampling) Help() []key.Binding { return nil }

// Footer counts the queue.
func (l *Sampling) Footer(int) string { return queueFooter(l.c, l.queued) }

// sizeForm lays a form out for its room; the first time, it starts the
// form too (its countdown, its cursor).
func sizeForm(f interface {
	Init() tea.Cmd
	Update(tea.Msg) (tea.Model, tea.Cmd)
}, size tea.WindowSizeMsg, inited *bool) Action {
	var cmds []tea.Cmd
	if !*inited {
		*inited = true
		cmds = append(cmds, f.Init())
	}
	_, cmd := f.Update(size)
	return cmdOf(tea.Batch(append(cmds, cmd)...))
}

// cmdOf is the action that runs cmd, or none.
func cmdOf(cmd tea.Cmd) Action {
	if cmd == nil {
		return nil
	}
	return Cmd{cmd}
}

// FormKeyMap holds the keys that work in forms. The form itself
// (nativeform) handles submit, decline, cancel and whole message, and in
// a sampling request's form reject, new line and scrolling the request;
// the inspector handles next, and interrupt, which asks before quitting
// as q does on the tabs.
type FormKeyMap struct {
	Submit, Decline, Cancel, wholeMessage  key.Binding
	Reject, newLine, scrollUp, scrollDown  key.Binding // a sampling request's form
	Accept, nextSuggestion, prevSuggestion key.Binding // a completion under an arguments form's field
	Next                                   key.Binding // the next pending request
	Interrupt                              key.Binding
}

// FormKeys are the bindings of [FormKeyMap].
var FormKeys = FormKeyMap{
	// The form handles its own keys; these are its bindings, worded
	// for the help screen.
	Submit:         keys.Reword(nativeform.Keys.Submit, "submit"),
	Decline:        keys.Reword(nativeform.Keys.Decline, "decline"),
	Cancel:         keys.Reword(nativeform.Keys.Cancel, "cancel"),
	wholeMessage:   keys.Reword(nativeform.Keys.WholeMessage, "show the whole message"),
	Reject:         keys.Reword(nativeform.SampleKeys.Reject, "reject a sampling request"),
	newLine:        keys.Reword(nativeform.SampleKeys.NewLine, "new line in a reply"),
	scrollUp:       keys.Reword(nativeform.SampleKeys.ScrollUp, "scroll a sampling request up"),
	scrollDown:     keys.Reword(nativeform.SampleKeys.ScrollDown, "scroll it down"),
	Accept:         keys.Reword(nativeform.SuggestKeys.Accept, "accept a completion"),
	nextSuggestion: keys.Reword(nativeform.SuggestKeys.Next, "next completion"),
	prevSuggestion: keys.Reword(nativeform.SuggestKeys.Prev, "previous completion"),
	Next:           nextKey,
	Interrupt:      keys.Reword(nativeform.Keys.Interrupt, "quit (asks if pending)"),
}

// nextKey shows the next pending request, from a form or a URL card.
var nextKey = keys.New("ctrl+n", "next pending request", "ctrl+n")

// ShortHelp is the inspector's footer under a form, which shows its own
// keys: only the queue's.
func (k FormKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint(k.Next.Help().Key, "shows the next", k.Next)}
}

// FullHelp lists every key of a form.
func (k FormKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Decline, k.Cancel, k.wholeMessage, k.Reject, k.newLine,
		keys.Hint("pgup/pgdn", "scroll a sampling request", k.scrollUp, k.scrollDown),
		keys.Hint("tab/↑↓", "accept/choose a completion", k.Accept, k.nextSuggestion, k.prevSuggestion), k.Next, k.Interrupt}}
}

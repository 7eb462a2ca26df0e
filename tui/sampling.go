package tui

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
)

// sampling shows the head of the queue when it is a sampling request: the
// server asks for a model's reply, the person writes it (or rejects the
// request) in a sample form. It waits in the same queue as elicitations,
// with the same countdown, and ctrl+n shows the next as there.
type sampling struct{ x *ask }

func (l *sampling) head() *ask      { return l.x }
func (l *sampling) typesText() bool { return true }

func (l *sampling) resize(m *Model) tea.Cmd { return m.sizeSample(l.x.form) }

func (l *sampling) view(_ *Model, _ int, _ *level) string { return l.x.form.View() }

func (l *sampling) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	if cmd, ok := m.queueKey(msg); ok {
		return cmd
	}
	if key.Matches(msg, m.c.keys.form.interrupt) { // the quit prompt, over the form
		return m.askQuit()
	}
	_, cmd := l.x.form.Update(msg)
	return cmd
}

// footer counts the queue; the form draws its own keys.
func (l *sampling) footer(m *Model, _ *level) string { return m.queueFooter() }

// showSample makes the layer for a sampling request at the head of the
// queue. Its form is made the first time it shows and kept with the
// request, so that what was typed, and the countdown, survive showing
// another request in its place.
func (m *Model) showSample(x *ask) (headLayer, tea.Cmd) {
	if x.form == nil {
		req := sampleFormRequest(x.sample, redactShown)
		x.form = nativeform.NewSample(req, m.opts.formOptions())
	}
	return &sampling{x}, tea.Batch(x.form.Init(), m.sizeSample(x.form))
}

// sizeSample lays a sample form out for the body of the screen.
func (m *Model) sizeSample(f *nativeform.SampleForm) tea.Cmd {
	_, cmd := f.Update(tea.WindowSizeMsg{Width: m.c.width, Height: m.bodyHeight()})
	return cmd
}

// sampleDone answers the sampling request shown and shows the next: a
// reply, the refusal the server can tell from a failure (reject, and esc,
// which has no other answer to give), or, when the countdown ran out, an
// error saying nobody answered.
func (m *Model) sampleDone(l *sampling, r nativeform.SampleResult) tea.Cmd {
	m.queue = deleteAsk(m.queue, l.x)
	return tea.Batch(answerSample(l.x, sampleOutcome(r, m.opts.ElicitTimeout)), m.showHead())
}

// sampleOutcome is what a settled sample form answers the server.
func sampleOutcome(r nativeform.SampleResult, timeout time.Duration) sampleAnswer {
	switch {
	case r.TimedOut:
		return sampleAnswer{err: fmt.Errorf("nobody answered the sampling request within %s", timeout)}
	case r.Action == nativeform.Accept:
		return sampleAnswer{res: mcpclient.TextReply(r.Text, r.Model, r.StopReason)}
	}
	return sampleAnswer{err: mcpclient.ErrSampleRejected}
}

// sampleFormRequest frames a sampling request for the sample form: who
// asks, through which connection, and the request worded for a person,
// each content block cut to a preview.
func sampleFormRequest(req *mcpclient.SampleRequest, redact func(string) string) nativeform.SampleRequest {
	req = redactSample(req, redact) // before the transcript cuts its blocks
	server := ""
	if req.Server != nil {
		server = req.Server.Title
		if server == "" {
			server = req.Server.Name
		}
	}
	if server == "" {
		server = "The server"
	}
	return nativeform.SampleRequest{
		Server:     server,
		Connection: req.Connection,
		Transcript: mcpclient.SampleTranscript(req.Params, sampleBlockRunes),
		Model:      mcpclient.DefaultModel,
	}
}

// sampleBlockRunes bounds each content block of a sampling request shown
// to the person: a huge message shows its beginning.
const sampleBlockRunes = 2000

// The queue of requests waiting for the person (elicitations and sampling
// requests) and the tool apps' links waiting for consent: the root keeps
// the queues and opens the layer that shows the head of each
// (tui/layer: ElicitForm, URLCard, Sampling, LinkCard), which answers
// with an action that actions.go applies (a link's answer through
// answerLink, here).

package tui

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// requests are the elicitations and sampling requests waiting for the
// person, oldest first; the head is shown (showHead).
type requests []*ask

// withdraw drops a request that ended elsewhere.
func (q *requests) withdraw(reqKey string) {
	if i := slices.IndexFunc(*q, func(x *ask) bool { return x.key() == reqKey }); i >= 0 {
		*q = slices.Delete(*q, i, i+1)
	}
}

// take takes out the request whose head (what its layer shows) is req,
// or is nil when none is.
func (q *requests) take(req any) *ask {
	i := slices.IndexFunc(*q, func(x *ask) bool { return x.head() == req })
	if i < 0 {
		return nil
	}
	x := (*q)[i]
	*q = slices.Delete(*q, i, i+1)
	return x
}

// next puts the head back at the end.
func (q *requests) next() {
	if len(*q) > 1 {
		*q = append((*q)[1:], (*q)[0])
	}
}

// showHead keeps the layer of the queue's head showing it: it opens it
// over everything else when the first request arrives, shows the next in
// its place when the head changes, and closes it when none is left. The
// same holds for the links of apps, oldest first.
func (m *Model) showHead() tea.Cmd {
	var next layer.Layer
	cur, shown := findLayer[layer.Head](&m.stack)
	switch {
	case len(m.queue) == 0:
	case shown && cur.Head() == m.queue[0].head():
		return nil
	default:
		next = headLayer(&m.c, m.opts, m.queue[0], func() int { return len(m.queue) })
	}
	cmd := showIn(m, cur, shown, next)
	link, shown := findLayer[*layer.LinkCard](&m.stack)
	switch {
	case len(m.apps.links) == 0:
		next = nil
	case shown && link.Link() == m.apps.links[0].req:
		return cmd
	default:
		next = m.opts.linkCard(&m.c, m.apps.links[0].req, func() int { return len(m.apps.links) })
	}
	return tea.Batch(cmd, showIn(m, link, shown, next))
}

// showIn puts next where cur lies (shown), or opens it; nil next closes
// cur.
func showIn[L layer.Layer](m *Model, cur L, shown bool, next layer.Layer) tea.Cmd {
	var at layer.Layer // where cur lies, if it is shown
	if shown && m.holds(cur) {
		at = cur
	}
	switch {
	case next == nil && at != nil:
		m.close(at)
	case next == nil:
	case at != nil:
		return m.do(origin{from: at}, layer.Replace{Layer: next})
	default:
		return m.host(next)
	}
	return nil
}

// headLayer is the layer that shows x; queued counts the queue.
func headLayer(c *widget.Common, opts Options, x *ask, queued func() int) layer.Layer {
	switch {
	case x.sample != nil:
		// The form is made the first time the request shows and kept with
		// it, so that what was typed, and the countdown, survive showing
		// another request in its place.
		if x.form == nil {
			x.form = nativeform.NewSample(sampleFormRequest(x.sample, widget.Redact), opts.formOptions())
		}
		return layer.NewSampling(c, x.sample, x.form, queued)
	case x.req.Params.Mode == "url":
		return opts.urlCard(c, x.req, queued)
	}
	form := nativeform.New(FormRequest(x.req, widget.Redact), opts.formOptions())
	return layer.NewElicitForm(c, x.req, form, queued)
}

// head is what the layer showing x shows (layer.Head).
func (x *ask) head() any {
	if x.sample != nil {
		return x.sample
	}
	return x.req
}

// answerLink answers the link of an app the person consented to or
// refused, and shows the next.
func (m *Model) answerLink(a layer.AnswerLink) tea.Cmd {
	i := slices.IndexFunc(m.apps.links, func(l *linkAsk) bool { return l.req == a.Req })
	if i < 0 {
		return nil
	}
	answerLink(m.apps.links[i], a.Open)
	m.apps.links = slices.Delete(m.apps.links, i, i+1)
	return m.showHead()
}

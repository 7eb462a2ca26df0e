package tui

import (
	"context"
	"errors"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// A tool app's ui/open-link waits for the person's consent on a card like
// a URL elicitation's (layer.LinkCard): the whole URL, its host
// highlighted, what could mislead. o opens it in the browser
// (Options.OpenURL); d or esc refuses, and the app is told it was not
// opened. The host's goroutine waits for the answer, or for the session
// to end, which takes the card away. Several links wait in turn, oldest
// first (queue.go shows the oldest).

// linkAsk is an app's request to open a link, waiting for the person; the
// program answers on reply, which is buffered: it never blocks.
type linkAsk struct {
	app   *toolApp
	url   string
	req   *layer.LinkRequest // what the card shows, made on the program's goroutine
	reply chan bool
}

// errLinkRefused is the app's answer when the person refused the link.
var errLinkRefused = errors.New("the person did not open the link")

type (
	// appLinkMsg: an app asks to open a link.
	appLinkMsg struct{ l *linkAsk }
	// appLinkEndedMsg: the app stopped waiting (its session ended).
	appLinkEndedMsg struct{ l *linkAsk }
)

// askLink is an app's OpenLink, on the host's goroutine: it waits for the
// person's answer and opens the link with browse on consent (an http(s)
// link alone: the app host refuses others before they get here), or returns
// when ctx ends or the inspector has.
func (q *appQueue) askLink(ctx context.Context, a *toolApp, link string, browse func(string) error, ended <-chan struct{}) error {
	l := &linkAsk{app: a, url: link, reply: make(chan bool, 1)}
	q.put(appLinkMsg{l})
	select {
	case ok := <-l.reply:
		if !ok {
			return errLinkRefused
		}
		return layer.OpenWeb(browse, link)
	case <-ctx.Done():
		q.put(appLinkEndedMsg{l})
		return ctx.Err()
	case <-ended:
		return errors.New("the inspector has ended")
	}
}

func (msg appLinkMsg) update(m *Model) tea.Cmd {
	a := msg.l.app
	name := a.tool.Title
	if name == "" {
		name = a.tool.Name
	}
	msg.l.req = &layer.LinkRequest{App: name, Session: a.key, URL: msg.l.url}
	m.apps.links = append(m.apps.links, msg.l)
	return m.showHead()
}

func (msg appLinkEndedMsg) update(m *Model) tea.Cmd {
	if i := slices.Index(m.apps.links, msg.l); i >= 0 {
		m.apps.links = slices.Delete(m.apps.links, i, i+1)
		msg.l.app.note(appMessage{at: time.Now(), kind: mcpclient.MethodAppOpenLink, head: "withdrawn", text: msg.l.url})
		return m.showHead()
	}
	return nil
}

// answerLink gives the app the person's answer, noting it among the
// app's messages.
func answerLink(l *linkAsk, open bool) {
	fate := "refused"
	if open {
		fate = "opened"
	}
	l.app.note(appMessage{at: time.Now(), kind: mcpclient.MethodAppOpenLink, head: fate, text: l.url})
	l.reply <- open
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// A tool app's ui/open-link waits for the person's consent on a card like
// a URL elicitation's (urlcard.go): the whole URL, its host highlighted,
// what could mislead. o opens it in the browser (Options.OpenURL); d or esc
// refuses, and the app is told it was not opened. The host's goroutine
// waits for the answer, or for the session to end, which takes the card
// away. Several links wait in turn, oldest first.

// linkAsk is an app's request to open a link, waiting for the person; the
// program answers on reply, which is buffered: it never blocks.
type linkAsk struct {
	app   *toolApp
	url   string
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
		return openWeb(browse, link)
	case <-ctx.Done():
		q.put(appLinkEndedMsg{l})
		return ctx.Err()
	case <-ended:
		return errors.New("the inspector has ended")
	}
}

func (msg appLinkMsg) update(m *Model) tea.Cmd {
	m.apps.links = append(m.apps.links, msg.l)
	m.showLink()
	return nil
}

func (msg appLinkEndedMsg) update(m *Model) tea.Cmd {
	if i := slices.Index(m.apps.links, msg.l); i >= 0 {
		m.apps.links = slices.Delete(m.apps.links, i, i+1)
		msg.l.app.note(appMessage{at: time.Now(), kind: "ui/open-link", head: "withdrawn", text: msg.l.url})
		m.showLink()
	}
	return nil
}

// linkCard is the consent card of the oldest link waiting.
type linkCard struct {
	l     *linkAsk
	shown time.Time // when it appeared: keys typed just before are ignored
}

// showLink keeps the card showing the oldest link waiting: it opens it
// over what is there when the first arrives, shows the next in its place,
// and closes it when none is left.
func (m *Model) showLink() {
	cur, shown := find[*linkCard](m)
	switch {
	case len(m.apps.links) == 0:
		if shown {
			m.close(cur)
		}
	case !shown:
		m.open(&linkCard{l: m.apps.links[0], shown: m.opts.now()})
	case cur.l != m.apps.links[0]:
		m.replace(cur, &linkCard{l: m.apps.links[0], shown: m.opts.now()})
	}
}

// answerLink gives the app the person's answer and shows the next link.
func (m *Model) answerLink(l *linkAsk, open bool) {
	m.apps.links = slices.DeleteFunc(m.apps.links, func(x *linkAsk) bool { return x == l })
	fate := "refused"
	if open {
		fate = "opened"
	}
	l.app.note(appMessage{at: time.Now(), kind: "ui/open-link", head: fate, text: l.url})
	l.reply <- open
	m.showLink()
}

func (c *linkCard) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.keys.url
	if key.Matches(msg, k.quit) {
		return m.askQuit()
	}
	if m.opts.now().Sub(c.shown) < m.opts.grace() {
		return nil
	}
	switch {
	case key.Matches(msg, k.open):
		m.answerLink(c.l, true)
	case key.Matches(msg, k.decline, k.cancel):
		m.answerLink(c.l, false)
	}
	return nil
}

func (c *linkCard) view(m *Model, _ int, _ *level) string {
	s := m.c.styles
	var b strings.Builder
	name := c.l.app.tool.Title
	if name == "" {
		name = c.l.app.tool.Name
	}
	b.WriteString(s.title.Render("The app of "+clean(name)+" asks you to open a page") + "\n")
	via := "a tool app's ui/open-link"
	if c.l.app.key != "" {
		via += " · session " + c.l.app.key
	}
	b.WriteString(s.dim.Render(via) + "\n\n")
	b.WriteString(m.urlLines(c.l.url))
	k := m.c.keys.url
	b.WriteString("\n" + m.c.keyLine(hint(k.open.Help().Key, "open it in the browser (consent)", k.open),
		hint("d/esc", "refuse (the app is told)", k.decline, k.cancel)))
	return s.box.Width(max(m.c.width-4, 20)).Render(b.String())
}

func (c *linkCard) footer(m *Model, _ *level) string {
	k := m.c.keys.url
	keys := m.c.keyLine(hint("o", "open", k.open), hint("d/esc", "refuse", k.decline, k.cancel), hint("q", "quit", k.quit))
	if n := len(m.apps.links); n > 1 {
		return m.c.styles.warn.Render(fmt.Sprintf("1 of %d links", n)) + m.c.styles.dim.Render(" · ") + keys
	}
	return keys
}

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Resource subscriptions: s on the Resources tab subscribes to the
// selected resource's updates (resources/subscribe; in the 2026-07-28 era
// a subscriptions/listen stream, which go-sdk opens), and s again stops.
// The server's notifications/resources/updated mark the resource in the
// list and its pane, with when; the resource open in the pane is read
// again at once.

// subscriptions is what the inspector knows of the resources it
// subscribed to on this connection, and of their updates.
type subscriptions struct {
	on     map[string]bool // subscribed
	busy   map[string]bool // a subscribe or unsubscribe in flight
	count  map[string]int  // updates heard
	unread map[string]bool // updated since last read
	// rereads: a read of an updated resource is in flight; again: another
	// update came meanwhile, so it is read once more after.
	rereads, again map[string]bool
}

func (s *subscriptions) init() {
	if s.on == nil {
		*s = subscriptions{on: map[string]bool{}, busy: map[string]bool{}, count: map[string]int{},
			unread: map[string]bool{}, rereads: map[string]bool{}, again: map[string]bool{}}
	}
}

// modelMsg is a message that knows what it does to the model.
type modelMsg interface{ update(m *Model) tea.Cmd }

// subscribedMsg says how a subscribe or unsubscribe ended.
type subscribedMsg struct {
	conn *mcpclient.Conn
	uri  string
	on   bool // subscribe, not unsubscribe
	err  error
}

func (msg subscribedMsg) update(m *Model) tea.Cmd {
	if msg.conn != m.conn { // an old connection's
		return nil
	}
	s := &m.subs
	s.init()
	delete(s.busy, msg.uri)
	switch {
	case msg.err != nil && msg.on:
		m.status = statusMsg{"subscribing to " + widget.Clean(msg.uri) + " failed: " + widget.Clean(msg.err.Error()), true}
	case msg.err != nil:
		m.status = statusMsg{"unsubscribing from " + widget.Clean(msg.uri) + " failed: " + widget.Clean(msg.err.Error()), true}
	case msg.on:
		s.on[msg.uri] = true
		m.status = statusMsg{"subscribed to " + widget.Clean(msg.uri) + ": its updates are marked here", false}
	default:
		delete(s.on, msg.uri)
		m.status = statusMsg{"unsubscribed from " + widget.Clean(msg.uri), false}
	}
	return nil
}

// toggleSubscription subscribes to the selected resource, or stops.
func (m *Model) toggleSubscription() tea.Cmd {
	e, ok := m.selectedResource()
	note := func(text string) tea.Cmd { return func() tea.Msg { return statusMsg{text, true} } }
	switch {
	case !ok || m.conn == nil || m.state != stateConnected:
		return nil
	case !m.canSubscribe():
		return note("the server does not offer resource subscriptions (its resources capability has no subscribe)")
	case e.res == nil:
		return note("only a resource can be subscribed to, not a template")
	}
	s := &m.subs
	s.init()
	uri := e.res.URI
	if s.busy[uri] {
		return nil
	}
	s.busy[uri] = true
	conn, on := m.conn, !s.on[uri]
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		var err error
		if on {
			err = conn.Subscribe(ctx, uri)
		} else {
			err = conn.Unsubscribe(ctx, uri)
		}
		return subscribedMsg{conn, uri, on, err}
	}
}

// canSubscribe reports whether the server offers resource subscriptions.
func (m *Model) canSubscribe() bool {
	if m.conn == nil {
		return false
	}
	caps := m.conn.ServerCapabilities()
	return caps.Resources != nil && caps.Resources.Subscribe
}

// onResourceUpdated marks a resource the server says changed, and reads
// it again when it is the one open in the Resources pane.
func (m *Model) onResourceUpdated(e mcpclient.ResourceUpdatedEvent) tea.Cmd {
	if m.updated == nil {
		m.updated = map[string]time.Time{}
	}
	m.updated[e.URI] = time.Now()
	s := &m.subs
	s.init()
	s.count[e.URI]++
	s.unread[e.URI] = true
	if sel, ok := m.selectedResource(); !ok || sel.res == nil || sel.res.URI != e.URI {
		return nil
	}
	if _, read := m.reads["resource "+e.URI]; !read || m.conn == nil {
		return nil
	}
	return m.reread(e.URI)
}

// reread reads an updated resource again, keeping what the pane shows
// until the new contents come: one read at a time for each resource.
func (m *Model) reread(uri string) tea.Cmd {
	s := &m.subs
	if s.rereads[uri] {
		s.again[uri] = true
		return nil
	}
	s.rereads[uri] = true
	conn := m.conn
	return func() tea.Msg {
		text, blob := readResource(conn, uri)
		return rereadMsg{conn, uri, text, blob}
	}
}

// rereadMsg brings what reading an updated resource again gave.
type rereadMsg struct {
	conn      *mcpclient.Conn
	uri, text string
	blob      *blobRead
}

func (msg rereadMsg) update(m *Model) tea.Cmd {
	s := &m.subs
	s.init()
	delete(s.rereads, msg.uri)
	if msg.conn != m.conn {
		return nil
	}
	m.readDone(resourceReadMsg{"resource " + msg.uri, msg.text, msg.blob})
	if s.again[msg.uri] {
		delete(s.again, msg.uri)
		return m.reread(msg.uri)
	}
	return nil
}

// marksShown reports whether the Resources list has a column of marks:
// whether a resource is subscribed to or updated.
func (m *Model) marksShown() bool { return len(m.subs.on) > 0 || len(m.subs.unread) > 0 }

// subscriptionMark is the mark of a resource in the list: ↻ updated since
// it was read, ● subscribed, or spaces.
func (m *Model) subscriptionMark(uri string) string {
	s := &m.subs
	switch {
	case s.unread[uri]:
		return "↻ "
	case s.on[uri]:
		return "● "
	}
	return "  "
}

// subscriptionText is what the Resources pane says of a resource's
// subscription and updates.
func (m *Model) subscriptionText(uri string) string {
	st, s := m.c.Styles, &m.subs
	var lines []string
	k := m.c.Keys.Tabs.Subscribe.Help().Key
	switch {
	case s.busy[uri]:
		lines = append(lines, st.Dim.Render("subscribing…"))
	case s.on[uri]:
		lines = append(lines, st.OK.Render("subscribed")+st.Dim.Render(" · "+k+" unsubscribes"))
	case m.canSubscribe():
		lines = append(lines, st.Dim.Render(k+" subscribes to its updates"))
	}
	if at, ok := m.updated[uri]; ok {
		n := s.count[uri]
		what := fmt.Sprintf("updated %s", at.Format("15:04:05"))
		if n > 1 {
			what += fmt.Sprintf(" (%d updates)", n)
		}
		if s.unread[uri] && !s.rereads[uri] {
			what += " · enter reads it again"
		}
		lines = append(lines, st.Warn.Render("↻ ")+what)
	}
	return strings.Join(lines, "\n")
}

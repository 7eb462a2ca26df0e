// Resource subscriptions on the Resources tab: s subscribes to the
// selected resource's updates (resources/subscribe; in the 2026-07-28 era
// a subscriptions/listen stream, which go-sdk opens), and s again stops.
// The server's notifications/resources/updated mark the resource in the
// list and its pane, with when; the resource open in the pane is read
// again at once.

package page

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/tui/widget"
)

// Subscribe asks the program to subscribe to URI's updates (On), or to
// stop, and to send how it ended as [Subscribed].
type Subscribe struct {
	URI string
	On  bool
}

// Subscribed says how a [Subscribe] ended.
type Subscribed struct {
	URI string
	On  bool
	Err error
}

// ResourceUpdated says the server told that URI changed, at At.
type ResourceUpdated struct {
	URI string
	At  time.Time
}

// NewConnection says a new connection is up: the subscriptions of the
// last one are gone.
type NewConnection struct{}

// subscriptions is what the tab knows of the resources it subscribed to
// on this connection, and of their updates.
type subscriptions struct {
	on     map[string]bool // subscribed
	busy   map[string]bool // a subscribe or unsubscribe in flight
	count  map[string]int  // updates heard
	unread map[string]bool // updated since last read
	// rereads: a read of an updated resource is in flight; again: another
	// update came meanwhile, so it is read once more after.
	rereads, again map[string]bool
}

func newSubscriptions() subscriptions {
	return subscriptions{on: map[string]bool{}, busy: map[string]bool{}, count: map[string]int{},
		unread: map[string]bool{}, rereads: map[string]bool{}, again: map[string]bool{}}
}

// toggleSubscription subscribes to the selected resource, or stops.
func (p *Resources) toggleSubscription() Action {
	e, ok := p.selected()
	switch {
	case !ok || !p.status.Conn || !p.status.Connected:
		return nil
	case !p.status.CanSubscribe:
		return Note{"the server does not offer resource subscriptions (its resources capability has no subscribe)", true}
	case e.res == nil:
		return Note{"only a resource can be subscribed to, not a template", true}
	}
	uri := e.res.URI
	if p.subs.busy[uri] {
		return nil
	}
	p.subs.busy[uri] = true
	return Subscribe{URI: uri, On: !p.subs.on[uri]}
}

// subscribed takes how a subscribe or unsubscribe ended, and says it.
func (p *Resources) subscribed(msg Subscribed) Action {
	s := &p.subs
	delete(s.busy, msg.URI)
	uri := widget.Clean(msg.URI)
	switch {
	case msg.Err != nil && msg.On:
		return Note{"subscribing to " + uri + " failed: " + widget.Clean(msg.Err.Error()), true}
	case msg.Err != nil:
		return Note{"unsubscribing from " + uri + " failed: " + widget.Clean(msg.Err.Error()), true}
	case msg.On:
		s.on[msg.URI] = true
		return Note{"subscribed to " + uri + ": its updates are marked here", false}
	}
	delete(s.on, msg.URI)
	return Note{"unsubscribed from " + uri, false}
}

// updated marks a resource the server says changed, and reads it again
// when it is the one open in the pane.
func (p *Resources) updated(msg ResourceUpdated) Action {
	s := &p.subs
	p.when[msg.URI] = msg.At
	s.count[msg.URI]++
	s.unread[msg.URI] = true
	if sel, ok := p.selected(); !ok || sel.res == nil || sel.res.URI != msg.URI {
		return nil
	}
	if _, read := p.reads["resource "+msg.URI]; !read || !p.status.Conn {
		return nil
	}
	return p.reread(msg.URI)
}

// reread reads an updated resource again, keeping what the pane shows
// until the new contents come: one read at a time for each resource.
func (p *Resources) reread(uri string) Action {
	s := &p.subs
	if s.rereads[uri] {
		s.again[uri] = true
		return nil
	}
	s.rereads[uri] = true
	return ReadResource{Key: "resource " + uri, URI: uri, Update: true}
}

// marksShown reports whether the list has a column of marks: whether a
// resource is subscribed to or updated.
func (s *subscriptions) marksShown() bool { return len(s.on) > 0 || len(s.unread) > 0 }

// mark is the mark of a resource in the list: ↻ updated since it was
// read, ● subscribed, or spaces.
func (s *subscriptions) mark(uri string) string {
	switch {
	case s.unread[uri]:
		return "↻ "
	case s.on[uri]:
		return "● "
	}
	return "  "
}

// subscriptionText is what the pane says of a resource's subscription
// and updates.
func (p *Resources) subscriptionText(uri string) string {
	st, s := p.c.Styles, &p.subs
	var lines []string
	k := p.c.Keys.Tabs.Subscribe.Help().Key
	switch {
	case s.busy[uri]:
		lines = append(lines, st.Dim.Render("subscribing…"))
	case s.on[uri]:
		lines = append(lines, st.OK.Render("subscribed")+st.Dim.Render(" · "+k+" unsubscribes"))
	case p.status.CanSubscribe:
		lines = append(lines, st.Dim.Render(k+" subscribes to its updates"))
	}
	if at, ok := p.when[uri]; ok {
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

// What the Resources tab (tui/page) asks of the connection: reading a
// resource, and subscribing to its updates. The page decides what to
// read and shows what came; the program does the I/O and sends the
// outcome back.

package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/suite"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
)

// modelMsg is a message that knows what it does to the model.
type modelMsg interface{ update(m *Model) tea.Cmd }

// resourceReadMsg brings what a read the Resources tab asked gave, and
// the questions asked during it (what + saves with it, savetest.go).
type resourceReadMsg struct {
	conn   *mcpclient.Conn
	read   page.ResourceRead
	asked  []suite.Question
	rounds int
}

func (msg resourceReadMsg) update(m *Model) tea.Cmd {
	if msg.read.Update && msg.conn != m.conn { // an old connection's
		return nil
	}
	m.saved.read(msg)
	return m.do(origin{}, pageOf[*page.Resources](m).Update(msg.read))
}

// readResource reads a URI for the Resources tab on conn, in a command;
// saved forgets the entry's last read.
func readResource(conn *mcpclient.Conn, saved *savedSteps, a page.ReadResource) tea.Cmd {
	if conn == nil {
		return nil
	}
	saved.reading(a.Key)
	before, start := len(conn.Records()), time.Now()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		res, err := conn.Read(ctx, a.URI)
		asked, rounds := suite.StepQuestions(conn, before, start)
		return resourceReadMsg{conn, page.ResourceRead{Key: a.Key, URI: a.URI, Result: res, Err: err, Update: a.Update}, asked, rounds}
	}
}

// subscribedMsg says how a subscribe or unsubscribe ended.
type subscribedMsg struct {
	conn *mcpclient.Conn
	page.Subscribed
}

func (msg subscribedMsg) update(m *Model) tea.Cmd {
	if msg.conn != m.conn { // an old connection's
		return nil
	}
	return m.do(origin{}, pageOf[*page.Resources](m).Update(msg.Subscribed))
}

// subscribe subscribes to a resource's updates, or stops, in a command.
func subscribe(conn *mcpclient.Conn, a page.Subscribe) tea.Cmd {
	if conn == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		var err error
		if a.On {
			err = conn.Subscribe(ctx, a.URI)
		} else {
			err = conn.Unsubscribe(ctx, a.URI)
		}
		return subscribedMsg{conn, page.Subscribed{URI: a.URI, On: a.On, Err: err}}
	}
}

// canSubscribe reports whether the server offers resource subscriptions.
func canSubscribe(conn *mcpclient.Conn) bool {
	if conn == nil {
		return false
	}
	caps := conn.ServerCapabilities()
	return caps.Resources != nil && caps.Resources.Subscribe
}

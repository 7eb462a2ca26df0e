// The connected server against the project's surface lock: the check run
// after each connection (and when the server's lists change), its piece of
// the header, and what the layer of its changes (D) shows.

package tui

import (
	"context"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/internal/surface"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// lockCheck is the last check of the connection conn against the lock.
type lockCheck struct {
	conn *mcpclient.Conn
	run  int // the check's number: an older one's answer that comes late is not taken
	layer.LockCheck
}

// lockCheckedMsg is a check's answer.
type lockCheckedMsg struct {
	conn   *mcpclient.Conn
	run    int
	status *surface.LockStatus
	err    error
}

// start checks conn against the lock in dir ("" the working directory),
// in a command: it asks the server for its lists beside the tabs' own,
// and nothing when there is no lock. A connection's first check starts
// afresh; a later one keeps what the last found until it answers.
func (l *lockCheck) start(conn *mcpclient.Conn, dir string) tea.Cmd {
	if l.conn != conn {
		*l = lockCheck{conn: conn, LockCheck: layer.LockCheck{File: lockFile(dir)}}
	}
	l.run++
	run := l.run
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 30*time.Second)
		defer cancel()
		status, err := surface.CheckConn(ctx, conn, dir, time.Now())
		return lockCheckedMsg{conn, run, status, err}
	}
}

func (msg lockCheckedMsg) update(m *Model) tea.Cmd {
	if l := &m.lock; msg.conn == l.conn && msg.run == l.run {
		l.Done, l.Status, l.Err = true, msg.status, msg.err
	}
	return nil
}

// lockFile is the lock looked for in dir.
func lockFile(dir string) string { return filepath.Join(dir, surface.LockFile) }

// of is the check as the layer shows it while conn is the connection, the
// lock looked for in dir: not yet answered when conn is not the one checked.
func (l *lockCheck) of(conn *mcpclient.Conn, dir string) layer.LockCheck {
	if conn == nil || conn != l.conn {
		return layer.LockCheck{File: lockFile(dir)}
	}
	return l.LockCheck
}

// brief is the header's piece, "2 ERR, 1 WARN since the lock (D)", or
// that the lock could not be compared; "" when the server matches its
// lock, there is none, or the check has not answered.
func (l *lockCheck) brief(conn *mcpclient.Conn, c *widget.Common) string {
	check := l.of(conn, "")
	hint := " (" + c.Keys.Tabs.Lock.Help().Key + ")"
	switch {
	case !check.Done:
		return ""
	case check.Err != nil:
		return c.Styles.Err.Render("surface lock not compared" + hint)
	}
	text := check.Status.Header()
	switch {
	case text == "":
		return ""
	case check.Status.Counts.ERR > 0:
		return c.Styles.Err.Render(text + hint)
	}
	return c.Styles.Warn.Render(text + hint)
}

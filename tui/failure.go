package tui

import (
	"errors"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// stderrShown is how many of the server's last stderr lines the failure
// panel shows.
const stderrShown = 10

// The failure panel explains why the inspector is not connected: what
// happened, the whole error, the server's last stderr lines and the
// command that was run, and how to retry. It shows on the Info tab, and
// in the Tools pane, while disconnected; the header says it in one line.

// failureWhat is what happened, in a few words: the connection could not
// be made, or it ended.
func (l *link) failureWhat() string {
	if l.conn == nil {
		return "could not connect"
	}
	return "disconnected"
}

// failureReason is why, in one line: the server's last stderr line where
// it wrote one (it is what a server says when it will not start), else
// the error without the target it names.
func (l *link) failureReason() string {
	if len(l.stderr) > 0 {
		return l.stderr[len(l.stderr)-1]
	}
	if l.err == nil {
		return ""
	}
	msg := l.err.Error()
	if ce := (*mcpclient.ConnectError)(nil); errors.As(l.err, &ce) && ce.Err != nil {
		msg = ce.Err.Error()
	}
	// Without the wire log, the server's last stderr line is still in the
	// error, where mcpclient adds it.
	const mark = " (server stderr: "
	if i := strings.LastIndex(msg, mark); i >= 0 && strings.HasSuffix(msg, ")") {
		return msg[i+len(mark) : len(msg)-1]
	}
	return msg
}

// lastStderr is the server's last stderr lines since the connection was
// attempted: from the connection's wire log, or from the inspector's when
// the connection could not be made (wire). The connection keeps it in
// l.stderr while disconnected, as lines written just before the end may
// come in after it.
func (l *link) lastStderr(wire *mcpclient.WireLog) []string {
	if l.conn != nil {
		wire = l.conn.Wire()
	}
	if wire == nil {
		return nil
	}
	var out []string
	for _, e := range wire.Entries() {
		if e.Dir == mcpclient.DirStderr && !e.Time.Before(l.attempt) && strings.TrimSpace(e.Text) != "" {
			out = append(out, e.Text)
		}
	}
	return out[max(len(out)-stderrShown, 0):]
}

// failureText is the failure panel for target, or "" while not
// disconnected.
func (l *link) failureText(c *widget.Common, target string) string {
	if l.state != stateDisconnected {
		return ""
	}
	s := c.Styles
	var b strings.Builder
	b.WriteString(s.Err.Render(l.failureWhat()) + "\n")
	if l.err != nil {
		b.WriteString(widget.Clean(l.err.Error()) + "\n")
	}
	if len(l.stderr) > 0 {
		b.WriteString("\n" + s.Title.Render("the server's last stderr lines") + "\n")
		for _, line := range l.stderr {
			b.WriteString(widget.Clean(line) + "\n")
		}
	}
	b.WriteString("\n" + s.Title.Render(l.targetKind(target)) + "\n" + widget.Clean(target) + "\n\n")
	k := c.Keys.Tabs.Reconnect
	b.WriteString(c.KeyLine(keys.Hint(k.Help().Key, "retries", k)))
	return b.String()
}

// withFailure puts the failure panel, while disconnected, over a pane's
// text; without a connection the panel is all there is to show.
func (l *link) withFailure(c *widget.Common, target, text string) string {
	f := l.failureText(c, target)
	switch {
	case f == "":
		return text
	case l.conn == nil:
		return f
	}
	return f + "\n\n" + text
}

// targetKind names what the target is: the command that was run, a URL,
// or the embedded server.
func (l *link) targetKind(target string) string {
	kind := mcpclient.TargetStdio
	switch {
	case l.conn != nil:
		kind = l.conn.Target().Kind
	case strings.HasPrefix(target, "http://"), strings.HasPrefix(target, "https://"):
		kind = mcpclient.TargetHTTP
	}
	switch kind {
	case mcpclient.TargetHTTP:
		return "URL"
	case mcpclient.TargetEmbedded:
		return "server"
	case mcpclient.TargetStdio:
	}
	return "command"
}

package tui

import (
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Recorder records the session to a file that mcpeek replay reads
// (internal/record). The command line makes it: it knows where files go
// and whether --record started one.
type Recorder interface {
	// Recording is the file being recorded to, "" when none.
	Recording() string
	// Start records conn's session from now on, to a new file it names.
	Start(conn *mcpclient.Conn) (path string, err error)
	// Stop ends the recording, and names its file.
	Stop() (path string, err error)
}

// toggleRecording starts recording the session, or stops the recording
// under way, and says which file on the status line.
func (m *Model) toggleRecording() statusMsg {
	r := m.opts.Recorder
	switch {
	case r == nil:
		return statusMsg{"this session cannot be recorded", true}
	case r.Recording() != "":
		path, err := r.Stop()
		if err != nil {
			return statusMsg{"the recording " + widget.Redact(path) + " ended with an error: " + widget.Redact(err.Error()), true}
		}
		return statusMsg{"recorded to " + widget.Redact(path) + " · mcpeek replay " + widget.Redact(path) + " -- SERVER replays it", false}
	case m.conn == nil:
		return statusMsg{"not connected: nothing to record", true}
	}
	path, err := r.Start(m.conn)
	if err != nil {
		return statusMsg{"not recording: " + widget.Redact(err.Error()), true}
	}
	return statusMsg{"recording to " + widget.Redact(path) + " · " + m.c.Keys.Tabs.Record.Help().Key + " stops", false}
}

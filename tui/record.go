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

// toggleRecording starts recording conn's session with r, or stops the
// recording under way, and says which file on the status line; stopKey is
// the key that stops it.
func toggleRecording(r Recorder, conn *mcpclient.Conn, stopKey string) statusMsg {
	switch {
	case r == nil:
		return statusMsg{"this session cannot be recorded", true}
	case r.Recording() != "":
		path, err := r.Stop()
		if err != nil {
			return statusMsg{"the recording " + widget.Redact(path) + " ended with an error: " + widget.Redact(err.Error()), true}
		}
		return statusMsg{"recorded to " + widget.Redact(path) + " · mcpeek replay " + widget.Redact(path) + " -- SERVER replays it", false}
	case conn == nil:
		return statusMsg{"not connected: nothing to record", true}
	}
	path, err := r.Start(conn)
	if err != nil {
		return statusMsg{"not recording: " + widget.Redact(err.Error()), true}
	}
	return statusMsg{"recording to " + widget.Redact(path) + " · " + stopKey + " stops", false}
}

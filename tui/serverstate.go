// The state of the server connected: what the inspector holds of it and
// of what was asked of it, which a switch to another server (S) replaces
// whole, so that nothing of the last server is reset by hand, and a new
// field is cleared with the rest without anyone remembering to.

package tui

import (
	"context"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// serverState is what belongs to the server connected. The Model embeds
// it, so its fields read as the Model's; switchServer (servers.go) puts a
// new one in its place, and new pages in the tabs' (what each page holds
// is the server's too). What outlives a server is kept in the Model
// itself: the connection, the overlay stack, the queue of requests (each
// ends with its connection), the tool apps of this run, the roots and log
// level the person chose, the lists until the next server's arrive.
type serverState struct {
	runs  toolRuns   // per tool, its last arguments (recalled per server when it connects)
	call             // the tool call running, if any
	tasks taskList   // the tasks followed, oldest first
	saved savedSteps // what + saves of each result shown (savetest.go)
	// review is the project's test whose review is shown, waiting for
	// the person's yes (suite.go).
	review *testReview
}

// call is the tool call running: one at a time.
type call struct {
	running    string // the tool being called
	runStart   time.Time
	cancelCall context.CancelFunc
	runTrack   *callTrack               // which progress notifications are the running call's
	runConn    *mcpclient.Conn          // the connection the running call was made on
	progress   *mcpclient.ProgressEvent // the running call's latest progress
}

// heard keeps the latest progress of the call in flight, reporting
// whether e was its.
func (c *call) heard(e mcpclient.ProgressEvent) bool {
	if c.running == "" || c.runTrack == nil || !c.runTrack.owns(e) {
		return false
	}
	c.progress = &e
	return true
}

// The server's requests not yet answered on the wire: an answer given is
// written a moment after the request stops being pending, so whoever
// cancels the call that asked (the inspector's quit) waits for the
// answers to be written first, or the server would hear of the
// cancellation before the answer.

package mcpclient

import (
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// unanswered counts the server's requests read and not yet answered; the
// zero value is ready.
type unanswered struct {
	mu  sync.Mutex
	ids map[string]bool // the requests' IDs, as JSON
	// none is closed once ids is empty; nil until someone waits for it
	// while it is not.
	none chan struct{}
}

// asked notes a request of the server's (a notification needs no answer).
func (u *unanswered) asked(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.ID.IsValid() {
		return
	}
	id, _ := json.Marshal(req.ID.Raw())
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.ids == nil {
		u.ids = map[string]bool{}
	}
	u.ids[string(id)] = true
}

// answered notes an answer written (or that failed to be: none will be).
func (u *unanswered) answered(msg jsonrpc.Message) {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return
	}
	id, _ := json.Marshal(resp.ID.Raw())
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.ids, string(id))
	if len(u.ids) == 0 && u.none != nil {
		close(u.none)
		u.none = nil
	}
}

// forget stops waiting for answers: the connection is closed.
func (u *unanswered) forget() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.ids = nil
	if u.none != nil {
		close(u.none)
		u.none = nil
	}
}

// wait is closed once every request read is answered: at once when none
// waits.
func (u *unanswered) wait() <-chan struct{} {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.ids) == 0 {
		return closedChan
	}
	if u.none == nil {
		u.none = make(chan struct{})
	}
	return u.none
}

// closedChan is a channel closed from the start.
var closedChan = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

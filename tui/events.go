//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package tui

import (
	"context"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ask is a server's request waiting in the inspector for the person: an
// elicitation (req, answered on reply) or a sampling request (sample,
// answered on sampled). Both kinds wait in one queue.
type ask struct {
	req   *mcpclient.NativeRequest
	reply chan *mcp.ElicitResult // buffered: the model never blocks on it

	sample  *mcpclient.SampleRequest
	sampled chan sampleAnswer      // buffered
	form    *nativeform.SampleForm // a sampling request's form, once shown: it keeps what was typed
}

// sampleAnswer is the reply to a sampling request, or why there is none.
type sampleAnswer struct {
	res *mcp.CreateMessageWithToolsResult
	err error
}

// key is the request's key on its connection.
func (x *ask) key() string {
	if x.sample != nil {
		return x.sample.Key
	}
	return x.req.Key
}

// askMsg brings a new request into the program; withdrawnMsg takes one
// away when it ended elsewhere (the server cancelled it).
type (
	askMsg       struct{ ask *ask }
	withdrawnMsg struct{ key string }
)

// programAsker is the native path inside the inspector: each elicitation
// and each sampling request becomes a message to the program, and the
// answer comes back on the request's own channel. It also shows the
// steps of a login and takes the address pasted (login.go).
type programAsker struct {
	events chan tea.Msg
	queue  *eventQueue   // the server's notifications
	auth   *authQueue    // the steps of a login (OAuth)
	ended  chan struct{} // closed when the program has ended
	end    sync.Once
}

func newProgramAsker() *programAsker {
	return &programAsker{events: make(chan tea.Msg, 64), queue: newEventQueue(), auth: newAuthQueue(), ended: make(chan struct{})}
}

// OnEvent implements [mcpclient.Listener]: the server's notifications
// queue for the program, without ever blocking the connection.
func (a *programAsker) OnEvent(e mcpclient.Event) { a.queue.OnEvent(e) }

// stop ends the pending wait command once the program has ended, so that
// nothing is left waiting for events no one will read.
func (a *programAsker) stop() { a.end.Do(func() { close(a.ended) }) }

// Ask implements [mcpclient.NativeAsker].
func (a *programAsker) Ask(ctx context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	x := &ask{req: req, reply: make(chan *mcp.ElicitResult, 1)}
	return await(a, ctx, x, req.Key, x.reply)
}

// Sample implements [mcpclient.Sampler], as Ask does for elicitations.
func (a *programAsker) Sample(ctx context.Context, req *mcpclient.SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	x := &ask{sample: req, sampled: make(chan sampleAnswer, 1)}
	ans, err := await(a, ctx, x, req.Key, x.sampled)
	if err != nil {
		return nil, err
	}
	return ans.res, ans.err
}

// await hands the program a request and waits for its answer on reply;
// when ctx ends first, the request is withdrawn from the program.
func await[T any](a *programAsker, ctx context.Context, x *ask, key string, reply <-chan T) (T, error) {
	var zero T
	select {
	case a.events <- askMsg{x}:
	case <-ctx.Done():
		return zero, ctx.Err()
	}
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		select { // buffered; the program drains it, unless it has ended
		case a.events <- withdrawnMsg{key}:
		case <-a.ended:
		}
		return zero, ctx.Err()
	}
}

// wait is the re-arming command that delivers the asker's events, one per
// call; the model issues it again after each, so none is dropped.
func (a *programAsker) wait() tea.Cmd {
	return func() tea.Msg {
		select {
		case msg := <-a.events:
			return msg
		case <-a.ended:
			return nil
		}
	}
}

// answer replies to an elicitation off the Update loop.
func answer(x *ask, res *mcp.ElicitResult) tea.Cmd {
	return func() tea.Msg {
		x.reply <- res
		return nil
	}
}

// answerSample replies to a sampling request off the Update loop.
func answerSample(x *ask, ans sampleAnswer) tea.Cmd {
	return func() tea.Msg {
		x.sampled <- ans
		return nil
	}
}

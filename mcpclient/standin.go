//lint:file-ignore SA1019 sampling, roots and logging are deprecated from 2026-07-28 on, but servers still use them and mcpeek answers them (docs/architecture.md, "Sampling, roots and notifications").

package mcpclient

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// standIn is what answers a connection's questions in place of its own
// asker, sampler and app while it stands (Conn.StandIn).
type standIn struct{ asker NativeAsker }

// ErrStandIn is StandIn's error while another stand-in stands.
var ErrStandIn = errors.New("another stand-in already answers this connection's questions")

// StandIn makes a answer every elicitation and sampling request (when a
// is also a [Sampler]; else sampling requests are refused) the server
// sends on this connection, in place of the asker, the sampler and the
// app the connection was made with, until restore is called: a test run
// on a connection someone else holds (the inspector's) answers from its
// script without a form or an app showing. The server's requests of
// 2025-11-25 name no request of the client's, so a stand-in takes every
// question asked while it stands, whichever call caused it. One stands
// at a time: a second call fails with [ErrStandIn]. Roots are the
// connection's own throughout. restore may be called more than once.
func (c *Conn) StandIn(a NativeAsker) (restore func(), err error) {
	s := &standIn{asker: a}
	if !c.router.standIn.CompareAndSwap(nil, s) {
		return nil, ErrStandIn
	}
	return func() { c.router.standIn.CompareAndSwap(s, nil) }, nil
}

// standing is the stand-in answering now, or nil.
func (r *router) standing() *standIn { return r.standIn.Load() }

// sample asks the stand-in's sampler, or refuses the request when it
// has none.
func (s *standIn) sample(ctx context.Context, req *SampleRequest) (*mcp.CreateMessageWithToolsResult, error) {
	if sm, ok := s.asker.(Sampler); ok {
		return sm.Sample(ctx, req)
	}
	return nil, ErrSampleRejected
}

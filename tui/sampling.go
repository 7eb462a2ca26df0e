// What a sampling request shows and answers: the request framed for the
// sample form (layer.Sampling shows it in the inspector; FormAsker on a
// terminal of its own), and the answer a settled form gives the server.

package tui

import (
	"fmt"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// sampleOutcome is what a settled sample form answers the server.
func sampleOutcome(r nativeform.SampleResult, timeout time.Duration) sampleAnswer {
	switch {
	case r.TimedOut:
		return sampleAnswer{err: fmt.Errorf("nobody answered the sampling request within %s", timeout)}
	case r.Action == nativeform.Accept:
		return sampleAnswer{res: mcpclient.TextReply(r.Text, r.Model, r.StopReason)}
	}
	return sampleAnswer{err: mcpclient.ErrSampleRejected}
}

// sampleFormRequest frames a sampling request for the sample form: who
// asks, through which connection, and the request worded for a person,
// each content block cut to a preview.
func sampleFormRequest(req *mcpclient.SampleRequest, redact func(string) string) nativeform.SampleRequest {
	req = widget.RedactSample(req, redact) // before the transcript cuts its blocks
	server := ""
	if req.Server != nil {
		server = req.Server.Title
		if server == "" {
			server = req.Server.Name
		}
	}
	if server == "" {
		server = "The server"
	}
	return nativeform.SampleRequest{
		Server:     server,
		Connection: req.Connection,
		Transcript: mcpclient.SampleTranscript(req.Params, sampleBlockRunes),
		Model:      mcpclient.DefaultModel,
	}
}

// sampleBlockRunes bounds each content block of a sampling request shown
// to the person: a huge message shows its beginning.
const sampleBlockRunes = 2000

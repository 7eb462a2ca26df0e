package apphost

// The elicitation session: an app that answers one elicitation/create,
// sent to it unchanged once it has initialized, and nothing more; it may
// reach neither the server nor the outside world meanwhile.

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// elicitID is the id of the elicitation/create the host sends the app.
const elicitID = "mcpeek-elicit"

// elicitation is the [purpose] of a session that answers one elicitation.
type elicitation struct {
	req *mcpclient.AppRequest
}

var _ purpose = elicitation{}

// Render implements [mcpclient.AppRenderer]: it opens a tab for the request
// and runs the Apps host protocol with the app in it until it answers.
func (h *Host) Render(ctx context.Context, req *mcpclient.AppRequest) (*mcpclient.AppAnswer, error) {
	s, err := h.register(req, elicitation{req: req})
	if err != nil {
		return nil, &mcpclient.AppError{Reason: mcpclient.FallbackBridgeUnavailable, Err: err}
	}
	// Read the app while the tab opens (serve returns only after the read
	// has); a read that fails at once opens no tab, a slow one does not
	// hold the tab back.
	return s.serve(ctx)
}

func (e elicitation) heading(ctl *control, _ string) { ctl.Message = e.req.Params.Message }

// initialize answers, and ends the exchange when the app cannot take an
// elicitation.
func (elicitation) initialize(p *peer, id json.RawMessage, version string, appCaps map[string]json.RawMessage) error {
	p.reply(id, p.initializeResult(version))
	if e, ok := appCaps["elicitation"]; !ok || !isObject(e) {
		return appErr(mcpclient.FallbackAppNoElicitation, "appCapabilities has no elicitation")
	}
	return nil
}

// initialized sends the app the request, and starts the answer time the
// first time.
func (e elicitation) initialized(p *peer, st *exchangeState) error {
	if st.answerTimer == nil {
		st.initTimer.Stop()
		st.initTime = time.Since(st.start)
		st.answerTimer = time.NewTimer(p.s.h.opts.AnswerTimeout)
	}
	// A remounted app has lost the request: it gets it again, with
	// the same id, within the same answer time.
	params := e.req.RawParams // the request as the server wrote it
	if len(params) == 0 {
		var err error
		if params, err = json.Marshal(e.req.Params); err != nil {
			return appErr(mcpclient.FallbackBridgeUnavailable, "encode the request: %v", err)
		}
	}
	// Written by hand around the params so that they reach the app byte
	// for byte (an encoder would re-escape and compact them).
	p.sendRaw(append(append([]byte(`{"jsonrpc":"2.0","id":"`+elicitID+`","method":"elicitation/create","params":`), params...), '}'))
	p.status("Answer in the app below.") // after the request: the app need not wait for it
	return nil
}

// request answers what an app may ask of its host during an elicitation:
// ping, and nothing that reaches the server or the outside world.
func (elicitation) request(p *peer, m rpc) {
	switch {
	case m.Method == "ping":
		p.reply(m.ID, map[string]any{})
	case m.Method == "ui/open-link" || strings.HasPrefix(m.Method, "tools/") || strings.HasPrefix(m.Method, "resources/") ||
		strings.HasPrefix(m.Method, "prompts/") || strings.HasPrefix(m.Method, "ui/"):
		p.s.h.opts.Logf("app host: %s: refused %s during an elicitation", p.s.key, m.Method)
		p.refuse(m.ID, -32601, m.Method+" is not available while the app answers an elicitation")
	default:
		p.s.h.opts.Logf("app host: %s: refused unknown method %s", p.s.key, m.Method)
		p.refuse(m.ID, -32601, "method not found: "+m.Method)
	}
}

// response takes the app's answer to the elicitation; responses to
// anything else are logged and ignored.
func (elicitation) response(p *peer, m rpc, st *exchangeState) (*mcpclient.AppAnswer, error) {
	if string(m.ID) != `"`+elicitID+`"` || st.answerTimer == nil {
		p.s.h.opts.Logf("app host: %s: ignored a response to unknown id %s", p.s.key, m.ID)
		return nil, nil
	}
	if m.Error != nil {
		return nil, appErr(mcpclient.FallbackInvalidResult, "the app answered with error %d: %s", m.Error.Code, m.Error.Message)
	}
	return &mcpclient.AppAnswer{Result: m.Result, InitTime: st.initTime}, nil
}

// toolsChanged ignores the notification: an elicitation's app offers no
// tools.
func (elicitation) toolsChanged(p *peer, method string) {
	p.s.h.opts.Logf("app host: %s: ignored %s", p.s.key, method)
}

func (elicitation) teardownRequested() error {
	return appErr(mcpclient.FallbackBridgeClosed, "the app asked to close before answering")
}

func (elicitation) tabClosed() error {
	return appErr(mcpclient.FallbackBridgeClosed, "the tab closed before the app answered")
}

func (elicitation) capabilities() map[string]any {
	return map[string]any{"elicitation": map[string]any{}, "logging": map[string]any{}}
}

func (elicitation) context(map[string]any) {}

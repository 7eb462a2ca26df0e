package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// capsMetaKey is where a 2026-07-28 request carries its client's
// capabilities.
const capsMetaKey = "io.modelcontextprotocol/clientCapabilities"

// maxInputRounds bounds the rounds of input the proxy answers for one
// host request before it gives up on it (as mcpeek's own calls do).
const maxInputRounds = 16

// codeCannotAnswer is the error the host gets for a request whose input
// the proxy could not give.
const codeCannotAnswer = -32603

// codeBadQuestion is the error the server gets for a question the proxy
// cannot read (its params, its requested schema, its mode).
const codeBadQuestion = -32602

// answerer is --answer on one proxy: it adds elicitation to what the host
// advertises when the host has none, answers the server's elicitation/
// create itself instead of forwarding it, and runs the 2026-07-28 rounds
// of input a host request's result asks for, sending the host the final
// result under its own id. Everything else goes by untouched.
type answerer struct {
	asking
	track *tracker
	// toServer and toHost send one message (ending in a newline) to a
	// side; ctx ends when the proxy does, or the server.
	toServer, toHost func([]byte)
	ctx              context.Context

	mu sync.Mutex
	// hostElicits: the host's initialize advertised elicitation.
	hostElicits bool
	// noted: the proxy said it advertises elicitation for the host.
	noted bool
	// appsNoted: the proxy said it advertises app-rendered elicitation;
	// appKeys number the questions it renders in apps.
	appsNoted atomic.Bool
	appKeys   atomic.Int64
	// questions are the server's elicitation/create the proxy answers,
	// by id, with what cancels asking.
	questions map[string]context.CancelFunc
	// watched are the host's 2026-07-28 requests whose input the proxy
	// gives, by id.
	watched map[string]watchedRequest
	// rounds cancel the rounds in progress of a host request, by its id.
	rounds map[string]context.CancelFunc
	// own are the proxy's requests to the server in flight, by id, with
	// where their answer goes (nil: nobody waits any more; dropped).
	own  map[string]chan []byte
	next int
}

// watchedRequest is a host's request as the server got it, and the
// capabilities the host advertised itself.
type watchedRequest struct {
	data, caps []byte
}

func newAnswerer(ctx context.Context, opts Options, track *tracker, toServer, toHost func([]byte)) *answerer {
	a := &answerer{asking: asking{opts: opts}, track: track, toServer: toServer, toHost: toHost, ctx: ctx,
		questions: map[string]context.CancelFunc{}, watched: map[string]watchedRequest{},
		rounds: map[string]context.CancelFunc{}, own: map[string]chan []byte{}}
	if opts.Apps != nil { // the app first: a question that names one is its
		a.opts.Askers = append([]NamedAsker{{Name: appsAsker, Ask: a.askApp}}, opts.Askers...)
	}
	return a
}

// fromHost is the host's message as the server gets it: the same bytes,
// but for elicitation added to the capabilities a request advertises
// when the proxy answers for the host.
func (a *answerer) fromHost(data []byte) []byte {
	if !bytes.Contains(data, []byte(`"initialize"`)) && !bytes.Contains(data, []byte(capsMetaKey)) &&
		!bytes.Contains(data, []byte(`"notifications/cancelled"`)) {
		return data
	}
	h, ok := oneHead(data)
	if !ok {
		return data
	}
	switch {
	case h.request() && h.Method == mcpclient.MethodInitialize:
		return a.initialize(data)
	case h.request():
		return a.modernRequest(h, data)
	case h.Method == "notifications/cancelled":
		a.hostCancelled(data)
	}
	return data
}

// initialize advertises elicitation in a 2025-11-25 host's initialize
// that has none: the only bytes of the host's the proxy changes.
func (a *answerer) initialize(data []byte) []byte {
	caps := getPath(data, "params", "capabilities")
	elicits := caps != nil && hasMember(caps, "elicitation")
	a.mu.Lock()
	a.hostElicits = elicits
	a.mu.Unlock()
	if caps == nil || (elicits && a.opts.Answer != AnswerAlways) {
		return data
	}
	if elicits {
		a.opts.report("--answer=always: the host advertises elicitation, but the proxy answers the server's questions itself")
		return a.withApps(data, "params", "capabilities")
	}
	out, err := setPath(data, []string{"params", "capabilities", "elicitation"}, elicitAdvertised)
	if err != nil {
		return data
	}
	a.opts.report("--answer: the host advertises no elicitation; its initialize now advertises form and URL elicitation to the server, and the proxy answers the server's questions")
	return a.withApps(out, "params", "capabilities")
}

// modernRequest advertises elicitation in a 2026-07-28 request's
// capabilities (its _meta) when the host's has none, and watches the
// request's result for input to give.
func (a *answerer) modernRequest(h head, data []byte) []byte {
	caps := getPath(data, "params", "_meta", capsMetaKey)
	if caps == nil {
		return data
	}
	elicits := hasMember(caps, "elicitation")
	if elicits && a.opts.Answer != AnswerAlways {
		return data
	}
	out := data
	if !elicits {
		changed, err := setPath(data, []string{"params", "_meta", capsMetaKey, "elicitation"}, elicitAdvertised)
		if err != nil {
			return data
		}
		out = changed
	}
	out = a.withApps(out, "params", "_meta", capsMetaKey)
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.noted {
		a.noted = true
		if elicits {
			a.opts.report("--answer=always: the proxy gives the input the server asks of the host's requests itself")
		} else {
			a.opts.report("--answer: the host's requests advertise no elicitation; the proxy adds form and URL elicitation to their capabilities and gives the input the server asks")
		}
	}
	if len(a.watched) < maxOpen {
		a.watched[string(h.ID)] = watchedRequest{data: bytes.Clone(out), caps: bytes.Clone(caps)}
	}
	return out
}

// answersQuestions reports whether the server's elicitation/create is the
// proxy's to answer.
func (a *answerer) answersQuestions() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.opts.Answer == AnswerAlways || (a.opts.Answer == AnswerMissing && !a.hostElicits)
}

// fromServer takes the server's message when it is the proxy's to answer
// or to hold back, and reports whether it did (then it is logged, and
// never reaches the host).
func (a *answerer) fromServer(data []byte) bool {
	return a.fromServerVia(data, a.toServer, a.send)
}

// fromServerVia is fromServer with the proxy's answer to a question sent
// by reply, and the requests of the proxy's its askers make while they
// answer it (an app's resources/read) sent by send.
func (a *answerer) fromServerVia(data []byte, reply func([]byte), send sendFunc) bool {
	a.mu.Lock()
	busy := len(a.watched) > 0 || len(a.own) > 0 || len(a.questions) > 0
	a.mu.Unlock()
	question := bytes.Contains(data, []byte(`"`+mcpclient.MethodElicit+`"`)) && a.answersQuestions()
	if !busy && !question {
		return false
	}
	h, ok := oneHead(data)
	if !ok {
		return false
	}
	switch {
	case h.request() && h.Method == mcpclient.MethodElicit && question:
		a.question(h, data, reply, send)
		return true
	case h.Method == "notifications/cancelled":
		return a.serverCancelled(data)
	case h.response() && h.hasID():
		return a.response(h, data)
	}
	return false
}

// question answers a server's 2025-11-25 elicitation/create itself, the
// answer sent by reply.
func (a *answerer) question(h head, data []byte, reply func([]byte), send sendFunc) {
	a.track.fromServer(data)
	id := string(h.ID)
	params := bytes.Clone(getPath(data, "params"))
	ctx, cancel := context.WithCancel(a.ctx)
	a.mu.Lock()
	a.questions[id] = cancel
	a.mu.Unlock()
	go func() {
		defer func() {
			a.mu.Lock()
			delete(a.questions, id)
			a.mu.Unlock()
			cancel()
		}()
		res, err := a.ask(withReads(ctx, serverReads{send: send}), "the server's elicitation/create "+textclean.OneLine(id), params)
		var msg []byte
		switch {
		case ctx.Err() != nil:
			return // the server cancelled it, or the proxy ends
		case err != nil:
			a.opts.report(fmt.Sprintf("cannot answer the server's elicitation/create %s: %v", textclean.OneLine(id), err))
			msg = errorResponse(id, codeBadQuestion, "mcpeek proxy: "+err.Error())
		default:
			msg = []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":` + string(res) + "}\n")
		}
		a.track.fromProxy(msg)
		reply(msg)
	}()
}

// serverCancelled stops asking a question the server no longer waits
// for; the host never saw it, so it never sees its cancellation either.
func (a *answerer) serverCancelled(data []byte) bool {
	id := string(getPath(data, "params", "requestId"))
	a.mu.Lock()
	cancel, ok := a.questions[id]
	a.mu.Unlock()
	if !ok {
		return false
	}
	a.track.fromServer(data)
	a.opts.report("the server cancelled its elicitation/create " + textclean.OneLine(id))
	cancel()
	return true
}

// hostCancelled stops the rounds of input of a host's request the host
// no longer waits for, or stops watching it; its cancellation goes on to
// the server as it is.
func (a *answerer) hostCancelled(data []byte) {
	id := string(getPath(data, "params", "requestId"))
	a.mu.Lock()
	cancel, ok := a.rounds[id]
	delete(a.watched, id)
	a.mu.Unlock()
	if ok {
		a.track.answered(id)
		cancel()
	}
}

// response takes the answer to one of the proxy's own requests, and a
// host's request's input_required result.
func (a *answerer) response(h head, data []byte) bool {
	id := string(h.ID)
	a.mu.Lock()
	if ch, ok := a.own[id]; ok {
		delete(a.own, id)
		a.mu.Unlock()
		a.track.fromServer(data)
		if ch != nil {
			ch <- bytes.Clone(data)
		}
		return true
	}
	w, ok := a.watched[id]
	delete(a.watched, id)
	if !ok || !inputRequired(data) {
		a.mu.Unlock()
		return false
	}
	ctx, cancel := context.WithCancel(a.ctx)
	a.rounds[id] = cancel
	a.mu.Unlock()
	a.track.fromServerHeld(data)
	result := bytes.Clone(data) // data is the reader's, until its next line
	go func() {
		defer func() {
			a.mu.Lock()
			delete(a.rounds, id)
			a.mu.Unlock()
			cancel()
		}()
		a.runRounds(ctx, id, w, result, roundLink{send: a.send, own: a.send, toHost: a.toHost})
	}()
	return true
}

// inputRequired reports whether a response is a 2026-07-28
// input_required result.
func inputRequired(data []byte) bool {
	return bytes.Contains(data, []byte(`"input_required"`)) &&
		string(getPath(data, "result", "resultType")) == `"input_required"`
}

// inputRequest is one of a result's input requests.
type inputRequest struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// sendFunc sends the server a request of the proxy's and returns its
// answer (false: none came).
type sendFunc func(ctx context.Context, request []byte) ([]byte, bool)

// roundLink is how rounds reach the two sides: send sends the server a
// retry of the proxy's and returns its answer (false: the rounds end,
// the host told why), own a request of the askers' (an app's
// resources/read), toHost sends the host a message.
type roundLink struct {
	send, own sendFunc
	toHost    func([]byte)
}

// runRounds gives the input the server asks of the host's request id,
// retries it under an id of the proxy's, round after round, and sends
// the host the final answer under its own id.
func (a *answerer) runRounds(ctx context.Context, hostID string, w watchedRequest, result []byte, link roundLink) {
	for round := 1; ; round++ {
		if round > maxInputRounds {
			a.failHost(link, hostID, fmt.Sprintf("the server asked for input %d times without a result", maxInputRounds))
			return
		}
		var requests map[string]inputRequest
		if err := json.Unmarshal(getPath(result, "result", "inputRequests"), &requests); err != nil || len(requests) == 0 {
			a.failHost(link, hostID, "the server asked for input without inputRequests")
			return
		}
		if forward, why := a.cannotAnswer(requests, w.caps); why != "" {
			if forward {
				a.opts.report(fmt.Sprintf("the server asks the host's request %s for %s: passed on to the host, which advertises it", textclean.OneLine(hostID), why))
				a.toHostAs(link, hostID, result)
				return
			}
			a.failHost(link, hostID, "the server asks for "+why+", which the proxy cannot give and the host did not advertise")
			return
		}
		responses := map[string]json.RawMessage{}
		reads := withReads(ctx, serverReads{send: link.own, meta: getPath(w.data, "params", "_meta")})
		for _, key := range slices.Sorted(maps.Keys(requests)) {
			what := fmt.Sprintf("input request %q of the host's request %s", textclean.OneLine(key), textclean.OneLine(hostID))
			res, err := a.ask(reads, what, requests[key].Params)
			if ctx.Err() != nil {
				return
			}
			if err != nil {
				a.failHost(link, hostID, fmt.Sprintf("cannot answer %s: %v", what, err))
				return
			}
			responses[key] = res
		}
		retry, err := a.retry(w.data, responses, getPath(result, "result", "requestState"))
		if err != nil {
			a.failHost(link, hostID, "cannot retry the request: "+err.Error())
			return
		}
		answer, ok := link.send(ctx, retry)
		if !ok {
			return
		}
		if !inputRequired(answer) {
			a.toHostAs(link, hostID, answer)
			return
		}
		result = answer
	}
}

// capabilityOf is the client capability an input request's method needs.
var capabilityOf = map[string]string{mcpclient.MethodElicit: "elicitation", mcpclient.MethodSample: "sampling", "roots/list": "roots"}

// cannotAnswer says which of the input requests the proxy cannot answer
// ("": it answers them all: each is an elicitation), and whether the
// host can answer every one of them (it advertised what each needs):
// then the result goes to the host as it is.
func (a *answerer) cannotAnswer(requests map[string]inputRequest, hostCaps []byte) (forward bool, why string) {
	var others []string
	forward = true
	for _, r := range requests {
		if r.Method != mcpclient.MethodElicit {
			others = append(others, textclean.OneLine(r.Method))
		}
		if need := capabilityOf[r.Method]; need == "" || !hasMember(hostCaps, need) {
			forward = false
		}
	}
	if len(others) == 0 {
		return false, ""
	}
	slices.Sort(others)
	return forward, strings.Join(slices.Compact(others), ", ")
}

// retry is the host's request under a new id of the proxy's, with the
// input responses and the server's request state.
func (a *answerer) retry(request []byte, responses map[string]json.RawMessage, state json.RawMessage) ([]byte, error) {
	encoded, err := json.Marshal(responses)
	if err != nil {
		return nil, err
	}
	out, err := setMember(request, "id", []byte(a.newID()))
	if err == nil {
		out, err = setPath(out, []string{"params", "inputResponses"}, encoded)
	}
	switch {
	case err != nil:
	case state != nil:
		out, err = setPath(out, []string{"params", "requestState"}, state)
	case getPath(out, "params", "requestState") != nil:
		out, err = withoutState(out)
	}
	return out, err
}

// withoutState is a request without params.requestState (a stale one,
// from a round the host answered itself).
func withoutState(request []byte) ([]byte, error) {
	var params map[string]json.RawMessage
	if err := json.Unmarshal(getPath(request, "params"), &params); err != nil {
		return nil, err
	}
	delete(params, "requestState")
	encoded, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	return setMember(request, "params", encoded)
}

// newID is an id for a request of the proxy's own that no request of the
// host's in flight has.
func (a *answerer) newID() string {
	for {
		a.mu.Lock()
		a.next++
		id := fmt.Sprintf(`"mcpeek-proxy-%d"`, a.next)
		a.mu.Unlock()
		if !a.track.isHostOpen(id) {
			return id
		}
	}
}

// send sends the server a request of the proxy's own and waits for its
// answer; when ctx ends first (the host cancelled, the proxy ends), the
// request is cancelled and its answer dropped when it comes.
func (a *answerer) send(ctx context.Context, request []byte) ([]byte, bool) {
	id := string(getPath(request, "id"))
	ch := make(chan []byte, 1)
	a.mu.Lock()
	a.own[id] = ch
	a.mu.Unlock()
	a.track.fromProxy(request)
	a.toServer(request)
	select {
	case answer := <-ch:
		return answer, true
	case <-ctx.Done():
	}
	a.mu.Lock()
	if _, waiting := a.own[id]; waiting {
		a.own[id] = nil
	}
	a.mu.Unlock()
	if a.ctx.Err() == nil {
		cancel := []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"the host cancelled its request"}}` + "\n")
		a.track.fromProxy(cancel)
		a.toServer(cancel)
	}
	return nil, false
}

// toHostAs sends the host an answer of the server's under the id of the
// host's request it answers.
func (a *answerer) toHostAs(link roundLink, hostID string, answer []byte) {
	out, err := setMember(answer, "id", []byte(hostID))
	if err != nil {
		a.failHost(link, hostID, "the server's answer: "+err.Error())
		return
	}
	a.track.answered(hostID)
	a.opts.Wire.Note("proxy: sent the host the server's answer to its request " + textclean.OneLine(hostID))
	link.toHost(out)
}

// failHost answers a host's request with an error, said on stderr too.
func (a *answerer) failHost(link roundLink, hostID, why string) {
	a.opts.report(fmt.Sprintf("the host's request %s: %s", textclean.OneLine(hostID), why))
	a.track.answered(hostID)
	link.toHost(errorResponse(hostID, codeCannotAnswer, "mcpeek proxy: "+why))
}

// unwatch forgets the host's request id, answered by the proxy without
// the server's result (the server could not be reached).
func (a *answerer) unwatch(id string) {
	a.mu.Lock()
	delete(a.watched, id)
	a.mu.Unlock()
}

// takeWatched is the host's request in body when the proxy gives its
// input: it is no longer watched, the caller runs its rounds.
func (a *answerer) takeWatched(body []byte) (hostID string, w watchedRequest, ok bool) {
	h, parsed := oneHead(body)
	if !parsed || !h.request() {
		return "", watchedRequest{}, false
	}
	hostID = string(h.ID)
	a.mu.Lock()
	defer a.mu.Unlock()
	w, ok = a.watched[hostID]
	delete(a.watched, hostID)
	return hostID, w, ok
}

// oneHead is the head of a message that is one JSON-RPC message, not a
// batch (false: a batch, or not JSON).
func oneHead(data []byte) (head, bool) {
	heads, batch, ok := readHeads(data)
	if !ok || batch != nil {
		return head{}, false
	}
	return heads[0], true
}

// answers reports whether the message is a response to id.
func (h head) answers(id string) bool { return h.response() && string(h.ID) == id }

package record

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// Exchange is one client request of a recording with what came of it: its
// response, the questions the server asked while it ran and the answers
// given, and the notifications the server sent meanwhile.
//
// In 2025-11-25 the questions are the server's requests (elicitation/create,
// sampling/createMessage, roots/list) read while the request was open, and
// their answers the client's responses to them. In 2026-07-28 a request
// that needs input ends with an input_required result; the client sends
// the request again with the answers (inputResponses) and the server's
// requestState: the exchange holds every such round, its questions keyed
// by their inputRequests key, and ends with the last request's response.
type Exchange struct {
	// Method is the request's method.
	Method string
	// Params are the first request's params, as sent.
	Params json.RawMessage
	// Request is the first request's entry; Requests all of them, the
	// retries with answers (2026-07-28) after it.
	Request  Entry
	Requests []Entry
	// Response is the final response's entry (nil when the recording ends
	// before it), and Result or Error its result or error.
	Response *Entry
	Result   json.RawMessage
	Error    json.RawMessage
	// Rounds counts the input_required results before the final response
	// (2026-07-28; 0 in 2025-11-25).
	Rounds int
	// Questions are the questions asked during the request, in order.
	Questions []Question
	// Notifications are the server's notifications read while the request
	// was open.
	Notifications []Entry
	// Side is true for mcpeek's own requests (ids mcpeek-side-N: a tool
	// list read to know the tools, a subscription), which the person did
	// not ask for.
	Side bool
}

// Question is one question the server asked during an exchange, with the
// client's answer.
type Question struct {
	// Method is elicitation/create, sampling/createMessage or roots/list.
	Method string
	// Params are the question's params.
	Params json.RawMessage
	// Key is its inputRequests key (2026-07-28); ID the server request's
	// id (2025-11-25).
	Key string
	ID  json.RawMessage
	// Round is the round it was asked in: 0 for the first request's,
	// 1 for the first retry's… (always 0 in 2025-11-25).
	Round int
	// Answer is the client's answer (a result), or AnswerError the error
	// it answered with (2025-11-25); both are nil when the recording has
	// no answer.
	Answer      json.RawMessage
	AnswerError json.RawMessage
	// By is who answered, from the answer annotation ("" without one).
	By string
}

// Session is a recording paired: its exchanges in the order their
// requests were sent, and what the server said outside any of them.
type Session struct {
	Exchanges []Exchange
	// Stray are questions the server asked while no request of the
	// person's was open (a roots/list after the handshake).
	Stray []Question
	// Notifications are the server's notifications read while no request
	// of the person's was open.
	Notifications []Entry
}

// Exchanges pairs the recording's client requests with their responses
// and the questions asked during them: [Pair]'s exchanges.
func Exchanges(entries []Entry) []Exchange {
	return Pair(entries).Exchanges
}

// sideID is the prefix of the ids of mcpeek's own requests.
const sideID = `"mcpeek-side-`

// Pair pairs the recording's entries (see [Exchange]). Entries it cannot
// place (a response to no request) are left out.
func Pair(entries []Entry) Session {
	p := pairing{
		byID:      map[string]int{},
		questions: map[string]questionRef{},
	}
	for _, e := range entries {
		p.add(e)
	}
	return p.s
}

// questionRef places a question: in an exchange, or stray (ex < 0).
type questionRef struct{ ex, q int }

type pairing struct {
	s Session
	// byID maps an open request's id to its exchange.
	byID map[string]int
	// open are the exchanges whose response has not come, in the order
	// they were sent.
	open []int
	// questions maps a 2025-11-25 server request's id to its question.
	questions map[string]questionRef
	// lastQuestion is the last question asked, which an answer annotation
	// without key or id names.
	lastQuestion *questionRef
}

func idKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

func (p *pairing) add(e Entry) {
	hasID := len(e.ID) > 0 && string(e.ID) != "null"
	switch {
	case e.Dir == mcpclient.DirSend && e.Method != "" && hasID:
		p.request(e)
	case e.Dir == mcpclient.DirSend && e.Method == "" && hasID:
		p.answer(e)
	case e.Dir == mcpclient.DirRecv && e.Method != "" && hasID:
		p.question(e)
	case e.Dir == mcpclient.DirRecv && e.Method == "" && hasID:
		p.response(e)
	case e.Dir == mcpclient.DirRecv && e.Method != "":
		if i := p.current(); i >= 0 {
			p.s.Exchanges[i].Notifications = append(p.s.Exchanges[i].Notifications, e)
		} else {
			p.s.Notifications = append(p.s.Notifications, e)
		}
	case e.Dir == DirAnswer && e.Answer != nil:
		p.annotate(*e.Answer)
	}
}

// message is the part of a JSON-RPC message pairing reads.
type message struct {
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func decode(e Entry) message {
	var m message
	_ = json.Unmarshal(e.Message, &m)
	return m
}

// retryParams are the params of a request sent again with answers.
type retryParams struct {
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	RequestState   *string                    `json:"requestState"`
}

func (p *pairing) request(e Entry) {
	m := decode(e)
	var retry retryParams
	_ = json.Unmarshal(m.Params, &retry)
	if retry.InputResponses != nil || retry.RequestState != nil {
		if i := p.awaiting(e.Method, retry.RequestState); i >= 0 {
			x := &p.s.Exchanges[i]
			x.Requests = append(x.Requests, e)
			for qi := range x.Questions {
				q := &x.Questions[qi]
				if q.Round == x.Rounds-1 && q.Key != "" {
					if a, ok := retry.InputResponses[q.Key]; ok {
						q.Answer = a
					}
				}
			}
			p.byID[idKey(e.ID)] = i
			p.open = append(p.open, i)
			return
		}
	}
	p.s.Exchanges = append(p.s.Exchanges, Exchange{
		Method:   e.Method,
		Params:   m.Params,
		Request:  e,
		Requests: []Entry{e},
		Side:     strings.HasPrefix(string(e.ID), sideID),
	})
	i := len(p.s.Exchanges) - 1
	p.byID[idKey(e.ID)] = i
	p.open = append(p.open, i)
}

// awaiting finds the exchange a retry continues: the one of the same
// method whose last response asked for input with this requestState (or,
// without one, the earliest such exchange of the method).
func (p *pairing) awaiting(method string, state *string) int {
	found := -1
	for i := range p.s.Exchanges {
		x := &p.s.Exchanges[i]
		if x.Method != method || x.Response == nil || x.Rounds == 0 || x.Result == nil || !inputRequired(x.Result) {
			continue
		}
		if state != nil && lastState(x.Result) == *state {
			return i
		}
		if found < 0 {
			found = i
		}
	}
	return found
}

func inputRequired(result json.RawMessage) bool {
	var r struct {
		ResultType string `json:"resultType"`
	}
	return json.Unmarshal(result, &r) == nil && r.ResultType == "input_required"
}

func lastState(result json.RawMessage) string {
	var r struct {
		RequestState string `json:"requestState"`
	}
	_ = json.Unmarshal(result, &r)
	return r.RequestState
}

// current is the exchange a server message without a request id of its
// own belongs to: the latest open request of the person's (not mcpeek's
// own, nor a subscription), or -1.
func (p *pairing) current() int {
	for k := len(p.open) - 1; k >= 0; k-- {
		x := &p.s.Exchanges[p.open[k]]
		if !x.Side && x.Method != "subscriptions/listen" {
			return p.open[k]
		}
	}
	return -1
}

func (p *pairing) closeOpen(i int) {
	for k, o := range p.open {
		if o == i {
			p.open = append(p.open[:k], p.open[k+1:]...)
			return
		}
	}
}

func (p *pairing) response(e Entry) {
	key := idKey(e.ID)
	i, ok := p.byID[key]
	if !ok {
		return
	}
	delete(p.byID, key)
	p.closeOpen(i)
	x := &p.s.Exchanges[i]
	m := decode(e)
	x.Response = &e
	x.Result, x.Error = m.Result, m.Error
	if m.Result == nil || !inputRequired(m.Result) {
		return
	}
	var r struct {
		InputRequests map[string]struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		} `json:"inputRequests"`
	}
	_ = json.Unmarshal(m.Result, &r)
	round := x.Rounds
	x.Rounds++
	for _, k := range slices.Sorted(maps.Keys(r.InputRequests)) {
		q := r.InputRequests[k]
		x.Questions = append(x.Questions, Question{Method: q.Method, Params: q.Params, Key: k, Round: round})
	}
}

func (p *pairing) question(e Entry) {
	q := Question{Method: e.Method, Params: decode(e).Params, ID: e.ID}
	ref := questionRef{ex: p.current()}
	if ref.ex >= 0 {
		x := &p.s.Exchanges[ref.ex]
		x.Questions = append(x.Questions, q)
		ref.q = len(x.Questions) - 1
	} else {
		p.s.Stray = append(p.s.Stray, q)
		ref.q = len(p.s.Stray) - 1
	}
	p.questions[idKey(e.ID)] = ref
	p.lastQuestion = &ref
}

func (p *pairing) at(ref questionRef) *Question {
	if ref.ex < 0 {
		return &p.s.Stray[ref.q]
	}
	return &p.s.Exchanges[ref.ex].Questions[ref.q]
}

func (p *pairing) answer(e Entry) {
	key := idKey(e.ID)
	ref, ok := p.questions[key]
	if !ok {
		return
	}
	delete(p.questions, key)
	q := p.at(ref)
	m := decode(e)
	q.Answer, q.AnswerError = m.Result, m.Error
}

// annotate sets who answered on the question the annotation names: by id
// (2025-11-25), by key in the latest exchange that asked it (2026-07-28).
func (p *pairing) annotate(a Answer) {
	if len(a.ID) > 0 {
		want := idKey(a.ID)
		for i := len(p.s.Exchanges) - 1; i >= 0; i-- {
			for qi := range p.s.Exchanges[i].Questions {
				if q := &p.s.Exchanges[i].Questions[qi]; q.Key == "" && idKey(q.ID) == want {
					q.By = a.By
					return
				}
			}
		}
		for qi := range p.s.Stray {
			if idKey(p.s.Stray[qi].ID) == want {
				p.s.Stray[qi].By = a.By
				return
			}
		}
		return
	}
	if a.Key != "" {
		for i := len(p.s.Exchanges) - 1; i >= 0; i-- {
			qs := p.s.Exchanges[i].Questions
			for qi := len(qs) - 1; qi >= 0; qi-- {
				if qs[qi].Key == a.Key {
					qs[qi].By = a.By
					return
				}
			}
		}
		return
	}
	if p.lastQuestion != nil {
		p.at(*p.lastQuestion).By = a.By
	}
}

// StripRetry returns params without what a retry adds (inputResponses,
// requestState) and without _meta: the params that say what was asked
// for, to match a request by.
func StripRetry(params json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil || m == nil {
		return params
	}
	delete(m, "inputResponses")
	delete(m, "requestState")
	delete(m, "_meta")
	b, err := json.Marshal(m)
	if err != nil {
		return params
	}
	return b
}

// The inspector as a watcher of running proxies (mcpeek watch): no
// connection of its own; the Requests and Log tabs show the traffic of
// the proxy chosen (S steps to the next), and the questions a proxy asks
// open the native form.

package tui

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/formschema"
	recording "github.com/mcpeek/mcpeek/internal/record"
	"github.com/mcpeek/mcpeek/internal/suite/author"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Watch makes the inspector a watcher of proxies instead of a client.
type Watch struct {
	// Proxies are the proxies watched, each with the wire log its
	// traffic is copied into as it comes; read at every poll, as proxies
	// come and go.
	Proxies func() []Watched
	// Start attaches to the proxies, in a command when the program starts;
	// their questions go to ask, which shows the native form and returns
	// the ElicitResult (a proxy's label names it on the form).
	Start func(ask func(ctx context.Context, label string, params json.RawMessage) (json.RawMessage, error))
}

// Watched is one proxy watched.
type Watched struct {
	// Label names it: its --name, else its server.
	Label string
	// Wire is its wire log as the watcher received it.
	Wire *mcpclient.WireLog
	// Ended: the proxy has ended (or detached the watcher).
	Ended bool
	// Suite is its server as a suite + makes names it (nil: the embedded
	// fixture).
	Suite []string
}

// watching is the watch mode's state: the proxy shown.
type watching struct {
	shown int
	now   []Watched // as of the last poll
	asked atomic.Int64
	read  wireMark // what m.wire and m.records were read from
}

// wireMark is which proxy's log m.wire was read from, and how far: a poll
// finding the same log with as many entries, the last of the same time,
// has nothing new (the time tells once the ring has wrapped, when the
// count stays the same), and keeps the records paired before.
type wireMark struct {
	wire *mcpclient.WireLog
	n    int
	last time.Time
}

// watchStart starts the watchers, in a command, and shows the Log tab.
func (m *Model) watchStart() tea.Cmd {
	w := m.opts.Watch
	m.state = stateWatching
	m.show(placeOf[*page.Log](m.pages)) // the traffic first
	return func() tea.Msg {
		if w.Start != nil {
			w.Start(m.watchAsk)
		}
		return nil
	}
}

// watchAsk asks a proxy's question with the native form, as the
// connection's router does a server's.
func (m *Model) watchAsk(ctx context.Context, label string, params json.RawMessage) (json.RawMessage, error) {
	req, err := watchRequest(label, params, m.watch.asked.Add(1))
	if err != nil {
		return nil, err
	}
	res, err := m.asker.Ask(ctx, req)
	if err != nil {
		return nil, err
	}
	return json.Marshal(res)
}

// watchRequest is a proxy's question as the native form takes it.
func watchRequest(label string, params json.RawMessage, n int64) (*mcpclient.NativeRequest, error) {
	var p mcp.ElicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, fmt.Errorf("elicitation params: %w", err)
	}
	req := &mcpclient.NativeRequest{Key: fmt.Sprintf("w-%d", n), Server: &mcp.Implementation{Name: label}, Connection: "mcpeek proxy " + label, Params: &p, RawParams: params}
	if p.Mode == "url" {
		return req, nil
	}
	var raw struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	_ = json.Unmarshal(params, &raw)
	if len(raw.RequestedSchema) == 0 {
		return nil, fmt.Errorf("requested schema: missing")
	}
	schema, err := formschema.Parse(raw.RequestedSchema)
	if err != nil {
		return nil, err
	}
	req.Schema = schema
	return req, nil
}

// watchPoll reads the proxy shown's traffic.
func (m *Model) watchPoll() {
	m.watch.now = m.opts.Watch.Proxies()
	if m.watch.shown >= len(m.watch.now) {
		m.watch.shown = 0
	}
	w := m.watched()
	if w == nil {
		m.wire, m.records, m.watch.read = nil, nil, wireMark{}
		return
	}
	wire := w.Wire.Entries()
	mark := wireMark{wire: w.Wire, n: len(wire)}
	if len(wire) > 0 {
		mark.last = wire[len(wire)-1].Time
	}
	if mark == m.watch.read {
		return // nothing new: the entries are not decoded and paired again
	}
	m.wire, m.records, m.watch.read = wire, wireRecords(w.Label, wire), mark
}

// watched is the proxy shown, or nil.
func (m *Model) watched() *Watched {
	if m.watch.shown < len(m.watch.now) {
		return &m.watch.now[m.watch.shown]
	}
	return nil
}

// watchNext shows the next proxy's traffic (S).
func (m *Model) watchNext() {
	if n := len(m.watch.now); n > 1 {
		m.watch.shown = (m.watch.shown + 1) % n
		m.watchPoll()
		m.status = statusMsg{"watching " + widget.Line(m.watchLabel(), max(m.c.Width-10, 10)), false} // cleaned as the header's
	}
}

// watchLabel says which proxy is shown, and of how many.
func (m *Model) watchLabel() string {
	w := m.watched()
	if w == nil {
		return "no proxy (none running: start one with mcpeek proxy)"
	}
	s := w.Label
	if w.Ended {
		s += " (ended)"
	}
	if n := len(m.watch.now); n > 1 {
		s += fmt.Sprintf(" · %d of %d: %s shows the next", m.watch.shown+1, n, m.c.Keys.Tabs.Servers.Help().Key)
	}
	return s
}

// wireRecords are the server's questions to the host seen in a proxy's
// traffic, each with the host's answer once it went by: what the
// Requests tab lists. They are read as a recording's are
// (record.Pair): a legacy elicitation/create, sampling/createMessage or
// roots/list, or a 2026-07-28 input_required result's inputRequests,
// answered by the retry's inputResponses.
func wireRecords(label string, wire []mcpclient.WireEntry) []mcpclient.Record {
	entries := recordingEntries(wire)
	// A legacy question's time ("q" and its id: the server's request) and
	// its answer's ("a": the host's response); the host's own requests
	// and the server's responses have ids of another sequence.
	at := map[string]time.Time{}
	for _, e := range wire {
		switch {
		case len(e.ID) == 0:
		case e.Dir == mcpclient.DirRecv && e.Method != "":
			at["q"+string(e.ID)] = e.Time
		case e.Dir == mcpclient.DirSend && e.Method == "":
			at["a"+string(e.ID)] = e.Time
		}
	}
	s := recording.Pair(entries)
	var out []mcpclient.Record
	add := func(x *recording.Exchange, q recording.Question) {
		r := questionRecord(label, x, q)
		if len(q.ID) > 0 { // legacy: the question and its answer are messages of their own
			r.ReceivedAt = at["q"+string(q.ID)]
			if t, ok := at["a"+string(q.ID)]; ok && (q.Answer != nil || q.AnswerError != nil) {
				r.AnsweredMs = t.Sub(r.ReceivedAt).Milliseconds()
			}
		}
		out = append(out, r)
	}
	for i := range s.Exchanges {
		for _, q := range s.Exchanges[i].Questions {
			add(&s.Exchanges[i], q)
		}
	}
	for _, q := range s.Stray {
		add(nil, q)
	}
	slices.SortStableFunc(out, func(a, b mcpclient.Record) int { return a.ReceivedAt.Compare(b.ReceivedAt) })
	return out
}

// recordingEntries are a wire log's entries as a recording holds them.
func recordingEntries(wire []mcpclient.WireEntry) []recording.Entry {
	out := make([]recording.Entry, len(wire))
	for i, e := range wire {
		out[i] = recording.Entry{WireEntry: e}
	}
	return out
}

// questionKey names a question on the Requests tab: a legacy request's
// id, or a 2026-07-28 question's inputRequests key after its call's id.
func questionKey(x *recording.Exchange, q recording.Question) string {
	if len(q.ID) > 0 || x == nil {
		return string(q.ID)
	}
	return string(x.Request.ID) + "/" + q.Key
}

// questionRecord is a question as the Requests tab shows it; x is the
// exchange it was asked during (nil: none).
func questionRecord(label string, x *recording.Exchange, q recording.Question) mcpclient.Record {
	kinds := map[string]string{"elicitation/create": mcpclient.KindElicitation, "sampling/createMessage": mcpclient.KindSampling, "roots/list": mcpclient.KindRoots}
	var p struct {
		Message string `json:"message"`
		Mode    string `json:"mode"`
	}
	_ = json.Unmarshal(q.Params, &p)
	kind := kinds[q.Method]
	if kind == "" {
		kind = q.Method
	}
	if p.Mode == "" && kind == mcpclient.KindElicitation {
		p.Mode = "form"
	}
	r := mcpclient.Record{Key: questionKey(x, q), Kind: kind, Server: label, Mode: p.Mode, Path: mcpclient.Path("host"),
		Message: p.Message, Request: q.Params, Response: q.Answer}
	if x != nil && q.Round < len(x.Requests) {
		r.ReceivedAt = x.Requests[q.Round].Time
		if q.Round+1 < len(x.Requests) && q.Answer != nil {
			r.AnsweredMs = x.Requests[q.Round+1].Time.Sub(r.ReceivedAt).Milliseconds()
		}
	}
	var a struct {
		Action string `json:"action"`
	}
	_ = json.Unmarshal(q.Answer, &a)
	switch {
	case q.AnswerError != nil:
		var e struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(q.AnswerError, &e)
		r.Error = e.Message
	case q.Answer == nil:
	case kind == mcpclient.KindRoots:
		r.Action = "answered"
	case kind == mcpclient.KindSampling:
		r.Action = "accept"
	default:
		r.Action = a.Action
	}
	return r
}

// watchOnly says a key does nothing while watching.
func (m *Model) watchOnly() {
	m.status = statusMsg{"mcpeek watch shows proxies' traffic: " + m.c.Keys.Tabs.Servers.Help().Key + " steps to the next proxy; connect with mcpeek itself to call the server", true}
}

// watchSaved is the step + saves in watch mode: the tools/call the
// entry shown on the Log tab belongs to (its request, a retry, its
// response, a question asked during it or the host's answer), or the one
// the question shown on the Requests tab was asked during, as the proxy's
// traffic has it.
func (m *Model) watchSaved(current page.Page) (*savedStep, string) {
	const why = "+ saves a tools/call the proxy forwarded as a test: pick its request, its response or a question asked during it (Log or Requests tab)"
	var match func(x recording.Exchange) bool
	switch p := current.(type) {
	case *page.Log:
		e, ok := p.Selected()
		if !ok || len(e.ID) == 0 {
			return nil, why
		}
		match = entryMatch(e)
	case *page.Requests:
		r, ok := p.Selected()
		if !ok {
			return nil, why
		}
		match = func(x recording.Exchange) bool {
			return slices.ContainsFunc(x.Questions, func(q recording.Question) bool { return questionKey(&x, q) == r.Key })
		}
	default:
		return nil, why
	}
	if step, msg := m.watchSave(match); step != nil || msg != "" {
		return step, msg
	}
	return nil, why
}

// entryMatch says whether an exchange is the one a Log entry with an id
// belongs to. The host's requests and the server's form two id
// sequences: the host's request, or the server's response to it, names
// a call (or a retry) by its id; the server's question, or the host's
// answer to it, names a question asked during one.
func entryMatch(e mcpclient.WireEntry) func(x recording.Exchange) bool {
	if hostSide := (e.Dir == mcpclient.DirSend) == (e.Method != ""); hostSide {
		return func(x recording.Exchange) bool {
			return slices.ContainsFunc(x.Requests, func(r recording.Entry) bool { return string(r.ID) == string(e.ID) })
		}
	}
	return func(x recording.Exchange) bool {
		return slices.ContainsFunc(x.Questions, func(q recording.Question) bool { return len(q.ID) > 0 && string(q.ID) == string(e.ID) })
	}
}

// watchSave is the step of the last tools/call match picks in the proxy's
// traffic, or why there is none to save ("": none matched).
func (m *Model) watchSave(match func(x recording.Exchange) bool) (*savedStep, string) {
	for _, x := range slices.Backward(recording.Exchanges(recordingEntries(m.wire))) {
		if x.Method != "tools/call" || !match(x) {
			continue
		}
		if x.Response == nil {
			return nil, "this tools/call has not been answered yet: + saves it once it has"
		}
		step, err := author.CallStep(x, m.watchEra())
		if err != nil {
			return nil, "cannot save this call: " + err.Error()
		}
		args, _ := step.Args.(json.RawMessage)
		return &savedStep{step: step, args: args}, ""
	}
	return nil, ""
}

// watchEra is the protocol revision the proxy shown speaks, from the
// handshake its log keeps apart: the ring of entries loses it once the
// traffic has gone on long enough.
func (m *Model) watchEra() string {
	if w := m.watched(); w != nil {
		if era := wireEra(w.Wire.Handshake()); era != "" {
			return era
		}
	}
	return wireEra(m.wire)
}

// wireEra is the protocol revision a proxy's traffic speaks: the one
// initialize's answer agreed on, or 2026-07-28 for server/discover.
func wireEra(wire []mcpclient.WireEntry) string {
	era := ""
	for _, e := range wire {
		switch {
		case e.Method == mcpclient.MethodDiscover:
			era = mcpclient.ProtocolModern
		case e.Dir == mcpclient.DirRecv && e.Method == "" && len(e.Message) > 0:
			var r struct {
				Result struct {
					ProtocolVersion string `json:"protocolVersion"`
				} `json:"result"`
			}
			if json.Unmarshal(e.Message, &r) == nil && r.Result.ProtocolVersion != "" {
				era = r.Result.ProtocolVersion
			}
		}
	}
	return era
}

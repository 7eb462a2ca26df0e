package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// The watcher shows a proxy's traffic as it comes, steps between proxies,
// and answers a proxy's question in the native form.
func TestWatchShowsTrafficLiveAndAnswers(t *testing.T) {
	t.Parallel()
	host := mcpclient.NewWireLog(0, nil)
	other := mcpclient.NewWireLog(0, nil)
	other.Note("the other proxy's note")
	asks := make(chan func(context.Context, string, json.RawMessage) (json.RawMessage, error), 1)
	in := open(t, Options{Watch: &Watch{
		Proxies: func() []Watched {
			return []Watched{{Label: "weather", Wire: host}, {Label: "files", Wire: other, Ended: true}}
		},
		Start: func(ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)) { asks <- ask },
	}}, 120, 30)
	in.expect("watching weather · 1 of 2")

	// Live: an entry logged now shows on the Log tab, shown first.
	host.Raw(mcpclient.DirSend, []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"forecast","arguments":{"city":"Oslo"}}}`), "tools/call", json.RawMessage(`7`))
	in.expect("forecast")

	// + on the call saves it once it is answered.
	in.keys("+").expect("has not been answered yet")
	host.Raw(mcpclient.DirRecv, []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"rain"}]}}`), "", json.RawMessage(`7`))
	in.expect("tools/call #7 result").keys("+").expect("Save as a test: call forecast").keys("esc")

	// A server's question to the host, and the host's answer, on the Requests tab.
	host.Raw(mcpclient.DirRecv, []byte(`{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Units?","requestedSchema":{"type":"object","properties":{"metric":{"type":"boolean"}}}}}`), "elicitation/create", json.RawMessage(`1`))
	host.Raw(mcpclient.DirSend, []byte(`{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}`), "", json.RawMessage(`1`))
	in.keys("4").expect("Units?")

	// S steps to the next proxy.
	in.keys("S").expect("watching files (ended) · 2 of 2")
	in.keys("5").expect("the other proxy's note")

	// A proxy's question opens the form; its answer goes back.
	var ask func(context.Context, string, json.RawMessage) (json.RawMessage, error)
	select {
	case ask = <-asks:
	case <-time.After(30 * time.Second):
		t.Fatal("the proxy's asker was never registered")
	}
	got := make(chan string, 1)
	go func() {
		res, err := ask(context.Background(), "weather", json.RawMessage(`{"message":"Units?","requestedSchema":{"type":"object","properties":{"metric":{"type":"boolean","default":true}}}}`))
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(res)
	}()
	in.formOpen().press(layer.FormKeys.Submit)
	select {
	case res := <-got:
		if res != `{"action":"accept","content":{"metric":true}}` {
			t.Fatalf("the proxy got %s", res)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no answer")
	}
}

// The Requests tab of a watcher lists the server's questions to the host
// in either era, with the host's answers.
func TestWatchedQuestionsInBothEras(t *testing.T) {
	t.Parallel()
	type msg struct {
		dir        mcpclient.Direction
		method, id string
		text       string
	}
	for _, tc := range []struct {
		name        string
		traffic     []msg
		wantKey     string
		wantAction  string
		wantMessage string
	}{
		{"legacy: elicitation/create, ids of both sides alike", []msg{
			{mcpclient.DirSend, "tools/call", "1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}}`},
			{mcpclient.DirRecv, "elicitation/create", "1", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object"}}}`},
			{mcpclient.DirSend, "", "1", `{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}`},
			{mcpclient.DirRecv, "", "1", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
		}, "1", "decline", "Name?"},
		{"2026-07-28: input_required, then the retry's inputResponses", []msg{
			{mcpclient.DirSend, "tools/call", "2", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask"}}`},
			{mcpclient.DirRecv, "", "2", `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","requestState":"s1","inputRequests":{"q1":{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object"}}}}}}`},
			{mcpclient.DirSend, "tools/call", "3", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask","requestState":"s1","inputResponses":{"q1":{"action":"accept","content":{"name":"Ada"}}}}}`},
			{mcpclient.DirRecv, "", "3", `{"jsonrpc":"2.0","id":3,"result":{"content":[]}}`},
		}, "2/q1", "accept", "Name?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			wire := mcpclient.NewWireLog(0, nil)
			for _, m := range tc.traffic {
				wire.Raw(m.dir, []byte(m.text), m.method, json.RawMessage(m.id))
			}
			recs := wireRecords("p", wire.Entries())
			if len(recs) != 1 {
				t.Fatalf("records = %+v, want one", recs)
			}
			r := recs[0]
			if r.Key != tc.wantKey || r.Action != tc.wantAction || r.Message != tc.wantMessage || r.Kind != mcpclient.KindElicitation || r.ReceivedAt.IsZero() {
				t.Errorf("record = %+v, want key %s, action %s, message %q", r, tc.wantKey, tc.wantAction, tc.wantMessage)
			}
		})
	}
}

// watchModel is a watcher's model showing the one proxy wire, polled once.
func watchModel(wire *mcpclient.WireLog) *Model {
	m := New(Options{Watch: &Watch{Proxies: func() []Watched { return []Watched{{Label: "p", Wire: wire}} }}})
	m.watchPoll()
	return m
}

// raw logs a message as a proxy does.
func raw(wire *mcpclient.WireLog, dir mcpclient.Direction, method, id, text string) mcpclient.WireEntry {
	wire.Raw(dir, []byte(text), method, json.RawMessage(id))
	es := wire.Entries()
	return es[len(es)-1]
}

// A poll finding nothing new keeps the records read before instead of
// decoding and pairing the whole log again; one finding a new entry reads
// it, also once the ring is full and its length stays the same.
func TestWatchPollRereadsOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(3, nil)
	ask := func(id string) {
		raw(wire, mcpclient.DirRecv, "elicitation/create", id, `{"jsonrpc":"2.0","id":`+id+`,"method":"elicitation/create","params":{"message":"Q`+id+`?","requestedSchema":{"type":"object"}}}`)
	}
	ask("1")
	m := watchModel(wire)
	if len(m.records) != 1 {
		t.Fatalf("records = %+v, want one", m.records)
	}
	before := &m.records[0]
	m.watchPoll()
	if len(m.records) != 1 || &m.records[0] != before {
		t.Error("a poll finding nothing new read the log again")
	}
	ask("2")
	ask("3")
	m.watchPoll()
	if len(m.records) != 3 {
		t.Fatalf("records = %+v, want three", m.records)
	}
	ask("4") // the ring is full: as many entries as before
	m.watchPoll()
	if n := len(m.records); n != 3 || m.records[n-1].Message != "Q4?" {
		t.Errorf("records = %+v, want Q2? to Q4?", m.records)
	}
}

// + on a Log entry saves the call it belongs to: the host's requests and
// the server's have ids of their own sequences, so a server's question
// (and the host's answer) with the id of an earlier call names the call it
// was asked during, not that one.
func TestWatchSavesTheCallAnEntryBelongsTo(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(0, nil)
	call1 := raw(wire, mcpclient.DirSend, "tools/call", "1", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"first"}}`)
	res1 := raw(wire, mcpclient.DirRecv, "", "1", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`)
	call2 := raw(wire, mcpclient.DirSend, "tools/call", "2", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"second"}}`)
	question := raw(wire, mcpclient.DirRecv, "elicitation/create", "1", `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object"}}}`)
	answer := raw(wire, mcpclient.DirSend, "", "1", `{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}`)
	res2 := raw(wire, mcpclient.DirRecv, "", "2", `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`)
	m := watchModel(wire)
	for _, tc := range []struct {
		name  string
		entry mcpclient.WireEntry
		want  string
	}{
		{"the host's request", call1, "first"},
		{"the server's response", res1, "first"},
		{"the later call", call2, "second"},
		{"its response", res2, "second"},
		{"the server's question", question, "second"},
		{"the host's answer", answer, "second"},
	} {
		st, why := m.watchSave(entryMatch(tc.entry))
		if st == nil || st.step.Target != tc.want {
			t.Errorf("%s: saved %+v (%s), want the call of %s", tc.name, st, why, tc.want)
		}
	}
}

// A test saved from a proxy's traffic says the revision its handshake
// agreed on, also once the handshake has left the ring.
func TestWatchSavesTheEraOfAHandshakeGone(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(3, nil)
	raw(wire, mcpclient.DirSend, "initialize", "0", `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`)
	raw(wire, mcpclient.DirRecv, "", "0", `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25"}}`)
	wire.Raw(mcpclient.DirSend, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), "notifications/initialized", nil)
	call := raw(wire, mcpclient.DirSend, "tools/call", "5", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"forecast"}}`)
	raw(wire, mcpclient.DirRecv, "", "5", `{"jsonrpc":"2.0","id":5,"result":{"content":[]}}`)
	m := watchModel(wire)
	st, why := m.watchSave(entryMatch(call))
	if st == nil {
		t.Fatalf("nothing saved: %s", why)
	}
	if st.step.Era != "2025-11-25" || len(st.step.Eras) != 1 || st.step.Eras[0] != "2025-11-25" {
		t.Errorf("era %q, eras %q; want 2025-11-25", st.step.Era, st.step.Eras)
	}
}

// The status line names the proxy S steps to as the header does, its
// label cleaned of what a terminal would act on.
func TestWatchNextCleansTheLabel(t *testing.T) {
	t.Parallel()
	wire := mcpclient.NewWireLog(0, nil)
	m := New(Options{Watch: &Watch{Proxies: func() []Watched {
		return []Watched{{Label: "weather", Wire: wire}, {Label: "files\x1b]0;owned\a\nnext", Wire: wire}}
	}}})
	m.watchPoll()
	m.watchNext()
	if s := m.status.text; strings.ContainsAny(s, "\x1b\a\n") || !strings.Contains(s, "files") {
		t.Errorf("status %q: want the label cleaned", s)
	}
}

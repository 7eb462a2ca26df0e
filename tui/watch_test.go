package tui

import (
	"context"
	"encoding/json"
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
	ask := <-asks
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

package record

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpeek/mcpeek/fixture"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// nameAsker answers the fixture's multi_round: a name, then a
// confirmation.
type nameAsker struct{}

func (nameAsker) Ask(_ context.Context, req *mcpclient.NativeRequest) (*mcp.ElicitResult, error) {
	if strings.Contains(req.Params.Message, "name") {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
	}
	return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, nil
}

// recordFixture records a call of tool on the embedded fixture in the
// given era, and reads the recording back.
func recordFixture(t *testing.T, protocol, tool string) (Header, []Entry) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	wire := mcpclient.NewWireLog(0, w)
	conn, err := mcpclient.Connect(t.Context(), mcpclient.Config{
		Target:       mcpclient.Target{Kind: mcpclient.TargetEmbedded, Embedded: func() *mcp.Server { return fixture.New(fixture.Options{}) }},
		Protocol:     protocol,
		Capabilities: mcpclient.CapabilityOptions{FormElicitation: true},
		Asker:        nameAsker{},
		Wire:         wire,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(Header{Protocol: conn.ProtocolVersion(), Transport: "stdio"}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Call(t.Context(), tool, nil); err != nil {
		t.Fatal(err)
	}
	if err := conn.Close(); err != nil {
		t.Log(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h, entries, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return h, entries
}

func TestExchangesPairAQuestionedCallInBothEras(t *testing.T) {
	for _, c := range []struct {
		protocol string
		rounds   int
		keyed    bool
	}{{"legacy", 0, false}, {"modern", 2, true}} {
		t.Run(c.protocol, func(t *testing.T) {
			_, entries := recordFixture(t, c.protocol, "multi_round")
			var calls []Exchange
			for _, x := range Exchanges(entries) {
				if x.Method == "tools/call" && !x.Side {
					calls = append(calls, x)
				}
			}
			if len(calls) != 1 {
				t.Fatalf("%d tools/call exchanges, want 1: %+v", len(calls), calls)
			}
			x := calls[0]
			if x.Response == nil || !strings.Contains(string(x.Result), "name: Ada, confirm: true") {
				t.Errorf("result = %s", x.Result)
			}
			if x.Rounds != c.rounds || len(x.Requests) != c.rounds+1 {
				t.Errorf("rounds = %d, requests = %d, want %d rounds", x.Rounds, len(x.Requests), c.rounds)
			}
			if len(x.Questions) != 2 {
				t.Fatalf("questions = %+v", x.Questions)
			}
			for i, want := range []string{`{"name":"Ada"}`, `{"confirm":true}`} {
				q := x.Questions[i]
				var a struct {
					Action  string          `json:"action"`
					Content json.RawMessage `json:"content"`
				}
				if err := json.Unmarshal(q.Answer, &a); err != nil || a.Action != "accept" || string(a.Content) != want {
					t.Errorf("question %d (%s) answered %s, want content %s", i, q.Method, q.Answer, want)
				}
				if q.Method != "elicitation/create" || (q.Key != "") != c.keyed || (c.keyed && q.Round != i) {
					t.Errorf("question %d = %+v", i, q)
				}
			}
			if p := string(StripRetry(x.Params)); p != `{"arguments":{},"name":"multi_round"}` && p != `{"name":"multi_round"}` {
				t.Errorf("params = %s", p)
			}
		})
	}
}

func TestAnnotationsSayWhoAnswered(t *testing.T) {
	lines := []string{
		`{"mcpeekRecording":1,"protocol":"2025-11-25"}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"send","method":"tools/call","id":1,"message":{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"recv","method":"elicitation/create","id":1,"message":{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"?"}}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"send","id":1,"message":{"jsonrpc":"2.0","id":1,"result":{"action":"decline"}}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"answer","answer":{"method":"elicitation/create","id":1,"by":"decline"}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"recv","method":"notifications/message","message":{"jsonrpc":"2.0","method":"notifications/message","params":{}}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"recv","id":1,"message":{"jsonrpc":"2.0","id":1,"result":{"content":[]}}}`,
		`{"time":"2026-01-01T00:00:00Z","dir":"recv","method":"roots/list","id":2,"message":{"jsonrpc":"2.0","id":2,"method":"roots/list"}}`,
	}
	_, entries, err := Read(strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	s := Pair(entries)
	if len(s.Exchanges) != 1 || len(s.Exchanges[0].Questions) != 1 || len(s.Exchanges[0].Notifications) != 1 {
		t.Fatalf("session = %+v", s)
	}
	if q := s.Exchanges[0].Questions[0]; q.By != "decline" || string(q.Answer) != `{"action":"decline"}` {
		t.Errorf("question = %+v", q)
	}
	if len(s.Stray) != 1 || s.Stray[0].Method != "roots/list" {
		t.Errorf("stray = %+v", s.Stray)
	}
}

package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
)

// A wire-log entry says how a response ended, for the log to show.
func TestWireEntryOutcome(t *testing.T) {
	for _, tc := range []struct {
		name, msg string
		want      Outcome
	}{
		{"a result", `{"jsonrpc":"2.0","id":1,"result":{}}`, Outcome{Kind: OutcomeResult}},
		{"input required", `{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required"}}`, Outcome{Kind: OutcomeInputRequired}},
		{"an error", `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"no"}}`, Outcome{Kind: OutcomeError, Code: -32602}},
		{"a request", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, Outcome{}},
		{"not JSON", `{`, Outcome{}},
		{"nothing", ``, Outcome{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (WireEntry{Message: json.RawMessage(tc.msg)}).Outcome(); got != tc.want {
				t.Errorf("Outcome() = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// A message too long to keep whole is cut in memory, but how it ended is
// read first: a huge input_required result still counts as a round.
func TestWireLogKeepsTheOutcomeOfACutMessage(t *testing.T) {
	w := NewWireLog(10, nil)
	pad := strings.Repeat("x", 2*maxKept)
	w.add(WireEntry{Dir: DirRecv, Message: json.RawMessage(`{"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required","inputRequests":{"a":{"method":"elicitation/create","params":{"message":"` + pad + `"}}}}}`)})
	w.add(WireEntry{Dir: DirRecv, Message: json.RawMessage(`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"` + pad + `"}}`)})
	got := w.Entries()
	if len(got) != 2 || got[0].Message != nil {
		t.Fatalf("entries = %d, first message kept whole: %v", len(got), got[0].Message != nil)
	}
	if o := got[0].Outcome(); o.Kind != OutcomeInputRequired {
		t.Errorf("cut input_required result: Outcome() = %+v", o)
	}
	if o := got[1].Outcome(); o != (Outcome{Kind: OutcomeError, Code: -32000}) {
		t.Errorf("cut error: Outcome() = %+v", o)
	}
}

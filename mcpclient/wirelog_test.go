package mcpclient

import (
	"encoding/json"
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

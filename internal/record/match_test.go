package record

import (
	"encoding/json"
	"testing"

	"github.com/mcpeek/mcpeek/mcpclient"
)

// TestMatcher: one rule for requests and questions. _meta, the order of
// members, a retry's inputResponses and what the spec makes optional when
// it says nothing (absent params, a null cursor, empty arguments, the
// default elicitation mode) do not tell two messages apart;
// the method, any other param and the requestState do; the methods
// matched by method alone match whatever their params.
func TestMatcher(t *testing.T) {
	t.Parallel()
	m := NewMatcher(MatchByMethod(mcpclient.MethodInitialize))
	tests := []struct {
		name              string
		method, live      string
		recorded, method2 string
		match             bool
	}{
		{"the same", "tools/call", `{"name":"a","arguments":{"x":1}}`, `{"name":"a","arguments":{"x":1}}`, "", true},
		{"_meta and member order aside", "tools/call", `{"_meta":{"progressToken":3},"arguments":{"x":1.0},"name":"a"}`, `{"name":"a","arguments":{"x":1},"_meta":{"progressToken":"p"}}`, "", true},
		{"inputResponses aside", "tools/call", `{"name":"a","inputResponses":{"k":{"action":"decline"}},"requestState":"s"}`, `{"name":"a","inputResponses":{"k":{"action":"accept"}},"requestState":"s"}`, "", true},
		{"no params is {}", "tools/list", ``, `{}`, "", true},
		{"null params is {}", "tools/list", `null`, `{"_meta":{}}`, "", true},
		{"no params is an empty _meta", "tools/list", ``, `{"_meta":{}}`, "", true},
		{"a null cursor is none", "tools/list", `{"cursor":null}`, `{}`, "", true},
		{"no params is a null cursor", "resources/list", ``, `{"cursor":null,"_meta":{"progressToken":1}}`, "", true},
		{"a cursor is compared", "tools/list", `{"cursor":"page-2"}`, `{}`, "", false},
		{"no arguments are empty ones", "tools/call", `{"name":"a"}`, `{"name":"a","arguments":{}}`, "", true},
		{"no prompt arguments are empty ones", "prompts/get", `{"name":"p","arguments":null}`, `{"name":"p","arguments":{}}`, "", true},
		{"a null argument is the tool's own", "tools/call", `{"name":"a","arguments":{"x":null}}`, `{"name":"a"}`, "", false},
		{"an elicitation's mode is form unless said", mcpclient.MethodElicit, `{"message":"Sure?","mode":"form"}`, `{"message":"Sure?"}`, "", true},
		{"another mode", mcpclient.MethodElicit, `{"message":"Sure?","mode":"url"}`, `{"message":"Sure?"}`, "", false},
		{"another param", "tools/call", `{"name":"a","arguments":{"x":2}}`, `{"name":"a","arguments":{"x":1}}`, "", false},
		{"a _meta below the params is the request's own", "tools/call", `{"name":"a","arguments":{"_meta":1}}`, `{"name":"a","arguments":{"_meta":2}}`, "", false},
		{"another requestState", "tools/call", `{"name":"a","requestState":"s2"}`, `{"name":"a","requestState":"s1"}`, "", false},
		{"a requestState where none was", "tools/call", `{"name":"a","requestState":"s1"}`, `{"name":"a"}`, "", false},
		{"another method", "tools/call", `{"name":"a"}`, `{"name":"a"}`, "prompts/get", false},
		{"by method alone", mcpclient.MethodInitialize, `{"clientInfo":{"name":"x"}}`, `{"clientInfo":{"name":"y"}}`, "", true},
		{"a question", mcpclient.MethodElicit, `{"message":"Sure?","_meta":{"k":1}}`, `{"message":"Sure?"}`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := tt.method
			if tt.method2 != "" {
				rec = tt.method2
			}
			live, recorded := m.Key(tt.method, json.RawMessage(tt.live)), m.Key(rec, json.RawMessage(tt.recorded))
			if got := m.Match(live, recorded); got != tt.match {
				t.Errorf("Match(%+v, %+v) = %v, want %v", live, recorded, got, tt.match)
			}
		})
	}
	k := m.Key("tools/call", json.RawMessage(`{"requestState":"s","name":"a","_meta":{}}`))
	if k.Params != `{"name":"a"}` || k.State != "s" {
		t.Errorf("Key = %+v", k)
	}
	// What a message is shown by is its params as sent, what the spec
	// makes optional included.
	if k := m.Key("tools/call", json.RawMessage(`{"name":"a","arguments":{},"cursor":null}`)); k.Params != `{"arguments":{},"cursor":null,"name":"a"}` {
		t.Errorf("Key shows %s", k.Params)
	}
	if m.Key("x", json.RawMessage(`{bad`)).Params != `{bad` {
		t.Error("malformed params are not kept as they are")
	}
}

package jsondoc

import (
	"encoding/json"
	"testing"
)

func TestStripEnvelope(t *testing.T) {
	v := decode(t, `{"resultType":"complete","ttlMs":1000,"cacheScope":"private","contents":[{"ttlMs":1}],
		"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s"},"io.modelcontextprotocol/protocolVersion":"2026-07-28","mine":1}}`)
	got, _ := json.Marshal(StripEnvelope(v))
	if want := `{"_meta":{"mine":1},"contents":[{"ttlMs":1}]}`; string(got) != want {
		t.Errorf("StripEnvelope = %s, want %s (the envelope at the top only)", got, want)
	}
	v = decode(t, `{"_meta":{"io.modelcontextprotocol/serverInfo":{}},"a":1}`)
	if got, _ := json.Marshal(StripEnvelope(v)); string(got) != `{"a":1}` {
		t.Errorf("a _meta of the envelope alone is left: %s", got)
	}
	if StripEnvelope("text") != "text" {
		t.Error("a scalar changed")
	}
}

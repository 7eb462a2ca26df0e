package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A secret is hidden wherever it shows: as itself, inside printed JSON
// (escaped as encoding/json escapes it), and whole when it contains
// another; a string too short to be a secret is left.
func TestSecretsRedact(t *testing.T) {
	s := &Secrets{}
	for _, secret := range []string{"tok<en>&1", "Bearer tok<en>&1", "abc"} {
		s.Add(secret)
	}
	quoted, _ := json.Marshal(map[string]string{"text": "header Bearer tok<en>&1 and tok<en>&1"})
	for _, tc := range []struct{ in, want string }{
		{"got Bearer tok<en>&1", "got " + Redacted},
		{"got tok<en>&1.", "got " + Redacted + "."},
		{string(quoted), `{"text":"header ` + Redacted + ` and ` + Redacted + `"}`},
		{"abc stays", "abc stays"},
	} {
		if got := s.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var nilSet *Secrets
	if got := nilSet.Redact("tok<en>&1"); got != "tok<en>&1" {
		t.Errorf("a nil set redacted %q", got)
	}
}

// The wire log's set is the one a shared set becomes: secrets told to the
// log before and after sharing are redacted by whoever shares it, and the
// events a connection hands on carry no secret.
func TestSecretsShared(t *testing.T) {
	wire := NewWireLog(0, nil)
	wire.Secret("before-1234")
	shared := &Secrets{}
	wire.UseSecrets(shared)
	wire.Secret("after-5678")
	var out bytes.Buffer
	w := shared.Writer(&out)
	fmt.Fprintln(w, "before-1234 after-5678")
	if got := out.String(); got != Redacted+" "+Redacted+"\n" {
		t.Errorf("the shared writer printed %q", got)
	}
	wire.Note("note after-5678")
	if e := wire.Entries(); len(e) != 1 || strings.Contains(e[0].Text, "after-5678") {
		t.Errorf("wire entries %+v", e)
	}
	ev := redactEvent(shared, LogEvent{Logger: "before-1234", Data: json.RawMessage(`"saw after-5678"`)}).(LogEvent)
	if strings.Contains(ev.Logger+string(ev.Data), "-1234") || strings.Contains(string(ev.Data), "-5678") {
		t.Errorf("event %+v", ev)
	}
}

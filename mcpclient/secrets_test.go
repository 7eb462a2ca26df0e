package mcpclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
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

// A credential is redacted whole and without its scheme, but a short or
// all-digit value is not taken as a secret: it would cut into words
// (run_tests) and numbers (a timestamp in JSON) of every answer.
func TestShortAndNumericSecretsAreNotTaken(t *testing.T) {
	s := &Secrets{}
	for _, c := range []string{"Bearer test", "20250101", "Bearer sk-abcdefgh", "1234567"} {
		s.AddCredential(c)
	}
	for _, tc := range []struct{ in, want string }{
		{"run_tests passed", "run_tests passed"},
		{`{"ts": 202501011}`, `{"ts": 202501011}`},
		{"sent Bearer test", "sent " + Redacted},
		{"sent Bearer sk-abcdefgh", "sent " + Redacted},
		{"token sk-abcdefgh", "token " + Redacted},
		{"pin 1234567", "pin 1234567"},
	} {
		if got := s.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// The credentials a target carries are its credential headers, whatever
// their name, the environment entries whose names say so, and the values
// of its command's flags whose names say so.
func TestTargetSecrets(t *testing.T) {
	target := Target{
		Headers: http.Header{"X-Auth-Token": {"a"}, "Private-Token": {"b"}, "X-Goog-Api-Key": {"c"}, "Authorization": {"d"},
			"Cookie": {"e"}, "Accept": {"no"}, "X-Request-Id": {"no"}},
		Env:     []string{"GITHUB_TOKEN=f", "OPENAI_API_KEY=g", "DB_PASSWORD=h", "CLIENT_SECRET=i", "GOOGLE_CREDENTIALS=j", "PATH=no", "DEBUG=no"},
		Command: []string{"node", "--api-key=k", "--token", "l", "--port", "no", "--verbose"},
	}
	got := TargetSecrets(target)
	slices.Sort(got)
	if want := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}; !slices.Equal(got, want) {
		t.Errorf("TargetSecrets = %q, want %q", got, want)
	}
}

// A URL's credentials are every value of its query, its password, or its
// user name when it has none, decoded and as written; its host, path and
// query names are not.
func TestURLSecrets(t *testing.T) {
	for _, tc := range []struct {
		url  string
		want []string
	}{
		{"https://api.example.com/mcp?access_token=tok%2Fen-123&region=eu-west-1", []string{"tok/en-123", "tok%2Fen-123", "eu-west-1"}},
		{"https://bob:hunter2%40x@api.example.com/mcp", []string{"hunter2@x", "hunter2%40x"}},
		{"https://ghp_token0123@github.example.com/mcp", []string{"ghp_token0123"}},
		{"https://api.example.com/mcp?flag&empty=", nil},
		{"https://api.example.com/mcp", nil},
		{"", nil},
	} {
		if got := URLSecrets(tc.url); !slices.Equal(got, tc.want) {
			t.Errorf("URLSecrets(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
	s := &Secrets{}
	for _, v := range TargetSecrets(Target{Kind: TargetHTTP, URL: "https://h.example/mcp?access_token=sk-live-0123456789"}) {
		s.AddCredential(v)
	}
	if got := s.Redact(`{"error":"bad token sk-live-0123456789"}`); strings.Contains(got, "sk-live") {
		t.Errorf("a target's URL query value is not redacted: %s", got)
	}
}

// A cut never splits a secret: it moves to the start of the one it would
// split (of the longest, when one holds another), and stays where it was
// when none is split.
func TestSafeCut(t *testing.T) {
	s := &Secrets{}
	s.AddCredential("Bearer sk-0123456789")
	text := "auth: Bearer sk-0123456789 and more"
	for _, tc := range []struct{ n, want int }{
		{3, 3}, {6, 6}, {9, 6}, {20, 6}, {25, 6}, {26, 26}, {30, 30}, {100, len(text)},
	} {
		if got := s.SafeCut(text, tc.n); got != tc.want {
			t.Errorf("SafeCut(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
	if got := s.SafeCut("only sk-0123456789", 10); got != 5 {
		t.Errorf("SafeCut of the token alone = %d, want 5", got)
	}
	var none *Secrets
	if got := none.SafeCut(text, 9); got != 9 {
		t.Errorf("a nil set cut at %d", got)
	}
}

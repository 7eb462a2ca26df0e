package secret

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// knownSet knows its values as secrets.
type knownSet []string

func (k knownSet) Redact(text string) string {
	for _, s := range k {
		text = strings.ReplaceAll(text, s, "[redacted]")
	}
	return text
}

// The one rule over a request's arguments: by the schema through a $ref,
// by a name at any depth, by a value the session knows (in a string or an
// array of them); the rest is not secret.
func TestPathsByEveryArm(t *testing.T) {
	t.Parallel()
	schema := map[string]any{"type": "object",
		"$defs":      map[string]any{"Pin": map[string]any{"type": "string", "format": "password"}},
		"properties": map[string]any{"pin": map[string]any{"$ref": "#/$defs/Pin"}}}
	args := json.RawMessage(`{"pin":"1234","user":"ada","login":{"api_key":"k","scope":"read"},"tags":["x","sess-known"],"note":"plain"}`)
	got := Paths(schema, args, knownSet{"sess-known"})
	if want := []string{"login.api_key", "pin", "tags"}; !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	if got := Paths(nil, map[string]any{"user": "ada"}, nil); len(got) != 0 {
		t.Errorf("nothing secret, got %q", got)
	}
}

// A result hides the values of fields named as secrets (strings, objects,
// arrays) and the known values inside any string; numbers and booleans
// under such names, and everything else, are kept.
func TestHide(t *testing.T) {
	t.Parallel()
	var doc any
	if err := json.Unmarshal([]byte(`{"access_token":"at-1","credentials":{"user":"a"},"password_set":true,"max_tokens":5,
		"content":[{"type":"text","text":"hello sess-known"}],"token":null}`), &doc); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(Hide(doc, knownSet{"sess-known"}, "[redacted]"))
	want := `{"access_token":"[redacted]","content":[{"text":"hello [redacted]","type":"text"}],"credentials":"[redacted]","max_tokens":5,"password_set":true,"token":null}`
	if string(b) != want {
		t.Errorf("Hide = %s\nwant    %s", b, want)
	}
}

// A templated value is hidden from 4 bytes on, digits too, the longer of
// two first; a nil set hides none.
func TestValues(t *testing.T) {
	t.Parallel()
	v := &Values{}
	for _, s := range []string{"abc", "4815", "hunter2", "hunter2-long"} {
		v.Add(s)
	}
	if got := v.Redact("abc 4815 hunter2 hunter2-long"); got != "abc [redacted] [redacted] [redacted]" {
		t.Errorf("Redact = %q", got)
	}
	var none *Values
	if got := none.Redact("hunter2"); got != "hunter2" {
		t.Errorf("a nil set: %q", got)
	}
}

package yamlout

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// server-everything's trigger-elicitation-request answers with a text
// block that begins with a line break: the library writes it as a block
// scalar that it cannot read again.
func TestTextBeginningWithALineBreak(t *testing.T) {
	v := map[string]any{"elicit": map[string]any{"content": []any{
		map[string]any{"type": "text", "text": "\nElicitation completed: Action: accept\n  name: Ann"},
	}}}
	out, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := yaml.Unmarshal(out, &back); err != nil {
		t.Fatalf("does not read back: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, v) {
		t.Errorf("read back %#v\nwant %#v", back, v)
	}
}

// A text the library writes well keeps its style: a block stays a block.
func TestKeepsAStyleThatSurvives(t *testing.T) {
	out, err := Marshal(map[string]any{"text": "one\ntwo\n"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "|") {
		t.Errorf("a block scalar that reads back was rewritten:\n%s", out)
	}
}

// Whatever the strings, what is written reads back equal: as a value
// (Marshal) and from a node with comments, at a suite's indentation.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"\n", "\nx", " x", "x ", "a\n\n b", "\t\n", "#", "- a", "? x", ": ", "\u2028x", "\r\n", "\u0085", "'\"", "~", "null", "0x10", "{{env.X}}", "\ufeffa"} {
		f.Add(s, "k")
	}
	f.Fuzz(func(t *testing.T, s, key string) {
		if !utf8.ValidString(s) || !utf8.ValidString(key) {
			t.Skip("JSON text is UTF-8")
		}
		v := map[string]any{key: s, "list": []any{s, map[string]any{"text": s}}}
		out, err := Marshal(v)
		if err != nil {
			t.Fatalf("Marshal(%q): %v", s, err)
		}
		var back any
		if err := yaml.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, v) {
			t.Fatalf("Marshal(%q) reads back %#v (%v):\n%s", s, back, err, out)
		}
		n, err := Node(v)
		if err != nil {
			t.Fatal(err)
		}
		n.HeadComment = "a comment"
		out, err = Encode(n, 2)
		if err != nil {
			t.Fatalf("Encode(%q): %v", s, err)
		}
		back = nil
		if err := yaml.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(back, v) {
			t.Fatalf("Encode(%q) reads back %#v (%v):\n%s", s, back, err, out)
		}
	})
}

package cireport

import (
	"bytes"
	"encoding/xml"
	"testing"
)

// TestXMLText: whatever a server wrote, the CDATA it ends up in reads as
// XML, with the text a person needs still there.
func TestXMLText(t *testing.T) {
	for _, in := range []string{"plain\ttext\nlines", "\x1b[2Jred", "nul\x00 bell\a cr\r", "bad \xff utf-8", "\uFFFE\uFFFF", "\u009b31m", "]]>"} {
		var b bytes.Buffer
		err := xml.NewEncoder(&b).Encode(struct {
			XMLName xml.Name `xml:"x"`
			Data    string   `xml:",cdata"`
		}{Data: XMLText(in)})
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
	}
	if got := XMLText("\x1b[2Jred\nline"); got != "␛[2Jred\nline" {
		t.Errorf("XMLText: %q", got)
	}
}

func TestEscape(t *testing.T) {
	if got := Escape("50% done\r\n::error::x"); got != "50%25 done%0D%0A::error::x" {
		t.Errorf("Escape: %q", got)
	}
	if got := EscapeProperty("a,b: c%\n"); got != "a%2Cb%3A c%25%0A" {
		t.Errorf("EscapeProperty: %q", got)
	}
}

// TestMarkdownCell: a server's HTML, links and images are shown in a
// step summary's cell as written, not rendered, and cannot end the cell or
// the row.
func TestMarkdownCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain words", "plain words"},
		{"<details open>", "&lt;details open&gt;"},
		{"[click](https://evil.example) ![i](x.png)", `\[click\](https://evil.example) !\[i\](x.png)`},
		{`a\[b](c)`, `a\\\[b\](c)`},
		{"a|b & c\nnext row", `a\|b &amp; c next row`},
		{"a`<b>` c", "a\\`&lt;b&gt;\\` c"},
		{"\x1b[2J\u202e", `␛\[2J\\u202e`}, // renders as \u202e
	} {
		if got := MarkdownCell(tc.in); got != tc.want {
			t.Errorf("MarkdownCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

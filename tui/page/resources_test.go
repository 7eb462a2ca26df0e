package page

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A list row shows a resource's label and what tells its URI apart from
// the others', within its width.
func TestResourceRows(t *testing.T) {
	for _, tc := range []struct {
		name         string
		labels, uris []string
		width        int
		want         []string
	}{
		{"a shared prefix is elided", []string{"", ""}, []string{"demo://resource/static/document/a.md", "demo://resource/static/document/b.md"}, 30,
			[]string{"…/a.md", "…/b.md"}},
		{"label and URI when both fit", []string{"Alpha", "Beta"}, []string{"ui://x/alpha.html", "ui://x/beta.html"}, 30,
			[]string{"Alpha · …/alpha.html", "Beta · …/beta.html"}},
		{"a label the URI ends with is not repeated", []string{"a.md"}, []string{"file:///docs/a.md"}, 30,
			[]string{"file:///docs/a.md"}},
		{"narrow: distinct labels alone", []string{"A long first title", "A long second title"}, []string{"ui://x/1", "ui://x/2"}, 12,
			[]string{"A long firs…", "A long seco…"}},
		{"narrow: labels that cut the same give way to the URI", []string{"Document number one", "Document number two"}, []string{"ui://x/one.md", "ui://x/two.md"}, 12,
			[]string{"…/one.md", "…/two.md"}},
		{"a long URI keeps its last segment", []string{""}, []string{"demo://resource/static/document/architecture.md"}, 30,
			[]string{"demo://resour…/architecture.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := resourceRows(tc.labels, uriTails(tc.uris), tc.width)
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("row %d = %q, want %q", i, got[i], tc.want[i])
				}
				if w := ansi.StringWidth(got[i]); w > tc.width {
					t.Errorf("row %d is %d cells wide, more than %d", i, w, tc.width)
				}
			}
		})
	}
}

// newResources is the Resources tab at 100×30 (a body of 26 lines), with
// two resources and a template, connected to a server that offers
// subscriptions.
func newResources() *Resources {
	p := NewResources(newCommon(100, 30))
	p.Update(tea.WindowSizeMsg{Width: 100, Height: 26})
	p.Update(ResourcesStatus{Conn: true, Connected: true, CanSubscribe: true})
	p.Update(ResourceList{
		Resources: []*mcp.Resource{{URI: "demo://r/a.txt", Name: "a.txt", Size: 2048}, {URI: "demo://r/b.bin", Name: "b.bin", MIMEType: "image/png"}},
		Templates: []*mcp.ResourceTemplate{{URITemplate: "demo://notes/{id}", Name: "A note"}},
	})
	return p
}

// enter asks the program to read the selected resource, says it is
// reading meanwhile, and shows what came; a binary content is what w
// saves, named after the URI.
func TestResourcesPageReads(t *testing.T) {
	p := newResources()
	wantOnScreen(t, p.View(100, 26), "> …/a.txt", "b.bin", "A note", "2.0 KiB (2048 bytes)", "enter reads the resource", "s subscribes to its updates")
	if a := p.Update(keyMsg("enter")); a != (ReadResource{Key: "resource demo://r/a.txt", URI: "demo://r/a.txt"}) {
		t.Fatalf("enter: action %#v", a)
	}
	wantOnScreen(t, p.View(100, 26), "reading demo://r/a.txt…")
	p.Update(ResourceRead{Key: "resource demo://r/a.txt", URI: "demo://r/a.txt", Result: &mcp.ReadResourceResult{
		Contents: []*mcp.ResourceContents{{URI: "demo://r/a.txt", MIMEType: "text/plain", Text: "hello"}}}})
	wantOnScreen(t, p.View(100, 26), "demo://r/a.txt (text/plain)", "hello")
	if cp := p.Copy(); !strings.Contains(cp, "hello") || strings.Contains(cp, "\x1b") {
		t.Errorf("y copies %q", cp)
	}
	if _, _, ok := p.Save(); ok {
		t.Error("a text resource saves its bytes, want the pane's text")
	}
	press(p, "j")
	p.Update(ResourceRead{Key: "resource demo://r/b.bin", URI: "demo://r/b.bin", Result: &mcp.ReadResourceResult{
		Contents: []*mcp.ResourceContents{{URI: "demo://r/b.bin", MIMEType: "image/png", Blob: []byte{1, 2, 3}}}}})
	wantOnScreen(t, p.View(100, 26), "[binary, 3 bytes]", "w saves its bytes to a file")
	if name, data, ok := p.Save(); !ok || name != "b.bin" || string(data) != "\x01\x02\x03" {
		t.Errorf("w saves %q %v %v", name, data, ok)
	}
	p.Update(ResourceRead{Key: "resource demo://r/b.bin", URI: "demo://r/b.bin", Err: errors.New("gone")})
	wantOnScreen(t, p.View(100, 26), "error: gone")
}

// enter on a template asks for its variables, starting from those last
// given, and reads the URI they expand it to.
func TestResourcesPageTemplate(t *testing.T) {
	p := newResources()
	press(p, "j", "j")
	a, ok := p.Update(keyMsg("enter")).(AskVariables)
	if !ok || a.Title != "Variables of demo://notes/{id}" || len(a.Schema.Fields) != 1 || a.Last != nil || a.Ref.URI != "demo://notes/{id}" {
		t.Fatalf("enter: %#v", a)
	}
	if read := a.Then(map[string]any{"id": "a b"}); read != (ReadResource{Key: "template demo://notes/{id}", URI: "demo://notes/a%20b"}) {
		t.Errorf("the variables given read %#v", read)
	}
	if again := p.Update(keyMsg("enter")).(AskVariables); again.Last["id"] != "a b" {
		t.Errorf("the form starts from %v, want the variables last given", again.Last)
	}
}

// s subscribes to the selected resource, and again stops; the list and
// the pane mark it; an update of the resource read re-reads it, one read
// at a time.
func TestResourcesPageSubscribes(t *testing.T) {
	p := newResources()
	if a := p.Update(keyMsg("s")); a != (Subscribe{URI: "demo://r/a.txt", On: true}) {
		t.Fatalf("s: %#v", a)
	}
	if a := p.Update(keyMsg("s")); a != nil {
		t.Errorf("s while subscribing: %#v, want nothing", a)
	}
	wantOnScreen(t, p.View(100, 26), "subscribing…")
	if a := p.Update(Subscribed{URI: "demo://r/a.txt", On: true}); a != (Note{"subscribed to demo://r/a.txt: its updates are marked here", false}) {
		t.Errorf("subscribed: %#v", a)
	}
	wantOnScreen(t, p.View(100, 26), "> ● …/a.txt", "subscribed · s unsubscribes")

	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	if a := p.Update(ResourceUpdated{URI: "demo://r/a.txt", At: at}); a != nil {
		t.Errorf("an update of a resource not read: %#v, want no read", a)
	}
	wantOnScreen(t, p.View(100, 26), "> ↻ …/a.txt", "updated 03:04:05 · enter reads it again")
	p.Update(keyMsg("enter"))
	p.Update(ResourceRead{Key: "resource demo://r/a.txt", URI: "demo://r/a.txt", Result: &mcp.ReadResourceResult{}})
	reread := ReadResource{Key: "resource demo://r/a.txt", URI: "demo://r/a.txt", Update: true}
	if a := p.Update(ResourceUpdated{URI: "demo://r/a.txt", At: at}); a != reread {
		t.Errorf("an update of the resource open: %#v, want it read again", a)
	}
	if a := p.Update(ResourceUpdated{URI: "demo://r/a.txt", At: at}); a != nil {
		t.Errorf("an update while it is read again: %#v, want none yet", a)
	}
	if a := p.Update(ResourceRead{Key: reread.Key, URI: reread.URI, Result: &mcp.ReadResourceResult{}, Update: true}); a != reread {
		t.Errorf("the read again done: %#v, want another for the update meanwhile", a)
	}
	wantOnScreen(t, p.View(100, 26), "updated 03:04:05 (3 updates)")

	p.Update(NewConnection{})
	wantOnScreen(t, p.View(100, 26), "> …/a.txt", "s subscribes to its updates")
	p.Update(ResourcesStatus{Conn: true, Connected: true})
	if a := p.Update(keyMsg("s")); a != (Note{"the server does not offer resource subscriptions (its resources capability has no subscribe)", true}) {
		t.Errorf("s without the capability: %#v", a)
	}
}

// The pane takes ↑/↓ once focused (→) and gives them back on ←; the
// selection stays on its entry when the lists change; other keys pass.
func TestResourcesPageKeys(t *testing.T) {
	p := newResources()
	press(p, "j")
	p.Update(ResourceList{Resources: []*mcp.Resource{{URI: "demo://0", Name: "zero"}, {URI: "demo://r/a.txt", Name: "a.txt"}, {URI: "demo://r/b.bin", Name: "b.bin"}}})
	wantOnScreen(t, p.View(100, 26), "> …/r/b.bin")
	press(p, "l", "k")
	wantOnScreen(t, p.View(100, 26), "> …/r/b.bin", "┃")
	press(p, "h", "k")
	wantOnScreen(t, p.View(100, 26), "> …/r/a.txt", "│")
	for _, k := range []string{"r", "x", "v"} {
		if a := p.Update(keyMsg(k)); a != (layer.Pass{}) {
			t.Errorf("%s: %#v, want Pass", k, a)
		}
	}
	if v := ansi.Strip(p.View(100, 26)); strings.Contains(v, "A note") {
		t.Errorf("the template of the old list still shows:\n%s", v)
	}
}

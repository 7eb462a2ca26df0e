package page

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "end":
		return tea.KeyMsg{Type: tea.KeyEnd}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func newCommon(width, height int) *widget.Common {
	c := widget.NewCommon(keys.NewMap())
	c.Width, c.Height = width, height
	return &c
}

// The Requests tab lists the records newest first; enter shows the one
// under the cursor whole, x and ← close it; y copies only what shows
// whole; the keys that are not the page's pass.
func TestRequestsPage(t *testing.T) {
	c := newCommon(80, 24)
	p := NewRequests(c)
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	if v := ansi.Strip(p.View(80, 20)); !strings.Contains(v, "No requests from the server yet") {
		t.Errorf("before any request:\n%s", v)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	p.Update(Records{
		{Key: "e-1", Kind: mcpclient.KindElicitation, Action: "decline", Path: mcpclient.PathNative, ReceivedAt: at, Message: "Pick one"},
		{Key: "r-2", Kind: mcpclient.KindRoots, Action: "answered", Path: mcpclient.PathAuto, ReceivedAt: at, Response: json.RawMessage(`{"roots":[]}`)},
	})
	v := ansi.Strip(p.View(80, 20))
	if r, e := strings.Index(v, "> r-2 03:04:05 roots answered auto"), strings.Index(v, "e-1 03:04:05 elicitation decline native 0ms Pick one"); r < 0 || e < r {
		t.Errorf("want r-2 selected, then e-1:\n%s", v)
	}
	if p.Copy() != "" {
		t.Errorf("the list copies %q, want nothing", p.Copy())
	}
	for _, k := range []string{"j", "enter"} {
		if a := p.Update(keyMsg(k)); a != nil {
			t.Errorf("%s: action %#v", k, a)
		}
	}
	if v := ansi.Strip(p.View(80, 20)); !strings.Contains(v, "e-1 decline · elicitation · native") || !strings.Contains(v, "x closes") {
		t.Errorf("e-1 whole:\n%s", v)
	}
	if cp := p.Copy(); !strings.HasPrefix(cp, "e-1 decline") || strings.Contains(cp, "\x1b") {
		t.Errorf("y copies %q", cp)
	}
	for _, k := range []string{"x", "left"} {
		p.Update(keyMsg("enter"))
		p.Update(keyMsg(k))
		if v := ansi.Strip(p.View(80, 20)); !strings.Contains(v, "> e-1") {
			t.Errorf("%s left the record open:\n%s", k, v)
		}
	}
	for _, k := range []string{"r", "v", "["} {
		if a := p.Update(keyMsg(k)); a != (layer.Pass{}) {
			t.Errorf("%s: action %#v, want Pass", k, a)
		}
	}
	p.Update(keyMsg("/"))
	if !p.Filtering() {
		t.Fatal("/ does not filter")
	}
	for _, k := range []string{"r", "o", "o", "t", "enter"} {
		p.Update(keyMsg(k))
	}
	if v := ansi.Strip(p.View(80, 20)); p.Filtering() || !strings.Contains(v, "> r-2") || strings.Contains(v, "e-1") {
		t.Errorf("filtered by kind:\n%s", v)
	}
}

// A sampling request of a megabyte, shown whole, is cut to a preview of
// each string, once.
func TestHugeRequestRecordIsBounded(t *testing.T) {
	p := NewRequests(newCommon(80, 24))
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	huge := strings.Repeat("x", 1<<20)
	req, _ := json.Marshal(map[string]any{"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": huge}}}})
	records := Records{{Key: "s-1", Kind: mcpclient.KindSampling, Action: "reject", Path: mcpclient.PathNative,
		ReceivedAt: time.Now(), Message: huge, Request: req}}
	p.Update(records)
	p.Update(keyMsg("enter"))
	if text := p.Copy(); len(text) > 20_000 || !strings.Contains(text, "more bytes") {
		t.Errorf("the record's text is %d bytes; want a preview saying how much more there is", len(text))
	}
	start := time.Now()
	for range 100 {
		p.Update(records) // the program sends them after every message
		p.Update(keyMsg("j"))
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("100 keys took %s on a huge record", took)
	}
	for i, l := range strings.Split(p.View(80, 20), "\n") {
		if len(l) > 80*4 {
			t.Errorf("line %d is %d bytes", i+1, len(l))
		}
	}
}

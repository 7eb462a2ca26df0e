package page

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// newLog is the Log tab shown at 80×24 (a body of 20 lines).
func newLog() *Log {
	p := NewLog(newCommon(80, 24))
	p.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	p.Focus(true)
	return p
}

// press sends the page keys.
func press(p Page, keys ...string) {
	for _, k := range keys {
		p.Update(keyMsg(k))
	}
}

func wantOnScreen(t *testing.T, view string, want ...string) {
	t.Helper()
	view = ansi.Strip(view)
	for _, w := range want {
		if !strings.Contains(view, w) {
			t.Errorf("the screen lacks %q:\n%s", w, view)
		}
	}
}

// wireOf builds a wire log: each entry one second after the one before.
func wireOf(entries ...mcpclient.WireEntry) []mcpclient.WireEntry {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for i := range entries {
		entries[i].Time = t0.Add(time.Duration(i) * time.Second)
	}
	return entries
}

func request(dir mcpclient.Direction, id int, method string) mcpclient.WireEntry {
	raw, _ := json.Marshal(id)
	msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method})
	return mcpclient.WireEntry{Dir: dir, Method: method, ID: raw, Message: msg}
}

func response(dir mcpclient.Direction, id int, body string) mcpclient.WireEntry {
	raw, _ := json.Marshal(id)
	return mcpclient.WireEntry{Dir: dir, ID: raw, Message: json.RawMessage(`{"jsonrpc":"2.0","id":` + string(raw) + `,` + body + `}`)}
}

// Each line says which way a message went and, for a response, what it
// answers and how that ended; the server's stderr is marked as such.
func TestLogLinesNameWhatEachMessageIs(t *testing.T) {
	p := newLog()
	p.Update(Wire(wireOf(
		request(mcpclient.DirSend, 1, "tools/call"),
		response(mcpclient.DirRecv, 1, `"result":{"resultType":"complete","content":[]}`),
		request(mcpclient.DirSend, 2, "tools/call"),
		response(mcpclient.DirRecv, 2, `"error":{"code":-32602,"message":"bad params"}`),
		request(mcpclient.DirSend, 3, "tools/call"),
		response(mcpclient.DirRecv, 3, `"result":{"resultType":"input_required","inputRequests":{}}`),
		request(mcpclient.DirRecv, 0, "elicitation/create"),
		response(mcpclient.DirSend, 0, `"result":{"action":"accept"}`),
		mcpclient.WireEntry{Dir: mcpclient.DirStderr, Text: "boom: missing API_KEY"},
		response(mcpclient.DirRecv, 9, `"result":{}`),
	)))
	want := []string{
		"→ tools/call #1  {",
		"← tools/call #1 result  {",
		"→ tools/call #2  {",
		"← tools/call #2 error -32602  {",
		"→ tools/call #3  {",
		"← tools/call #3 input_required  {",
		"← elicitation/create #0  {",
		"→ elicitation/create #0 result  {",
		"┆ stderr  boom: missing API_KEY",
		"← response #9 result  {",
	}
	rows, _ := p.wireRows()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want it to hold %q", i, rows[i], w)
		}
	}

	// The filter finds a method's responses too.
	press(p, "/")
	for _, r := range "input_required" {
		press(p, string(r))
	}
	press(p, "enter")
	if rows, _ := p.wireRows(); len(rows) != 1 || !strings.Contains(rows[0], "← tools/call #3") {
		t.Errorf("filtered by outcome: %q", rows)
	}
}

// Moving up stops the log following new messages; end follows again.
func TestLogStopsFollowingWhenScrolledUp(t *testing.T) {
	p := newLog()
	var entries []mcpclient.WireEntry
	for i := range 40 {
		entries = append(entries, request(mcpclient.DirSend, i, "ping"))
	}
	p.Update(Wire(wireOf(entries[:30]...)))
	if c := p.list.Cursor(); c != 29 {
		t.Fatalf("the cursor is on line %d, want the newest, 29", c)
	}
	press(p, "k", "k")
	p.Update(Wire(wireOf(entries...)))
	if c := p.list.Cursor(); c != 27 {
		t.Errorf("scrolled up, the cursor moved to %d with new messages; want it kept on 27", c)
	}
	wantOnScreen(t, p.View(80, 20), "paused at 28 of 40", "end/G follows")
	press(p, "end")
	p.Update(Wire(wireOf(append(entries, request(mcpclient.DirSend, 40, "ping"))...)))
	if c := p.list.Cursor(); c != 40 {
		t.Errorf("after end the cursor is on %d, want the newest, 40", c)
	}
	wantOnScreen(t, p.View(80, 20), "following new messages")
}

// A full wire log drops its oldest entries as new ones arrive; the
// cursor and the open entry stay on their messages.
func TestLogKeepsItsPlaceWhenOldEntriesLeave(t *testing.T) {
	p := newLog()
	var entries []mcpclient.WireEntry
	for i := range 40 {
		entries = append(entries, request(mcpclient.DirSend, i, "ping"))
	}
	entries = wireOf(entries...)
	p.Update(Wire(entries[:30]))
	press(p, "k", "k", "k") // on #26
	p.Update(Wire(entries[5:35]))
	if c := p.list.Cursor(); c != 21 || !strings.Contains(p.lines[c].row, "#26 ") {
		t.Errorf("the cursor is on line %d, want 21, still #26", c)
	}
	press(p, "enter")
	p.Update(Wire(entries[10:40]))
	wantOnScreen(t, p.View(80, 20), `"id": 26`)
}

// The server's log keeps its newest MaxServerLog messages, trimmed once a
// batch, and the cursor of a paused view stays on its message.
func TestServerLogIsBounded(t *testing.T) {
	p := newLog()
	batch := func(from, n int) LogEvents {
		var b LogEvents
		for i := from; i < from+n; i++ {
			b = append(b, mcpclient.LogEvent{Time: time.Now(), Level: "info", Data: json.RawMessage(fmt.Sprint(i))})
		}
		return b
	}
	p.Update(batch(0, 1500))
	press(p, "v", "k", "k") // on message 1497, paused
	p.Update(batch(1500, 5000))
	logs := p.ServerLog()
	if len(logs) != MaxServerLog || string(logs[0].Data) != "4500" || string(logs[MaxServerLog-1].Data) != "6499" {
		t.Fatalf("kept %d messages, %s to %s; want the newest %d", len(logs), logs[0].Data, logs[len(logs)-1].Data, MaxServerLog)
	}
	if c := p.list.Cursor(); c != 0 {
		t.Errorf("the paused cursor is on %d; its message left the log, so the oldest line is nearest", c)
	}
	press(p, "end")
	p.Update(batch(6500, 10))
	if c := p.list.Cursor(); c != MaxServerLog-1 || !strings.Contains(p.serverRow(c), " 6509") {
		t.Errorf("following, the cursor is on %d (%q), want the newest", c, p.serverRow(c))
	}
}

// v switches between the wire and the server's log, each keeping its
// place; the wire's status counts the log messages not yet seen; the
// page's keys are its own and the others pass; y copies the line under
// the cursor as enter shows it.
func TestLogViewsKeepTheirPlace(t *testing.T) {
	p := newLog()
	var entries []mcpclient.WireEntry
	for i := range 5 {
		entries = append(entries, request(mcpclient.DirSend, i, "ping"))
	}
	p.Update(Wire(wireOf(entries...)))
	p.Update(ServerLogStatus{Connected: true, Logging: true, Level: "info", Dropped: 2})
	p.Update(LogEvents{{Level: "info", Logger: "fixture", Data: json.RawMessage(`"hello"`)}, {Level: "error", Data: json.RawMessage(`{"n":1}`)}})
	press(p, "k")
	wantOnScreen(t, p.View(80, 20), "paused at 4 of 5", "v server log (2 new)")
	if cp := p.Copy(); !strings.Contains(cp, "→ ping #3") || !strings.Contains(cp, `"method": "ping"`) {
		t.Errorf("y on the wire copies %q", cp)
	}
	press(p, "v")
	wantOnScreen(t, p.View(120, 20), "info       fixture  hello", "> ", `{"n":1}`,
		"server log · level info · following new messages · 2 · 2 notifications dropped", "L level", "v wire")
	press(p, "enter")
	wantOnScreen(t, p.View(80, 20), `"n": 1`, "x closes")
	for _, k := range []string{"r", "L", "s"} {
		if a := p.Update(keyMsg(k)); a != (layer.Pass{}) {
			t.Errorf("%s: action %#v, want Pass", k, a)
		}
	}
	press(p, "x", "v")
	wantOnScreen(t, p.View(80, 20), "paused at 4 of 5 · end/G follows · v server log")
}

package tui

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// slowServer has a tool that answers once release is closed, so that its
// answer arrives while the person looks at the Log tab.
func slowServer(release <-chan struct{}) func() *mcp.Server {
	return func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "slow", Version: "1"}, nil)
		s.AddTool(&mcp.Tool{Name: "slow", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case <-release:
				case <-ctx.Done():
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
			})
		return s
	}
}

// The Log tab follows new messages: a response that arrives while it is
// shown is on the screen, under the cursor, named by the method it
// answers and its outcome.
func TestLogFollowsNewMessagesAndNamesResponses(t *testing.T) {
	release := make(chan struct{})
	in := open(t, Options{Connect: inMemory(slowServer(release), "")}, 100, 10).expect("> slow") // the tool, not the server's name
	in.keys("enter", "5").expect("→ tools/call")
	close(release)
	in.expect("← tools/call")
	var row string
	for _, l := range strings.Split(in.screen(), "\n") {
		if strings.HasPrefix(l, "> ") {
			row = l
		}
	}
	if !strings.Contains(row, "← tools/call #") || !strings.Contains(row, " result ") {
		t.Errorf("the cursor is on %q, want the response to tools/call", row)
	}
}

var tea80x24 = tea.WindowSizeMsg{Width: 80, Height: 24}

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
	m := New(Options{})
	m.Update(tea80x24)
	m.wire = wireOf(
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
	)
	press(m, "5")
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
	rows, _ := m.wireRows()
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), strings.Join(rows, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(rows[i], w) {
			t.Errorf("row %d is %q, want it to hold %q", i, rows[i], w)
		}
	}

	// The filter finds a method's responses too.
	press(m, "/")
	for _, r := range "input_required" {
		press(m, string(r))
	}
	press(m, "enter")
	if rows, _ := m.wireRows(); len(rows) != 1 || !strings.Contains(rows[0], "← tools/call #3") {
		t.Errorf("filtered by outcome: %q", rows)
	}
}

// Moving up stops the log following new messages; end follows again.
func TestLogStopsFollowingWhenScrolledUp(t *testing.T) {
	m := New(Options{})
	m.Update(tea80x24)
	var entries []mcpclient.WireEntry
	for i := range 40 {
		entries = append(entries, request(mcpclient.DirSend, i, "ping"))
	}
	m.wire = wireOf(entries[:30]...)
	press(m, "5")
	if c := m.pick[tabLog].cursor; c != 29 {
		t.Fatalf("the cursor is on line %d, want the newest, 29", c)
	}
	press(m, "k", "k")
	m.wire = wireOf(entries...)
	m.Update(pollMsg{})
	if c := m.pick[tabLog].cursor; c != 27 {
		t.Errorf("scrolled up, the cursor moved to %d with new messages; want it kept on 27", c)
	}
	wantOnScreen(t, m.View(), "paused at 28 of 40", "end/G follows")
	press(m, "end")
	m.wire = wireOf(append(entries, request(mcpclient.DirSend, 40, "ping"))...)
	m.Update(pollMsg{})
	if c := m.pick[tabLog].cursor; c != 40 {
		t.Errorf("after end the cursor is on %d, want the newest, 40", c)
	}
	wantOnScreen(t, m.View(), "following new messages")
}

// A full wire log drops its oldest entries as new ones arrive; the
// cursor and the open entry stay on their messages.
func TestLogKeepsItsPlaceWhenOldEntriesLeave(t *testing.T) {
	m := New(Options{})
	m.Update(tea80x24)
	var entries []mcpclient.WireEntry
	for i := range 40 {
		entries = append(entries, request(mcpclient.DirSend, i, "ping"))
	}
	entries = wireOf(entries...)
	m.wire = entries[:30]
	press(m, "5", "k", "k", "k") // on #26
	m.wire = entries[5:35]
	m.Update(pollMsg{})
	if c := m.pick[tabLog].cursor; c != 21 || !strings.Contains(m.log.lines[c].row, "#26 ") {
		t.Errorf("the cursor is on line %d, want 21, still #26", c)
	}
	press(m, "enter")
	m.wire = entries[10:40]
	m.Update(pollMsg{})
	wantOnScreen(t, m.View(), `"id": 26`)
}

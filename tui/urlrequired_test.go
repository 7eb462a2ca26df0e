package tui

import (
	"errors"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// A call the server refuses with -32042 shows its page on the URL consent
// card, saying which call waits for it; o opens it; the result lists the
// page, and c calls the tool again, which succeeds.
func TestURLRequiredCallIsShownAndRetried(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var opened []string
	opts := Options{OpenURL: func(u string) error {
		mu.Lock()
		defer mu.Unlock()
		opened = append(opened, u)
		return nil
	}}
	in := open(t, opts, 100, 30).expect("url_required")
	in.selectTool("url_required").keys("enter").expectAll("asks you to open a page", "The server refused tools/call url_required")
	in.keys("o").expectAll("the server needs a page opened first", "consent?id=", "c calls the tool again")
	in.keys("c").expect("authorized: ")
	wantOnScreen(t, in.screen(), "authorized: ", "result 2 of 2")
	mu.Lock()
	defer mu.Unlock()
	if len(opened) != 1 || !strings.HasPrefix(opened[0], "https://example.com/mcpeek-fixture/consent?id=") {
		t.Errorf("opened %q, want the page", opened)
	}
	recs := in.m.conn.Records()
	if len(recs) != 1 || recs[0].Mode != "url" || recs[0].Path != mcpclient.PathURL || recs[0].Action != "accept" {
		t.Errorf("records = %+v, want the page consented to, path url", recs)
	}
}

// Over SSH (or --no-browser) o cannot open the page: the whole URL is
// shown to copy instead, and y copies it, rather than nothing happening.
func TestURLNotOpenedIsShownToCopy(t *testing.T) {
	t.Parallel()
	m := New(Options{OpenURL: func(string) error { return errors.New("connected over SSH") }, Grace: noGrace})
	m.asker.stop()
	m.Update(tea.WindowSizeMsg{Width: 40, Height: 20})
	x := urlAsk("e-1")
	x.req.Params.URL = "https://example.com/a/very/long/path/that/wraps/at/the/edge?id=XYZ"
	m.Update(askMsg{x})
	_, cmd := m.Update(keyMsg("o"))
	for _, msg := range messages(cmd) {
		m.Update(msg)
	}
	view := m.View()
	wantOnScreen(t, view, "Open this page yourself")
	joined := strings.Join(strings.Fields(view), "")
	if !strings.Contains(joined, "connectedoverSSH") || !strings.Contains(joined, x.req.Params.URL) {
		t.Errorf("the reason or the whole URL is not shown:\n%s", view)
	}
	for i, l := range strings.Split(view, "\n") {
		if w := lipgloss.Width(l); w > 40 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
	if res := <-x.reply; res.Action != "accept" {
		t.Errorf("the server got %q, want accept (the person consented)", res.Action)
	}
	if _, cmd := m.Update(keyMsg("y")); cmd == nil {
		t.Error("y copies nothing")
	}
	m.Update(keyMsg("esc"))
	if _, ok := findLayer[*layer.URLShown](&m.stack); ok {
		t.Error("esc did not close the URL")
	}
}

// messages runs a command and the commands it batches, and returns the
// messages they give.
func messages(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, messages(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// call --interactive words a page a refused call needs as a step before
// calling again: submitting says the person is done.
func TestFormRequestForARefusedCall(t *testing.T) {
	t.Parallel()
	x := urlAsk("e-1")
	x.req.Refused = "tools/call url_required"
	msg := FormRequest(x.req, widget.Redact).Message
	for _, want := range []string{"Sign in.", "It refused tools/call url_required until you open:", "https://example.com/in", "(host: example.com)", "then submit to call again"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the form's message lacks %q:\n%s", want, msg)
		}
	}
}

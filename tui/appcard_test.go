package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// TestAppCardShowsEveryURLWhole: every request answered in its app gets its
// URL on the card, wrapped at the terminal's edge but never cut, and the
// SSH forwarding command comes with them, whole too.
func TestAppCardShowsEveryURLWhole(t *testing.T) {
	const token = "q3Y9sV0bWZc2mH7xKpL1nR8tA4uE6iO5yD0fGjBkXzC"
	urls := map[string]string{}
	m := New(Options{
		AppURL: func(key string) (string, bool) {
			u, ok := urls[key]
			return u, ok
		},
		AppSSHHint: "ssh -L 41234:127.0.0.1:41234 user@host",
	})
	for _, key := range []string{"e-1", "e-2", "e-3"} {
		urls[key] = "http://127.0.0.1:41234/e/" + key + "#" + token
		m.pending = append(m.pending, mcpclient.Pending{Key: key, Message: "Question " + key, ResourceURI: "ui://x/app.html", Path: mcpclient.PathApp, Since: time.Now()})
	}
	m.pending = append(m.pending, mcpclient.Pending{Key: "e-4", Message: "native", Path: mcpclient.PathNative})
	for _, width := range []int{120, 80, 40} {
		m.c.Width = width
		view := ansi.Strip(m.appCardView(100))
		for _, l := range strings.Split(view, "\n") {
			if w := ansi.StringWidth(l); w > width {
				t.Errorf("width %d: line %q is %d cells: the terminal would cut it", width, l, w)
			}
		}
		joined := strings.ReplaceAll(view, "\n", "")
		for key, u := range urls {
			if !strings.Contains(joined, u) {
				t.Errorf("width %d: the URL of %s is not on the card whole:\n%s", width, key, view)
			}
		}
		if strings.Contains(joined, "/e/e-4") {
			t.Errorf("width %d: a natively answered request has a URL on the card", width)
		}
		if !strings.Contains(joined, "ssh -L 41234:127.0.0.1:41234 user@host") {
			t.Errorf("width %d: no whole SSH forwarding command:\n%s", width, view)
		}
		if !strings.Contains(view, "answering in the browser (3)") {
			t.Errorf("width %d: the card does not count the three:\n%s", width, view)
		}
	}
}

// TestAppCardLeavesRoomForTheTabs: with many requests in the browser the
// card takes at most half the screen, shows whole URLs for those it lists
// and says how many more there are; the screen keeps its tabs.
func TestAppCardLeavesRoomForTheTabs(t *testing.T) {
	m := New(Options{
		AppURL: func(key string) (string, bool) {
			return "http://127.0.0.1:41234/e/" + key + "#q3Y9sV0bWZc2mH7xKpL1nR8tA4uE6iO5yD0fGjBkXzC", true
		},
		AppSSHHint: "ssh -L 41234:127.0.0.1:41234 user@host",
	})
	for i := range 12 {
		m.pending = append(m.pending, mcpclient.Pending{Key: fmt.Sprintf("e-%d", i+1), Message: "Q", ResourceURI: "ui://x/app.html", Path: mcpclient.PathApp})
	}
	m.c.Width = 80
	card := ansi.Strip(m.appCardView(11))
	if h := lipgloss.Height(card); h > 13 {
		t.Errorf("the card is %d lines for a budget of 11:\n%s", h, card)
	}
	joined := strings.ReplaceAll(card, "\n", "")
	if !strings.Contains(joined, "http://127.0.0.1:41234/e/e-1#q3Y9sV0bWZc2mH7xKpL1nR8tA4uE6iO5yD0fGjBkXzC") {
		t.Errorf("the first request's URL is not whole on the card:\n%s", card)
	}
	if !strings.Contains(card, "more in the browser") || !strings.Contains(joined, "ssh -L 41234:127.0.0.1:41234 user@host") {
		t.Errorf("the card does not say how many more, or lost the SSH command:\n%s", card)
	}
}

package layer

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
	var inApp []mcpclient.Pending
	for _, key := range []string{"e-1", "e-2", "e-3"} {
		urls[key] = "http://127.0.0.1:41234/e/" + key + "#" + token
		inApp = append(inApp, mcpclient.Pending{Key: key, Message: "Question " + key, ResourceURI: "ui://x/app.html", Path: mcpclient.PathApp, Since: time.Now()})
	}
	l := NewAppCard(common(), func() []mcpclient.Pending { return inApp }, func() bool { return false },
		func(key string) (string, bool) {
			u, ok := urls[key]
			return u, ok
		}, "ssh -L 41234:127.0.0.1:41234 user@host")
	for _, width := range []int{120, 80, 40} {
		view := ansi.Strip(l.View(width, 100))
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
	var inApp []mcpclient.Pending
	for i := range 12 {
		inApp = append(inApp, mcpclient.Pending{Key: fmt.Sprintf("e-%d", i+1), Message: "Q", ResourceURI: "ui://x/app.html", Path: mcpclient.PathApp})
	}
	l := NewAppCard(common(), func() []mcpclient.Pending { return inApp }, func() bool { return false },
		func(key string) (string, bool) {
			return "http://127.0.0.1:41234/e/" + key + "#q3Y9sV0bWZc2mH7xKpL1nR8tA4uE6iO5yD0fGjBkXzC", true
		}, "ssh -L 41234:127.0.0.1:41234 user@host")
	card := ansi.Strip(l.View(80, 11))
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

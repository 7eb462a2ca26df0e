package tui

import (
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// After consent (o), only an http(s) URL reaches the opener: a file:,
// javascript: or an application's URL is not opened, not accepted, and
// the card offers no o for it; an upper-case HTTP scheme is http.
func TestURLCardOpensOnlyWebPages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		open bool
	}{
		{"file:///etc/passwd", false},
		{"javascript:alert(1)", false},
		{"vscode://x", false},
		{"HTTP://EXAMPLE.COM", true},
	} {
		t.Run(tc.url, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var opened []string
			m := New(Options{OpenURL: func(u string) error {
				mu.Lock()
				defer mu.Unlock()
				opened = append(opened, u)
				return nil
			}, Grace: noGrace})
			m.asker.stop()
			m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
			x := &ask{req: &mcpclient.NativeRequest{Key: "e-1", Server: &mcp.Implementation{Name: "srv"}, Connection: "test",
				Params: &mcp.ElicitParams{Mode: "url", Message: "Open it.", URL: tc.url}}, reply: make(chan *mcp.ElicitResult, 1)}
			m.Update(askMsg{x})
			view := m.View()
			if offered := strings.Contains(view, "open it in the browser") && strings.Contains(footerOf(view), "o open"); offered != tc.open {
				t.Errorf("o offered %v, want %v:\n%s", offered, tc.open, view)
			}
			_, cmd := m.Update(keyMsg("o"))
			run(cmd)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case tc.open && (len(opened) != 1 || !strings.EqualFold(opened[0], tc.url)):
				t.Errorf("opened %q, want %q", opened, tc.url)
			case !tc.open && len(opened) != 0:
				t.Errorf("opened %q", opened)
			}
			var action string
			select {
			case res := <-x.reply:
				action = res.Action
			default:
			}
			if want := map[bool]string{true: "accept", false: ""}[tc.open]; action != want {
				t.Errorf("the server got %q, want %q", action, want)
			}
		})
	}
}

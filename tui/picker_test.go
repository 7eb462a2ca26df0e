package tui

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The filter is not sticky: / starts an empty one, ctrl+u clears what is
// typed, esc leaves the filter with every entry shown, enter keeps it.
func TestFilterKeys(t *testing.T) {
	t.Parallel()
	tools := []*mcp.Tool{{Name: "alpha"}, {Name: "beta"}, {Name: "gamma"}}
	for _, tc := range []struct {
		name          string
		keys          []string
		wantFilter    string
		wantFiltering bool
		wantVisible   int
	}{
		{"enter keeps the filter", []string{"/", "b", "enter"}, "b", false, 1},
		{"/ starts an empty filter", []string{"/", "b", "enter", "/"}, "", true, 3},
		{"/ then text replaces the old filter", []string{"/", "b", "enter", "/", "g"}, "g", true, 1},
		{"ctrl+u clears what is typed", []string{"/", "a", "l", "ctrl+u"}, "", true, 3},
		{"ctrl+u, then new text", []string{"/", "a", "l", "ctrl+u", "m"}, "m", true, 1},
		{"esc leaves the filter", []string{"/", "b", "esc"}, "", false, 3},
		{"esc after enter and / leaves no filter", []string{"/", "b", "enter", "/", "esc"}, "", false, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := New(Options{})
			setTools(m, tools...)
			for _, k := range tc.keys {
				m.Update(keyMsg(k))
			}
			p := toolsPage(m).List()
			if p.Filter() != tc.wantFilter || p.Filtering() != tc.wantFiltering {
				t.Errorf("filter %q, filtering %v; want %q, %v", p.Filter(), p.Filtering(), tc.wantFilter, tc.wantFiltering)
			}
			if got := len(toolsPage(m).Visible()); got != tc.wantVisible {
				t.Errorf("%d tools shown, want %d", got, tc.wantVisible)
			}
			if len(m.layers) != 0 || m.quitting {
				t.Errorf("layers %v, quitting %v: the filter's keys should do nothing else", m.layers, m.quitting)
			}
		})
	}
}

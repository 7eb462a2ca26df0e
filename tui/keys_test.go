package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tabs' keys do what the help screen says.
func TestTabKeys(t *testing.T) {
	t.Parallel()
	tools := []*mcp.Tool{{Name: "alpha"}, {Name: "beta"}, {Name: "gamma"}}
	for _, tc := range []struct {
		name  string
		setup func(m *Model)
		keys  []string
		check func(t *testing.T, m *Model)
	}{
		{"tab goes to the next tab", nil, []string{"tab"}, wantTab[*page.Resources]()},
		{"shift+tab goes to the previous tab, round", nil, []string{"shift+tab"}, wantLastTab},
		{"a digit goes to its tab", nil, []string{"5"}, wantTab[*page.Log]()},
		{"↓ and j move down", nil, []string{"down", "j"}, wantCursor(2)},
		{"↑ and k move up", nil, []string{"j", "j", "up", "k"}, wantCursor(0)},
		{"the filter takes text, erases it, and enter ends it", nil, []string{"/", "b", "x", "backspace", "enter"}, func(t *testing.T, m *Model) {
			if p := toolsPage(m).List(); p.Filter() != "b" || p.Filtering() {
				t.Errorf("filter %q, filtering %v; want b, done", p.Filter(), p.Filtering())
			}
			if v := toolsPage(m).Visible(); len(v) != 1 || v[0].Name != "beta" {
				t.Errorf("the filter lets through %v", v)
			}
		}},
		{"enter ends the filter; its digits are text", nil, []string{"/", "2", "enter"}, func(t *testing.T, m *Model) {
			if p := toolsPage(m).List(); p.Filter() != "2" || p.Filtering() || !shows[*page.Tools](&m.tabs) {
				t.Errorf("filter %q, filtering %v, tab %s", p.Filter(), p.Filtering(), m.current().Title())
			}
		}},
		{"enter expands a log entry and x closes it", func(m *Model) { m.wire = make([]mcpclient.WireEntry, 2) },
			[]string{"5", "j", "enter", "x"}, func(t *testing.T, m *Model) {
				if v := m.View(); strings.Contains(v, "x closes") {
					t.Errorf("the entry is still expanded:\n%s", v)
				}
			}},
		{"? opens the help screen, and any key closes it", nil, []string{"?", "5"}, func(t *testing.T, m *Model) {
			if len(m.layers) != 0 || !shows[*page.Tools](&m.tabs) {
				t.Errorf("layers %v, tab %s: the key should only close help", m.layers, m.current().Title())
			}
		}},
		{"q quits when nothing is pending", nil, []string{"q"}, wantQuitting(true)},
		{"q is text in the filter", nil, []string{"/", "q"}, wantQuitting(false)},
		{"ctrl+c quits from the filter", nil, []string{"/", "q", "ctrl+c"}, wantQuitting(true)},
		{"ctrl+c quits too", nil, []string{"ctrl+c"}, wantQuitting(true)},
		{"q asks first while an app answers", withAppPending, []string{"q"}, func(t *testing.T, m *Model) {
			if _, ok := findTop[*layer.QuitPrompt](m); !ok || m.quitting {
				t.Errorf("top %T, quitting %v; want the quit prompt", m.top().layer(), m.quitting)
			}
		}},
		{"y at the prompt quits", withAppPending, []string{"q", "y"}, wantQuitting(true)},
		{"any other key at the prompt stays", withAppPending, []string{"q", "3"}, func(t *testing.T, m *Model) {
			if m.quitting || !shows[*page.Tools](&m.tabs) {
				t.Errorf("quitting %v, tab %s: the key should only close the prompt", m.quitting, m.current().Title())
			}
		}},
		{"esc cancels the running call", func(m *Model) {
			m.running = "slow"
			m.cancelCall = func() { m.running = "cancelled" }
		}, []string{"esc"}, func(t *testing.T, m *Model) {
			if m.running != "cancelled" {
				t.Error("the call was not cancelled")
			}
		}},
		{"r reconnects", func(m *Model) { m.state = stateDisconnected }, []string{"r"}, func(t *testing.T, m *Model) {
			if m.state != stateConnecting {
				t.Errorf("state %d, want connecting", m.state)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := New(Options{})
			setTools(m, tools...)
			if tc.setup != nil {
				tc.setup(m)
			}
			for _, k := range tc.keys {
				m.Update(keyMsg(k))
			}
			tc.check(t, m)
		})
	}
}

func withAppPending(m *Model) {
	m.pending = []mcpclient.Pending{{Key: "e-1", Message: "In the app.", Path: mcpclient.PathApp}}
	m.Update(pollMsg{})
}

func wantTab[P page.Page]() func(*testing.T, *Model) {
	return func(t *testing.T, m *Model) {
		if !shows[P](&m.tabs) {
			t.Errorf("tab %s, want %s", m.current().Title(), pageOf[P](m).Title())
		}
	}
}

// wantLastTab wants the last tab of the bar shown.
func wantLastTab(t *testing.T, m *Model) {
	if last := m.pages[len(m.pages)-1]; m.current() != last {
		t.Errorf("tab %s, want %s", m.current().Title(), last.Title())
	}
}

func wantCursor(want int) func(*testing.T, *Model) {
	return func(t *testing.T, m *Model) {
		if got := toolsPage(m).List().Cursor(); got != want {
			t.Errorf("cursor %d, want %d", got, want)
		}
	}
}

func wantQuitting(want bool) func(*testing.T, *Model) {
	return func(t *testing.T, m *Model) {
		if m.quitting != want {
			t.Errorf("quitting %v, want %v", m.quitting, want)
		}
	}
}

// j and k scroll the help screen, as ↓ and ↑ do, g and G go to its top
// and end, and none of them closes it, even where all of it shows; the
// footer says so.
func TestHelpScreenScrollsWithJK(t *testing.T) {
	t.Parallel()
	for _, size := range []struct{ w, h int }{{80, 24}, {300, 100}} {
		m := New(Options{})
		m.asker.stop()
		m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
		m.Update(keyMsg("?"))
		for _, k := range []string{"j", "j", "k", "G", "g", "j"} {
			m.Update(keyMsg(k))
		}
		l, ok := findLayer[*layer.HelpScreen](&m.stack)
		if !ok {
			t.Fatalf("%dx%d: a scrolling key closed the help screen", size.w, size.h)
		}
		lines, shown := l.Lines()
		if want := min(1, max(len(lines)-shown, 0)); l.Offset() != want {
			t.Errorf("%dx%d: offset %d after j j k G g j, want %d", size.w, size.h, l.Offset(), want)
		}
		if footer := footerOf(m.View()); size.h == 24 && !strings.Contains(footer, "jk") {
			t.Errorf("the footer does not name j/k: %q", footer)
		}
		m.Update(keyMsg("x"))
		if _, ok := findLayer[*layer.HelpScreen](&m.stack); ok {
			t.Errorf("%dx%d: another key did not close the help screen", size.w, size.h)
		}
	}
}

package tui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The inspector's clock and grace period reach every form and card it
// builds: each ignores keys for Options.Grace after it shows (the forms'
// default when 0, none when negative), by Options.Clock, so that keys
// typed for what was on screen before do not answer it.
func TestTheGracePeriodIsTheInspectors(t *testing.T) {
	t.Parallel()
	for _, g := range []struct {
		name  string
		grace time.Duration // Options.Grace
		lasts time.Duration // how long keys are ignored
	}{
		{"default", 0, nativeform.DefaultGrace},
		{"longer", 2 * time.Second, 2 * time.Second},
		{"none", noGrace, 0},
	} {
		for _, tc := range []struct {
			name string
			show func(t *testing.T, m *Model)
			key  string
			// answered tells whether the key reached the form or card.
			answered func(m *Model) bool
		}{
			{"a URL consent card", func(_ *testing.T, m *Model) { m.Update(askMsg{urlAsk("e-1")}) }, "d",
				func(m *Model) bool { _, shown := findLayer[*layer.URLCard](&m.stack); return !shown }},
			{"an app's link card", func(_ *testing.T, m *Model) {
				m.Update(appLinkMsg{&linkAsk{app: &toolApp{tool: &mcp.Tool{Name: "shop"}}, url: "https://example.com/buy", reply: make(chan bool, 1)}})
			}, "d", func(m *Model) bool { _, shown := findLayer[*layer.LinkCard](&m.stack); return !shown }},
			{"an elicitation's form", func(t *testing.T, m *Model) { m.Update(askMsg{formAsk(t, "e-1")}) }, "ctrl+d",
				func(m *Model) bool {
					l, _ := findLayer[*layer.ElicitForm](&m.stack)
					_, settled := l.Form().Result()
					return settled
				}},
			{"an arguments form", func(_ *testing.T, m *Model) {
				m.openToolAs(&mcp.Tool{Name: "b_args", InputSchema: map[string]any{"type": "object", "properties": map[string]any{"note": map[string]any{"type": "string"}}}}, false)
			}, "Q", func(m *Model) bool { return strings.Contains(m.View(), "Q") }},
		} {
			t.Run(g.name+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				now := time.Unix(1000, 0)
				m := New(Options{Clock: func() time.Time { return now }, Grace: g.grace})
				m.asker.stop()
				m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
				tc.show(t, m)
				if g.lasts > 0 {
					now = now.Add(g.lasts - time.Millisecond)
					m.Update(keyMsg(tc.key))
					if tc.answered(m) {
						t.Fatalf("%s took %s %s after it showed, within its grace period", tc.name, tc.key, g.lasts-time.Millisecond)
					}
					now = now.Add(time.Millisecond)
				}
				m.Update(keyMsg(tc.key))
				if !tc.answered(m) {
					t.Errorf("%s ignored %s %s after it showed, past its grace period:\n%s", tc.name, tc.key, g.lasts, m.View())
				}
			})
		}
	}
}

// The login card counts the wait by the inspector's clock.
func TestTheLoginCardCountsByTheInspectorsClock(t *testing.T) {
	t.Parallel()
	now := time.Unix(1000, 0)
	m := New(Options{Clock: func() time.Time { return now }, Target: "https://mcp.example.com/mcp"})
	m.asker.stop()
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	m.Update(authMsgs{[]tea.Msg{authShownMsg{layer.AuthOpenPrefix + "https://as.example/authorize?state=s1"}}})
	now = now.Add(42 * time.Second)
	if v := m.View(); !strings.Contains(v, "waiting 42s") {
		t.Errorf("42 s after the login card showed, it does not say so:\n%s", v)
	}
}

package layer

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/internal/surface"
)

// The changes since the lock say what the check is doing until it
// answers, then the classified report (grouped by level, the server's
// text cleaned), or why there is none: a lock that could not be
// compared shows its error, and no lock says how to make one. The
// report scrolls; esc and D close it, q asks to quit.
func TestLockLayer(t *testing.T) {
	check := LockCheck{File: "mcpeek/surface.lock.json"}
	l := NewLock(common(), func() LockCheck { return check })
	l.Update(tea.WindowSizeMsg{Width: 80, Height: 12})
	view := func() string { l.Refresh(); return ansi.Strip(l.View(80, 12)) }
	if v := view(); !strings.Contains(v, "Changes since the surface lock") || !strings.Contains(v, "Comparing the connected server with mcpeek/surface.lock.json") {
		t.Errorf("before the check answers:\n%s", v)
	}

	check.Done, check.Err = true, errors.New("mcpeek/surface.lock.json: not a surface")
	if v := view(); !strings.Contains(v, "could not be compared") || !strings.Contains(v, "not a surface") {
		t.Errorf("a lock that is not one:\n%s", v)
	}
	check.Err = nil
	if v := view(); !strings.Contains(v, "No surface lock here") || !strings.Contains(v, "mcpeek surface -- SERVER > mcpeek/surface.lock.json") {
		t.Errorf("no lock:\n%s", v)
	}

	findings := []surface.Finding{
		{ID: "tool-removed", Level: surface.ERR, Tool: "gone\x1b[2J", Message: "a client calling gone gets an error"},
		{ID: "tool-description-changed", Level: surface.WARN, Tool: "echo", Message: "the description changed"},
	}
	for i := range 20 {
		findings = append(findings, surface.Finding{ID: "tool-added", Level: surface.INFO, Tool: fmt.Sprintf("new%02d", i), Message: "a new tool"})
	}
	check.Status = &surface.LockStatus{Path: "mcpeek/surface.lock.json", Findings: findings, Counts: surface.Count(findings)}
	v := view()
	for _, want := range []string{"mcpeek/surface.lock.json → the connected server: 1 ERR, 1 WARN, 20 INFO", "ERR (1)", "tool-removed", "WARN (1)", "1–9 of"} {
		if !strings.Contains(v, want) {
			t.Errorf("the report shows no %q:\n%s", want, v)
		}
	}
	if strings.Contains(l.View(80, 12), "\x1b[2J") || !strings.Contains(v, "gone␛[2J") {
		t.Errorf("the server's escape sequence reaches the terminal:\n%q", v)
	}
	if strings.Contains(v, "new19") {
		t.Errorf("the last finding shows in 12 lines before scrolling:\n%s", v)
	}
	for _, k := range []string{"j", "G"} {
		if a := l.Update(keyOf(k)); a != nil {
			t.Errorf("%s: action %#v, want none", k, a)
		}
	}
	if v := view(); !strings.Contains(v, "new19") || !strings.Contains(v, "of 31") {
		t.Errorf("after G the end of the report shows not:\n%s", v)
	}
	if a := l.Update(keyOf("g")); a != nil || !strings.Contains(view(), "1–9 of 31") {
		t.Errorf("g: action %#v, view:\n%s", a, view())
	}
	for k, want := range map[string]Action{"D": Close{}, "q": AskQuit{}} {
		if a := l.Update(keyOf(k)); a != want {
			t.Errorf("%s: action %#v, want %#v", k, a, want)
		}
	}
	if a := l.Update(tea.KeyMsg{Type: tea.KeyEsc}); a != (Close{}) {
		t.Errorf("esc: action %#v, want Close", a)
	}
}

package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// requestsOfEveryKind calls the fixture's tools that ask for a model's
// reply (answered), for the roots, and for input (declined), and goes to
// the Requests tab.
func requestsOfEveryKind(in *inspector) *inspector {
	k := layer.FormKeys
	in.selectTool("ask_model").keys("enter").sampleOpen().typeText("About logins.").press(k.Submit).expect("replied: About logins.")
	in.selectTool("list_roots").keys("enter").expect("0 roots")
	in.selectTool("choose_option").keys("enter").formOpen().press(k.Decline).expect(`"action": "decline"`)
	return in.keys("4")
}

// The Requests tab lists every kind of request, newest first, its kind on
// each line, and shows each one's request and response.
func TestRequestsTabShowsEveryKind(t *testing.T) {
	t.Parallel()
	in := requestsOfEveryKind(open(t, Options{}, 120, 40).expect("ask_model"))
	in.expectAll("> e-3", "elicitation decline native", "r-2", "roots answered auto", "listed no roots", "s-1", "sampling accept native", "In one line")
	in.keys("j", "j", "enter").expectAll("s-1 accept · sampling · native", `"text": "About logins."`, `"model": "mcpeek"`, `"maxTokens": 100`)
	in.keys("x", "k", "enter").expectAll("r-2 answered · roots · auto", `"roots": []`)
}

// The Requests tab with each kind of request, at each size.
func TestRequestsGoldens(t *testing.T) {
	t.Parallel()
	for _, size := range sizes {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			in := requestsOfEveryKind(open(t, Options{}, size.w, size.h).expect("ask_model"))
			in.expect("elicitation decline")
			checkGolden(t, in.screen())
		})
	}
}

// With no request yet, the tab says what makes one, within the screen.
func TestRequestsTabBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
	m.Update(keyMsg("4"))
	view := m.View()
	if !strings.Contains(view, "No requests from the server yet") {
		t.Errorf("no word of what makes a request:\n%s", view)
	}
	for i, l := range strings.Split(view, "\n") {
		if w := lipgloss.Width(l); w > 60 {
			t.Errorf("line %d is %d cells wide: %q", i+1, w, l)
		}
	}
}

package layer

import (
	"reflect"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The review of a project's test is answered by y or by n/esc only: the
// enter that asked the run (or a second one typed quickly) approves
// nothing, and ctrl+c runs nothing as it asks to quit. A tool the server annotates read-only is said so; one it does
// not list is marked, and so are the answers to its questions.
func TestTestApprovalAnswers(t *testing.T) {
	review := TestReview{ID: 7, File: "mcpeek/smoke.yaml", Line: 4, Name: "smoke", Target: "my server",
		Steps: []ReviewStep{
			{Kind: "call", Target: "list", Tool: &mcp.Tool{Name: "list", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}},
			{Kind: "call", Target: "gone\x1b[2J", Answers: nil, Explore: []string{"accept-defaults"}},
		}}
	l := NewTestApproval(common(), review)
	l.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	view := ansi.Strip(l.View(100, 30))
	for _, want := range []string{"1. call list  read-only", "2. call gone", "not listed by the server",
		"answers other questions with accept-defaults", "Reads nothing from your environment"} {
		if !strings.Contains(view, want) {
			t.Errorf("the review lacks %q:\n%s", want, view)
		}
	}
	if strings.Contains(view, "\x1b[2J") {
		t.Error("the review draws a suite's escape sequence")
	}
	for _, tc := range []struct {
		key  tea.KeyMsg
		want Action
	}{
		{tea.KeyMsg{Type: tea.KeyEnter}, nil},
		{typed("y"), Batch{Close{}, ApproveTest{ID: 7}}},
		{typed("n"), Batch{Close{}, DeclineTest{ID: 7}}},
		{tea.KeyMsg{Type: tea.KeyEscape}, Batch{Close{}, DeclineTest{ID: 7}}},
		{tea.KeyMsg{Type: tea.KeyCtrlC}, Batch{Close{}, DeclineTest{ID: 7}, AskQuit{}}},
	} {
		if got := l.Update(tc.key); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %#v, want %#v", tc.key, got, tc.want)
		}
	}
}

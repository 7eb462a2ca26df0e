package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// At 80 columns the Tools list is 24 cells wide: long names that share
// their start are cut in their middle, keeping their last word, so that
// they stay told apart; where the last word is the same too, more of
// their end.
func TestLongNamesStayToldApart(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		names []string
		want  []string
	}{
		{[]string{"github_create_pull_request_review_comment", "github_create_pull_request_review_thread", "get_me"},
			[]string{"github_create_…_comment", "github_create_…_thread", "get_me"}},
		{[]string{"github_list_pull_request_review_comments", "github_list_issue_comments_for_repository"},
			[]string{"github_list_…_comments", "github_list_…_repository"}},
		{[]string{"create_or_update_file_contents_in_repo", "create_or_update_file_contents_in_fork_repo"},
			[]string{"create_or_…_in_repo", "create_or_…_fork_repo"}},
	} {
		got := widget.CutNames(tc.names, 24)
		seen := map[string]bool{}
		for i, g := range got {
			if w := ansi.StringWidth(g); w > 24 {
				t.Errorf("%q is %d cells wide", g, w)
			}
			if seen[g] {
				t.Errorf("two names read %q", g)
			}
			seen[g] = true
			if g != tc.want[i] {
				t.Errorf("%s cut to %q, want %q", tc.names[i], g, tc.want[i])
			}
		}
	}
}

// The Tools list at 80×24 shows long names that share their start so
// that each can be told from the others.
func TestToolsListAt80ColumnsTellsLongNamesApart(t *testing.T) {
	t.Parallel()
	m := New(Options{})
	m.asker.stop()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.state = stateConnecting
	for _, n := range []string{"github_create_pull_request_review_comment", "github_create_pull_request_review_thread", "github_create_pull_request_review"} {
		setTools(m, append(toolsPage(m).All(), &mcp.Tool{Name: n})...)
	}
	view := m.View()
	for _, want := range []string{"> github_create_…_comment", "  github_create_…_thread", "  github_create_…_review "} {
		if !strings.Contains(view, want) {
			t.Errorf("the list lacks %q:\n%s", want, view)
		}
	}
}

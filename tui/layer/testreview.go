// The review of a project's test before its first run from the Suite tab:
// what each step asks of the connected server (the tools, as the server
// annotates them, and their arguments), the answers it gives to the
// server's questions, and what it reads of the person's environment. y
// runs it and is remembered until the test or its suite file changes;
// n or esc runs nothing.

package layer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestReview is what a project's test would do on the connected server,
// as the person is shown it before it first runs.
type TestReview struct {
	// ID is the run asked (page.RunTest's), which the answer names.
	ID int64
	// File is the suite as the Suite tab names it, Line the test's line.
	File string
	Line int
	// Name is the test's; Target the connected server's, as the header
	// names it.
	Name, Target string
	// Steps are the test's requests, in order.
	Steps []ReviewStep
	// Env are the environment variables the steps read ({{env.NAME}}),
	// sorted: their values are sent to the server.
	Env []string
}

// ReviewStep is one request of a test under review. Args, Answers and
// Target hold {{env.NAME}} as the suite writes it, never a value read.
type ReviewStep struct {
	// Kind is call, read, prompt, list or complete; Target the tool,
	// URI, prompt, list or completed reference.
	Kind, Target string
	// Tool is a call's tool as the server lists it (with its
	// annotations), or nil when the server lists none of that name.
	Tool *mcp.Tool `json:"-"`
	// Args are a call's or a prompt's arguments.
	Args any `json:",omitempty"`
	// Answers answer the server's questions while the step runs.
	Answers []mcpclient.Answer `json:",omitempty"`
	// Explore is how questions no answer matches are answered.
	Explore []string `json:",omitempty"`
	// Complete is a complete step's argument and value.
	Complete any `json:",omitempty"`
}

// ReadOnly reports whether the step changes nothing the server declares:
// a step that calls no tool, or calls one annotated read-only.
func (s ReviewStep) ReadOnly() bool {
	if s.Kind != "call" {
		return true
	}
	return s.Tool != nil && s.Tool.Annotations != nil && s.Tool.Annotations.ReadOnlyHint
}

// ApproveTest runs the test under review ID and remembers the approval.
type ApproveTest struct{ ID int64 }

// DeclineTest runs nothing of the test under review ID.
type DeclineTest struct{ ID int64 }

// TestApproval shows a [TestReview] and asks whether to run the test.
type TestApproval struct {
	c      *widget.Common
	review TestReview
	pane   widget.Pane
	w, h   int
}

// NewTestApproval is the layer asking about review.
func NewTestApproval(c *widget.Common, review TestReview) *TestApproval {
	return &TestApproval{c: c, review: review, w: c.Width, h: c.Height}
}

// Update answers y ([ApproveTest]) or n and esc ([DeclineTest]), and
// scrolls the review.
func (l *TestApproval) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		l.w, l.h = msg.Width, msg.Height
	case tea.KeyMsg:
		k, v := TestReviewKeys, &l.pane.Viewport
		switch {
		case key.Matches(msg, k.Approve):
			return Batch{Close{}, ApproveTest{ID: l.review.ID}}
		case key.Matches(msg, k.Decline):
			return Batch{Close{}, DeclineTest{ID: l.review.ID}}
		case key.Matches(msg, k.Quit):
			return Batch{Close{}, DeclineTest{ID: l.review.ID}, AskQuit{}}
		default:
			k.scroll(v, msg)
		}
		return nil
	}
	l.pane.Set(l.Text(), l.w, l.h-3)
	return nil
}

// Text is the review in words: the test, each step, what it reads of the
// environment, and what y does. What the suite wrote is cleaned for the
// terminal; secrets the session knows are hidden.
func (l *TestApproval) Text() string {
	r, s := l.review, l.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Clean(r.Name)) + "\n")
	b.WriteString(s.Dim.Render(fmt.Sprintf("%s:%d", widget.Clean(r.File), r.Line)) + "\n\n")
	b.WriteString("This test comes from the project's files, not from you. It runs on " + widget.Clean(r.Target) +
		" as you, and answers the server's questions itself. It will:\n")
	for i, st := range r.Steps {
		b.WriteString("\n" + l.step(i+1, st))
	}
	if len(r.Steps) == 0 {
		b.WriteString("\n" + s.Dim.Render("(no steps)") + "\n")
	}
	b.WriteString("\n")
	if len(r.Env) > 0 {
		b.WriteString(s.Warn.Render("Reads from your environment: ") + widget.Clean(strings.Join(r.Env, ", ")) +
			s.Dim.Render(" (their values are sent to the server)") + "\n\n")
	} else {
		b.WriteString(s.Dim.Render("Reads nothing from your environment.") + "\n\n")
	}
	k := TestReviewKeys
	b.WriteString(k.Approve.Help().Key + " runs it; mcpeek remembers your yes until the test or its suite file changes. " +
		k.Decline.Help().Key + ": nothing runs.\n")
	return b.String()
}

// step is one step: what it asks, of which tool as the server annotates
// it, with what, and its answers.
func (l *TestApproval) step(n int, st ReviewStep) string {
	s := l.c.Styles
	head := fmt.Sprintf("%d. %s %s", n, st.Kind, widget.Clean(st.Target))
	var b strings.Builder
	b.WriteString(s.Title.Render(head))
	if st.Kind == "call" {
		b.WriteString("  " + l.annotations(st))
	}
	b.WriteString("\n")
	if st.Args != nil {
		b.WriteString("   " + s.Dim.Render("arguments ") + widget.Clean(oneLineJSON(st.Args)) + "\n")
	}
	if st.Complete != nil {
		b.WriteString("   " + s.Dim.Render("completes ") + widget.Clean(oneLineJSON(st.Complete)) + "\n")
	}
	if len(st.Answers) > 0 {
		word := "answers its questions with"
		if !st.ReadOnly() {
			word = "answers the questions of a tool that is not read-only with"
		}
		b.WriteString("   " + s.Warn.Render(word) + "\n")
		for _, a := range st.Answers {
			b.WriteString("     " + widget.Clean(oneLineJSON(a)) + "\n")
		}
	}
	if len(st.Explore) > 0 {
		b.WriteString("   " + s.Warn.Render("answers other questions with ") + widget.Clean(strings.Join(st.Explore, ", ")) + "\n")
	}
	return b.String()
}

// annotations is a call's tool as the server annotates it; a tool not
// annotated read-only is marked.
func (l *TestApproval) annotations(st ReviewStep) string {
	s := l.c.Styles
	switch {
	case st.Tool == nil:
		return s.Warn.Render("not listed by the server")
	case st.Tool.Annotations == nil:
		return s.Warn.Render("no annotations: not read-only, may be destructive")
	case st.Tool.Annotations.ReadOnlyHint:
		return s.OK.Render("read-only")
	}
	a := st.Tool.Annotations
	words := []string{"not read-only"}
	if a.DestructiveHint == nil || *a.DestructiveHint {
		words = append(words, "destructive")
	}
	if a.IdempotentHint {
		words = append(words, "idempotent")
	}
	if a.OpenWorldHint == nil || *a.OpenWorldHint {
		words = append(words, "open world")
	}
	return s.Warn.Render(strings.Join(words, ", "))
}

// oneLineJSON is v as JSON on one line.
func oneLineJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}

// View draws the title over the review.
func (l *TestApproval) View(width, height int) string {
	return l.c.Styles.Title.Render(widget.Line("Run a project's test?", width)) + "\n\n" + l.pane.View(l.c, "")
}

// Help is the layer's keys.
func (l *TestApproval) Help() []key.Binding { return TestReviewKeys.ShortHelp() }

// Rank keeps the review on top until it is answered.
func (*TestApproval) Rank() Rank { return Prompt }

// TestReviewKeyMap holds the keys that answer the review of a project's
// test.
type TestReviewKeyMap struct {
	PaneKeys
	Approve, Decline, Quit key.Binding
}

// TestReviewKeys are the bindings of [TestReviewKeyMap]. Enter is not
// among them: the key that asked the run does not approve it.
var TestReviewKeys = TestReviewKeyMap{
	PaneKeys: paneKeys,
	Approve:  keys.New("y", "run it", "y"),
	Decline:  keys.New("n/esc", "don't run", "n", "esc"),
	Quit:     quitKey,
}

// ShortHelp is the footer of the review.
func (k TestReviewKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Approve, k.Decline, k.hint(), k.Quit}
}

// FullHelp lists the keys of the review.
func (k TestReviewKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{append([]key.Binding{k.Approve, k.Decline}, append(k.all(), k.Quit)...)}
}

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// taskRow is one task the inspector followed: the last status it learned.
type taskRow struct {
	tool string
	st   mcpclient.TaskStatus
	seen time.Time
}

// maxTasks bounds the tasks the inspector remembers.
const maxTasks = 100

// onTask keeps a task's latest status.
func (m *Model) onTask(e mcpclient.TaskEvent) {
	for _, t := range m.tasks {
		if t.st.TaskID == e.TaskID {
			t.st, t.seen = e.TaskStatus, time.Now()
			return
		}
	}
	m.tasks = append(m.tasks, &taskRow{tool: e.Tool, st: e.TaskStatus, seen: time.Now()})
	if len(m.tasks) > maxTasks {
		m.tasks = m.tasks[len(m.tasks)-maxTasks:]
	}
}

// tasksLayer lists the tasks of this session (docs/architecture.md,
// "Tasks"): tool, status, message, elapsed time, poll interval, and the
// requests each made; c cancels the running one; l asks the server for
// its list (tasks/list).
type tasksLayer struct {
	list   widget.List
	listed string // what tasks/list answered, once asked
}

// tasksListedMsg is tasks/list's answer.
type tasksListedMsg struct{ text string }

func (msg tasksListedMsg) update(m *Model) tea.Cmd {
	if l, ok := find[*tasksLayer](m); ok {
		l.listed = msg.text
	}
	return nil
}

func (m *Model) openTasks() { m.open(&tasksLayer{}) }

func (l *tasksLayer) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.Tasks
	l.list.SetLen(len(m.tasks))
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Close):
		m.close(l)
	case key.Matches(msg, k.Up):
		l.list.Move(-1)
	case key.Matches(msg, k.Down):
		l.list.Move(1)
	case key.Matches(msg, k.Cancel):
		if m.cancelCall != nil && strings.HasPrefix(m.progressToken(), "task ") {
			m.cancelCall() // the call's context ends: tasks/cancel goes out
		}
	case key.Matches(msg, k.List):
		if m.conn == nil {
			return nil
		}
		conn := m.conn
		l.listed = "asking the server…"
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(conn.Context(), 10*time.Second)
			defer cancel()
			tasks, err := conn.ListTasks(ctx)
			if err != nil {
				return tasksListedMsg{mcpclient.MethodListTasks + ": " + err.Error()}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "the server lists %d tasks", len(tasks))
			for _, t := range tasks {
				fmt.Fprintf(&b, "\n  %s %s %s", t.TaskID, t.Status, t.StatusMessage)
			}
			return tasksListedMsg{b.String()}
		}
	}
	return nil
}

// progressToken is the running call's progress token, "" when none.
func (m *Model) progressToken() string {
	if m.runTrack == nil {
		return ""
	}
	if p := m.runTrack.token.Load(); p != nil {
		return *p
	}
	return ""
}

func (l *tasksLayer) view(m *Model, h int, _ *level) string {
	s := m.c.Styles
	width := max(m.c.Width-4, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Tasks") + "\n")
	b.WriteString(s.Dim.Render(widget.Line("Tools that require a task are called as one (2025-11-25); each task's latest status.", width-4)) + "\n\n")
	if len(m.tasks) == 0 {
		b.WriteString(s.Dim.Render("(no task yet)") + "\n")
	}
	rows := make([]widget.Row, len(m.tasks))
	for i, t := range m.tasks {
		text := fmt.Sprintf("%s  %s  %s  %s  poll %s", t.tool, short(t.st.TaskID), t.st.Status,
			t.st.Elapsed.Round(100*time.Millisecond), t.st.PollInterval)
		rows[i] = widget.Row{Name: widget.Line(widget.Clean(text), width-6), Drawn: true}
	}
	if len(rows) > 0 {
		b.WriteString(l.list.Rows(&m.c, rows, width-4, max(h-12, 2)) + "\n")
	}
	if c := l.list.Cursor(); c < len(m.tasks) {
		t := m.tasks[c]
		b.WriteString("\n" + s.Dim.Render("task ") + widget.Clean(t.st.TaskID) + "\n")
		if t.st.StatusMessage != "" {
			b.WriteString(widget.Block(widget.Clean(t.st.StatusMessage), width-4, 3) + "\n")
		}
		for _, r := range m.records {
			if r.TaskID == t.st.TaskID {
				b.WriteString(widget.Line(widget.Clean(fmt.Sprintf("  %s %s %s: %s", r.Key, r.Kind, r.Action, r.Message)), width-4) + "\n")
			}
		}
	}
	if l.listed != "" {
		b.WriteString("\n" + widget.Block(widget.Clean(l.listed), width-4, 8) + "\n")
	}
	return s.Box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

func (l *tasksLayer) footer(m *Model, _ *level) string {
	k := m.c.Keys.Tasks
	return m.c.KeyLine(keys.Hint("↑↓", "select", k.Up, k.Down), k.Cancel, k.List, k.Close)
}

// short is a task id cut for a list.
func short(id string) string {
	id = widget.Redact(id) // before it is cut
	if len(id) > 12 {
		return id[:12] + "…"
	}
	return id
}

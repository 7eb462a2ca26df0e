// The tasks the inspector followed, for the tasks layer (tui/layer, T),
// and its asks: cancel the running task, list the server's.

package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// taskRow is one task the inspector followed: the last status it learned.
type taskRow struct {
	tool string
	st   mcpclient.TaskStatus
	seen time.Time
}

// taskList are the tasks followed, oldest first, bounded.
type taskList []*taskRow

// maxTasks bounds the tasks the inspector remembers.
const maxTasks = 100

// heard keeps a task's latest status.
func (l *taskList) heard(e mcpclient.TaskEvent) {
	for _, t := range *l {
		if t.st.TaskID == e.TaskID {
			t.st, t.seen = e.TaskStatus, time.Now()
			return
		}
	}
	*l = append(*l, &taskRow{tool: e.Tool, st: e.TaskStatus, seen: time.Now()})
	if len(*l) > maxTasks {
		*l = (*l)[len(*l)-maxTasks:]
	}
}

// shown are the tasks as the tasks layer lists them.
func (l taskList) shown() []layer.Task {
	out := make([]layer.Task, len(l))
	for i, t := range l {
		out[i] = layer.Task{Tool: t.tool, Status: t.st}
	}
	return out
}

// tasksListedMsg is tasks/list's answer.
type tasksListedMsg struct{ text string }

func (msg tasksListedMsg) update(m *Model) tea.Cmd {
	if l, ok := findLayer[*layer.Tasks](&m.stack); ok {
		l.Update(layer.TasksListed{Text: msg.text})
	}
	return nil
}

// listTasks asks the server for its tasks (tasks/list), in a command.
func listTasks(conn *mcpclient.Conn) tea.Cmd {
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

// tokenText is the progress token of the call tracked, "" when none.
func (t *callTrack) tokenText() string {
	if t == nil {
		return ""
	}
	if p := t.token.Load(); p != nil {
		return *p
	}
	return ""
}

// The tasks layer (T): the tasks of this session, each with its latest
// status (docs/architecture.md, "Tasks").

package layer

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// Task is one task the inspector followed: its tool and the last status
// it learned.
type Task struct {
	Tool   string
	Status mcpclient.TaskStatus
}

type (
	// CancelTask asks the program to cancel the running call, if it runs
	// as a task (tasks/cancel goes out).
	CancelTask struct{}
	// ListTasks asks the program for the server's tasks (tasks/list); it
	// answers with [TasksListed].
	ListTasks struct{}
	// TasksListed is what the program has to say of tasks/list: that it
	// asked, and then the answer.
	TasksListed struct{ Text string }
)

// Tasks lists the tasks of this session: tool, status, message, elapsed
// time, poll interval, and the requests each made; c cancels the running
// one; l asks the server for its list.
type Tasks struct {
	c       *widget.Common
	tasks   func() []Task
	records func() []mcpclient.Record
	list    widget.List
	listed  string // what tasks/list answered, once asked
}

// NewTasks is the tasks layer; tasks and records are the tasks followed,
// oldest first, and the server's requests, asked each time they are
// drawn or keyed (they change while it shows).
func NewTasks(c *widget.Common, tasks func() []Task, records func() []mcpclient.Record) *Tasks {
	return &Tasks{c: c, tasks: tasks, records: records}
}

// Update takes the keys, and what the program learned of tasks/list.
func (l *Tasks) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case TasksListed:
		l.listed = msg.Text
	case tea.KeyMsg:
		k := TasksKeys
		l.list.SetLen(len(l.tasks()))
		switch {
		case key.Matches(msg, k.Quit):
			return AskQuit{}
		case key.Matches(msg, k.Close):
			return Close{}
		case key.Matches(msg, k.Up):
			l.list.Move(-1)
		case key.Matches(msg, k.Down):
			l.list.Move(1)
		case key.Matches(msg, k.Cancel):
			return CancelTask{}
		case key.Matches(msg, k.List):
			return ListTasks{}
		}
	}
	return nil
}

// View lists the tasks in a box, the selected one in full under them.
func (l *Tasks) View(width, height int) string {
	s := l.c.Styles
	tasks := l.tasks()
	width = max(width-4, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Tasks") + "\n")
	b.WriteString(s.Dim.Render(widget.Line("Tools that require a task are called as one (2025-11-25); each task's latest status.", width-4)) + "\n\n")
	if len(tasks) == 0 {
		b.WriteString(s.Dim.Render("(no task yet)") + "\n")
	}
	rows := make([]widget.Row, len(tasks))
	for i, t := range tasks {
		text := fmt.Sprintf("%s  %s  %s  %s  poll %s", t.Tool, short(t.Status.TaskID), t.Status.Status,
			t.Status.Elapsed.Round(100*time.Millisecond), t.Status.PollInterval)
		rows[i] = widget.Row{Name: widget.Line(widget.Clean(text), width-6), Drawn: true}
	}
	if len(rows) > 0 {
		b.WriteString(l.list.Rows(l.c, rows, width-4, max(height-12, 2)) + "\n")
	}
	if c := l.list.Cursor(); c < len(tasks) {
		t := tasks[c]
		b.WriteString("\n" + s.Dim.Render("task ") + widget.Clean(t.Status.TaskID) + "\n")
		if t.Status.StatusMessage != "" {
			b.WriteString(widget.Block(widget.Clean(t.Status.StatusMessage), width-4, 3) + "\n")
		}
		for _, r := range l.records() {
			if r.TaskID == t.Status.TaskID {
				b.WriteString(widget.Line(widget.Clean(fmt.Sprintf("  %s %s %s: %s", r.Key, r.Kind, r.Action, r.Message)), width-4) + "\n")
			}
		}
	}
	if l.listed != "" {
		b.WriteString("\n" + widget.Block(widget.Clean(l.listed), width-4, 8) + "\n")
	}
	return s.Box.Width(width).Render(strings.TrimRight(b.String(), "\n"))
}

// Help is the layer's keys.
func (l *Tasks) Help() []key.Binding {
	k := TasksKeys
	return []key.Binding{keys.Hint("↑↓", "select", k.Up, k.Down), k.Cancel, k.List, k.Close}
}

// short is a task id cut for a list.
func short(id string) string {
	id = widget.Redact(id) // before it is cut
	if len(id) > 12 {
		return id[:12] + "…"
	}
	return id
}

// TasksKeyMap holds the keys that work on the Tasks layer.
type TasksKeyMap struct {
	Up, Down, Cancel, List, Close, Quit key.Binding
}

// TasksKeys are the bindings of [TasksKeyMap].
var TasksKeys = TasksKeyMap{
	Up:     upKey,
	Down:   downKey,
	Cancel: keys.New("c", "cancel the running task", "c"),
	List:   keys.New("l", "the server's tasks (tasks/list)", "l"),
	Close:  keys.New("esc/T", "close", "esc", "T"),
	Quit:   quitKey,
}

// ShortHelp is the Tasks layer's keys.
func (k TasksKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Cancel, k.List, k.Close, k.Quit}
}

// FullHelp lists the Tasks layer's keys.
func (k TasksKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

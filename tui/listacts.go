// What the list and panel layers of tui/layer ask of the program (roots,
// servers, tasks, the log level, tool apps, saving), carried out.

package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// applyList carries out an action of a list or panel layer, at once: msg
// is the key that asked it, which goes to what lies under the layer
// (under) when the action cannot be carried out there.
func (m *Model) applyList(a layer.Action, under *level, msg tea.Msg) tea.Cmd {
	switch a := a.(type) {
	case layer.AddRoot:
		if m.conn != nil {
			return m.roots.edit(m.conn, a.URI, true)
		}
	case layer.RemoveRoot:
		if m.conn != nil {
			return m.roots.edit(m.conn, a.URI, false)
		}
	case layer.ServerPicked:
		return pickServer(m.servers[a.Index])
	case layer.CancelTask:
		if m.cancelCall != nil && strings.HasPrefix(m.runTrack.tokenText(), "task ") {
			m.cancelCall() // the call's context ends: tasks/cancel goes out
		}
	case layer.ListTasks:
		if l, ok := findHosted[*layer.Tasks](&m.stack); ok && m.conn != nil {
			l.Update(layer.TasksListed{Text: "asking the server…"})
			return listTasks(m.conn)
		}
	case layer.SetLogLevel:
		return setLogLevel(m.conn, a.Level)
	case layer.AppDo:
		return m.apply(nil, m.apps.do(&m.c, m.opts.Theme, a), under, msg)
	case layer.CallAppTool:
		return callAppTool(m.apps.list[a.App], a)
	case layer.ListAppTools:
		return listAppTools(m.apps.list[a.App])
	case layer.AbandonApp:
		if m.conn == nil {
			if k, ok := msg.(tea.KeyMsg); ok && under != nil {
				return under.key(k)
			}
			return nil
		}
		m.conn.AbandonApp(a.Key)
	case layer.Save:
		return saveFile(a.Name, a.Data)
	case layer.WriteTest:
		return m.saved.write(a, m.opts.Dir, m.opts.SuiteServer, m.conn)
	case layer.Rerun:
		return m.saved.rerun(a.From, m.connected(), m.running)
	case layer.StopRerun:
		m.saved.stopRerun()
	}
	return nil
}

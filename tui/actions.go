// The one interpreter of actions: every action a page, a layer or the
// program itself returns is carried out here, at once, inside the Update
// that got it. An action of a type it does not know is a bug, reported on
// the status line (unknownAction), never dropped in silence.

package tui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/page"
)

// origin is where an action comes from: the layer on the stack that
// returned it (nil for a page, or the program), what lies under that
// layer, and the message that asked it (the key a [layer.Pass] gives to
// what lies under).
type origin struct {
	from  layer.Layer
	under *level
	msg   tea.Msg
}

// do carries out the action a, returned by o.from (or by a page, or the
// program), and returns the command it asks. The kinds of actions are
// grouped by what they touch; an action none of them knows is reported.
func (m *Model) do(o origin, a layer.Action) tea.Cmd {
	for _, group := range []func(*Model, origin, layer.Action) (tea.Cmd, bool){
		(*Model).doStack,
		(*Model).doCalls,
		(*Model).doConversation,
		(*Model).doPanels,
	} {
		if cmd, ok := group(m, o, a); ok {
			return cmd
		}
	}
	return m.unknownAction(a)
}

// unknownActionSeen, when set (the package's tests set it before any
// runs), hears of every action unknownAction reports, so that one fails
// the tests rather than only showing.
var unknownActionSeen func(layer.Action)

// unknownAction reports an action no part of do knows: a page or a layer
// returns a kind of action nobody added to the interpreter. The person
// sees it on the status line, the tests fail (unknownActionSeen), and
// nothing else happens.
func (m *Model) unknownAction(a layer.Action) tea.Cmd {
	if unknownActionSeen != nil {
		unknownActionSeen(a)
	}
	m.status = statusMsg{fmt.Sprintf("mcpeek bug: unknown action %T was ignored (please report it)", a), true}
	return nil
}

// doStack carries out the actions about the stack and the program: open,
// close, replace, pass, commands, quitting, the status line.
func (m *Model) doStack(o origin, a layer.Action) (tea.Cmd, bool) {
	switch a := a.(type) {
	case nil:
	case layer.Close:
		if o.from != nil {
			m.close(o.from)
		}
	case layer.Open:
		return m.host(a.Layer), true
	case layer.Replace:
		m.replace(o.from, a.Layer)
		return m.do(origin{from: a.Layer}, a.Layer.Update(m.bodySize())), true
	case layer.Pass:
		if k, ok := o.msg.(tea.KeyMsg); ok && o.under != nil {
			return o.under.key(k), true
		}
	case layer.Cmd:
		return a.Cmd, true
	case layer.Batch:
		cmds := make([]tea.Cmd, 0, len(a))
		for _, each := range a {
			cmds = append(cmds, m.do(o, each))
		}
		return tea.Batch(cmds...), true
	case layer.Quit:
		return m.quit(), true
	case layer.AskQuit:
		return m.askQuit(), true
	case layer.Status:
		m.status = statusMsg{a.Text, a.Err}
	case page.Note:
		m.status = statusMsg{a.Text, a.Err}
	case layer.Copy:
		return copyText(a.Text, a.What), true
	default:
		return nil, false
	}
	return nil, true
}

// doCalls carries out what asks the server: calls, gets, reads,
// subscriptions, suite runs, and the forms that ask their arguments first.
func (m *Model) doCalls(o origin, a layer.Action) (tea.Cmd, bool) {
	switch a := a.(type) {
	case layer.CallTool:
		return m.callAs(a.Tool, a.Args, a.AsTask), true
	case page.OpenTool:
		return m.openToolAs(a.Tool, false), true
	case page.CallAsTask:
		return m.callAsTask(a.Tool), true
	case layer.GetPrompt:
		return getPrompt(m.conn, &m.c, pageOf[*page.Prompts](m), &m.saved, a.Name, a.Args), true
	case page.AskPrompt:
		return m.openPrompt(a), true
	case layer.ArgsGiven:
		return a.Done(a.Args), true
	case page.AskVariables:
		return m.openArgsCompleting(a.Title, prefill(a.Schema, a.Last), a.Ref, func(args map[string]any) tea.Cmd {
			return m.do(origin{}, a.Then(args))
		}), true
	case page.ReadResource:
		return readResource(m.conn, &m.saved, a), true
	case page.Subscribe:
		return subscribe(m.conn, a), true
	case page.RunTest:
		return m.runTest(a), true
	case layer.ApproveTest:
		return m.approveTest(a.ID), true
	case layer.DeclineTest:
		m.declineTest(a.ID)
	case layer.AddRoot:
		if m.conn != nil {
			return m.roots.edit(m.conn, a.URI, true), true
		}
	case layer.RemoveRoot:
		if m.conn != nil {
			return m.roots.edit(m.conn, a.URI, false), true
		}
	case layer.SetLogLevel:
		return setLogLevel(m.conn, a.Level), true
	default:
		return nil, false
	}
	return nil, true
}

// doConversation carries out the answers of the layers over a
// conversation: a request of the queue answered, the next shown, a link
// consented to or refused, a login ended.
func (m *Model) doConversation(_ origin, a layer.Action) (tea.Cmd, bool) {
	switch a := a.(type) {
	case layer.AnswerElicitation:
		if x := m.queue.take(a.Req); x != nil {
			return tea.Batch(answer(x, a.Result), m.showHead()), true
		}
	case layer.AnswerSample:
		if x := m.queue.take(a.Req); x != nil {
			return tea.Batch(answerSample(x, sampleOutcome(a.Result, m.opts.ElicitTimeout)), m.showHead()), true
		}
	case layer.NextInQueue:
		m.queue.next()
		return m.showHead(), true
	case layer.AnswerLink:
		return m.answerLink(a), true
	case layer.LoginEnded:
		m.login = nil
	default:
		return nil, false
	}
	return nil, true
}

// doPanels carries out what the list and panel layers ask: servers,
// tasks, tool apps, saving.
func (m *Model) doPanels(o origin, a layer.Action) (tea.Cmd, bool) {
	switch a := a.(type) {
	case layer.ServerPicked:
		return pickServer(m.servers[a.Index]), true
	case layer.CancelTask:
		if m.cancelCall != nil && strings.HasPrefix(m.runTrack.tokenText(), "task ") {
			m.cancelCall() // the call's context ends: tasks/cancel goes out
		}
	case layer.ListTasks:
		if l, ok := findLayer[*layer.Tasks](&m.stack); ok && m.conn != nil {
			l.Update(layer.TasksListed{Text: "asking the server…"})
			return listTasks(m.conn), true
		}
	case layer.AppDo:
		return m.do(origin{under: o.under, msg: o.msg}, m.apps.do(&m.c, m.opts.Theme, a)), true
	case layer.CallAppTool:
		return callAppTool(m.apps.list[a.App], a), true
	case layer.ListAppTools:
		return listAppTools(m.apps.list[a.App]), true
	case layer.AbandonApp:
		if m.conn == nil {
			return m.do(o, layer.Pass{}), true
		}
		m.conn.AbandonApp(a.Key)
	case layer.Save:
		return saveFile(a.Name, a.Data), true
	case layer.WriteTest:
		server := m.opts.SuiteServer
		if w := m.watched(); m.state == stateWatching && w != nil {
			server = w.Suite
		}
		return m.saved.write(a, m.opts.Dir, server, m.conn), true
	case layer.Rerun:
		return m.saved.rerun(a.From, m.connected(), m.running), true
	case layer.StopRerun:
		m.saved.stopRerun()
	default:
		return nil, false
	}
	return nil, true
}

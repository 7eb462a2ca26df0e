package tui

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Completions: the arguments form of a prompt, and the variables form of
// a resource template, ask the server for completion/complete of the
// focused field's text when the server offers completions. A request goes
// out once the text has stood still for completeDelay, and whenever the
// focus reaches a field; its answer shows under the field
// (nativeform.Suggestions) only if the field still holds the text it was
// asked for. At most mcpclient.MaxCompletions values are kept.

// completeDelay is how long the text stands still before it is completed.
const completeDelay = 150 * time.Millisecond

// completer asks for the completions of one arguments form.
type completer struct {
	conn  *mcpclient.Conn
	ref   *mcp.CompleteReference
	seq   int       // the request last scheduled
	asked fieldText // the field and text it was for (or that were accepted)
}

// fieldText is a field and its text.
type fieldText struct{ key, text string }

// newCompleter completes the fields of a form for ref, when the server
// offers completions; otherwise it is nil.
func newCompleter(conn *mcpclient.Conn, ref *mcp.CompleteReference) *completer {
	if conn == nil || ref == nil || conn.ServerCapabilities().Completions == nil {
		return nil
	}
	return &completer{conn: conn, ref: ref}
}

// syncCompletion schedules a completion for the arguments form on top
// when its focused field or text changed; Update calls it after every
// message.
func (m *Model) syncCompletion() tea.Cmd {
	l, ok := m.top().layer().(*argsForm)
	if !ok || l.complete == nil {
		return nil
	}
	key, text, ok := l.form.Focused()
	at := fieldText{key, text}
	if !ok || at == l.complete.asked {
		return nil
	}
	// What shows was for another text: it goes until the new answer comes,
	// so that tab never puts in a value offered for an older text.
	l.form.SetSuggestions(l.complete.asked.key, nativeform.Suggestions{})
	l.form.SetSuggestions(at.key, nativeform.Suggestions{})
	l.complete.asked = at
	l.complete.seq++
	seq := l.complete.seq
	return tea.Tick(completeDelay, func(time.Time) tea.Msg { return completeDueMsg{l, seq} })
}

// completeDueMsg says the text has stood still: time to ask.
type completeDueMsg struct {
	l   *argsForm
	seq int
}

func (msg completeDueMsg) update(m *Model) tea.Cmd {
	c := msg.l.complete
	if c == nil || msg.seq != c.seq || !m.isOpen(msg.l) {
		return nil // the text changed since, or the form closed
	}
	at, ref, conn := c.asked, c.ref, c.conn
	given := map[string]string{} // the other fields given so far
	for k, v := range msg.l.form.Texts() {
		if k != at.key && v != "" {
			given[k] = v
		}
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(conn.Context(), 10*time.Second)
		defer cancel()
		res, err := conn.Complete(ctx, ref, mcp.CompleteParamsArgument{Name: at.key, Value: at.text}, given)
		return completedMsg{msg.l, at, res, err}
	}
}

// completedMsg brings a completion's answer.
type completedMsg struct {
	l   *argsForm
	at  fieldText
	res *mcpclient.Completion
	err error
}

func (msg completedMsg) update(m *Model) tea.Cmd {
	key, text, ok := msg.l.form.Focused()
	if !m.isOpen(msg.l) || !ok || (fieldText{key, text}) != msg.at {
		return nil // stale: for another field, or an older text
	}
	msg.l.form.SetSuggestions(key, suggestions(msg.res, msg.err))
	return nil
}

// suggestions are what a completion's answer offers (its values, at most
// mcpclient.MaxCompletions of them, and how many more there are), or why
// there are none.
func suggestions(c *mcpclient.Completion, err error) nativeform.Suggestions {
	if err != nil {
		return nativeform.Suggestions{Note: "no completions: " + err.Error()}
	}
	if c == nil {
		return nativeform.Suggestions{}
	}
	more := max(c.Total-len(c.Values), c.Dropped)
	if more <= 0 && c.HasMore {
		more = -1
	}
	return nativeform.Suggestions{Values: c.Values, More: more}
}

// isOpen reports whether a layer is still on the stack.
func (m *Model) isOpen(l modelLayer) bool { return slices.Contains(m.layers, l) }

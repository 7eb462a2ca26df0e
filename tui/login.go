package tui

import (
	"context"
	"errors"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
)

// A URL server's login (OAuth) in the inspector. The connection's
// authorizer tells the person each step through the asker (ShowAuth: the
// URL to open, what it waits for, why a pasted address was refused) and
// asks for the address the browser ended on, pasted, when the browser
// cannot reach mcpeek's callback (PasteAuth). The login card
// (layer.LoginCard) shows them; esc hides it while the login goes on
// waiting, and a shows it again.

// The login's steps, as messages to the program.
type (
	// authShownMsg is a line the authorizer shows the person.
	authShownMsg struct{ text string }
	// authPasteMsg: the authorizer waits for a pasted address, on p.
	authPasteMsg struct{ p *layer.PasteWait }
	// authPasteEndedMsg: the authorizer stopped waiting on p (the login
	// ended, one way or another).
	authPasteEndedMsg struct{ p *layer.PasteWait }
	// authMsgs delivers the steps queued since the last delivery, in order.
	authMsgs struct{ msgs []tea.Msg }
	// forgotMsg says whether the stored tokens were forgotten (a).
	forgotMsg struct{ err error }
)

// authQueue carries the login's steps from the connection to the
// program, in order, without ever making the connection wait.
type authQueue struct {
	mu    sync.Mutex
	msgs  []tea.Msg
	ready wakeup // set while steps wait
}

func newAuthQueue() *authQueue { return &authQueue{ready: newWakeup()} }

// maxAuthSteps bounds the steps waiting for the program; beyond it the
// oldest go (the authorizer says little, so only a flood reaches it).
const maxAuthSteps = 256

func (q *authQueue) put(msg tea.Msg) {
	q.mu.Lock()
	if len(q.msgs) >= maxAuthSteps {
		q.msgs = q.msgs[1:]
	}
	q.msgs = append(q.msgs, msg)
	q.mu.Unlock()
	q.ready.notify()
}

// wait delivers what is queued once something is; the model issues it
// again after each delivery.
func (q *authQueue) wait(ended <-chan struct{}) tea.Cmd {
	return q.ready.wait(ended, func() tea.Msg {
		q.mu.Lock()
		defer q.mu.Unlock()
		msgs := q.msgs
		q.msgs = nil
		return authMsgs{msgs}
	})
}

// ShowAuth implements [mcpclient.AuthPrompter]: the line reaches the
// login card.
func (a *programAsker) ShowAuth(text string) { a.auth.put(authShownMsg{text}) }

// PasteAuth implements [mcpclient.AuthPrompter]: it waits for the address
// the person pastes into the login card, until ctx ends. The end of ctx
// is the end of the login's wait, whether an address came or not: the
// program hears of it either way, to close the card.
func (a *programAsker) PasteAuth(ctx context.Context) (string, error) {
	p := &layer.PasteWait{Reply: make(chan string, 1)}
	a.auth.put(authPasteMsg{p})
	select {
	case s := <-p.Reply:
		go func() {
			select {
			case <-ctx.Done():
				a.auth.put(authPasteEndedMsg{p})
			case <-a.ended:
			}
		}()
		return s, nil
	case <-ctx.Done():
		a.auth.put(authPasteEndedMsg{p})
		return "", ctx.Err()
	case <-a.ended:
		return "", errors.New("the inspector has ended")
	}
}

// auth takes in the login's steps: a line of the authorizer that starts
// a login opens a new card over the tabs (the last one's goes), and each
// step goes to the card, shown or hidden.
func (m *Model) auth(msg authMsgs) tea.Cmd {
	var cmds []tea.Cmd
	for _, msg := range msg.msgs {
		var step tea.Msg
		start := false // a new login: its card opens over the tabs, the last one's goes
		switch msg := msg.(type) {
		case authShownMsg:
			start = m.login == nil || m.login.Restarts(msg.text)
			step = layer.AuthShown{Text: msg.text}
		case authPasteMsg:
			start = m.login == nil
			step = layer.AuthPaste{Wait: msg.p}
		case authPasteEndedMsg:
			if m.login == nil {
				continue
			}
			step = layer.AuthPasteEnded{Wait: msg.p}
		}
		if start {
			m.close(m.login)
			m.login = m.opts.loginCard(&m.c)
			m.host(m.login)
		}
		cmds = append(cmds, m.do(origin{from: m.login}, m.login.Update(step)))
	}
	return tea.Batch(append(cmds, m.asker.auth.wait(m.asker.ended))...)
}

// authorize is a: it shows the login waiting, else forgets the server's
// stored tokens and reconnects, so that the login runs again.
func (m *Model) authorize() tea.Cmd {
	forget := m.opts.ForgetAuth
	switch {
	case m.login != nil:
		if !m.holds(m.login) { // hidden: shown again
			return m.host(m.login)
		}
		return nil
	case forget == nil:
		m.status = statusMsg{"no login here: only URL servers are authorized (OAuth)", true}
		return nil
	case m.state == stateConnecting || m.forgetting:
		m.status = statusMsg{"connecting: sign in afresh once it is done", true}
		return nil
	}
	m.forgetting = true
	return func() tea.Msg { return forgotMsg{forget()} }
}

// forgot is what the status line says once the stored tokens were
// forgotten, or could not be (err); when they were, the program
// reconnects, so that the login runs again.
func (l *link) forgot(err error) statusMsg {
	l.forgetting = false
	if err != nil {
		return statusMsg{"could not forget the stored tokens: " + err.Error(), true}
	}
	return statusMsg{"forgot the stored tokens: signing in again", false}
}

package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// A URL server's login (OAuth) in the inspector. The connection's
// authorizer tells the person each step through the asker (ShowAuth: the
// URL to open, what it waits for, why a pasted address was refused) and
// asks for the address the browser ended on, pasted, when the browser
// cannot reach mcpeek's callback (PasteAuth). The login card shows them;
// esc hides it while the login goes on waiting, and a shows it again.

// The login's steps, as messages to the program.
type (
	// authShownMsg is a line the authorizer shows the person.
	authShownMsg struct{ text string }
	// authPasteMsg: the authorizer waits for a pasted address, on p.
	authPasteMsg struct{ p *pasteAsk }
	// authPasteEndedMsg: the authorizer stopped waiting on p (the login
	// ended, one way or another).
	authPasteEndedMsg struct{ p *pasteAsk }
	// authMsgs delivers the steps queued since the last delivery, in order.
	authMsgs struct{ msgs []tea.Msg }
	// forgotMsg says whether the stored tokens were forgotten (a).
	forgotMsg struct{ err error }
)

// pasteAsk is one wait of the authorizer for a pasted address; the
// program answers on reply, which is buffered: it never blocks.
type pasteAsk struct{ reply chan string }

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
	p := &pasteAsk{reply: make(chan string, 1)}
	a.auth.put(authPasteMsg{p})
	select {
	case s := <-p.reply:
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

// The authorizer's words that start a login: the URL to open, or the
// browser opened on it.
const (
	authOpenPrefix    = "open this URL to authorize: "
	authBrowserPrefix = "authorizing in your browser"
)

// authURLLine is a line that gives the authorization URL: "… URL …: URL".
var authURLLine = regexp.MustCompile(`\bURL\b[^:]*:\s+(https?://\S+)\s*$`)

// login is a login waiting for the person.
type login struct {
	url   string    // the authorization URL, once the authorizer shows it
	lines []string  // what else it said, in order
	err   string    // why the address pasted last was refused
	ask   *pasteAsk // the authorizer's wait for an address, while it waits
	last  *pasteAsk // the wait that got the last address sent
	held  string    // an address sent while the authorizer was not waiting: the next wait gets it
	sent  bool      // an address went to the authorizer, which has not answered yet
	input textinput.Model
	since time.Time
}

// loginCard shows the login over the tabs: the URL whole, what mcpeek
// waits for, and a field for the address the browser ended on.
type loginCard struct{ l *login }

// auth takes in the login's steps.
func (m *Model) auth(msg authMsgs) tea.Cmd {
	var cmds []tea.Cmd
	for _, msg := range msg.msgs {
		switch msg := msg.(type) {
		case authShownMsg:
			m.authShown(msg.text)
		case authPasteMsg:
			cmds = append(cmds, m.authPaste(msg.p))
		case authPasteEndedMsg:
			if m.login != nil && (m.login.ask == msg.p || m.login.last == msg.p) {
				m.endLogin()
			}
		}
	}
	return tea.Batch(append(cmds, m.asker.auth.wait(m.asker.ended))...)
}

// authShown takes a line of the authorizer: the start of a login, or a
// step of the one waiting. After an address was sent, what it says is why
// the address was refused (a login that goes on says nothing).
func (m *Model) authShown(text string) {
	starts := strings.HasPrefix(text, authOpenPrefix) || strings.HasPrefix(text, authBrowserPrefix)
	if m.login == nil || starts && (m.login.url != "" || len(m.login.lines) > 0) {
		m.startLogin()
	}
	l := m.login
	u := authURLLine.FindStringSubmatch(text)
	switch {
	case u != nil:
		l.url = u[1]
	case l.sent:
		l.err, l.sent = text, false
	default:
		l.lines = append(l.lines, text)
	}
}

// startLogin begins showing a new login: the card opens over the tabs.
func (m *Model) startLogin() {
	if card, ok := find[*loginCard](m); ok {
		m.close(card)
	}
	in := textinput.New()
	in.Prompt = "address: "
	in.Placeholder = "paste the address your browser ended on"
	in.CharLimit = 16 << 10
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	m.login = &login{input: in, since: time.Now()}
	m.open(&loginCard{m.login})
}

// authPaste takes the authorizer's wait for a pasted address: an address
// sent before it came answers it at once.
func (m *Model) authPaste(p *pasteAsk) tea.Cmd {
	if m.login == nil {
		m.startLogin()
	}
	l := m.login
	if l.held != "" {
		text := l.held
		l.held, l.sent, l.last = "", true, p
		return sendPaste(p, text)
	}
	l.ask = p
	return nil
}

func sendPaste(p *pasteAsk, text string) tea.Cmd {
	return func() tea.Msg {
		p.reply <- text // buffered, answered once
		return nil
	}
}

// endLogin closes the login card: the login is over.
func (m *Model) endLogin() {
	if card, ok := find[*loginCard](m); ok {
		m.close(card)
	}
	m.login = nil
}

// showLogin brings the hidden login card back.
func (m *Model) showLogin() {
	if _, ok := find[*loginCard](m); !ok && m.login != nil {
		m.open(&loginCard{m.login})
	}
}

// authorize is a: it shows the login waiting, else forgets the server's
// stored tokens and reconnects, so that the login runs again.
func (m *Model) authorize() tea.Cmd {
	forget := m.opts.ForgetAuth
	switch {
	case m.login != nil:
		m.showLogin()
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

// forgot reconnects once the stored tokens are forgotten.
func (m *Model) forgot(msg forgotMsg) tea.Cmd {
	m.forgetting = false
	if msg.err != nil {
		m.status = statusMsg{"could not forget the stored tokens: " + msg.err.Error(), true}
		return nil
	}
	m.status = statusMsg{"forgot the stored tokens: signing in again", false}
	return m.reconnect()
}

func (*loginCard) typesText() bool { return true }

func (c *loginCard) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k, l := m.c.Keys.Login, c.l
	m.status = statusMsg{}
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Hide):
		m.close(c)
		return nil
	case key.Matches(msg, k.Copy) && !msg.Paste && l.input.Value() == "":
		if l.url == "" {
			m.status = statusMsg{"no URL to copy: the browser was opened on it", true}
			return nil
		}
		return copyText(l.url, "the URL")
	case key.Matches(msg, k.Send):
		text := strings.TrimSpace(l.input.Value())
		if text == "" {
			return nil
		}
		l.input.Reset()
		l.err = ""
		if l.ask == nil {
			l.held = text
			return nil
		}
		p := l.ask
		l.ask, l.sent, l.last = nil, true, p
		return sendPaste(p, text)
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	return cmd
}

func (c *loginCard) footer(m *Model, _ *level) string {
	if m.status.text != "" {
		return m.statusLine()
	}
	k := m.c.Keys.Login
	var bs []key.Binding
	if c.l.input.Value() == "" && c.l.url != "" {
		bs = append(bs, keys.Hint(k.Copy.Help().Key, "copy the URL", k.Copy))
	}
	return m.c.KeyLine(append(bs, keys.Hint(k.Send.Help().Key, "send the address", k.Send), keys.Hint(k.Hide.Help().Key, "hide (it waits)", k.Hide), k.Quit)...)
}

// view draws the card: what happens and what mcpeek waits for in a box,
// then the URL whole, wrapped at the edge so that every character of it
// can be selected, then the field for the address. The URL gives way
// when the screen is short; y copies it whole.
func (c *loginCard) view(m *Model, h int, _ *level) string {
	s, l, width := m.c.Styles, c.l, max(m.c.Width, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Sign in to "+widget.Line(m.opts.Target, width-16)) + "\n")
	b.WriteString(s.Dim.Render(fmt.Sprintf("The server asks for authorization (OAuth) · waiting %s", time.Since(l.since).Round(time.Second))))
	for _, t := range l.lines {
		b.WriteString("\n" + widget.Clean(t))
	}
	box := s.Box.Width(max(width-4, 16)).Render(b.String())

	l.input.Width = max(width-len(l.input.Prompt)-2, 10)
	field := l.input.View()
	switch {
	case l.sent:
		field += "\n" + s.Dim.Render("checking the address…")
	case l.held != "":
		field += "\n" + s.Dim.Render("the address goes to mcpeek as soon as it reads one")
	case l.err != "":
		field += "\n" + widget.Block(s.Err.Render("refused: ")+widget.Clean(l.err), width, 3)
	}

	parts := []string{box}
	if l.url != "" {
		k := m.c.Keys.Login.Copy.Help().Key
		urlLines := strings.Split(wrapWhole(widget.Clean(l.url), width), "\n")
		room := h - lipgloss.Height(box) - lipgloss.Height(field) - 3 // the heading and two blank lines
		if len(urlLines) > room {
			urlLines = append(urlLines[:max(room-1, 0)], s.Warn.Render(fmt.Sprintf("… cut here: %s copies it whole", k)))
		}
		parts = append(parts, s.Dim.Render(fmt.Sprintf("open this URL to authorize (%s copies it):", k))+"\n"+strings.Join(urlLines, "\n"))
	}
	return strings.Join(append(parts, field), "\n\n")
}

// The login card: a URL server's login (OAuth) waiting for the person.

package layer

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// The authorizer's words that start a login: the URL to open, or the
// browser opened on it.
const (
	AuthOpenPrefix    = "open this URL to authorize: "
	AuthBrowserPrefix = "authorizing in your browser"
)

// authURLLine is a line that gives the authorization URL: "… URL …: URL".
var authURLLine = regexp.MustCompile(`\bURL\b[^:]*:\s+(https?://\S+)\s*$`)

// PasteWait is one wait of the authorizer for a pasted address; the card
// answers on Reply, which is buffered: it never blocks.
type PasteWait struct{ Reply chan string }

// The login's steps, which the program gives the card whether it shows
// or is hidden.
type (
	// AuthShown is a line the authorizer shows the person.
	AuthShown struct{ Text string }
	// AuthPaste: the authorizer waits for a pasted address, on Wait.
	AuthPaste struct{ Wait *PasteWait }
	// AuthPasteEnded: the authorizer stopped waiting on Wait (the login
	// ended, one way or another).
	AuthPasteEnded struct{ Wait *PasteWait }
)

// LoginEnded: the login is over; the program forgets its card.
type LoginEnded struct{}

// LoginCard shows a login waiting for the person over the tabs: the URL
// whole, what mcpeek waits for, and a field for the address the browser
// ended on, pasted when the browser cannot reach mcpeek's callback. esc
// hides it while the login goes on waiting (the program shows it again).
type LoginCard struct {
	c      *widget.Common
	target string
	url    string     // the authorization URL, once the authorizer shows it
	lines  []string   // what else it said, in order
	err    string     // why the address pasted last was refused
	ask    *PasteWait // the authorizer's wait for an address, while it waits
	last   *PasteWait // the wait that got the last address sent
	held   string     // an address sent while the authorizer was not waiting: the next wait gets it
	sent   bool       // an address went to the authorizer, which has not answered yet
	input  textinput.Model
	since  time.Time
	// Now is the card's clock (time.Now when nil).
	Now func() time.Time
}

// NewLoginCard is the card of a new login to target.
func NewLoginCard(c *widget.Common, target string) *LoginCard {
	in := textinput.New()
	in.Prompt = "address: "
	in.Placeholder = "paste the address your browser ended on"
	in.CharLimit = 16 << 10
	in.Cursor.SetMode(cursor.CursorStatic)
	in.Focus()
	return &LoginCard{c: c, target: target, input: in, since: time.Now()}
}

// Shown starts the card's count of the wait at t (it starts when the
// card is made).
func (l *LoginCard) Shown(t time.Time) { l.since = t }

// Restarts reports whether the authorizer's line text starts a new
// login, this one having begun already.
func (l *LoginCard) Restarts(text string) bool {
	starts := strings.HasPrefix(text, AuthOpenPrefix) || strings.HasPrefix(text, AuthBrowserPrefix)
	return starts && (l.url != "" || len(l.lines) > 0)
}

// URL is the authorization URL, once the authorizer showed it.
func (l *LoginCard) URL() string { return l.url }

// TypesText: the field takes text.
func (*LoginCard) TypesText() bool { return true }

// StatusFooter: what a copy did shows in the footer.
func (*LoginCard) StatusFooter() {}

// Update takes the login's steps and the keys.
func (l *LoginCard) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return l.key(msg)
	case AuthShown:
		l.shown(msg.Text)
	case AuthPaste: // an address sent before the wait came answers it at once
		if l.held != "" {
			text := l.held
			l.held, l.sent, l.last = "", true, msg.Wait
			return Cmd{sendPaste(msg.Wait, text)}
		}
		l.ask = msg.Wait
	case AuthPasteEnded:
		if l.ask == msg.Wait || l.last == msg.Wait {
			return Batch{Close{}, LoginEnded{}}
		}
	}
	return nil
}

// shown takes a line of the authorizer. After an address was sent, what
// it says is why the address was refused (a login that goes on says
// nothing).
func (l *LoginCard) shown(text string) {
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

func sendPaste(p *PasteWait, text string) tea.Cmd {
	return func() tea.Msg {
		p.Reply <- text // buffered, answered once
		return nil
	}
}

func (l *LoginCard) key(msg tea.KeyMsg) Action {
	k := LoginKeys
	switch {
	case key.Matches(msg, k.Quit):
		return AskQuit{}
	case key.Matches(msg, k.Hide):
		return Close{}
	case key.Matches(msg, k.Copy) && !msg.Paste && l.input.Value() == "":
		if l.url == "" {
			return Status{Text: "no URL to copy: the browser was opened on it", Err: true}
		}
		return Copy{l.url, "the URL"}
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
		return Cmd{sendPaste(p, text)}
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	return cmdOf(cmd)
}

// Help is the card's keys: y only while the field is empty and there is
// a URL to copy.
func (l *LoginCard) Help() []key.Binding {
	k := LoginKeys
	var bs []key.Binding
	if l.input.Value() == "" && l.url != "" {
		bs = append(bs, keys.Hint(k.Copy.Help().Key, "copy the URL", k.Copy))
	}
	return append(bs, keys.Hint(k.Send.Help().Key, "send the address", k.Send), keys.Hint(k.Hide.Help().Key, "hide (it waits)", k.Hide), k.Quit)
}

// View draws the card: what happens and what mcpeek waits for in a box,
// then the URL whole, wrapped at the edge so that every character of it
// can be selected, then the field for the address. The URL gives way
// when the screen is short; y copies it whole.
func (l *LoginCard) View(width, height int) string {
	s, width := l.c.Styles, max(width, 20)
	var b strings.Builder
	b.WriteString(s.Title.Render("Sign in to "+widget.Line(l.target, width-16)) + "\n")
	b.WriteString(s.Dim.Render(fmt.Sprintf("The server asks for authorization (OAuth) · waiting %s", clock(l.Now).Sub(l.since).Round(time.Second))))
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
		k := LoginKeys.Copy.Help().Key
		urlLines := strings.Split(hardwrap(widget.Clean(l.url), width), "\n")
		room := height - lipgloss.Height(box) - lipgloss.Height(field) - 3 // the heading and two blank lines
		if len(urlLines) > room {
			urlLines = append(urlLines[:max(room-1, 0)], s.Warn.Render(fmt.Sprintf("… cut here: %s copies it whole", k)))
		}
		parts = append(parts, s.Dim.Render(fmt.Sprintf("open this URL to authorize (%s copies it):", k))+"\n"+strings.Join(urlLines, "\n"))
	}
	return strings.Join(append(parts, field), "\n\n")
}

// LoginKeyMap holds the keys that work on the login card; other keys are
// text, the address pasted.
type LoginKeyMap struct {
	Copy, Send, Hide, Quit key.Binding // copy: while the field is empty
}

// LoginKeys are the bindings of [LoginKeyMap].
var LoginKeys = LoginKeyMap{
	Copy: keys.New("y", "copy the URL (field empty)", "y"),
	Send: keys.New("enter", "send the address pasted", "enter"),
	Hide: keys.New("esc", "hide it (the login waits)", "esc"),
	Quit: quitKey,
}

// ShortHelp is the login card's keys; its footer words them for the
// moment.
func (k LoginKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Copy, k.Send, k.Hide, k.Quit} }

// FullHelp lists the login card's keys.
func (k LoginKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// The URL consent cards: a URL-mode elicitation's, a tool app's link's
// (ui/open-link), and the page the browser did not open, shown whole to
// copy.

package layer

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/nativeform"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// URLGrace ignores keys typed just as a consent card appeared, as forms
// do (unless the card's Grace says otherwise).
const URLGrace = nativeform.DefaultGrace

// AnswerElicitation answers the elicitation Req, shown at the head of
// the queue, with Result: the program sends it and shows the next.
type AnswerElicitation struct {
	Req    *mcpclient.NativeRequest
	Result *mcp.ElicitResult
}

// URLCard asks consent before opening the page of a URL-mode
// elicitation: the whole URL, its host highlighted, and warnings about
// what could mislead. o opens it (and accepts), d declines, esc cancels;
// keys typed within its grace period of its showing are ignored, and
// nobody answering within the elicitation timeout cancels it.
type URLCard struct {
	c       *widget.Common
	req     *mcpclient.NativeRequest
	open    func(string) error
	timeout time.Duration
	queued  func() int
	shown   time.Time
	// Now is the card's clock (time.Now when nil).
	Now func() time.Time
	// Grace is how long after its showing keys are ignored (0:
	// [URLGrace]; negative: none).
	Grace time.Duration
}

// NewURLCard is the consent card of req, whose page open opens (nil:
// there is no browser); timeout cancels it when nobody answers (0:
// never), and queued says how many requests wait, this one included.
func NewURLCard(c *widget.Common, req *mcpclient.NativeRequest, open func(string) error, timeout time.Duration, queued func() int) *URLCard {
	return &URLCard{c: c, req: req, open: open, timeout: timeout, queued: queued, shown: time.Now()}
}

func (l *URLCard) now() time.Time { return clock(l.Now) }

// Shown starts the card's grace period and timeout at t (it starts when
// the card is made).
func (l *URLCard) Shown(t time.Time) { l.shown = t }

// Head is the request the card shows.
func (l *URLCard) Head() any { return l.req }

// Update answers the keys, and cancels the request on a [Poll] once the
// timeout has passed.
func (l *URLCard) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		return l.key(msg)
	case Poll:
		if l.timeout > 0 && l.now().Sub(l.shown) > l.timeout {
			return AnswerElicitation{l.req, &mcp.ElicitResult{Action: "cancel"}}
		}
	}
	return nil
}

func (l *URLCard) key(msg tea.KeyMsg) Action {
	k := URLKeys
	if a, ok := nextInQueue(l.c, msg, l.queued); ok {
		return a
	}
	if key.Matches(msg, k.Quit) {
		return AskQuit{}
	}
	if inGrace(l.Now, l.shown, l.Grace) {
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		raw, open, c := l.req.Params.URL, l.open, l.c
		if _, err := mcpclient.WebURL(raw); err != nil { // the card says so: d or esc answer it
			return Status{Text: "not opened: " + widget.Clean(err.Error()), Err: true}
		}
		return Batch{AnswerElicitation{l.req, &mcp.ElicitResult{Action: "accept"}}, Cmd{func() tea.Msg {
			if err := OpenWeb(open, raw); err != nil {
				return OpenMsg{NewURLShown(c, raw, err.Error())}
			}
			return nil
		}}}
	case key.Matches(msg, k.Decline):
		return AnswerElicitation{l.req, &mcp.ElicitResult{Action: "decline"}}
	case key.Matches(msg, k.Cancel):
		return AnswerElicitation{l.req, &mcp.ElicitResult{Action: "cancel"}}
	}
	return nil
}

// View draws the card: who asks, its message, the URL and the keys.
func (l *URLCard) View(width, _ int) string {
	s, x := l.c.Styles, l.req
	raw := x.Params.URL
	var b strings.Builder
	server := x.Server.Title
	if server == "" {
		server = x.Server.Name
	}
	b.WriteString(s.Title.Render(widget.Clean(server)+" asks you to open a page") + "\n")
	b.WriteString(s.Dim.Render("via "+widget.Clean(x.Connection)) + "\n\n")
	b.WriteString(widget.Block(widget.Clean(x.Params.Message), width-6, 6) + "\n\n")
	b.WriteString(l.refusedNote())
	b.WriteString(URLLines(l.c, raw))
	k := URLKeys
	bs := []key.Binding{k.Decline, keys.Hint("esc", "cancel", k.Cancel)}
	if _, err := mcpclient.WebURL(raw); err == nil {
		bs = append([]key.Binding{keys.Hint(k.Open.Help().Key, "open it in the browser (consent)", k.Open)}, bs...)
	}
	b.WriteString("\n" + l.c.KeyLine(bs...))
	return s.Box.Width(max(width-4, 20)).Render(b.String())
}

// refusedNote is what the card says of a page a refused call needs
// (-32042), or "".
func (l *URLCard) refusedNote() string {
	if l.req.Refused == "" {
		return ""
	}
	k := l.c.Keys.Tabs.Retry.Help().Key
	return l.c.Styles.Warn.Render("The server refused "+widget.Clean(l.req.Refused)+" until you open this page.") + "\n" +
		l.c.Styles.Dim.Render("Once you are done there, "+k+" on the Tools tab calls it again.") + "\n\n"
}

// Help is the card's keys: without o when the URL is not a page mcpeek
// opens.
func (l *URLCard) Help() []key.Binding {
	k := URLKeys
	bs := k.ShortHelp()
	if _, err := mcpclient.WebURL(l.req.Params.URL); err != nil {
		bs = slices.DeleteFunc(bs, func(b key.Binding) bool { return slices.Equal(b.Keys(), k.Open.Keys()) })
	}
	return bs
}

// Footer counts the queue, and gives the card's keys.
func (l *URLCard) Footer(int) string {
	parts := []string{}
	if q := queueFooter(l.c, l.queued); q != "" {
		parts = append(parts, q)
	}
	return strings.Join(append(parts, l.c.KeyLine(l.Help()...)), l.c.Styles.Dim.Render(" · "))
}

// OpenWeb opens raw with open, the one way the inspector opens a page (a
// URL elicitation's, an app's link), when it is an http(s) URL
// (mcpclient.WebURL), whatever the person consented to.
func OpenWeb(open func(string) error, raw string) error {
	u, err := mcpclient.WebURL(raw)
	switch {
	case err != nil:
		return fmt.Errorf("not opened: %w", err)
	case open == nil:
		return errors.New("no browser to open it in")
	}
	return open(u.String())
}

// URLLines show a URL to consent to: whole, its host highlighted, and
// warnings about what could mislead, each line ending in a newline.
func URLLines(c *widget.Common, raw string) string {
	s := c.Styles
	u, err := mcpclient.WebURL(raw)
	if err != nil {
		return widget.Clean(raw) + "\n" + s.Err.Render("this is not a URL mcpeek can open: "+widget.Clean(err.Error())) + "\n"
	}
	var b strings.Builder
	if i := strings.Index(raw, u.Host); i >= 0 {
		b.WriteString(widget.Clean(raw[:i]) + s.Accent.Render(widget.Clean(u.Host)) + widget.Clean(raw[i+len(u.Host):]) + "\n")
	} else {
		b.WriteString(widget.Clean(raw) + "\n")
	}
	b.WriteString(s.Dim.Render("host: ") + s.Accent.Render(widget.Clean(u.Hostname())) + "\n")
	for _, w := range urlWarnings(u) {
		b.WriteString(s.Warn.Render("⚠ "+w) + "\n")
	}
	return b.String()
}

// urlWarnings are what could mislead in a URL.
func urlWarnings(u *url.URL) []string {
	var w []string
	if u.Scheme == "http" {
		w = append(w, "http: the page is not encrypted")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		w = append(w, "scheme "+u.Scheme+": not a web page")
	}
	if u.User != nil {
		w = append(w, "the URL carries a user name before the host; the host is what follows @")
	}
	host := u.Hostname()
	if net.ParseIP(host) != nil {
		w = append(w, "the host is a bare IP address")
	}
	for _, label := range strings.Split(host, ".") {
		if strings.HasPrefix(strings.ToLower(label), "xn--") {
			w = append(w, "the host uses punycode (international letters that can imitate others)")
			break
		}
	}
	for _, r := range host {
		if r > 0x7f {
			w = append(w, "the host has letters outside ASCII, which can imitate others")
			break
		}
	}
	return w
}

// hardwrap breaks a URL at the edge, wherever it falls, so that every
// character of it can be selected.
func hardwrap(s string, width int) string { return ansi.Hardwrap(s, max(width, 10), true) }

// URLShown shows a page mcpeek could not open (over SSH, --no-browser, no
// browser at all) whole, wrapped at the edge so that every character of
// it can be selected: never dropped silently. y copies it.
type URLShown struct {
	c        *widget.Common
	url, why string
}

// NewURLShown shows url, which did not open for why.
func NewURLShown(c *widget.Common, url, why string) *URLShown {
	return &URLShown{c: c, url: url, why: why}
}

// Update answers the keys: y copies the URL, esc closes.
func (l *URLShown) Update(msg tea.Msg) Action {
	k, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
	case key.Matches(k, URLKeys.Quit):
		return AskQuit{}
	case key.Matches(k, URLKeys.Copy):
		return Copy{l.url, "the URL"}
	case key.Matches(k, URLKeys.Close):
		return Close{}
	}
	return nil
}

// View draws why, and the URL whole, cut with a note when the room is
// short.
func (l *URLShown) View(width, height int) string {
	s, width := l.c.Styles, max(width, 20)
	k := URLKeys
	head := s.Title.Render("Open this page yourself") + "\n" +
		widget.Block(s.Warn.Render("The browser did not open it: "+widget.Clean(l.why)), width, 3) + "\n" +
		widget.Block(s.Dim.Render(fmt.Sprintf("You consented; %s copies the URL whole (OSC 52), or select it:", k.Copy.Help().Key)), width, 3) + "\n\n"
	lines := strings.Split(hardwrap(widget.Clean(l.url), width), "\n")
	if room := height - lipgloss.Height(head); len(lines) > room {
		lines = append(lines[:max(room-1, 0)], s.Warn.Render(fmt.Sprintf("… cut here: %s copies it whole", k.Copy.Help().Key)))
	}
	return head + strings.Join(lines, "\n")
}

// Help is its keys.
func (l *URLShown) Help() []key.Binding {
	k := URLKeys
	return []key.Binding{keys.Hint(k.Copy.Help().Key, "copy the URL", k.Copy), k.Close, k.Quit}
}

// StatusFooter: what the copy did shows in the footer.
func (*URLShown) StatusFooter() {}

// LinkRequest is a tool app's ui/open-link waiting for the person.
type LinkRequest struct {
	App     string // the tool's title, or name
	Session string // the app's session key, or ""
	URL     string
}

// AnswerLink answers the link Req: Open is the person's consent.
type AnswerLink struct {
	Req  *LinkRequest
	Open bool
}

// LinkCard is the consent card of the oldest link an app asks to open,
// like a URL elicitation's: o opens it in the browser; d or esc refuses,
// and the app is told it was not opened.
type LinkCard struct {
	c     *widget.Common
	req   *LinkRequest
	links func() int
	shown time.Time
	// Now is the card's clock (time.Now when nil).
	Now func() time.Time
	// Grace is how long after its showing keys are ignored (0:
	// [URLGrace]; negative: none).
	Grace time.Duration
}

// NewLinkCard is the consent card of req; links says how many links
// wait, this one included.
func NewLinkCard(c *widget.Common, req *LinkRequest, links func() int) *LinkCard {
	return &LinkCard{c: c, req: req, links: links, shown: time.Now()}
}

// Shown starts the card's grace period at t.
func (l *LinkCard) Shown(t time.Time) { l.shown = t }

// Link is the link the card shows.
func (l *LinkCard) Link() *LinkRequest { return l.req }

// Update answers the keys, ignoring those typed within its grace period
// of its showing.
func (l *LinkCard) Update(msg tea.Msg) Action {
	k := URLKeys
	m, ok := msg.(tea.KeyMsg)
	switch {
	case !ok:
		return nil
	case key.Matches(m, k.Quit):
		return AskQuit{}
	case inGrace(l.Now, l.shown, l.Grace):
		return nil
	case key.Matches(m, k.Open):
		return AnswerLink{l.req, true}
	case key.Matches(m, k.Decline, k.Cancel):
		return AnswerLink{l.req, false}
	}
	return nil
}

// View draws the card.
func (l *LinkCard) View(width, _ int) string {
	s := l.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render("The app of "+widget.Clean(l.req.App)+" asks you to open a page") + "\n")
	via := "a tool app's ui/open-link"
	if l.req.Session != "" {
		via += " · session " + l.req.Session
	}
	b.WriteString(s.Dim.Render(via) + "\n\n")
	b.WriteString(URLLines(l.c, l.req.URL))
	k := URLKeys
	b.WriteString("\n" + l.c.KeyLine(keys.Hint(k.Open.Help().Key, "open it in the browser (consent)", k.Open),
		keys.Hint("d/esc", "refuse (the app is told)", k.Decline, k.Cancel)))
	return s.Box.Width(max(width-4, 20)).Render(b.String())
}

// Help is the card's keys.
func (l *LinkCard) Help() []key.Binding {
	k := URLKeys
	return []key.Binding{keys.Hint("o", "open", k.Open), keys.Hint("d/esc", "refuse", k.Decline, k.Cancel), keys.Hint("q", "quit", k.Quit)}
}

// Footer counts the links waiting, and gives the keys.
func (l *LinkCard) Footer(int) string {
	line := l.c.KeyLine(l.Help()...)
	if n := l.links(); n > 1 {
		return l.c.Styles.Warn.Render(fmt.Sprintf("1 of %d links", n)) + l.c.Styles.Dim.Render(" · ") + line
	}
	return line
}

// inGrace tells whether a card shown at shown still ignores keys: grace
// is its grace period (0: [URLGrace]; negative: none), now its clock.
func inGrace(now func() time.Time, shown time.Time, grace time.Duration) bool {
	if grace == 0 {
		grace = URLGrace
	}
	return grace > 0 && clock(now).Sub(shown) < grace
}

// clock is now, or time.Now when nil.
func clock(now func() time.Time) time.Time {
	if now == nil {
		return time.Now()
	}
	return now()
}

// URLKeyMap holds the keys that work on the URL consent card.
type URLKeyMap struct {
	Open, Decline, Cancel, next, Quit key.Binding
	Copy, Close                       key.Binding // a page the browser did not open, shown to copy
}

// URLKeys are the bindings of [URLKeyMap].
var URLKeys = URLKeyMap{
	Open:    keys.New("o", "open the page (consent)", "o"),
	Decline: keys.New("d", "decline", "d"),
	Cancel:  keys.New("esc/c", "cancel", "esc", "c"),
	next:    nextKey,
	Quit:    keys.New("q/ctrl+c", "quit", "q", "ctrl+c"),
	Copy:    keys.New("y", "copy a URL the browser did not open", "y"),
	Close:   keys.New("esc/enter", "close it", "esc", "enter"),
}

// ShortHelp is the footer of the URL consent card.
func (k URLKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{keys.Hint("o", "open", k.Open), k.Decline, keys.Hint("esc", "cancel this request", k.Cancel), keys.Hint("q", "quit", k.Quit)}
}

// FullHelp lists every key of the URL consent card.
func (k URLKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Open, k.Decline, k.Cancel, k.next, k.Quit, k.Copy, k.Close}}
}

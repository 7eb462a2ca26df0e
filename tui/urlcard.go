package tui

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
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/keys"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// urlGrace ignores keys typed just as the card appeared, as forms do.
const urlGrace = 400 * time.Millisecond

// urlKey answers the URL consent card shown by l.
func (m *Model) urlKey(l *elicitation, msg tea.KeyMsg) tea.Cmd {
	k := m.c.Keys.URL
	if key.Matches(msg, k.Quit) {
		return m.askQuit()
	}
	if time.Since(l.shown) < urlGrace {
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		open, url := m.opts.OpenURL, l.x.req.Params.URL
		if _, err := mcpclient.WebURL(url); err != nil { // the card says so: d or esc answer it
			m.status = statusMsg{"not opened: " + widget.Clean(err.Error()), true}
			return nil
		}
		return tea.Batch(m.reply(l, &mcp.ElicitResult{Action: "accept"}), func() tea.Msg {
			if err := openWeb(open, url); err != nil {
				return urlNotOpenedMsg{url, err}
			}
			return nil
		})
	case key.Matches(msg, k.Decline):
		return m.reply(l, &mcp.ElicitResult{Action: "decline"})
	case key.Matches(msg, k.Cancel):
		return m.reply(l, &mcp.ElicitResult{Action: "cancel"})
	}
	return nil
}

// urlExpired cancels the URL consent card when nobody answered it within
// the elicitation timeout.
func (m *Model) urlExpired() tea.Cmd {
	l, ok := find[*elicitation](m)
	if !ok || l.form != nil || m.opts.ElicitTimeout <= 0 || time.Since(l.shown) <= m.opts.ElicitTimeout {
		return nil
	}
	return m.reply(l, &mcp.ElicitResult{Action: "cancel"})
}

// urlView asks consent before opening a URL: the whole URL, its host
// highlighted, and warnings about what could mislead.
func (m *Model) urlView(x *ask) string {
	s := m.c.Styles
	raw := x.req.Params.URL
	var b strings.Builder
	server := x.req.Server.Title
	if server == "" {
		server = x.req.Server.Name
	}
	b.WriteString(s.Title.Render(widget.Clean(server)+" asks you to open a page") + "\n")
	b.WriteString(s.Dim.Render("via "+widget.Clean(x.req.Connection)) + "\n\n")
	b.WriteString(widget.Block(widget.Clean(x.req.Params.Message), m.c.Width-6, 6) + "\n\n")
	b.WriteString(m.refusedNote(x))
	b.WriteString(m.urlLines(raw))
	k := m.c.Keys.URL
	bs := []key.Binding{k.Decline, keys.Hint("esc", "cancel", k.Cancel)}
	if _, err := mcpclient.WebURL(raw); err == nil {
		bs = append([]key.Binding{keys.Hint(k.Open.Help().Key, "open it in the browser (consent)", k.Open)}, bs...)
	}
	b.WriteString("\n" + m.c.KeyLine(bs...))
	return s.Box.Width(max(m.c.Width-4, 20)).Render(b.String())
}

// urlFooter is the footer of the URL consent card for raw: without o
// when raw is not a page mcpeek opens.
func (m *Model) urlFooter(raw string) string {
	k := m.c.Keys.URL
	keys := k.ShortHelp()
	if _, err := mcpclient.WebURL(raw); err != nil {
		keys = slices.DeleteFunc(keys, func(b key.Binding) bool { return slices.Equal(b.Keys(), k.Open.Keys()) })
	}
	return m.c.KeyLine(keys...)
}

// openWeb opens raw with open, the one way the inspector opens a page (a
// URL elicitation's, an app's link), when it is an http(s) URL
// (mcpclient.WebURL), whatever the person consented to.
func openWeb(open func(string) error, raw string) error {
	u, err := mcpclient.WebURL(raw)
	switch {
	case err != nil:
		return fmt.Errorf("not opened: %w", err)
	case open == nil:
		return errors.New("no browser to open it in")
	}
	return open(u.String())
}

// urlLines show a URL to consent to: whole, its host highlighted, and
// warnings about what could mislead, each line ending in a newline.
func (m *Model) urlLines(raw string) string {
	s := m.c.Styles
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

// urlNotOpenedMsg says that a page the person consented to open did not
// open (over SSH, --no-browser, no browser at all): it is shown whole to
// copy instead, never dropped silently.
type urlNotOpenedMsg struct {
	url string
	err error
}

func (msg urlNotOpenedMsg) update(m *Model) tea.Cmd {
	m.open(&urlShown{url: msg.url, why: msg.err.Error()})
	return nil
}

// urlShown shows a page mcpeek could not open whole, wrapped at the edge
// so that every character of it can be selected; y copies it.
type urlShown struct{ url, why string }

func (c *urlShown) view(m *Model, h int, _ *level) string {
	s, width := m.c.Styles, max(m.c.Width, 20)
	k := m.c.Keys.URL
	head := s.Title.Render("Open this page yourself") + "\n" +
		widget.Block(s.Warn.Render("The browser did not open it: "+widget.Clean(c.why)), width, 3) + "\n" +
		widget.Block(s.Dim.Render(fmt.Sprintf("You consented; %s copies the URL whole (OSC 52), or select it:", k.Copy.Help().Key)), width, 3) + "\n\n"
	lines := strings.Split(wrapWhole(widget.Clean(c.url), width), "\n")
	if room := h - lipgloss.Height(head); len(lines) > room {
		lines = append(lines[:max(room-1, 0)], s.Warn.Render(fmt.Sprintf("… cut here: %s copies it whole", k.Copy.Help().Key)))
	}
	return head + strings.Join(lines, "\n")
}

func (c *urlShown) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.Keys.URL
	m.status = statusMsg{}
	switch {
	case key.Matches(msg, k.Quit):
		return m.askQuit()
	case key.Matches(msg, k.Copy):
		return copyText(c.url, "the URL")
	case key.Matches(msg, k.Close):
		m.close(c)
	}
	return nil
}

func (c *urlShown) footer(m *Model, _ *level) string {
	if m.status.text != "" {
		return m.statusLine()
	}
	k := m.c.Keys.URL
	return m.c.KeyLine(keys.Hint(k.Copy.Help().Key, "copy the URL", k.Copy), k.Close, k.Quit)
}

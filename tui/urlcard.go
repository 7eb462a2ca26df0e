package tui

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// urlKey answers the URL consent card shown by l.
func (m *Model) urlKey(l *elicitation, msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys.url
	if key.Matches(msg, k.quit) {
		return m.askQuit()
	}
	if m.opts.now().Sub(l.shown) < m.opts.grace() { // keys typed just as the card appeared are ignored, as forms do
		return nil
	}
	switch {
	case key.Matches(msg, k.open):
		open, url := m.opts.OpenURL, l.x.req.Params.URL
		if _, err := mcpclient.WebURL(url); err != nil { // the card says so: d or esc answer it
			m.status = statusMsg{"not opened: " + clean(err.Error()), true}
			return nil
		}
		return tea.Batch(m.reply(l, &mcp.ElicitResult{Action: "accept"}), func() tea.Msg {
			if err := openWeb(open, url); err != nil {
				return urlNotOpenedMsg{url, err}
			}
			return nil
		})
	case key.Matches(msg, k.decline):
		return m.reply(l, &mcp.ElicitResult{Action: "decline"})
	case key.Matches(msg, k.cancel):
		return m.reply(l, &mcp.ElicitResult{Action: "cancel"})
	}
	return nil
}

// urlExpired cancels the URL consent card when nobody answered it within
// the elicitation timeout.
func (m *Model) urlExpired() tea.Cmd {
	l, ok := find[*elicitation](m)
	if !ok || l.form != nil || m.opts.ElicitTimeout <= 0 || m.opts.now().Sub(l.shown) <= m.opts.ElicitTimeout {
		return nil
	}
	return m.reply(l, &mcp.ElicitResult{Action: "cancel"})
}

// urlView asks consent before opening a URL: the whole URL, its host
// highlighted, and warnings about what could mislead.
func (m *Model) urlView(x *ask) string {
	s := m.c.styles
	raw := x.req.Params.URL
	var b strings.Builder
	server := x.req.Server.Title
	if server == "" {
		server = x.req.Server.Name
	}
	b.WriteString(s.title.Render(clean(server)+" asks you to open a page") + "\n")
	b.WriteString(s.dim.Render("via "+clean(x.req.Connection)) + "\n\n")
	b.WriteString(block(clean(x.req.Params.Message), m.c.width-6, 6) + "\n\n")
	b.WriteString(m.refusedNote(x))
	b.WriteString(m.urlLines(raw))
	k := m.c.keys.url
	keys := []key.Binding{k.decline, hint("esc", "cancel", k.cancel)}
	if _, err := mcpclient.WebURL(raw); err == nil {
		keys = append([]key.Binding{hint(k.open.Help().Key, "open it in the browser (consent)", k.open)}, keys...)
	}
	b.WriteString("\n" + m.c.keyLine(keys...))
	return s.box.Width(max(m.c.width-4, 20)).Render(b.String())
}

// urlFooter is the footer of the URL consent card for raw: without o
// when raw is not a page mcpeek opens.
func (m *Model) urlFooter(raw string) string {
	k := m.c.keys.url
	keys := k.ShortHelp()
	if _, err := mcpclient.WebURL(raw); err != nil {
		keys = slices.DeleteFunc(keys, func(b key.Binding) bool { return slices.Equal(b.Keys(), k.open.Keys()) })
	}
	return m.c.keyLine(keys...)
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
	s := m.c.styles
	u, err := mcpclient.WebURL(raw)
	if err != nil {
		return clean(raw) + "\n" + s.err.Render("this is not a URL mcpeek can open: "+clean(err.Error())) + "\n"
	}
	var b strings.Builder
	if i := strings.Index(raw, u.Host); i >= 0 {
		b.WriteString(clean(raw[:i]) + s.accent.Render(clean(u.Host)) + clean(raw[i+len(u.Host):]) + "\n")
	} else {
		b.WriteString(clean(raw) + "\n")
	}
	b.WriteString(s.dim.Render("host: ") + s.accent.Render(clean(u.Hostname())) + "\n")
	for _, w := range urlWarnings(u) {
		b.WriteString(s.warn.Render("⚠ "+w) + "\n")
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
	s, width := m.c.styles, max(m.c.width, 20)
	k := m.c.keys.url
	head := s.title.Render("Open this page yourself") + "\n" +
		block(s.warn.Render("The browser did not open it: "+clean(c.why)), width, 3) + "\n" +
		block(s.dim.Render(fmt.Sprintf("You consented; %s copies the URL whole (OSC 52), or select it:", k.copy.Help().Key)), width, 3) + "\n\n"
	lines := strings.Split(wrapWhole(clean(c.url), width), "\n")
	if room := h - lipgloss.Height(head); len(lines) > room {
		lines = append(lines[:max(room-1, 0)], s.warn.Render(fmt.Sprintf("… cut here: %s copies it whole", k.copy.Help().Key)))
	}
	return head + strings.Join(lines, "\n")
}

func (c *urlShown) key(m *Model, msg tea.KeyMsg, _ *level) tea.Cmd {
	k := m.c.keys.url
	m.status = statusMsg{}
	switch {
	case key.Matches(msg, k.quit):
		return m.askQuit()
	case key.Matches(msg, k.copy):
		return copyText(c.url, "the URL")
	case key.Matches(msg, k.close):
		m.close(c)
	}
	return nil
}

func (c *urlShown) footer(m *Model, _ *level) string {
	if m.status.text != "" {
		return m.statusLine()
	}
	k := m.c.keys.url
	return m.c.keyLine(hint(k.copy.Help().Key, "copy the URL", k.copy), k.close, k.quit)
}

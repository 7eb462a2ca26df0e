package tui

import (
	"net"
	"net/url"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// urlHead reports whether the URL consent card is showing.
func (m *Model) urlHead() bool {
	return m.form == nil && len(m.queue) > 0 && m.queue[0].req.Params.Mode == "url"
}

// urlConsentKey answers the URL consent card; keys typed just as it
// appeared are ignored, as in forms.
func (m *Model) urlConsentKey(msg tea.KeyMsg) tea.Cmd {
	if time.Since(m.urlShown) < 400*time.Millisecond {
		return nil
	}
	switch msg.String() {
	case "o":
		open, url := m.opts.OpenURL, m.queue[0].req.Params.URL
		return tea.Batch(m.replyURL("accept"), func() tea.Msg {
			if open != nil {
				_ = open(url)
			}
			return nil
		})
	case "d":
		return m.replyURL("decline")
	case "esc", "c":
		return m.replyURL("cancel")
	}
	return nil
}

func (m *Model) replyURL(action string) tea.Cmd {
	x := m.queue[0]
	m.queue, m.urlKey = m.queue[1:], ""
	return tea.Batch(answer(x, &mcp.ElicitResult{Action: action}), m.showHead())
}

// urlView asks consent before opening a URL: the whole URL, its host
// highlighted, and warnings about what could mislead.
func (m *Model) urlView() string {
	s := m.c.styles
	x := m.queue[0]
	raw := x.req.Params.URL
	var b strings.Builder
	server := x.req.Server.Title
	if server == "" {
		server = x.req.Server.Name
	}
	b.WriteString(s.title.Render(clean(server)+" asks you to open a page") + "\n")
	b.WriteString(s.dim.Render("via "+clean(x.req.Connection)) + "\n\n")
	b.WriteString(block(clean(x.req.Params.Message), m.c.width-6, 6) + "\n\n")
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		b.WriteString(clean(raw) + "\n" + s.err.Render("this is not a URL mcpeek can open") + "\n")
	} else {
		if i := strings.Index(raw, u.Host); i >= 0 {
			b.WriteString(clean(raw[:i]) + s.accent.Render(clean(u.Host)) + clean(raw[i+len(u.Host):]) + "\n")
		} else {
			b.WriteString(clean(raw) + "\n")
		}
		b.WriteString(s.dim.Render("host: ") + s.accent.Render(clean(u.Hostname())) + "\n")
		for _, w := range urlWarnings(u) {
			b.WriteString(s.warn.Render("⚠ "+w) + "\n")
		}
	}
	b.WriteString("\n" + s.dim.Render("o open it in the browser (consent) · d decline · esc cancel"))
	return s.box.Width(max(m.c.width-4, 20)).Render(b.String())
}

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

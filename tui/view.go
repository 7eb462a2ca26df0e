package tui

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
)

// View draws the header, the tab bar, the body (or what is over it) and
// the footer, never wider or taller than the terminal.
func (m *Model) View() string {
	if m.quitting {
		return ""
	}
	body := m.body()
	out := m.header() + "\n" + m.tabBar() + "\n" + body
	lines := strings.Split(out, "\n")
	h := m.c.height - 1
	if len(lines) > h {
		lines = lines[:h]
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + m.footer()
}

func (m *Model) header() string {
	s := m.c.styles
	var state string
	switch m.state {
	case stateConnecting:
		state = m.spinner.View() + " connecting to " + line(m.opts.Target, 40)
	case stateConnected:
		info := m.conn.ServerInfo()
		name := info.Title
		if name == "" {
			name = info.Name
		}
		era := "legacy"
		if m.conn.ProtocolVersion() >= mcpclient.ProtocolModern {
			era = "modern"
		}
		state = fmt.Sprintf("%s %s · %s (%s) · %s", s.accent.Render(line(name, 30)), line(info.Version, 12),
			m.conn.ProtocolVersion(), era, line(m.opts.Target, 30))
	case stateDisconnected:
		state = s.err.Render("disconnected") + " " + line(fmt.Sprint(m.err), max(m.c.width-45, 10)) + s.dim.Render(" · r reconnects")
	}
	app := "app host off"
	if m.opts.AppHost != "" {
		app = "app host " + m.opts.AppHost
	}
	right := s.dim.Render(app)
	if n := len(m.queue) + m.appPending(); n > 0 {
		right = s.warn.Render(fmt.Sprintf("%d pending", n)) + s.dim.Render(" · ") + right
	}
	return fit(state, m.c.width-lipgloss.Width(right)-1) + " " + right
}

func (m *Model) appPending() int {
	n := 0
	for _, p := range m.pending {
		if p.Path == mcpclient.PathApp {
			n++
		}
	}
	return n
}

func (m *Model) tabBar() string {
	var parts []string
	for i, name := range tabNames {
		label := fmt.Sprintf("%d %s", i+1, name)
		if i == m.tab {
			parts = append(parts, m.c.styles.activeTab.Render(label))
		} else {
			parts = append(parts, m.c.styles.tab.Render(label))
		}
	}
	return fit(strings.Join(parts, ""), m.c.width)
}

func (m *Model) footer() string {
	s := m.c.styles
	var text string
	switch {
	case m.confirmQuit:
		text = s.warn.Render(fmt.Sprintf("%d elicitation(s) pending: quit and cancel them? y/n", len(m.queue)+m.appPending()))
	case m.form != nil && len(m.queue) > 1:
		text = s.warn.Render(fmt.Sprintf("1 of %d pending", len(m.queue))) + s.dim.Render(" · ctrl+n shows the next")
	case m.topForm() != nil || m.jsonEdit != nil:
		text = ""
	case m.urlHead():
		text = s.dim.Render("o open · d decline · esc cancel this request · q quit")
	case m.running != "":
		text = s.dim.Render(fmt.Sprintf("%s calling %s… %s · esc cancels the call", m.spinner.View(), m.running, time.Since(m.runStart).Round(time.Second)))
	default:
		text = s.dim.Render("1-6/tab switch · ↑↓ move · / filter · enter open · r reconnect · ? keys · q quit")
	}
	return fit(text, m.c.width)
}

func (m *Model) body() string {
	h := m.bodyHeight()
	switch {
	case m.showHelp:
		return m.helpView()
	case m.form != nil:
		return m.form.View()
	case m.urlHead():
		return m.urlView()
	case m.argsForm != nil:
		return m.argsForm.View()
	case m.jsonEdit != nil:
		s := m.c.styles
		head := s.title.Render("Arguments for "+clean(m.jsonTool.Name)+" as JSON") + s.dim.Render(" (its input schema is more than a form can show)")
		foot := s.dim.Render("ctrl+s call · esc back")
		if m.jsonErr != "" {
			foot = s.err.Render(line(m.jsonErr, m.c.width-2)) + "\n" + foot
		}
		return head + "\n" + m.jsonEdit.View() + "\n" + foot
	}
	var card string
	if m.appPending() > 0 {
		card = m.appCard() + "\n"
		h -= lipgloss.Height(card)
	}
	return card + m.tabView(h)
}

func (m *Model) tabView(h int) string {
	s := m.c.styles
	lw, dw := m.listWidth(), m.detailWidth()
	p := &m.pick[m.tab]
	switch m.tab {
	case 0:
		tools := m.visibleTools()
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		detail := m.detail[0]
		if detail == "" && p.cursor < len(tools) {
			t := tools[p.cursor]
			var b strings.Builder
			b.WriteString(s.title.Render(clean(t.Name)) + "\n" + clean(t.Description) + "\n")
			if t.Annotations != nil {
				b.WriteString(s.dim.Render("annotations: ") + clean(prettyJSON(t.Annotations)) + "\n")
			}
			b.WriteString(s.dim.Render("input schema: ") + clean(prettyJSON(t.InputSchema)) + "\n")
			if ui, ok := t.Meta["ui"]; ok {
				b.WriteString(s.dim.Render("_meta.ui: ") + clean(prettyJSON(ui)) + "\n")
			}
			b.WriteString(s.dim.Render("enter calls it"))
			detail = b.String()
		}
		return columns(&m.c, p.list(&m.c, names, lw, h), block(detail, dw, h), lw)
	case 1:
		var names []string
		for _, r := range m.resources {
			names = append(names, r.URI)
		}
		for _, r := range m.templates {
			names = append(names, r.URITemplate+" (template)")
		}
		detail := m.detail[1]
		if detail == "" {
			detail = s.dim.Render("enter reads the resource")
		}
		return columns(&m.c, p.list(&m.c, names, lw, h), block(detail, dw, h), lw)
	case 2:
		var names []string
		for _, pr := range m.prompts {
			names = append(names, pr.Name)
		}
		detail := m.detail[2]
		if detail == "" {
			detail = s.dim.Render("enter gets the prompt")
		}
		return columns(&m.c, p.list(&m.c, names, lw, h), block(detail, dw, h), lw)
	case 3:
		return m.elicitationsView(h)
	case 4:
		return m.logView(h)
	}
	return infoView(&m.c, m.conn, m.c.width, h)
}

func (m *Model) elicitationsView(h int) string {
	s := m.c.styles
	if len(m.records) == 0 {
		return s.dim.Render("No elicitations yet. Call a tool that asks for input (Tools tab).")
	}
	p := &m.pick[3]
	var rows []string
	for i := len(m.records) - 1; i >= 0; i-- { // newest first
		r := m.records[i]
		path := string(r.Path)
		if r.Fallback != "" {
			path += ":" + string(r.Fallback)
		}
		head := fmt.Sprintf("%s %s %-7s %s %dms ", r.Key, r.ReceivedAt.Format("15:04:05"), r.Action, path, r.AnsweredMs)
		rows = append(rows, head+line(r.Message, m.c.width-lipgloss.Width(head)-2))
	}
	if e := m.expanded[3]; e >= 0 && e < len(rows) {
		r := m.records[len(m.records)-1-e]
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s · %s\n", s.title.Render(r.Key), r.Action, r.Path)
		if r.Fallback != "" {
			b.WriteString(s.warn.Render("rendered natively: "+r.Fallback.Describe()) + "\n")
		}
		if r.Error != "" {
			b.WriteString(s.err.Render("error: ") + clean(r.Error) + "\n")
		}
		b.WriteString(s.dim.Render("request:") + "\n" + clean(indentJSON(r.Request)) + "\n")
		b.WriteString(s.dim.Render("response:") + "\n" + clean(indentJSON(r.Response)))
		return block(b.String(), m.c.width, h-1) + "\n" + s.dim.Render("x closes")
	}
	return p.list(&m.c, rows, m.c.width, h)
}

func indentJSON(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	return prettyJSON(v)
}

func (m *Model) logView(h int) string {
	s := m.c.styles
	p := &m.pick[4]
	var rows []string
	for _, e := range m.wire {
		what := e.Method
		if what == "" && e.ID != nil {
			what = "response " + string(e.ID)
		}
		text := string(e.Message)
		if e.Text != "" {
			text = e.Text
		}
		rows = append(rows, clean(fmt.Sprintf("%s %-6s %s %s", e.Time.Format("15:04:05.000"), e.Dir, what, text)))
	}
	var filtered []string
	for _, r := range rows {
		if p.matches(r) {
			filtered = append(filtered, r)
		}
	}
	if e := m.expanded[4]; e >= 0 && e < len(filtered) {
		return block(filtered[e], m.c.width, h-1) + "\n" + s.dim.Render("x closes")
	}
	return p.list(&m.c, filtered, m.c.width, h)
}

func (m *Model) appCard() string {
	s := m.c.styles
	for _, p := range m.pending {
		if p.Path != mcpclient.PathApp {
			continue
		}
		text := s.title.Render("answering in the browser: ") + line(p.Message, m.c.width-34) + "\n" +
			s.dim.Render(fmt.Sprintf("%s · app %s · n answers natively instead", p.Key, line(p.ResourceURI, 40)))
		card := s.box.Width(max(m.c.width-4, 20)).Render(text)
		if m.opts.AppURL != nil {
			if u, ok := m.opts.AppURL(p.Key); ok {
				// On its own line, unwrapped, so it can be copied whole.
				card += "\n" + s.dim.Render("open: ") + u
			}
		}
		return card
	}
	return ""
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

func (m *Model) helpView() string {
	k := m.c.keys
	rows := [][2]string{
		{"1-6, tab, shift+tab", "switch tabs: " + strings.Join(tabNames[:], ", ")},
		{"↑/↓ or k/j", "move in a list"},
		{"/", "filter the list (enter or esc ends)"},
		{"enter", "call a tool, read a resource, get a prompt, expand a log line"},
		{"esc", "cancel a running call"},
		{k.abandon.Help().Key, "answer an app-rendered elicitation natively instead"},
		{"ctrl+n", "next pending elicitation"},
		{"in a form", "ctrl+s submit · ctrl+d decline · esc cancel"},
		{"r", "disconnect and connect again"},
		{"q", "quit (asks first when elicitations are pending)"},
	}
	var b strings.Builder
	b.WriteString(m.c.styles.title.Render("Keys") + "\n\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-22s %s\n", r[0], r[1])
	}
	b.WriteString("\n" + m.c.styles.dim.Render("any key closes this"))
	return b.String()
}

package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/mcpclient"
	"github.com/mcpeek/mcpeek/tui/widget"
)

// requestsView lists the server's requests to mcpeek, every kind
// (elicitation, sampling, roots), newest first; enter shows one's request
// and response.
func (m *Model) requestsView(h int) string {
	s := m.c.Styles
	if len(m.records) == 0 {
		return s.Dim.Render(widget.Block("No requests from the server yet. Call a tool that asks for input, for a model's reply or for roots (Tools tab).", m.c.Width, 3))
	}
	if m.expandedEntry() >= 0 {
		return m.paneView(m.closesHint())
	}
	p := &m.pick[tabRequests]
	var rows []string
	for i := len(m.records) - 1; i >= 0; i-- { // newest first
		r := m.records[i]
		path := string(r.Path)
		if r.Fallback != "" {
			path += ":" + string(r.Fallback)
		}
		head := fmt.Sprintf("%s %s %s %s %s %dms ", r.Key, r.ReceivedAt.Format("15:04:05"), recordKind(r), recordAction(r), path, r.AnsweredMs)
		rows = append(rows, head+widget.Line(r.Message, m.c.Width-lipgloss.Width(head)-2))
	}
	return p.View(&m.c, widget.Names(rows), nil, m.c.Width, h)
}

// recordKind is a record's kind: elicitation, sampling or roots.
func recordKind(r mcpclient.Record) string {
	if r.Kind == "" {
		return mcpclient.KindElicitation
	}
	return r.Kind
}

// recordAction is how a request was answered: its action, or "error" for
// one that failed without one.
func recordAction(r mcpclient.Record) string {
	if r.Action == "" && r.Error != "" {
		return "error"
	}
	return r.Action
}

// requestCache keeps the text of the record last shown whole: a sampling
// request may carry megabytes, which are cut once, not on every message.
type requestCache struct {
	key  string
	at   time.Time
	text string
}

// recordText is one record: its kind, how it was answered, its request
// and the response sent.
func (m *Model) recordText() string {
	e := m.expanded[tabRequests]
	if e < 0 || e >= len(m.records) {
		return ""
	}
	r := m.records[len(m.records)-1-e]
	if c := &m.requestText; c.key != r.Key || !c.at.Equal(r.ReceivedAt) {
		*c = requestCache{key: r.Key, at: r.ReceivedAt, text: m.renderRecord(r)}
	}
	return m.requestText.text
}

func (m *Model) renderRecord(r mcpclient.Record) string {
	s := m.c.Styles
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s · %s · %s\n", s.Title.Render(r.Key), recordAction(r), recordKind(r), r.Path)
	if r.Fallback != "" {
		b.WriteString(s.Warn.Render("rendered natively: "+r.Fallback.Describe()) + "\n")
	}
	if r.Error != "" {
		b.WriteString(s.Err.Render("error: ") + widget.Clean(r.Error) + "\n")
	}
	b.WriteString(s.Dim.Render("request:") + "\n" + s.ColourJSON(widget.Clean(indentJSON(r.Request))) + "\n")
	b.WriteString(s.Dim.Render("response:") + "\n" + s.ColourJSON(widget.Clean(indentJSON(r.Response))))
	return b.String()
}

// recordStringRunes bounds each string of a record shown whole: a huge
// message or an image's data shows its beginning and how much more there
// is.
const recordStringRunes = 2000

// indentJSON indents raw JSON for reading, each string cut to a preview.
func indentJSON(raw []byte) string {
	if len(raw) == 0 {
		return "(none)"
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return widget.CutRedacted(string(raw), recordStringRunes*4)
	}
	return widget.PrettyJSON(cutStrings(v, recordStringRunes))
}

// cutStrings cuts every string in a decoded JSON value to n runes.
func cutStrings(v any, n int) any {
	switch v := v.(type) {
	case string:
		v = widget.Redact(v) // before it is cut, which would keep part of a secret
		if utf8.RuneCountInString(v) <= n {
			return v
		}
		cut := string([]rune(v)[:n])
		return cut + fmt.Sprintf("… (%d more bytes)", len(v)-len(cut))
	case []any:
		for i := range v {
			v[i] = cutStrings(v[i], n)
		}
	case map[string]any:
		for k := range v {
			v[k] = cutStrings(v[k], n)
		}
	}
	return v
}

package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
)

// common travels to every part of the inspector: sizes, styles, keys and
// the footer's renderer.
type common struct {
	width, height int
	styles        styles
	keys          keyMap
	help          help.Model
}

func newCommon() common {
	s := newStyles()
	return common{width: 80, height: 24, styles: s, keys: newKeyMap(), help: newHelp(s)}
}

type styles struct {
	title, dim, accent, warn, err, ok, selected, tab, activeTab, box lipgloss.Style
	json                                                             jsonStyles
}

func newStyles() styles {
	s := styles{
		title:     lipgloss.NewStyle().Bold(true),
		dim:       lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		accent:    lipgloss.NewStyle().Foreground(lipgloss.Color("63")).Bold(true),
		warn:      lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		err:       lipgloss.NewStyle().Foreground(lipgloss.Color("196")).Bold(true),
		ok:        lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		selected:  lipgloss.NewStyle().Reverse(true),
		tab:       lipgloss.NewStyle().Padding(0, 1).Foreground(lipgloss.Color("245")),
		activeTab: lipgloss.NewStyle().Padding(0, 1).Bold(true).Underline(true),
		box:       lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("63")).Padding(0, 1),
		json: jsonStyles{
			key: lipgloss.NewStyle().Foreground(lipgloss.Color("75")),
			str: lipgloss.NewStyle().Foreground(lipgloss.Color("114")),
			lit: lipgloss.NewStyle().Foreground(lipgloss.Color("215")),
		},
	}
	if os.Getenv("NO_COLOR") != "" {
		plain := lipgloss.NewStyle()
		s.dim, s.accent, s.warn, s.ok = plain, plain.Bold(true), plain, plain
		s.err = plain.Bold(true)
		s.box = s.box.UnsetBorderForeground()
		s.json = jsonStyles{plain, plain, plain}
	}
	return s
}

// clean makes text from a server safe to draw (see [formschema.Clean]),
// with the secrets the inspector knows redacted (see shown).
func clean(s string) string { return formschema.Clean(redactShown(s)) }

// line is clean text on one line, cut to width cells. It reads no more of
// s than can show, so that a huge string costs no more than a short one;
// the secrets are redacted before it is cut, so no part of one shows.
func line(s string, width int) string {
	if width <= 0 {
		return ""
	}
	cut := false
	if limit := 8*width + 64; len(s) > limit {
		s, cut = cutShown(s, limit), true
	}
	s = strings.Join(strings.Fields(clean(s)), " ")
	if !cut && lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width-1, "") + "…"
}

// cutText cuts s to at most n bytes: at a line break in its second half if
// it has one (so that no escape sequence is split), else on a rune boundary.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i > n/2 {
		return s[:i]
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// fit cuts already-styled text to width cells, escape codes intact.
func fit(s string, width int) string {
	return ansi.Truncate(s, max(width, 0), "…")
}

// block wraps text (already cleaned, perhaps styled) to width and cuts it
// to height lines. Only what can show is wrapped: a huge text is cut well
// past height lines first, so that it costs no more than a screenful.
func block(s string, width, height int) string {
	if limit := height * (max(width, 1) + 1) * 4; height > 0 && len(s) > limit {
		s = cutText(s, limit) + "\n…"
	}
	s = lipgloss.NewStyle().Width(max(width, 1)).Render(s)
	lines := strings.Split(s, "\n")
	if height > 0 && len(lines) > height {
		lines = append(lines[:height-1], "…")
	}
	return strings.Join(lines, "\n")
}

func prettyJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

package widget

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/tui/keys"
)

// Common travels to every part of the inspector: sizes, styles, keys and
// the footer's renderer.
type Common struct {
	Width, Height int
	Styles        Styles
	Keys          keys.Map
	help          help.Model
}

// NewCommon is the common part for a terminal of 80×24 until told its
// size, with the key map km.
func NewCommon(km keys.Map) Common {
	s := NewStyles()
	return Common{Width: 80, Height: 24, Styles: s, Keys: km, help: newHelp(s)}
}

type Styles struct {
	Title, Dim, Accent, Warn, Err, OK, Selected, Tab, ActiveTab, Box lipgloss.Style
	JSON                                                             JSONStyles
}

func NewStyles() Styles {
	s := Styles{
		Title:     lipgloss.NewStyle().Bold(true),
		Dim:       lipgloss.NewStyle().Foreground(lipgloss.Color("245")),
		Accent:    lipgloss.NewStyle().Foreground(lipgloss.Color("63")).Bold(true),
		Warn:      lipgloss.NewStyle().Foreground(lipgloss.Color("214")),
		Err:       lipgloss.NewStyle().Foreground(lipgloss.Color("196")).Bold(true),
		OK:        lipgloss.NewStyle().Foreground(lipgloss.Color("42")),
		Selected:  lipgloss.NewStyle().Reverse(true),
		Tab:       lipgloss.NewStyle().Padding(0, 1).Foreground(lipgloss.Color("245")),
		ActiveTab: lipgloss.NewStyle().Padding(0, 1).Bold(true).Underline(true),
		Box:       lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("63")).Padding(0, 1),
		JSON: JSONStyles{
			Key: lipgloss.NewStyle().Foreground(lipgloss.Color("75")),
			Str: lipgloss.NewStyle().Foreground(lipgloss.Color("114")),
			Lit: lipgloss.NewStyle().Foreground(lipgloss.Color("215")),
		},
	}
	if os.Getenv("NO_COLOR") != "" {
		plain := lipgloss.NewStyle()
		s.Dim, s.Accent, s.Warn, s.OK = plain, plain.Bold(true), plain, plain
		s.Err = plain.Bold(true)
		s.Box = s.Box.UnsetBorderForeground()
		s.JSON = JSONStyles{plain, plain, plain}
	}
	return s
}

// Clean makes text from a server safe to draw (see [formschema.Clean]),
// with the secrets the inspector knows redacted (see Shown).
func Clean(s string) string { return formschema.Clean(Redact(s)) }

// Line is clean text on one line, cut to width cells. It reads no more of
// s than can show, so that a huge string costs no more than a short one;
// the secrets are redacted before it is cut, so no part of one shows.
func Line(s string, width int) string {
	if width <= 0 {
		return ""
	}
	cut := false
	if limit := 8*width + 64; len(s) > limit {
		s, cut = CutRedacted(s, limit), true
	}
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if !cut && lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width-1, "") + "…"
}

// CutText cuts s to at most n bytes: at a line break in its second half if
// it has one (so that no escape sequence is split), else on a rune boundary.
func CutText(s string, n int) string {
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

// Fit cuts already-styled text to width cells, escape codes intact.
func Fit(s string, width int) string {
	return ansi.Truncate(s, max(width, 0), "…")
}

// Block wraps text (already cleaned, perhaps styled) to width and cuts it
// to height lines. Only what can show is wrapped: a huge text is cut well
// past height lines first, so that it costs no more than a screenful.
func Block(s string, width, height int) string {
	if limit := height * (max(width, 1) + 1) * 4; height > 0 && len(s) > limit {
		s = CutText(s, limit) + "\n…"
	}
	s = lipgloss.NewStyle().Width(max(width, 1)).Render(s)
	lines := strings.Split(s, "\n")
	if height > 0 && len(lines) > height {
		lines = append(lines[:height-1], "…")
	}
	return strings.Join(lines, "\n")
}

func PrettyJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// newHelp renders footers: dim, with the inspector's separator.
func newHelp(s Styles) help.Model {
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey, h.Styles.ShortDesc, h.Styles.ShortSeparator, h.Styles.Ellipsis = s.Dim, s.Dim, s.Dim, s.Dim
	return h
}

// KeyLine is a footer of bindings: "key what · key what".
func (c *Common) KeyLine(bs ...key.Binding) string { return c.help.ShortHelpView(bs) }

// HelpColumns lays the sections out in columns, each key beside what it
// does: no taller than height if they fit in width so, else as short as
// fits in width. The widths of the layouts tried are reckoned from the
// sections' own widths; only the one chosen is drawn.
func (c *Common) HelpColumns(sections []keys.Section, height, width int) string {
	sizes := make([]helpSize, len(sections))
	total := 0
	for i, sec := range sections {
		sizes[i] = sizeHelp(sec)
		total += sizes[i].rows
	}
	for height < total && packedWidth(sizes, height) > width {
		height++
	}
	return c.packHelp(sections, height)
}

// helpSize is what a section takes on the help screen: its lines, and the
// widths of its title, widest key and widest description.
type helpSize struct{ rows, title, key, desc int }

func sizeHelp(sec keys.Section) helpSize {
	z := helpSize{rows: 1 + len(sec.Bindings()), title: lipgloss.Width(sec.Title)}
	for _, b := range sec.Bindings() {
		z.key = max(z.key, lipgloss.Width(b.Help().Key))
		z.desc = max(z.desc, lipgloss.Width(b.Help().Desc))
	}
	return z
}

// packedWidth is how wide packHelp draws sections of these sizes in
// columns no taller than height: each column as wide as its widest title
// or line (two spaces, the column's widest key, two spaces, a
// description), three spaces between columns.
func packedWidth(sizes []helpSize, height int) int {
	total, rows, cols := 0, 0, 0
	var col helpSize
	end := func() {
		w := col.title
		if col.key > 0 || col.desc > 0 {
			w = max(w, 4+col.key+col.desc)
		}
		total += w
	}
	for i, z := range sizes {
		if i == 0 || rows > 0 && rows+z.rows > height {
			if i > 0 {
				end()
			}
			cols, rows, col = cols+1, 0, helpSize{}
		}
		col = helpSize{title: max(col.title, z.title), key: max(col.key, z.key), desc: max(col.desc, z.desc)}
		rows += z.rows
	}
	if cols > 0 {
		end()
	}
	return total + 3*max(cols-1, 0)
}

// packHelp lays the sections out in columns no taller than height (a
// section taller than that has a column of its own).
func (c *Common) packHelp(sections []keys.Section, height int) string {
	var cols [][]keys.Section
	rows := 0
	for _, sec := range sections {
		n := 1 + len(sec.Bindings())
		if len(cols) == 0 || rows > 0 && rows+n > height {
			cols, rows = append(cols, nil), 0
		}
		cols[len(cols)-1] = append(cols[len(cols)-1], sec)
		rows += n
	}
	out := make([]string, len(cols))
	for i, col := range cols {
		out[i] = c.helpColumn(col)
		if i < len(cols)-1 {
			out[i] = lipgloss.NewStyle().PaddingRight(3).Render(out[i])
		}
	}
	return lipgloss.JoinHorizontal(lipgloss.Top, out...)
}

// helpColumn is one column of the help screen, its keys aligned.
func (c *Common) helpColumn(sections []keys.Section) string {
	width := 0
	for _, sec := range sections {
		for _, b := range sec.Bindings() {
			width = max(width, lipgloss.Width(b.Help().Key))
		}
	}
	var lines []string
	for _, sec := range sections {
		lines = append(lines, c.Styles.Title.Render(sec.Title))
		for _, b := range sec.Bindings() {
			h := b.Help()
			lines = append(lines, "  "+h.Key+strings.Repeat(" ", width-lipgloss.Width(h.Key)+2)+h.Desc)
		}
	}
	return strings.Join(lines, "\n")
}

// LevelWidth is the width of a column of log levels: "emergency".
const LevelWidth = 9

// Level colours a log level: quiet for debug, loud for the worst.
func (s Styles) Level(level string) lipgloss.Style {
	switch level {
	case "debug":
		return s.Dim
	case "info", "notice":
		return s.JSON.Key
	case "warning":
		return s.Warn
	case "error":
		return s.Err
	case "critical", "alert", "emergency":
		return s.Err.Reverse(true)
	}
	return lipgloss.NewStyle()
}

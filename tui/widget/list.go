// The List: a filterable list cursor, valid by construction, that draws
// its rows scrolled to keep the selected one visible, and the cutting of
// long names in their middle.

package widget

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/tui/keys"
)

// List is a cursor over a list of rows, with the filter typed over it: the
// tabs' lists and every list layer hold one. Its cursor is valid by
// construction: it only moves through [List.Select], [List.Move] and the
// keys, and [List.SetLen] (called whenever the rows change) keeps it on a
// row. The zero List is an empty list, the cursor on its first row.
type List struct {
	cursor, n int
	filter    string
	filtering bool
	blurred   bool // the cursor's row is drawn as the others
}

// Cursor is the selected row: 0 when there are none.
func (l *List) Cursor() int { return l.cursor }

// Len is how many rows the cursor moves over.
func (l *List) Len() int { return l.n }

// SetLen tells the list it has n rows now, the cursor kept on one.
func (l *List) SetLen(n int) {
	l.n = max(n, 0)
	l.cursor = Clamp(l.cursor, l.n)
}

// Place tells the list it has n rows and puts the cursor on row i (or the
// nearest row there is): a list whose rows were made again.
func (l *List) Place(i, n int) {
	l.SetLen(n)
	l.Select(i)
}

// Select puts the cursor on row i, or the nearest row there is.
func (l *List) Select(i int) { l.cursor = Clamp(i, l.n) }

// Move moves the cursor by delta rows, stopping at either end.
func (l *List) Move(delta int) { l.Select(l.cursor + delta) }

// Blur draws the list without its cursor (the cursor stays where it is):
// while something else takes the keys, as the roots layer's input.
func (l *List) Blur() { l.blurred = true }

// Focus draws the cursor again.
func (l *List) Focus() { l.blurred = false }

// Filter is the text the rows are filtered by: "" for none.
func (l *List) Filter() string { return l.filter }

// Filtering reports whether the filter is being typed (keys are text).
func (l *List) Filtering() bool { return l.filtering }

// Matches reports whether the filter lets s through.
func (l *List) Matches(s string) bool {
	return l.filter == "" || strings.Contains(strings.ToLower(s), strings.ToLower(l.filter))
}

// Update moves the cursor over n rows with the tabs' keys, or edits the
// filter while it is typed (the first row is then selected, since the
// rows change).
func (l *List) Update(msg tea.KeyMsg, k keys.Map, n int) {
	l.SetLen(n)
	if l.filtering {
		switch {
		case key.Matches(msg, k.Filter.Done):
			l.filtering = false
		case key.Matches(msg, k.Filter.Leave):
			l.filter, l.filtering = "", false
		case key.Matches(msg, k.Filter.Clear):
			l.filter = ""
		case key.Matches(msg, k.Filter.Erase):
			if r := []rune(l.filter); len(r) > 0 {
				l.filter = string(r[:len(r)-1])
			}
		case msg.Type == tea.KeyRunes, msg.Type == tea.KeySpace: // text, not keys
			l.filter += string(msg.Runes)
		}
		l.cursor = 0
		return
	}
	switch {
	case key.Matches(msg, k.Tabs.Filter): // a new filter, not the last one
		l.filter, l.filtering, l.cursor = "", true, 0
	case key.Matches(msg, k.Tabs.Up):
		l.Move(-1)
	case key.Matches(msg, k.Tabs.Down):
		l.Move(1)
	}
}

// Visible is the rows [first, end) of the list that show in height lines
// with the selected one among them, and the position line under them
// ("6–8 of 8"), "" when all rows show or there is no room for it: the
// rows then take one line less.
func (l *List) Visible(height int) (first, end int, pos string) {
	first, end = Window(l.cursor, l.n, height)
	if Position(first, end, l.n) == "" || height <= 1 {
		return first, end, ""
	}
	first, end = Window(l.cursor, l.n, height-1)
	return first, end, Position(first, end, l.n)
}

// Row is an entry of a list: its name, and a mark at the row's end (the
// Tools list marks a tool with an app). A faint row is drawn dim; a row
// with a Style has its text drawn in it (the cursor's row excepted). A
// Drawn row's name is already clean and cut to the list's width, and is
// drawn as it is (a layer's columns).
type Row struct {
	Name, Mark string
	Faint      bool
	Style      *lipgloss.Style
	Drawn      bool
}

// Names are rows of plain names.
func Names(names []string) []Row {
	rows := make([]Row, len(names))
	for i, n := range names {
		rows[i] = Row{Name: n}
	}
	return rows
}

// Text is the row in width cells, the cursor's when selected.
func (r Row) Text(c *Common, width int, selected bool) string {
	name, mark := r.Name, ""
	if !r.Drawn {
		name = Line(r.Name, width-2)
	}
	if r.Mark != "" {
		mark = Line(r.Mark, max(width-6, 1))
		room := max(width-3-lipgloss.Width(mark), 1)
		name = Line(r.Name, room)
		mark = strings.Repeat(" ", max(width-2-lipgloss.Width(name)-lipgloss.Width(mark), 1)) + mark
	}
	switch {
	case selected:
		return c.Styles.Selected.Render("> " + name + mark)
	case r.Faint:
		return c.Styles.Dim.Render("  " + name + mark)
	case r.Style != nil:
		return "  " + r.Style.Render(name+mark)
	case mark == "":
		return "  " + name
	}
	return "  " + name + c.Styles.Dim.Render(mark)
}

// Head is the line above a list: its filter, or how to start one.
func (l *List) Head(c *Common, width int) string {
	head := "/ filter"
	if l.filtering || l.filter != "" {
		head = "filter: " + l.filter
		if l.filtering {
			head += "▏"
		}
	}
	return c.Styles.Dim.Render(Line(head, width))
}

// View draws a tab's list in height lines: the filter line, then the rows
// (see [List.Rows]). failure, when the list could not be had in full,
// shows under what did arrive, or in place of "(none)".
func (l *List) View(c *Common, rows []Row, failure error, width, height int) string {
	var fail string
	if failure != nil {
		fail = Block(c.Styles.Err.Render("error: ")+Clean(failure.Error()), width, 4)
		height -= lipgloss.Height(fail)
	}
	var b strings.Builder
	b.WriteString(l.Head(c, width) + "\n")
	height--
	if len(rows) == 0 && fail == "" {
		b.WriteString(c.Styles.Dim.Render("(none)"))
		return b.String()
	}
	out := l.Rows(c, rows, width, height)
	if fail != "" {
		out = strings.TrimRight(b.String()+out, "\n") + "\n" + fail
		return out
	}
	return strings.TrimRight(b.String()+out, "\n")
}

// Rows draws rows in at most height lines, the selected one marked,
// scrolled to keep it visible whatever the height; when not all fit, the
// last line says which show ("6–8 of 8"). The list takes len(rows) as its
// length (see [List.SetLen]).
func (l *List) Rows(c *Common, rows []Row, width, height int) string {
	l.SetLen(len(rows))
	first, end, pos := l.Visible(height)
	var b strings.Builder
	for i := first; i < end; i++ {
		b.WriteString(rows[i].Text(c, width, i == l.cursor && !l.blurred) + "\n")
	}
	if pos != "" {
		b.WriteString(c.Styles.Dim.Render(Fit(pos, width)) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// room is how many cells the row's name may take in width.
func (r Row) room(width int) int {
	if r.Mark == "" {
		return width - 2
	}
	return max(width-3-lipgloss.Width(Line(r.Mark, max(width-6, 1))), 1)
}

// CutRows cuts the rows' names in their middle to fit width, so that
// names that share a long start stay told apart (cutNamesIn).
func CutRows(rows []Row, width int) {
	names, widths := make([]string, len(rows)), make([]int, len(rows))
	for i, r := range rows {
		names[i], widths[i] = r.Name, r.room(width)
	}
	for i, n := range cutNamesIn(names, widths) {
		rows[i].Name = n
	}
}

// CutNames cuts names to width cells in their middle (cutNamesIn).
func CutNames(names []string, width int) []string {
	widths := make([]int, len(names))
	for i := range widths {
		widths[i] = width
	}
	return cutNamesIn(names, widths)
}

// nameSeps are what separates the words of a tool's or a prompt's name.
const nameSeps = "_-./: "

// cutNamesIn cuts each name to its width in cells in its middle, keeping
// its start and its last word: github_create_…_comment. Where two names
// would still read alike, they keep more words of their end, until they
// differ or a name's end no longer fits. A name that fits is left whole.
func cutNamesIn(names []string, widths []int) []string {
	clean := make([]string, len(names))
	out := make([]string, len(names))
	for i, n := range names {
		clean[i] = strings.Join(strings.Fields(formschema.Clean(n)), " ")
		out[i] = cutName(clean[i], widths[i], 1)
	}
	for words := 2; words <= 8; words++ {
		seen := map[string]int{}
		for _, o := range out {
			seen[o]++
		}
		again := false
		for i, o := range out {
			if seen[o] > 1 && o != clean[i] {
				out[i], again = cutName(clean[i], widths[i], words), true
			}
		}
		if !again {
			break
		}
	}
	return out
}

// cutName cuts name to width cells: its start, an ellipsis, and its last
// words (as many as fit in half the width, the last one at least in part).
// The start ends at a word's end where that keeps most of it.
func cutName(name string, width, words int) string {
	w := ansi.StringWidth(name)
	if w <= width || width < 5 {
		return name
	}
	cut := len(name)
	for range words {
		i := strings.LastIndexAny(name[:cut], nameSeps)
		if i <= 0 {
			break
		}
		cut = i
	}
	tail := name[cut:]
	if tw, most := ansi.StringWidth(tail), width-4; tw > most { // keep three cells of the start
		tail = ansi.TruncateLeft(tail, tw-most, "")
	}
	room := width - 1 - ansi.StringWidth(tail)
	head := ansi.Truncate(name, room, "")
	if i := strings.LastIndexAny(head, nameSeps); i >= room/2 {
		head = head[:i+1]
	}
	return head + "…" + tail
}

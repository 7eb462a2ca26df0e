package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
)

// picker is a filterable list cursor shared by the list tabs.
type picker struct {
	cursor    int
	filter    string
	filtering bool
}

// update moves the cursor over n entries, or edits the filter.
func (p *picker) update(msg tea.KeyMsg, c *common, n int) {
	if p.filtering {
		switch {
		case key.Matches(msg, c.keys.filter.done):
			p.filtering = false
		case key.Matches(msg, c.keys.filter.leave):
			p.filter, p.filtering = "", false
		case key.Matches(msg, c.keys.filter.clear):
			p.filter = ""
		case key.Matches(msg, c.keys.filter.erase):
			if r := []rune(p.filter); len(r) > 0 {
				p.filter = string(r[:len(r)-1])
			}
		case msg.Type == tea.KeyRunes, msg.Type == tea.KeySpace: // text, not keys
			p.filter += string(msg.Runes)
		}
		p.cursor = 0
		return
	}
	switch {
	case key.Matches(msg, c.keys.tabs.filter): // a new filter, not the last one
		p.filter, p.filtering, p.cursor = "", true, 0
	case key.Matches(msg, c.keys.tabs.up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, c.keys.tabs.down):
		p.cursor = min(p.cursor+1, max(n-1, 0))
	}
}

func (p *picker) matches(s string) bool {
	return p.filter == "" || strings.Contains(strings.ToLower(s), strings.ToLower(p.filter))
}

// list draws names with the cursor, scrolled to keep it visible. failure,
// when the list could not be had in full, shows under what did arrive, or
// in place of "(none)".
func (p *picker) list(c *common, names []string, failure error, width, height int) string {
	rows := make([]row, len(names))
	for i, n := range names {
		rows[i] = row{name: n}
	}
	return p.rows(c, rows, failure, width, height)
}

// row is an entry of a list: its name, and a mark at the row's end (the
// Tools list marks a tool with an app); a faint row is drawn dim.
type row struct {
	name, mark string
	faint      bool
}

// text is the row in width cells, the cursor's when selected.
func (r row) text(c *common, width int, selected bool) string {
	name, mark := line(r.name, width-2), ""
	if r.mark != "" {
		mark = line(r.mark, max(width-6, 1))
		room := max(width-3-lipgloss.Width(mark), 1)
		name = line(r.name, room)
		mark = strings.Repeat(" ", max(width-2-lipgloss.Width(name)-lipgloss.Width(mark), 1)) + mark
	}
	switch {
	case selected:
		return c.styles.selected.Render("> " + name + mark)
	case r.faint:
		return c.styles.dim.Render("  " + name + mark)
	case mark == "":
		return "  " + name
	}
	return "  " + name + c.styles.dim.Render(mark)
}

// head is the line above a list: its filter, or how to start one.
func (p *picker) head(c *common, width int) string {
	head := "/ filter"
	if p.filtering || p.filter != "" {
		head = "filter: " + p.filter
		if p.filtering {
			head += "▏"
		}
	}
	return c.styles.dim.Render(line(head, width))
}

// rows draws a list of rows as list draws names.
func (p *picker) rows(c *common, names []row, failure error, width, height int) string {
	var fail string
	if failure != nil {
		fail = block(c.styles.err.Render("error: ")+clean(failure.Error()), width, 4)
		height -= lipgloss.Height(fail)
	}
	var b strings.Builder
	b.WriteString(p.head(c, width) + "\n")
	height--
	if len(names) == 0 && fail == "" {
		b.WriteString(c.styles.dim.Render("(none)"))
		return b.String()
	}
	start := 0
	if p.cursor >= height {
		start = p.cursor - height + 1
	}
	for i := start; i < len(names) && i < start+height; i++ {
		b.WriteString(names[i].text(c, width, i == p.cursor) + "\n")
	}
	out := strings.TrimRight(b.String(), "\n")
	if fail != "" {
		out += "\n" + fail
	}
	return out
}

// room is how many cells the row's name may take in width.
func (r row) room(width int) int {
	if r.mark == "" {
		return width - 2
	}
	return max(width-3-lipgloss.Width(line(r.mark, max(width-6, 1))), 1)
}

// cutRows cuts the rows' names in their middle to fit width, so that
// names that share a long start stay told apart (cutNamesIn).
func cutRows(rows []row, width int) {
	names, widths := make([]string, len(rows)), make([]int, len(rows))
	for i, r := range rows {
		names[i], widths[i] = r.name, r.room(width)
	}
	for i, n := range cutNamesIn(names, widths) {
		rows[i].name = n
	}
}

// cutNames cuts names to width cells in their middle (cutNamesIn).
func cutNames(names []string, width int) []string {
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

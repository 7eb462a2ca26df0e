package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
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

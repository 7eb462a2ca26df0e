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
	var fail string
	if failure != nil {
		fail = block(c.styles.err.Render("error: ")+clean(failure.Error()), width, 4)
		height -= lipgloss.Height(fail)
	}
	var b strings.Builder
	head := "/ filter"
	if p.filtering || p.filter != "" {
		head = "filter: " + p.filter
		if p.filtering {
			head += "▏"
		}
	}
	b.WriteString(c.styles.dim.Render(line(head, width)) + "\n")
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
		row := line(names[i], width-2)
		if i == p.cursor {
			b.WriteString(c.styles.selected.Render("> "+row) + "\n")
		} else {
			b.WriteString("  " + row + "\n")
		}
	}
	out := strings.TrimRight(b.String(), "\n")
	if fail != "" {
		out += "\n" + fail
	}
	return out
}

package tui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// picker is a filterable list cursor shared by the list tabs.
type picker struct {
	cursor    int
	filter    string
	filtering bool
}

// update moves the cursor or edits the filter; it reports whether it used
// the key.
func (p *picker) update(msg tea.KeyMsg, c *common, n int) bool {
	if p.filtering {
		switch msg.Type {
		case tea.KeyEnter, tea.KeyEsc:
			p.filtering = false
		case tea.KeyBackspace:
			if r := []rune(p.filter); len(r) > 0 {
				p.filter = string(r[:len(r)-1])
			}
		case tea.KeyRunes, tea.KeySpace:
			p.filter += string(msg.Runes)
		}
		p.cursor = 0
		return true
	}
	switch {
	case key.Matches(msg, c.keys.filter):
		p.filtering = true
	case key.Matches(msg, c.keys.up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, c.keys.down):
		p.cursor = min(p.cursor+1, max(n-1, 0))
	default:
		return false
	}
	return true
}

func (p *picker) matches(s string) bool {
	return p.filter == "" || strings.Contains(strings.ToLower(s), strings.ToLower(p.filter))
}

// list draws names with the cursor, scrolled to keep it visible.
func (p *picker) list(c *common, names []string, width, height int) string {
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
	if len(names) == 0 {
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
	return strings.TrimRight(b.String(), "\n")
}

// The Prompts tab: the server's prompts beside the selected one's
// arguments and what getting it gave.

package page

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/mcpeek/mcpeek/tui/layer"
	"github.com/mcpeek/mcpeek/tui/widget"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompts is the Prompts tab. It holds the prompts listed, what getting
// each gave last and the arguments last given (this session); getting is
// the program's, asked by [AskPrompt] and [layer.GetPrompt].
type Prompts struct {
	c       *widget.Common
	prompts []*mcp.Prompt
	err     error // why the list is missing or short
	list    widget.List
	focus   bool // ↑/↓ scroll the pane
	pane    widget.Pane
	got     map[string]string            // per prompt, what getting it last gave
	args    map[string]map[string]string // per prompt, the arguments last given
}

// NewPrompts is the Prompts tab, drawn with c's styles and keys.
func NewPrompts(c *widget.Common) *Prompts { return &Prompts{c: c} }

// Messages the program sends the Prompts tab.
type (
	// PromptList is the server's prompts, or why they are missing or
	// short: the selection stays on the prompt it named.
	PromptList struct {
		Prompts []*mcp.Prompt
		Err     error
	}
	// PromptGetting says the prompt is being got with those arguments,
	// which are remembered for its next form.
	PromptGetting struct {
		Name string
		Args map[string]string
	}
	// PromptGot is what getting the prompt gave, drawn.
	PromptGot struct{ Name, Text string }
)

// AskPrompt asks for a prompt's arguments with a form starting from Last
// (the arguments last given), then gets it: the action of enter on a
// prompt with arguments.
type AskPrompt struct {
	Prompt *mcp.Prompt
	Last   map[string]string
}

// Title is "Prompts".
func (*Prompts) Title() string { return "Prompts" }

// Help is the list's keys, or the pane's while it is focused.
func (p *Prompts) Help() []key.Binding { return listOrPaneHelp(p.c, p.focus) }

// Focus does nothing: the list and pane keep their places.
func (*Prompts) Focus(bool) {}

// Filtering reports whether the list's filter is being typed.
func (p *Prompts) Filtering() bool { return p.list.Filtering() }

// Update takes the prompts, what getting them gave, the pane's text and
// the keys.
func (p *Prompts) Update(msg tea.Msg) Action {
	switch msg := msg.(type) {
	case PromptList:
		kept := ""
		if pr := p.Selected(); pr != nil {
			kept = pr.Name
		}
		p.prompts, p.err = msg.Prompts, msg.Err
		reselect(&p.list, p.names(), kept)
	case PromptGetting:
		if p.args == nil {
			p.args, p.got = map[string]map[string]string{}, map[string]string{}
		}
		p.args[msg.Name] = msg.Args
		p.got[msg.Name] = p.c.Styles.Dim.Render("getting " + widget.Clean(msg.Name) + "…")
	case PromptGot:
		if p.got == nil {
			p.got = map[string]string{}
		}
		p.got[msg.Name] = msg.Text
	case Show: // the body's room: the pane is what the list leaves
		p.pane.Set(msg.Text, detailWidth(msg.Width), msg.Height)
	case tea.MouseMsg:
		p.pane.Wheel(msg)
	case tea.KeyMsg:
		return p.key(msg)
	}
	return nil
}

func (p *Prompts) key(msg tea.KeyMsg) Action {
	k := p.c.Keys.Tabs
	// The prompts are not filtered (no row would be hidden), but / still
	// starts a filter, as on every list.
	if p.list.Filtering() {
		p.list.Update(msg, p.c.Keys, len(p.prompts))
		return nil
	}
	switch {
	case key.Matches(msg, k.Open):
		return p.open()
	case key.Matches(msg, k.EditArgs):
		return p.edit()
	case key.Matches(msg, k.Focus):
		p.focus = true
	case key.Matches(msg, k.Back):
		p.focus = false
	case p.pane.Scroll(msg, k, p.focus):
	case key.Matches(msg, k.Filter, k.Up, k.Down):
		p.list.Update(msg, p.c.Keys, len(p.prompts))
	default:
		return layer.Pass{}
	}
	return nil
}

// open gets the selected prompt, first asking for its arguments.
func (p *Prompts) open() Action {
	pr := p.Selected()
	switch {
	case pr == nil:
		return nil
	case len(pr.Arguments) == 0:
		return layer.GetPrompt{Name: pr.Name}
	}
	return AskPrompt{Prompt: pr, Last: p.args[pr.Name]}
}

// edit opens the multi-line editor of the selected prompt's arguments,
// starting from those last given.
func (p *Prompts) edit() Action {
	pr := p.Selected()
	switch {
	case pr == nil:
		return nil
	case len(pr.Arguments) == 0:
		return Note{Text: widget.Clean(pr.Name) + " takes no arguments: " + p.c.Keys.Tabs.Open.Help().Key + " gets it", Err: true}
	}
	l, blink := layer.NewPromptArgs(p.c, pr, p.args[pr.Name])
	return layer.Batch{layer.Open{Layer: l}, layer.Cmd{Cmd: blink}}
}

func (p *Prompts) names() []string {
	names := make([]string, 0, len(p.prompts))
	for _, pr := range p.prompts {
		names = append(names, pr.Name)
	}
	return names
}

// List is a copy of the list's cursor and filter, as they are.
func (p *Prompts) List() *widget.List { l := p.list; return &l }

// Selected is the prompt under the cursor, or nil.
func (p *Prompts) Selected() *mcp.Prompt {
	if c := p.list.Cursor(); c < len(p.prompts) {
		return p.prompts[c]
	}
	return nil
}

// View lists the prompts beside the pane.
func (p *Prompts) View(w, h int) string {
	lw := listWidth(w)
	list := p.list.View(p.c, widget.Names(widget.CutNames(p.names(), lw-2)), p.err, lw, h)
	return columns(p.c, list, p.pane.View(p.c, ""), lw, p.focus)
}

// Text is the pane's text: the selected prompt's title, name, description
// and arguments (each required or not, and what it is), then what
// getting it last gave.
func (p *Prompts) Text() string {
	pr := p.Selected()
	if pr == nil {
		return ""
	}
	s := p.c.Styles
	var b strings.Builder
	b.WriteString(s.Title.Render(widget.Clean(or(pr.Title, pr.Name))) + "\n")
	if pr.Title != "" {
		b.WriteString(s.Dim.Render("name: ") + widget.Clean(pr.Name) + "\n")
	}
	if pr.Description != "" {
		b.WriteString(widget.Clean(pr.Description) + "\n")
	}
	if len(pr.Arguments) == 0 {
		b.WriteString(s.Dim.Render("no arguments") + "\n")
	} else {
		b.WriteString(s.Dim.Render("arguments:") + "\n")
	}
	for _, a := range pr.Arguments {
		name := "  " + widget.Clean(or(a.Title, a.Name))
		if a.Title != "" {
			name += s.Dim.Render(" (" + widget.Clean(a.Name) + ")")
		}
		if a.Required {
			name += s.Warn.Render(" required")
		}
		b.WriteString(name + "\n")
		if a.Description != "" {
			b.WriteString("    " + widget.Clean(a.Description) + "\n")
		}
	}
	if got, ok := p.got[pr.Name]; ok {
		return b.String() + "\n" + got
	}
	k := p.c.Keys.Tabs
	hint := k.Open.Help().Key + " gets the prompt"
	if len(pr.Arguments) > 0 {
		hint += fmt.Sprintf(", asking for its arguments first; %s edits them on several lines", k.EditArgs.Help().Key)
	}
	return b.String() + "\n" + s.Dim.Render(hint)
}

// or is a, or b when a is empty.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

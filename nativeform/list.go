package nativeform

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

// list is a list of text or numbers (a tool's array argument): its items
// one under the other, and an input under them that adds one. Typing and
// enter add an item (enter on an empty input moves on, as in every
// field); ↑/↓ pick an item and delete removes it. Bound to the value's
// items: nothing is sent while the list is empty.
type list struct {
	*fieldBase
	input  textinput.Model
	cursor int // the item picked, or -1: the input
}

func (f *Form) newList(v *value, title func() string) *list {
	l := &list{fieldBase: &fieldBase{v: v, title: title}, cursor: -1}
	limit := 0
	if m := v.field.Item.MaxLength; m != nil {
		limit = *m
	}
	l.input = newTextInput("", "add an item: type it, then enter", limit)
	l.self = l
	return l
}

func (l *list) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, isKey := msg.(tea.KeyMsg)
	if !isKey {
		var cmd tea.Cmd
		l.input, cmd = l.input.Update(msg)
		return l, cmd
	}
	switch {
	case key.Matches(km, ControlKeys.AddItem) && l.cursor < 0 && strings.TrimSpace(l.input.Value()) != "":
		l.v.items = append(l.v.items, strings.TrimSpace(l.input.Value()))
		l.input.SetValue("")
		return l, nil
	case key.Matches(km, ControlKeys.PrevItem):
		switch {
		case l.cursor < 0 && len(l.v.items) > 0:
			l.cursor = len(l.v.items) - 1
		case l.cursor > 0:
			l.cursor--
		}
		return l, l.focusInput()
	case key.Matches(km, ControlKeys.NextItem):
		if l.cursor >= 0 {
			l.cursor++
			if l.cursor >= len(l.v.items) {
				l.cursor = -1
			}
		}
		return l, l.focusInput()
	case key.Matches(km, ControlKeys.RemoveItem) && l.cursor >= 0:
		l.v.items = slices.Delete(l.v.items, l.cursor, l.cursor+1)
		l.cursor = min(l.cursor, len(l.v.items)-1)
		return l, l.focusInput()
	}
	if cmd, ok := l.nav(km); ok {
		return l, cmd
	}
	if l.cursor >= 0 { // typing goes to the input
		l.cursor = -1
		l.input.Focus()
	}
	var cmd tea.Cmd
	l.input, cmd = l.input.Update(msg)
	return l, cmd
}

// focusInput gives the input the cursor while no item is picked.
func (l *list) focusInput() tea.Cmd {
	if l.cursor < 0 && l.focused {
		return l.input.Focus()
	}
	l.input.Blur()
	return nil
}

func (l *list) View() string {
	st := l.styles()
	l.styleInput(&l.input)
	var lines []string
	width := max(l.inner()-2, 1)
	for i, it := range l.v.items {
		text := ansi.Truncate(strings.Join(strings.Fields(it), " "), width, "…")
		if l.focused && i == l.cursor {
			lines = append(lines, st.SelectSelector.String()+st.SelectedOption.Render(text))
		} else {
			lines = append(lines, "• "+st.Option.Render(text))
		}
	}
	if len(l.v.items) == 0 {
		lines = append(lines, styleDim.Render("(empty)"))
	}
	lines = append(lines, l.input.View())
	if l.focused {
		lines = append(lines, l.hint("enter adds", "↑/↓ an item", "delete removes it", "enter on empty: next field"))
	}
	return l.render(strings.Join(lines, "\n"))
}

func (l *list) Focus() tea.Cmd {
	l.focused, l.cursor = true, -1
	return l.input.Focus()
}

func (l *list) Blur() tea.Cmd {
	l.focused, l.cursor = false, -1
	l.input.Blur()
	return nil
}

func (l *list) GetValue() any { return l.v.items }

func (l *list) KeyBinds() []key.Binding {
	k := ControlKeys
	return append([]key.Binding{k.AddItem, k.PrevItem, k.NextItem, k.RemoveItem}, l.navKeys()...)
}

package nativeform

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// segmented is a single choice of a few options shown on one line, the
// chosen one marked; the arrows choose. Bound to the value's choice, as
// the list is: 1 + an option's index, or noAnswer when the field may stay
// unanswered and nothing is chosen yet. When the options do not fit on a
// line, or the terminal is narrow, it is the list ("(no answer)" first
// where it may be unanswered), with the same keys.
type segmented struct {
	*fieldBase
}

func (f *Form) newSegmented(v *value, title func() string) *segmented {
	s := &segmented{fieldBase: &fieldBase{v: v, title: title}}
	s.self = s
	return s
}

// choice is the option chosen: 1 + its index, or noAnswer. A yes/no
// with a default (drawn as segments where there is no colour to show
// which of huh's buttons is chosen) holds its answer in v.yes.
func (s *segmented) choice() int {
	if s.v.control != controlConfirm {
		return s.v.choice
	}
	if s.v.yes {
		return 1
	}
	return 2
}

func (s *segmented) setChoice(c int) {
	if s.v.control == controlConfirm {
		s.v.yes = c == 1
		return
	}
	s.v.choice = c
}

// lowest is the lowest choice: "(no answer)" where the field may stay
// unanswered, else the first option.
func (s *segmented) lowest() int {
	if s.v.unanswerable() {
		return noAnswer
	}
	return 1
}

// floor is the lowest choice ← reaches: a required field, once
// answered, is never taken back to "(no answer)", which it could not be
// sent with.
func (s *segmented) floor() int {
	if s.v.field.Required && s.choice() != noAnswer {
		return 1
	}
	return s.lowest()
}

// clearable reports whether backspace takes the answer back: only where
// the field may stay unanswered.
func (s *segmented) clearable() bool { return s.v.unanswerable() && !s.v.field.Required }

func (s *segmented) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return s, nil
	}
	if cmd, ok := s.nav(km); ok {
		return s, cmd
	}
	switch {
	case key.Matches(km, ControlKeys.PrevOption):
		s.setChoice(max(s.choice()-1, s.floor()))
	case key.Matches(km, ControlKeys.NextOption):
		s.setChoice(min(s.choice()+1, len(s.v.options())))
	case key.Matches(km, ControlKeys.Clear) && s.clearable():
		s.setChoice(noAnswer)
	case key.Matches(km, ControlKeys.Yes) && s.v.control == controlConfirm:
		s.setChoice(1)
		return s, huh.NextField // as huh's yes/no: the answer, and on to the next field
	case key.Matches(km, ControlKeys.No) && s.v.control == controlConfirm:
		s.setChoice(2)
		return s, huh.NextField
	}
	return s, nil
}

// titles are the options' titles on one line each.
func (s *segmented) titles() []string {
	var out []string
	for _, o := range s.v.options() {
		out = append(out, strings.Join(strings.Fields(o.Title), " "))
	}
	return out
}

func (s *segmented) View() string {
	if line := s.line(); !s.narrow() && lipgloss.Width(line) <= s.inner() {
		return s.render(line)
	}
	return s.render(s.list())
}

// line is the options side by side, the chosen one marked, and while the
// control has the focus the keys.
func (s *segmented) line() string {
	st := s.styles()
	var segs []string
	for i, t := range s.titles() {
		if s.choice() == i+1 {
			segs = append(segs, st.SelectedOption.Render("● "+t))
		} else {
			segs = append(segs, st.Option.Render("○ "+t))
		}
	}
	line := strings.Join(segs, "   ")
	if s.focused {
		keys := "←/→ choose"
		if s.clearable() && s.choice() != noAnswer {
			keys += " · backspace: no answer"
		}
		line += "   " + styleDim.Render(keys)
	}
	return line
}

// list is the text form: the options one under the other, as huh's
// select shows them.
func (s *segmented) list() string {
	st := s.styles()
	titles := s.titles()
	if s.v.unanswerable() {
		titles = append([]string{"(no answer)"}, titles...)
	}
	lines := make([]string, len(titles))
	for i, t := range titles {
		t = ansi.Truncate(t, max(s.inner()-2, 1), "…")
		if i+s.lowest() == s.choice() {
			lines[i] = st.SelectSelector.String() + st.SelectedOption.Render(t)
		} else {
			lines[i] = "  " + st.Option.Render(t)
		}
	}
	return strings.Join(lines, "\n")
}

func (s *segmented) Focus() tea.Cmd { s.focused = true; return nil }
func (s *segmented) Blur() tea.Cmd  { s.focused = false; return nil }
func (s *segmented) GetValue() any  { return s.choice() }

func (s *segmented) KeyBinds() []key.Binding {
	keys := []key.Binding{ControlKeys.PrevOption, ControlKeys.NextOption, ControlKeys.Clear}
	if s.v.control == controlConfirm {
		keys = append(keys, ControlKeys.Yes, ControlKeys.No)
	}
	return append(keys, s.navKeys()...)
}

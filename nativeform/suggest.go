package nativeform

import (
	"fmt"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/textclean"
)

// Suggestions are values offered under a text field as the person types:
// completions the program hosting the form fetches for the field's text
// (a form built with Options.Suggestions). The form shows them under the
// focused field; SuggestKeys move among them and put one in the field.
type Suggestions struct {
	Values []string
	// More is how many values there are beyond Values; -1: more, how many
	// unknown.
	More int
	// Note is said quietly under the field instead of values: why there
	// are none (a failed request).
	Note string
}

// SuggestKeyMap is the keys of a field's suggestions, while they show;
// otherwise the keys are the field's own.
type SuggestKeyMap struct {
	Accept, Next, Prev key.Binding
}

// SuggestKeys are the keys of suggestions.
var SuggestKeys = SuggestKeyMap{
	Accept: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "accept")),
	Next:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next suggestion")),
	Prev:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous suggestion")),
}

// styleChosen is the highlighted suggestion.
var styleChosen = lipgloss.NewStyle().Foreground(lipgloss.Color("63")).Bold(true)

// styleFocusedField frames the suggestions as part of the focused field:
// the form's theme (huh's default) draws that field with this style.
var styleFocusedField = sync.OnceValue(func() lipgloss.Style { return defaultTheme().Focused.Base })

// suggestRows is how many suggestions show at once; the rest scroll.
const suggestRows = 5

// suggestField is a text field that shows suggestions under itself while
// it has the focus. It is the huh input with a few more lines: the form's
// page lays it out, and scrolls to it, as it does any field.
type suggestField struct {
	*huh.Input
	v       *value
	list    Suggestions
	cursor  int
	focused bool
	width   int
}

func (s *suggestField) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := s.Input.Update(msg)
	return s, cmd
}

func (s *suggestField) Focus() tea.Cmd { s.focused = true; return s.Input.Focus() }
func (s *suggestField) Blur() tea.Cmd  { s.focused = false; return s.Input.Blur() }

func (s *suggestField) WithTheme(t *huh.Theme) huh.Field { s.Input.WithTheme(t); return s }
func (s *suggestField) WithKeyMap(k *huh.KeyMap) huh.Field {
	s.Input.WithKeyMap(k)
	return s
}
func (s *suggestField) WithWidth(w int) huh.Field                  { s.width = w; s.Input.WithWidth(w); return s }
func (s *suggestField) WithHeight(h int) huh.Field                 { s.Input.WithHeight(h); return s }
func (s *suggestField) WithPosition(p huh.FieldPosition) huh.Field { s.Input.WithPosition(p); return s }

// showing reports whether the field shows suggestions or a note.
func (s *suggestField) showing() bool {
	return s.focused && (len(s.list.Values) > 0 || s.list.Note != "")
}

// choosing reports whether the field has values to choose from on
// screen, so that the suggestion keys are its.
func (s *suggestField) choosing() bool { return s.focused && len(s.list.Values) > 0 }

func (s *suggestField) View() string {
	out := s.Input.View()
	if !s.showing() {
		return out
	}
	return out + "\n" + styleFocusedField().Render(s.suggestionsView())
}

// suggestionsView is the list under the field: a window of values around
// the highlighted one, then the keys and the count.
func (s *suggestField) suggestionsView() string {
	width := max(s.width-4, 10)
	if len(s.list.Values) == 0 {
		return styleDim.Render(ansi.Truncate(formschema.Clean(s.list.Note), width, "…"))
	}
	n := len(s.list.Values)
	start := max(min(s.cursor-suggestRows/2, n-suggestRows), 0)
	var b strings.Builder
	for i := start; i < n && i < start+suggestRows; i++ {
		v := ansi.Truncate(textclean.OneLine(s.list.Values[i]), width, "…")
		if i == s.cursor {
			b.WriteString(styleChosen.Render("› "+v) + "\n")
		} else {
			b.WriteString("  " + v + "\n")
		}
	}
	count := fmt.Sprintf("%d of %d", s.cursor+1, n)
	switch {
	case s.list.More > 0:
		count += fmt.Sprintf(", and %d more", s.list.More)
	case s.list.More < 0:
		count += ", and more"
	}
	keys := SuggestKeys.Accept.Help().Key + " accepts · " + SuggestKeys.Prev.Help().Key + SuggestKeys.Next.Help().Key + " choose · " + count
	b.WriteString(styleDim.Render(ansi.Truncate(keys, width, "…")))
	return b.String()
}

// key handles the suggestion keys while values show, reporting whether
// the key was one.
func (s *suggestField) key(msg tea.KeyMsg) bool {
	if !s.choosing() {
		return false
	}
	switch {
	case key.Matches(msg, SuggestKeys.Next):
		s.cursor = min(s.cursor+1, len(s.list.Values)-1)
	case key.Matches(msg, SuggestKeys.Prev):
		s.cursor = max(s.cursor-1, 0)
	case key.Matches(msg, SuggestKeys.Accept):
		s.v.text = s.list.Values[s.cursor]
		s.Input.Value(&s.v.text)
		s.Input.Update(tea.KeyMsg{Type: tea.KeyEnd}) // the cursor after the text
		s.list, s.cursor = Suggestions{}, 0
	default:
		return false
	}
	return true
}

// suggesting wraps a text field of a form that takes suggestions.
func (f *Form) suggesting(v *value, in *huh.Input) huh.Field {
	if !f.opts.Suggestions {
		return in
	}
	return &suggestField{Input: in, v: v, width: f.width - 2}
}

// focusedSuggest is the focused field when it takes suggestions.
func (f *Form) focusedSuggest() (*suggestField, bool) {
	if f.form == nil || f.result != nil {
		return nil, false
	}
	s, ok := f.form.GetFocusedField().(*suggestField)
	return s, ok
}

// Focused is the key and text of the focused field, when it is a text
// field that takes suggestions.
func (f *Form) Focused() (key, text string, ok bool) {
	s, ok := f.focusedSuggest()
	if !ok {
		return "", "", false
	}
	return s.v.field.Key, s.v.text, true
}

// Texts are the texts of the form's text fields, by key: what the person
// has typed so far.
func (f *Form) Texts() map[string]string {
	out := map[string]string{}
	for _, v := range f.leaves {
		if v.control == controlInput {
			out[v.field.Key] = v.text
		}
	}
	return out
}

// SetSuggestions shows suggestions under a field while it has the focus,
// the first highlighted; empty ones hide them.
func (f *Form) SetSuggestions(key string, list Suggestions) {
	for _, fl := range f.fields {
		if s, ok := fl.(*suggestField); ok && s.v.field.Key == key {
			s.list, s.cursor = list, 0
		}
	}
}

// Suggested is what shows under a field: its suggestions and the one
// highlighted.
func (f *Form) Suggested(key string) (Suggestions, int) {
	for _, fl := range f.fields {
		if s, ok := fl.(*suggestField); ok && s.v.field.Key == key {
			return s.list, s.cursor
		}
	}
	return Suggestions{}, 0
}

// suggestKey gives a key to the focused field's suggestions, reporting
// whether they took it.
func (f *Form) suggestKey(msg tea.KeyMsg) bool {
	s, ok := f.focusedSuggest()
	if !ok || !s.key(msg) {
		return false
	}
	f.refreshErrors()
	return true
}

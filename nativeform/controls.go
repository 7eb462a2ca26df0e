package nativeform

import (
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/huh"
	"github.com/charmbracelet/x/ansi"
)

// ControlKeyMap is the keys of the form's own controls: the calendar of a
// date, the slider of a bounded number and the segmented choice. The
// focused control takes the arrows; enter and tab move on to the next
// field and shift+tab back, in these controls as in every field.
type ControlKeyMap struct {
	// The calendar: a day, a week, a month, today.
	PrevDay, NextDay, PrevWeek, NextWeek, PrevMonth, NextMonth, Today key.Binding
	// The slider: a step, the ends.
	Lower, Higher, Lowest, Highest key.Binding
	// The segmented choice: the option before or after; Clear leaves an
	// optional choice unanswered.
	PrevOption, NextOption, Clear key.Binding
	// A yes/no drawn as segments (without colour): yes or no at once.
	Yes, No key.Binding
	// The list: add what is typed, pick the item before or after, remove
	// the one picked.
	AddItem, PrevItem, NextItem, RemoveItem key.Binding
	// The multi-select (huh's, bound to these): toggle the option under
	// the cursor, or all of them.
	Toggle, ToggleAll key.Binding
}

// ControlKeys are the keys of the form's own controls; a program hosting
// forms lists them from here.
var ControlKeys = ControlKeyMap{
	PrevDay:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "a day earlier")),
	NextDay:    key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "a day later")),
	PrevWeek:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "a week earlier")),
	NextWeek:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "a week later")),
	PrevMonth:  key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "a month earlier")),
	NextMonth:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "a month later")),
	Today:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "today")),
	Lower:      key.NewBinding(key.WithKeys("left", "down"), key.WithHelp("←", "a step down")),
	Higher:     key.NewBinding(key.WithKeys("right", "up"), key.WithHelp("→", "a step up")),
	Lowest:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "the lowest")),
	Highest:    key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "the highest")),
	PrevOption: key.NewBinding(key.WithKeys("left", "h", "up", "k"), key.WithHelp("←", "the option before")),
	NextOption: key.NewBinding(key.WithKeys("right", "l", "down", "j"), key.WithHelp("→", "the option after")),
	Clear:      key.NewBinding(key.WithKeys("backspace", "delete"), key.WithHelp("backspace", "no answer")),
	Yes:        key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "yes")),
	No:         key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "no")),
	AddItem:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add the item typed")),
	PrevItem:   key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "the item before")),
	NextItem:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "the item after")),
	RemoveItem: key.NewBinding(key.WithKeys("delete", "ctrl+x"), key.WithHelp("delete", "remove the item")),
	Toggle:     key.NewBinding(key.WithKeys(" ", "x"), key.WithHelp("space/x", "toggle")),
	ToggleAll:  key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "all/none")),
}

// ShortHelp is every control key, in a line.
func (k ControlKeyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, col := range k.FullHelp() {
		out = append(out, col...)
	}
	return out
}

// FullHelp lists the controls' keys, a control a column.
func (k ControlKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.PrevDay, k.NextDay, k.PrevWeek, k.NextWeek, k.PrevMonth, k.NextMonth, k.Today},
		{k.Lower, k.Higher, k.Lowest, k.Highest},
		{k.PrevOption, k.NextOption, k.Clear, k.Yes, k.No},
		{k.AddItem, k.PrevItem, k.NextItem, k.RemoveItem},
		{k.Toggle, k.ToggleAll},
	}
}

// narrowColumns is the terminal width below which every control is shown
// in its text form: the form's fields are two columns narrower.
const narrowColumns = 40

// defaultTheme is the form's theme (huh's default), for fields not given
// one: made when first drawn, so that a run that shows no form does not
// build it (it is most of this package's start-up).
var defaultTheme = sync.OnceValue(huh.ThemeCharm)

// theme is the form's theme: huh's default, and where there is no colour
// a multi-select's choices marked [x] and [ ], not by colour.
func theme() *huh.Theme {
	t := huh.ThemeCharm()
	if !colour() {
		for _, st := range []*huh.FieldStyles{&t.Focused, &t.Blurred} {
			st.SelectedPrefix = st.SelectedPrefix.SetString("[x] ")
			st.UnselectedPrefix = st.UnselectedPrefix.SetString("[ ] ")
		}
	}
	return t
}

// fieldBase is what the form's own controls share: the field and its
// value, the title with its error, the theme, the keys that move between
// fields, the focus and the width. Each control embeds it and draws its
// own body under the title and description, as huh's fields do.
type fieldBase struct {
	self    huh.Field // the control embedding this, returned by the With… methods
	v       *value
	title   func() string
	theme   *huh.Theme
	keymap  huh.InputKeyMap
	focused bool
	width   int
}

func (b *fieldBase) styles() *huh.FieldStyles {
	t := b.theme
	if t == nil {
		t = defaultTheme()
	}
	if b.focused {
		return &t.Focused
	}
	return &t.Blurred
}

// narrow reports whether the terminal is too narrow for the control: it
// then shows and takes keys as its text form.
func (b *fieldBase) narrow() bool { return b.width > 0 && b.width+2 < narrowColumns }

// inner is the width inside the field's frame.
func (b *fieldBase) inner() int {
	return max(b.width-b.styles().Base.GetHorizontalFrameSize(), 1)
}

// nav handles the keys that move to another field.
func (b *fieldBase) nav(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, b.keymap.Prev):
		return huh.PrevField, true
	case key.Matches(msg, b.keymap.Next, b.keymap.Submit):
		return huh.NextField, true
	}
	return nil, false
}

// render frames the control's body under its title and description.
func (b *fieldBase) render(body string) string {
	st := b.styles()
	var sb strings.Builder
	sb.WriteString(st.Title.Render(ansi.Wrap(b.title(), b.inner(), ",.-; ")))
	if d := description(b.v.field); d != "" {
		sb.WriteString("\n" + st.Description.Render(ansi.Wrap(d, b.inner(), ",.-; ")))
	}
	sb.WriteString("\n" + body)
	return st.Base.Width(b.width).Render(sb.String())
}

// hint is a line of keys under a focused control, cut to fit.
func (b *fieldBase) hint(parts ...string) string {
	return styleDim.Render(ansi.Truncate(strings.Join(parts, " · "), b.inner(), "…"))
}

// styleInput gives a text input of the control the theme's styles.
func (b *fieldBase) styleInput(in *textinput.Model) {
	st := b.styles()
	in.PlaceholderStyle = st.TextInput.Placeholder
	in.PromptStyle = st.TextInput.Prompt
	in.Cursor.Style = st.TextInput.Cursor
	in.Cursor.TextStyle = st.TextInput.CursorText
	in.TextStyle = st.TextInput.Text
}

func (b *fieldBase) Init() tea.Cmd { return nil }
func (b *fieldBase) Error() error  { return nil }
func (b *fieldBase) Skip() bool    { return false }
func (b *fieldBase) Zoom() bool    { return false }
func (b *fieldBase) GetKey() string {
	return b.v.field.Key
}

// Run runs the control on its own.
func (b *fieldBase) Run() error { return huh.Run(b.self) }

// RunAccessible is not how mcpeek asks without a screen: plain mode
// (AskPlain) asks every field with line prompts.
func (b *fieldBase) RunAccessible(io.Writer, io.Reader) error {
	return errors.New("this control has no accessible mode: mcpeek asks with plain line prompts instead")
}

func (b *fieldBase) WithTheme(t *huh.Theme) huh.Field {
	if b.theme == nil {
		b.theme = t
	}
	return b.self
}

func (b *fieldBase) WithAccessible(bool) huh.Field { return b.self }
func (b *fieldBase) WithKeyMap(k *huh.KeyMap) huh.Field {
	b.keymap = k.Input
	return b.self
}
func (b *fieldBase) WithWidth(w int) huh.Field { b.width = w; return b.self }
func (b *fieldBase) WithHeight(int) huh.Field  { return b.self }
func (b *fieldBase) WithPosition(p huh.FieldPosition) huh.Field {
	b.keymap.Prev.SetEnabled(!p.IsFirst())
	b.keymap.Next.SetEnabled(!p.IsLast())
	b.keymap.Submit.SetEnabled(p.IsLast())
	return b.self
}

// navKeys are the keys that move between fields, for KeyBinds.
func (b *fieldBase) navKeys() []key.Binding {
	return []key.Binding{b.keymap.Prev, b.keymap.Submit, b.keymap.Next}
}

// newTextInput is a text input as the form's controls use it: the value
// and the placeholder, no width (the control lays it out).
func newTextInput(value, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = placeholder
	in.CharLimit = limit
	in.SetValue(value)
	in.Blur()
	return in
}

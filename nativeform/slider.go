package nativeform

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/formschema"
)

// maxSteps is the most steps a slider has; a wider range keeps the text
// input.
const maxSteps = 100

// numberDivisions is how many steps a number's slider has when the schema
// gives no multipleOf: a twentieth of the range each.
const numberDivisions = 20

// maxTrack is the longest track a slider draws, in cells.
const maxTrack = 40

// sliderScale is the values a slider steps through: first + k·step for k
// from 0 to steps, between the field's bounds lo and hi.
type sliderScale struct {
	lo, hi      float64
	first, step float64
	steps       int
	decimals    int // values are rounded to this many decimals (-1: not rounded)
	integer     bool
}

// newScale is the scale of a number or integer field with both bounds:
// an integer steps by 1, a number by a twentieth of its range; either by
// its multipleOf where the schema gives one (an integer's when it is a
// whole number), so that every step is a valid value. It reports false
// where the field has no such scale, or more than maxSteps steps.
func newScale(f *formschema.Field) (sliderScale, bool) {
	if f.Minimum == nil || f.Maximum == nil || !(*f.Maximum > *f.Minimum) {
		return sliderScale{}, false
	}
	s := sliderScale{lo: *f.Minimum, hi: *f.Maximum, integer: f.Kind == formschema.KindInteger}
	var last float64
	switch m := f.MultipleOf; {
	case m != nil && (!s.integer || *m == math.Trunc(*m)):
		s.step = *m
		s.first = math.Ceil(s.lo/s.step-1e-9) * s.step
		last = math.Floor(s.hi/s.step+1e-9) * s.step
	case s.integer:
		s.step = 1
		s.first, last = math.Ceil(s.lo), math.Floor(s.hi)
	default:
		s.step = (s.hi - s.lo) / numberDivisions
		s.first, last = s.lo, s.hi
	}
	n := math.Round((last - s.first) / s.step)
	if !(s.step > 0) || math.IsInf(s.step, 0) || !(n >= 1 && n <= maxSteps) || s.first+s.step == s.first {
		return sliderScale{}, false
	}
	s.steps = int(n)
	s.decimals = max(decimals(s.step), decimals(s.first))
	return s, true
}

// decimals counts the decimals a value is written with; -1 when they are
// too many to round to.
func decimals(x float64) int {
	t := strconv.FormatFloat(x, 'f', -1, 64)
	i := strings.IndexByte(t, '.')
	if i < 0 {
		return 0
	}
	if d := len(t) - i - 1; d <= 12 {
		return d
	}
	return -1
}

// value is the k-th value of the scale.
func (s sliderScale) value(k int) float64 {
	k = min(max(k, 0), s.steps)
	x := s.first + float64(k)*s.step
	if s.decimals >= 0 {
		p := math.Pow(10, float64(s.decimals))
		if r := math.Round(x*p) / p; !math.IsInf(r, 0) && !math.IsNaN(r) {
			x = r
		}
	}
	return min(max(x, s.lo), s.hi)
}

// pos is where x is on the scale, in steps from the first value.
func (s sliderScale) pos(x float64) float64 { return (x - s.first) / s.step }

// next is the first value of the scale above x; prev the last below it.
func (s sliderScale) next(x float64) float64 {
	return s.value(int(math.Floor(s.pos(x)+1e-9)) + 1)
}

func (s sliderScale) prev(x float64) float64 {
	return s.value(int(math.Ceil(s.pos(x)-1e-9)) - 1)
}

// format writes a value of the scale as the field's text.
func (s sliderScale) format(x float64) string {
	if s.integer {
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// slider is a number between two bounds on a track: the arrows move the
// knob a step, home and end to the ends, and typing a number still works.
// Its value is the text of the number, bound to the value's text as the
// text input's is: empty (nothing sent) until the knob is moved or a
// number typed, unless the field has a default. On a narrow terminal it
// is the text input alone.
type slider struct {
	*fieldBase
	input textinput.Model
	start float64 // where the knob stands while nothing is set
}

func (f *Form) newSlider(v *value, title func() string) *slider {
	s := &slider{fieldBase: &fieldBase{v: v, title: title}, start: v.scale.value(0)}
	if d, ok := v.field.Default.(float64); ok {
		s.start = d
	}
	s.input = newTextInput(v.text, "", 32)
	s.self = s
	return s
}

// current is the number the field holds, and whether it holds one; else
// the knob's start.
func (s *slider) current() (float64, bool) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s.v.text), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return s.start, false
	}
	return x, true
}

func (s *slider) set(x float64) {
	s.v.text = s.v.scale.format(x)
	s.input.SetValue(s.v.text)
	s.input.CursorEnd()
}

func (s *slider) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, isKey := msg.(tea.KeyMsg)
	if !isKey {
		var cmd tea.Cmd
		s.input, cmd = s.input.Update(msg)
		return s, cmd
	}
	if cmd, ok := s.nav(km); ok {
		return s, cmd
	}
	if !s.narrow() {
		x, _ := s.current()
		sc := s.v.scale
		switch {
		case key.Matches(km, ControlKeys.Lower):
			s.set(sc.prev(x))
			return s, nil
		case key.Matches(km, ControlKeys.Higher):
			s.set(sc.next(x))
			return s, nil
		case key.Matches(km, ControlKeys.Lowest):
			s.set(sc.value(0))
			return s, nil
		case key.Matches(km, ControlKeys.Highest):
			s.set(sc.value(sc.steps))
			return s, nil
		}
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	s.v.text = s.input.Value()
	return s, cmd
}

func (s *slider) View() string {
	s.styleInput(&s.input)
	if s.narrow() {
		s.input.Placeholder = placeholder(s.v.field)
		return s.render(s.input.View())
	}
	s.input.Placeholder = "not set"
	body := s.track() + "   " + s.input.View()
	if s.focused {
		sc := s.v.scale
		body += "\n" + s.hint("←/→ a step of "+sc.format(sc.step), "home/end the ends", "or type a number")
	}
	return s.render(body)
}

// track is the bounds with the track between them, the knob where the
// value is: filled (●) when the field holds a number, hollow (○) while
// nothing is set.
func (s *slider) track() string {
	st := s.styles()
	sc := s.v.scale
	lo, hi := formatScalar(sc.lo), formatScalar(sc.hi)
	readout := max(lipgloss.Width(lo), lipgloss.Width(hi), len(s.v.text), len("not set")) + 3 // "> " and the cursor
	cells := min(max(s.inner()-lipgloss.Width(lo)-lipgloss.Width(hi)-2-3-readout, 8), maxTrack)
	x, set := s.current()
	frac := min(max((x-sc.lo)/(sc.hi-sc.lo), 0), 1)
	at := int(math.Round(frac * float64(cells-1)))
	knob := "○"
	if set {
		knob = "●"
	}
	bar := st.TextInput.Prompt.Render(strings.Repeat("━", at)+knob) + styleDim.Render(strings.Repeat("─", cells-1-at))
	return fmt.Sprintf("%s %s %s", st.Description.Render(lo), bar, st.Description.Render(hi))
}

func (s *slider) Focus() tea.Cmd { s.focused = true; return s.input.Focus() }
func (s *slider) Blur() tea.Cmd  { s.focused = false; s.input.Blur(); return nil }
func (s *slider) GetValue() any  { return s.v.text }

func (s *slider) KeyBinds() []key.Binding {
	k := ControlKeys
	return append([]key.Binding{k.Lower, k.Higher, k.Lowest, k.Highest}, s.navKeys()...)
}

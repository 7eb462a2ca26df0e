package nativeform

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/mcpeek/mcpeek/formschema"
)

// clockLayout is how the time of a date-time field is typed.
const clockLayout = "15:04"

var (
	styleToday   = lipgloss.NewStyle().Underline(true)
	styleOutside = lipgloss.NewStyle().Foreground(lipgloss.Color("240"))
)

// dateField is a date (format "date") typed as YYYY-MM-DD over a month
// calendar that shows while it has the focus: the arrows move a day or a
// week, pgup and pgdown a month, t to today, and typing a date moves the
// calendar to it. Days outside formatMinimum and formatMaximum are greyed
// and the keys stop at them. A date-time (format "date-time") has an
// HH:MM input beside it, reached with enter or tab, and is sent as RFC
// 3339 in the local offset (the clock's zone).
//
// Its value is the text to send, bound to the value's text: empty (nothing
// sent) until the person moves the calendar or types, unless the field has
// a default. The calendar starts at the default, else today; a date-time's
// time is empty until its day is set, and then the present time of day
// until one is typed. On a narrow terminal it is the text inputs alone.
type dateField struct {
	*fieldBase
	withTime    bool
	date, clock textinput.Model
	onClock     bool      // the time input has the focus (date-time)
	cursor      time.Time // the calendar's day, at midnight UTC
	today       time.Time
	lo, hi      time.Time // the first and last days allowed (zero: unbounded)
	loc         *time.Location
	now         func() time.Time
}

func (f *Form) newDate(v *value, title func() string) *dateField {
	now := f.opts.Now()
	d := &dateField{fieldBase: &fieldBase{v: v, title: title}, withTime: v.widget == widgetDateTime, loc: now.Location(), now: f.opts.Now}
	d.today = day(now)
	d.cursor = d.today
	dateText, clockText := v.text, ""
	if d.withTime {
		// A value that is not RFC 3339 (a default, or what was typed before
		// the form was built anew) is split where compose joined it.
		dateText, clockText, _ = strings.Cut(v.text, "T")
		if t, ok := formschema.ParseDateTime(v.text); ok {
			t = t.In(d.loc)
			dateText, clockText = t.Format(formschema.DateLayout), t.Format(clockLayout)
		}
	}
	if c, ok := formschema.ParseDate(dateText); ok {
		d.cursor = c
	}
	d.lo, _ = d.boundDay(v.field.FormatMinimum)
	d.hi, _ = d.boundDay(v.field.FormatMaximum)
	d.date = newTextInput(dateText, "YYYY-MM-DD", len(formschema.DateLayout))
	d.clock = newTextInput(clockText, "HH:MM", len("15:04:05"))
	d.self = d
	return d
}

// day is the calendar day of t, at midnight UTC.
func day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// boundDay is the day of a formatMinimum or formatMaximum, in the local
// zone for a date-time.
func (d *dateField) boundDay(s string) (time.Time, bool) {
	if d.withTime {
		t, ok := formschema.ParseDateTime(s)
		return day(t.In(d.loc)), ok
	}
	return formschema.ParseDate(s)
}

// inside reports whether a day is within the field's bounds.
func (d *dateField) inside(t time.Time) bool {
	return (d.lo.IsZero() || !t.Before(d.lo)) && (d.hi.IsZero() || !t.After(d.hi))
}

// clamp brings a day within the field's bounds.
func (d *dateField) clamp(t time.Time) time.Time {
	if !d.lo.IsZero() && t.Before(d.lo) {
		return d.lo
	}
	if !d.hi.IsZero() && t.After(d.hi) {
		return d.hi
	}
	return t
}

// addMonths moves a day by months, to the month's last day where it is
// shorter (31 January and a month is 28 or 29 February).
func addMonths(t time.Time, n int) time.Time {
	first := time.Date(t.Year(), t.Month()+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(t.Day(), last)-1)
}

// moveTo puts the calendar on a day, within the bounds, and the day in the
// field: the field is now set, a date-time at the present time of day
// until a time is typed.
func (d *dateField) moveTo(t time.Time) {
	d.cursor = d.clamp(t)
	d.date.SetValue(d.cursor.Format(formschema.DateLayout))
	d.date.CursorEnd()
	d.fillClock()
	d.compose()
}

// fillClock gives a date-time whose day is set the present time of day,
// while no time is typed.
func (d *dateField) fillClock() {
	if d.withTime && strings.TrimSpace(d.clock.Value()) == "" {
		d.clock.SetValue(d.now().In(d.loc).Format(clockLayout))
	}
}

// compose writes the field's value from its inputs: the date as typed, or
// for a date-time the date and the time in the local offset as RFC 3339.
// Inputs that do not read as a date or a time are sent as typed, for
// validation to word what is wrong.
func (d *dateField) compose() {
	date := strings.TrimSpace(d.date.Value())
	if !d.withTime || date == "" {
		d.v.text = date
		return
	}
	clock := strings.TrimSpace(d.clock.Value())
	day, okDay := formschema.ParseDate(date)
	hm, okClock := parseClock(clock)
	if !okDay || !okClock {
		d.v.text = date + "T" + clock
		return
	}
	d.v.text = time.Date(day.Year(), day.Month(), day.Day(), hm.Hour(), hm.Minute(), hm.Second(), 0, d.loc).Format(time.RFC3339)
}

// parseClock reads a typed time, HH:MM or HH:MM:SS.
func parseClock(s string) (time.Time, bool) {
	for _, layout := range []string{clockLayout, "15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func (d *dateField) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	km, isKey := msg.(tea.KeyMsg)
	if !isKey {
		var c1, c2 tea.Cmd
		d.date, c1 = d.date.Update(msg)
		d.clock, c2 = d.clock.Update(msg)
		return d, tea.Batch(c1, c2)
	}
	if cmd, ok := d.part(km); ok {
		return d, cmd
	}
	if cmd, ok := d.nav(km); ok {
		return d, cmd
	}
	if d.onClock {
		return d, d.typeClock(km)
	}
	if !d.narrow() && d.calendarKey(km) {
		return d, nil
	}
	var cmd tea.Cmd
	d.date, cmd = d.date.Update(km)
	if t, ok := formschema.ParseDate(strings.TrimSpace(d.date.Value())); ok {
		d.cursor = t
		d.fillClock()
	}
	d.compose()
	return d, cmd
}

// part moves between the date and the time of a date-time: enter or tab
// from the date to the time, shift+tab back.
func (d *dateField) part(km tea.KeyMsg) (tea.Cmd, bool) {
	if !d.withTime {
		return nil, false
	}
	switch {
	case !d.onClock && key.Matches(km, d.keymap.Next, d.keymap.Submit):
		d.onClock = true
		d.date.Blur()
		return d.clock.Focus(), true
	case d.onClock && key.Matches(km, d.keymap.Prev, d.prevPart()):
		d.onClock = false
		d.clock.Blur()
		return d.date.Focus(), true
	}
	return nil, false
}

// prevPart is shift+tab even on the first field, where huh turns it off:
// there it still goes back from the time to the date.
func (d *dateField) prevPart() key.Binding {
	return key.NewBinding(key.WithKeys(d.keymap.Prev.Keys()...))
}

// typeClock gives a key to the time input; a time typed before any date
// sets the calendar's day too.
func (d *dateField) typeClock(km tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	d.clock, cmd = d.clock.Update(km)
	if strings.TrimSpace(d.date.Value()) == "" {
		d.date.SetValue(d.cursor.Format(formschema.DateLayout))
	}
	d.compose()
	return cmd
}

// calendarKey handles the calendar's keys, reporting whether it was one.
func (d *dateField) calendarKey(km tea.KeyMsg) bool {
	c := d.cursor
	switch {
	case key.Matches(km, ControlKeys.PrevDay):
		d.moveTo(c.AddDate(0, 0, -1))
	case key.Matches(km, ControlKeys.NextDay):
		d.moveTo(c.AddDate(0, 0, 1))
	case key.Matches(km, ControlKeys.PrevWeek):
		d.moveTo(c.AddDate(0, 0, -7))
	case key.Matches(km, ControlKeys.NextWeek):
		d.moveTo(c.AddDate(0, 0, 7))
	case key.Matches(km, ControlKeys.PrevMonth):
		d.moveTo(addMonths(c, -1))
	case key.Matches(km, ControlKeys.NextMonth):
		d.moveTo(addMonths(c, 1))
	case key.Matches(km, ControlKeys.Today):
		d.moveTo(d.today)
	default:
		return false
	}
	return true
}

func (d *dateField) View() string {
	d.styleInput(&d.date)
	d.styleInput(&d.clock)
	line := d.date.View()
	if d.withTime {
		line = lipgloss.NewStyle().Width(len(formschema.DateLayout)+3).Render(line) + " at " + d.clock.View()
		if !d.narrow() {
			line += "  " + styleDim.Render("local time, UTC"+d.offset())
		}
	}
	if !d.focused || d.narrow() {
		return d.render(line)
	}
	parts := []string{line, "", d.calendar()}
	if b := d.boundsText(); b != "" {
		parts = append(parts, styleDim.Render(b))
	}
	if d.onClock {
		parts = append(parts, d.hint("type the time as HH:MM", "shift+tab back to the date"))
	} else {
		keys := []string{"←/→ day", "↑/↓ week", "pgup/pgdn month", "t today", "or type"}
		if d.withTime {
			keys = append(keys, "enter: time")
		}
		parts = append(parts, d.hint(keys...))
	}
	return d.render(strings.Join(parts, "\n"))
}

// offset is the local offset of the chosen day and time, as +01:00.
func (d *dateField) offset() string {
	hm, _ := parseClock(strings.TrimSpace(d.clock.Value()))
	c := d.cursor
	return time.Date(c.Year(), c.Month(), c.Day(), hm.Hour(), hm.Minute(), 0, 0, d.loc).Format("-07:00")
}

// boundsText says which days may be chosen, or "".
func (d *dateField) boundsText() string {
	lo, hi := d.v.field.FormatMinimum, d.v.field.FormatMaximum
	switch {
	case lo != "" && hi != "":
		return "from " + lo + " to " + hi
	case lo != "":
		return "from " + lo + " on"
	case hi != "":
		return "up to " + hi
	}
	return ""
}

// weekdays are the initials of the calendar's columns, Monday first (as
// ISO 8601, whose dates the field takes).
var weekdays = [7]string{"M", "T", "W", "T", "F", "S", "S"}

// calendar is the month of the cursor's day: the heading, the weekdays,
// and the days in weeks, the cursor's day in brackets, today underlined,
// days outside the bounds greyed.
func (d *dateField) calendar() string {
	st := d.styles()
	const cell = 4
	width := 7 * cell
	var b strings.Builder
	b.WriteString(st.Title.Width(width).Align(lipgloss.Center).Render(d.cursor.Format("January 2006")) + "\n")
	for _, w := range weekdays {
		b.WriteString(st.Description.Render(fmt.Sprintf("%*s ", cell-1, w)))
	}
	first := time.Date(d.cursor.Year(), d.cursor.Month(), 1, 0, 0, 0, 0, time.UTC)
	lead := (int(first.Weekday()) + 6) % 7 // days of the week before the 1st, Monday first
	b.WriteString("\n" + strings.Repeat(" ", lead*cell))
	for t := first; t.Month() == first.Month(); t = t.AddDate(0, 0, 1) {
		if t.Day() > 1 && (lead+t.Day()-1)%7 == 0 {
			b.WriteString("\n")
		}
		b.WriteString(d.dayCell(t))
	}
	return b.String()
}

// dayCell is one day of the calendar, four cells wide.
func (d *dateField) dayCell(t time.Time) string {
	st := d.styles()
	text := fmt.Sprintf(" %2d ", t.Day())
	style := st.Option
	switch {
	case t.Equal(d.cursor):
		text = fmt.Sprintf("[%2d]", t.Day())
		style = st.SelectedOption.Bold(true)
	case !d.inside(t):
		style = styleOutside
	}
	if t.Equal(d.today) {
		return style.Render(text[:1]) + styleToday.Inherit(style).Render(text[1:3]) + style.Render(text[3:])
	}
	return style.Render(text)
}

func (d *dateField) Focus() tea.Cmd {
	d.focused, d.onClock = true, false
	return d.date.Focus()
}

func (d *dateField) Blur() tea.Cmd {
	d.focused, d.onClock = false, false
	d.date.Blur()
	d.clock.Blur()
	return nil
}

func (d *dateField) GetValue() any { return d.v.text }

func (d *dateField) KeyBinds() []key.Binding {
	k := ControlKeys
	return append([]key.Binding{k.PrevDay, k.NextDay, k.PrevWeek, k.NextWeek, k.PrevMonth, k.NextMonth, k.Today}, d.navKeys()...)
}

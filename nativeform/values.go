package nativeform

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/mcpeek/mcpeek/formschema"
)

// control is the terminal control chosen for a field.
type control int

const (
	controlInput control = iota
	controlConfirm
	controlSelect
	controlMulti
	controlList  // a list of text or numbers the person adds to
	controlGroup // a nested object: its fields are subs
)

// widget is the control a field gets on a full screen, where it is more
// than huh's control for its kind: the value (text or choice) is the same,
// and plain mode asks for it as for the kind.
type widget int

const (
	widgetNone      widget = iota // huh's control for the kind
	widgetDate                    // a text input over a month calendar
	widgetDateTime                // the same, and a time input
	widgetSlider                  // a track between a number's bounds
	widgetSegmented               // a few options on one line
)

// maxSegments is the most options a segmented choice has; more keep the
// list.
const maxSegments = 3

// noAnswer is the select value of "(no answer)"; option i is i+1.
const noAnswer = 0

// value holds what the person entered for one field, bound to its control.
type value struct {
	field   *formschema.Field
	control control
	widget  widget
	scale   sliderScale // widgetSlider
	text    string      // controlInput
	yes     bool        // controlConfirm
	choice  int         // controlSelect: 1 + an index into options(), or noAnswer
	picks   []int       // controlMulti: indices into field.Options
	items   []string    // controlList: the items as typed
	subs    []*value    // controlGroup: its fields
	// group is the group a field of a group belongs to, or nil.
	group *value
	// status is bound to the control's title, which shows the error: huh
	// hashes status on the program's goroutine to see that it changed, and
	// computes the title in a command, on another goroutine, which reads
	// the same text from shownError.
	status     fieldStatus
	shownError atomic.Pointer[string]
}

// setError records the field's current error ("" for none).
func (v *value) setError(msg string) {
	v.status.Error = msg
	v.shownError.Store(&msg)
}

// currentError is the error to show, safe from any goroutine.
func (v *value) currentError() string {
	if p := v.shownError.Load(); p != nil {
		return *p
	}
	return ""
}

// fieldStatus is what the description of a field depends on; huh redraws
// the description when it changes (so its fields must be exported).
type fieldStatus struct {
	Error string
}

// newValue picks the control for a field and pre-fills its default.
func newValue(f *formschema.Field) *value {
	v := &value{field: f, choice: noAnswer}
	switch f.Kind {
	case formschema.KindList:
		v.control = controlList
		if list, ok := f.Default.([]any); ok {
			for _, d := range list {
				v.items = append(v.items, formatScalar(d))
			}
		}
	case formschema.KindGroup:
		v.control = controlGroup
		given, _ := f.Default.(map[string]any) // the group's default, or its last value
		for i := range f.Fields {
			sub := f.Fields[i] // a copy: its default may be the group's
			if d, ok := given[sub.Key]; ok {
				sub.Default = d
			}
			sv := newValue(&sub)
			sv.group = v
			v.subs = append(v.subs, sv)
		}
	case formschema.KindString, formschema.KindNumber, formschema.KindInteger:
		v.control = controlInput
		if f.Default != nil {
			v.text = formatScalar(f.Default)
		}
	case formschema.KindBoolean:
		// A yes/no toggle always holds an answer, so it is used only when
		// there is a default to hold; otherwise the person picks Yes or No
		// and may leave it unanswered.
		if b, ok := f.Default.(bool); ok {
			v.control, v.yes = controlConfirm, b
		} else {
			v.control = controlSelect
		}
	case formschema.KindSelect:
		v.control = controlSelect
		for i, o := range f.Options {
			if f.Default != nil && o.Value == f.Default {
				v.choice = i + 1
			}
		}
	case formschema.KindMultiSelect:
		v.control = controlMulti
		if list, ok := f.Default.([]any); ok {
			for i, o := range f.Options {
				for _, d := range list {
					if o.Value == d {
						v.picks = append(v.picks, i)
					}
				}
			}
		}
	}
	v.widget, v.scale = pickWidget(v)
	return v
}

// pickWidget chooses the full-screen control of a field: a calendar for a
// date, a slider for a number with both bounds and few enough steps, a
// segmented choice for a single choice of a few options (a yes/no without
// a default among them).
func pickWidget(v *value) (widget, sliderScale) {
	f := v.field
	switch {
	case f.Kind == formschema.KindString && f.Format == "date":
		return widgetDate, sliderScale{}
	case f.Kind == formschema.KindString && f.Format == "date-time":
		return widgetDateTime, sliderScale{}
	case f.Kind == formschema.KindNumber || f.Kind == formschema.KindInteger:
		if s, ok := newScale(f); ok {
			return widgetSlider, s
		}
	case v.control == controlSelect && len(v.options()) <= maxSegments:
		return widgetSegmented, sliderScale{}
	}
	return widgetNone, sliderScale{}
}

// options are the choices of a select control, as (index, title) pairs.
func (v *value) options() []formschema.Option {
	if v.field.Kind == formschema.KindBoolean {
		return []formschema.Option{{Value: true, Title: "Yes"}, {Value: false, Title: "No"}}
	}
	return v.field.Options
}

// unanswerable reports whether the select offers "(no answer)".
func (v *value) unanswerable() bool {
	return v.control == controlSelect && v.field.Default == nil
}

// content returns the value to send and whether to send anything. Text
// that does not parse as a number is sent on to validation as it is, so
// the person is told it must be a number.
func (v *value) content() (any, bool) {
	switch v.control {
	case controlInput:
		if strings.TrimSpace(v.text) == "" {
			return nil, false
		}
		return typed(v.field.Kind, v.text), true
	case controlList:
		if len(v.items) == 0 {
			return nil, false
		}
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = typed(v.field.Item.Kind, it)
		}
		return out, true
	case controlGroup:
		out := map[string]any{}
		for _, sv := range v.subs {
			if c, ok := sv.content(); ok {
				out[sv.field.Key] = c
			}
		}
		// An untouched optional group is left out; a required one is sent,
		// so that validation names its missing fields.
		return out, len(out) > 0 || v.field.Required
	case controlConfirm:
		return v.yes, true
	case controlSelect:
		opts := v.options()
		if v.choice < 1 || v.choice > len(opts) {
			return nil, false
		}
		return opts[v.choice-1].Value, true
	case controlMulti:
		if len(v.picks) == 0 {
			return nil, false
		}
		out := make([]any, 0, len(v.picks))
		for _, i := range v.picks {
			out = append(out, v.field.Options[i].Value)
		}
		return out, true
	}
	return nil, false
}

// description is the field's description, with why the server's default
// is not used when it is not.
func description(f *formschema.Field) string {
	switch {
	case f.DefaultNote == "":
		return f.Description
	case f.Description == "":
		return f.DefaultNote
	}
	return f.Description + " · " + f.DefaultNote
}

// typed is text as a value of a field's kind: a number or an integer when
// it parses as one, else the text (validation then says what it must be).
func typed(kind formschema.Kind, text string) any {
	s := strings.TrimSpace(text)
	switch kind {
	case formschema.KindInteger:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f // a fraction: validation says "whole number"
		}
		return s
	case formschema.KindNumber:
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return s
	}
	return text
}

// leaves are the values that have a control: each field, a group's own
// fields in its place.
func leaves(values []*value) []*value {
	var out []*value
	for _, v := range values {
		if v.control == controlGroup {
			out = append(out, v.subs...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// contentOf is what accept would send: the answered fields.
func contentOf(values []*value) map[string]any {
	out := map[string]any{}
	for _, v := range values {
		if c, ok := v.content(); ok {
			out[v.field.Key] = c
		}
	}
	return out
}

// errorKey is where Validate's errors for this value are: its key, and
// for a field of a group the group's key and its own.
func (v *value) errorKey() string {
	if v.group != nil {
		return v.group.field.Key + "\x00" + v.field.Key
	}
	return v.field.Key
}

// label is the field's label, a group's field's under the group's.
func (v *value) label() string {
	if v.group != nil {
		return v.group.field.Label + " › " + v.field.Label
	}
	return v.field.Label
}

func formatScalar(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// placeholder is the hint shown in an empty text input.
func placeholder(f *formschema.Field) string {
	switch f.Format {
	case "email":
		return "name@example.com"
	case "uri":
		return "https://…"
	case "date":
		return "YYYY-MM-DD"
	case "date-time":
		return "YYYY-MM-DDTHH:MM:SSZ"
	}
	switch f.Kind {
	case formschema.KindNumber, formschema.KindInteger:
		what := "a number"
		if f.Kind == formschema.KindInteger {
			what = "a whole number"
		}
		switch {
		case f.Minimum != nil && f.Maximum != nil:
			return formatScalar(*f.Minimum) + "–" + formatScalar(*f.Maximum)
		case f.Minimum != nil:
			return what + " ≥ " + formatScalar(*f.Minimum)
		case f.Maximum != nil:
			return what + " ≤ " + formatScalar(*f.Maximum)
		}
		return what
	}
	switch {
	case f.MinLength != nil && f.MaxLength != nil:
		return fmt.Sprintf("%d–%d characters", *f.MinLength, *f.MaxLength)
	case f.MinLength != nil:
		return "at least " + formschema.Plural(*f.MinLength, "character", "characters")
	case f.MaxLength != nil:
		return "up to " + formschema.Plural(*f.MaxLength, "character", "characters")
	}
	return ""
}

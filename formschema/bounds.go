package formschema

import (
	"fmt"
	"time"
)

// DateLayout is how a date field's value is written (format "date").
const DateLayout = "2006-01-02"

// ParseDate reads a field's date (format "date", YYYY-MM-DD) as midnight
// UTC of that day.
func ParseDate(s string) (time.Time, bool) {
	d, err := time.Parse(DateLayout, s)
	return d, err == nil
}

// ParseDateTime reads a field's date and time (format "date-time", RFC 3339).
func ParseDateTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, s)
	return t, err == nil
}

// parseFormatBounds reads formatMinimum and formatMaximum, which bound a
// date or a date-time field and must be written in its format.
func parseFormatBounds(f *Field, def map[string]any) error {
	for _, b := range []struct {
		kw  string
		dst *string
	}{{"formatMinimum", &f.FormatMinimum}, {"formatMaximum", &f.FormatMaximum}} {
		raw, ok := def[b.kw]
		if !ok {
			continue
		}
		if f.Format != "date" && f.Format != "date-time" {
			return fmt.Errorf("field %q: %s applies only to a date or date-time string", f.Key, b.kw)
		}
		s, _ := raw.(string)
		if _, ok := f.parseTime(s); !ok {
			return fmt.Errorf("field %q: %s must be %s", f.Key, b.kw, formatWords(f.Format))
		}
		*b.dst = s
	}
	if lo, ok := f.parseTime(f.FormatMinimum); ok {
		if hi, ok := f.parseTime(f.FormatMaximum); ok && hi.Before(lo) {
			return fmt.Errorf("field %q: formatMaximum is before formatMinimum", f.Key)
		}
	}
	return nil
}

// parseTime reads a value of a date or date-time field.
func (f *Field) parseTime(s string) (time.Time, bool) {
	switch f.Format {
	case "date":
		return ParseDate(s)
	case "date-time":
		return ParseDateTime(s)
	}
	return time.Time{}, false
}

// boundsMessage checks a date or date-time answer against the field's
// formatMinimum and formatMaximum, and words what is wrong, or "". An
// answer that is not a date at all is the validator's to report.
func (f *Field) boundsMessage(v any) string {
	s, _ := v.(string)
	t, ok := f.parseTime(s)
	if !ok {
		return ""
	}
	when := "on"
	if f.Format == "date-time" {
		when = "at"
	}
	if lo, ok := f.parseTime(f.FormatMinimum); ok && t.Before(lo) {
		return fmt.Sprintf("must be %s or after %s", when, f.FormatMinimum)
	}
	if hi, ok := f.parseTime(f.FormatMaximum); ok && t.After(hi) {
		return fmt.Sprintf("must be %s or before %s", when, f.FormatMaximum)
	}
	return ""
}

// checkBounds adds the errors of answers outside their field's
// formatMinimum or formatMaximum, which the validator does not know, to
// the fields without an error yet.
func (s *Schema) checkBounds(content map[string]any, byKey map[string]string) {
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.FormatMinimum == "" && f.FormatMaximum == "" {
			continue
		}
		if _, seen := byKey[f.Key]; seen {
			continue
		}
		if v, ok := content[f.Key]; ok {
			if msg := f.boundsMessage(v); msg != "" {
				byKey[f.Key] = msg
			}
		}
	}
}

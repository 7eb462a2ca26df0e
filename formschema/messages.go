package formschema

import "fmt"

func article(s string) string {
	switch s {
	case "integer":
		return "a whole number"
	case "number":
		return "a number"
	case "boolean":
		return "yes or no"
	case "string":
		return "text"
	case "array":
		return "a list of choices"
	case "object":
		return "an object"
	}
	return s
}

func formatWords(format string) string {
	switch format {
	case "email":
		return "a valid email address"
	case "uri":
		return "a valid URI (for example https://example.com)"
	case "date":
		return "a date as YYYY-MM-DD"
	case "date-time":
		return "a date and time as YYYY-MM-DDTHH:MM:SSZ"
	}
	return "a valid " + format
}

// countMessage words a bound on how many: items of a list, choices of a
// multi-select.
func countMessage(f *Field, items, choices string, n int) string {
	if f != nil && f.Kind == KindList {
		return items + " " + Plural(n, "item", "items")
	}
	return fmt.Sprintf("%s %d", choices, n)
}

// sub is a group's field with the given key, or nil.
func (f *Field) sub(key string) *Field {
	for i := range f.Fields {
		if f.Fields[i].Key == key {
			return &f.Fields[i]
		}
	}
	return nil
}

// Plural counts n of a thing in words: "1 field", "3 fields".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

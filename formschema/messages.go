package formschema

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

type kindRequired = kind.Required

// isLeafKind reports whether an error kind is worth reporting itself rather
// than through its causes.
func isLeafKind(k jsonschema.ErrorKind) bool {
	switch k.(type) {
	case *kind.AnyOf, *kind.OneOf:
		return true
	}
	return false
}

// message words one validation error for a person. It uses the schema's
// own constraints, never the submitted value.
func (s *Schema) message(ve *jsonschema.ValidationError) string {
	f := s.fieldAt(ve.InstanceLocation)
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		return "is required"
	case *kind.Type:
		return "must be " + article(strings.Join(k.Want, " or "))
	case *kind.MinLength:
		return "must be at least " + Plural(k.Want, "character", "characters")
	case *kind.MaxLength:
		return "must be at most " + Plural(k.Want, "character", "characters")
	case *kind.Pattern:
		return fmt.Sprintf("must match the pattern %s", k.Want)
	case *kind.Format:
		return "must be " + formatWords(k.Want)
	case *kind.Minimum:
		return "must be at least " + ratString(k.Want)
	case *kind.Maximum:
		return "must be at most " + ratString(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be greater than " + ratString(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be less than " + ratString(k.Want)
	case *kind.MultipleOf:
		return "must be a multiple of " + ratString(k.Want)
	case *kind.MinItems:
		return countMessage(f, "needs at least", "choose at least", k.Want)
	case *kind.MaxItems:
		return countMessage(f, "takes at most", "choose at most", k.Want)
	case *kind.UniqueItems:
		return "must not repeat a choice"
	case *kind.Enum, *kind.Const, *kind.AnyOf, *kind.OneOf:
		if f != nil && len(f.Options) > 0 {
			titles := make([]string, len(f.Options))
			for i, o := range f.Options {
				titles[i] = o.Title
			}
			if f.Kind == KindMultiSelect {
				return "each choice must be one of: " + strings.Join(titles, ", ")
			}
			return "must be one of: " + strings.Join(titles, ", ")
		}
		return "is not one of the allowed values"
	case *kind.AdditionalProperties:
		return "is not a field of this form"
	case *kind.FalseSchema:
		return "is not allowed"
	}
	return "is not valid"
}

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

func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return fmt.Sprint(f)
}

// fieldAt is the field an error at an instance location is about: a
// top-level field, or a group's own field; nil for none.
func (s *Schema) fieldAt(loc []string) *Field {
	if len(loc) == 0 {
		return nil
	}
	f := s.Field(loc[0])
	if f != nil && f.Kind == KindGroup && len(loc) > 1 {
		return f.sub(loc[1])
	}
	return f
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

package formschema

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Validation is the validator's (santhosh-tekuri/jsonschema, formats
// asserted, numbers read exactly): mcpeek checks nothing by hand but the
// date bounds the validator does not know (bounds.go). What it finds is
// worded here for a person, on the field its instance location names,
// one problem per field (the first by rank, which is the order a person
// fixes them in: the kind of value, then the choices, lengths, pattern,
// format, bounds, counts, and a list's items), never echoing the value.

// validateWhole checks the instance against the whole schema; a failure
// of the validator itself is an error, not a crash.
func validateWhole(sch *jsonschema.Schema, inst any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the schema could not be checked: %v", p)
		}
	}()
	return sch.Validate(inst)
}

// finding is a problem with one field (or a group's field), and its rank:
// of several problems with a field, the lowest rank is told.
type finding struct {
	rank int
	msg  string
}

// findings holds the problem to tell per field, by key (a group's field
// by its group's key, subSep and its own key).
type findings map[string]finding

func (fs findings) add(key string, rank int, msg string) {
	if old, ok := fs[key]; !ok || rank < old.rank {
		fs[key] = finding{rank, msg}
	}
}

func (fs findings) messages() map[string]string {
	out := make(map[string]string, len(fs))
	for k, f := range fs {
		out[k] = f.msg
	}
	return out
}

// The ranks of problems with one field.
const (
	rankType = iota
	rankChoice
	rankMinLength
	rankMaxLength
	rankPattern
	rankFormat
	rankMinimum
	rankMaximum
	rankExclusiveMinimum
	rankExclusiveMaximum
	rankMultipleOf
	rankMinItems
	rankMaxItems
	rankUniqueItems
	rankOther = 20
	// rankItems is a list's first item; each further item ranks
	// rankItemSpan later.
	rankItems    = 100
	rankItemSpan = 32
)

// collect walks the validator's error tree into found (problems with a
// field) and general (problems with the answer as a whole). A choice
// (anyOf, oneOf) is one problem, not the problems of each alternative.
func (s *Schema) collect(ve *jsonschema.ValidationError, found findings, general *[]string) {
	switch ve.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
	default:
		if len(ve.Causes) > 0 {
			for _, c := range ve.Causes {
				s.collect(c, found, general)
			}
			return
		}
	}
	loc := ve.InstanceLocation
	if len(loc) == 0 {
		s.rootError(ve.ErrorKind, found, general)
		return
	}
	if f := s.Field(loc[0]); f != nil {
		f.fieldError(loc[1:], ve.ErrorKind, found)
	}
	// A property no field declares: Validate names it itself.
}

// rootError takes in a problem of the answer as a whole: the required
// properties a root rule (required, allOf, dependentRequired) names go on
// their fields, the rest is said in general, by keyword, since the
// validator's own wording quotes the answer.
func (s *Schema) rootError(k jsonschema.ErrorKind, found findings, general *[]string) {
	addGeneral := func(msg string) {
		if !slices.Contains(*general, msg) {
			*general = append(*general, msg)
		}
	}
	switch k.(type) {
	case *kind.AdditionalProperties:
		return // Validate names each undeclared property itself
	case *kind.Required, *kind.DependentRequired, *kind.Dependency:
		for _, name := range missing(k) {
			if s.Field(name) == nil {
				// Required by a root keyword such as allOf, but not a field:
				// no answer to this form can satisfy it.
				addGeneral(fmt.Sprintf("the schema requires %q, which is not a field of this form", Clean(name)))
				continue
			}
			found.add(name, rankType, "is required")
		}
		return
	}
	addGeneral("the answer does not meet the schema's " + keyword(k) + " rule")
}

// missing is the properties a required-like problem names as missing.
func missing(k jsonschema.ErrorKind) []string {
	switch k := k.(type) {
	case *kind.Required:
		return k.Missing
	case *kind.DependentRequired:
		return k.Missing
	case *kind.Dependency:
		return k.Missing
	}
	return nil
}

// fieldError takes in a problem at rest (the instance location below
// the field) of the field f's answer.
func (f *Field) fieldError(rest []string, k jsonschema.ErrorKind, found findings) {
	switch {
	case f.Kind == KindGroup && len(rest) == 0 && len(missing(k)) > 0:
		for _, name := range missing(k) {
			if f.sub(name) != nil {
				found.add(f.Key+subSep+name, rankType, "is required")
			}
		}
	case f.Kind == KindGroup && len(rest) > 0:
		if g := f.sub(rest[0]); g != nil {
			rank, msg := g.problem(k)
			found.add(f.Key+subSep+g.Key, rank, msg)
			return
		}
		found.add(f.Key, rankOther, "has a property the schema does not allow")
	case f.Kind == KindList && len(rest) > 0 && f.Item != nil:
		n, err := strconv.Atoi(rest[0])
		if err != nil {
			n = 0
		}
		rank, msg := f.Item.problem(k)
		found.add(f.Key, rankItems+n*rankItemSpan+rank, fmt.Sprintf("item %d %s", n+1, msg))
	case f.Kind == KindMultiSelect && len(rest) > 0:
		found.add(f.Key, rankItems, choicesMessage(f))
	case len(rest) > 0:
		found.add(f.Key, rankOther, "is not valid (the schema's "+keyword(k)+" rule)")
	default:
		rank, msg := f.problem(k)
		found.add(f.Key, rank, msg)
	}
}

// problem words one problem with the field's answer, and ranks it among
// the field's problems. It uses the schema's own constraints, never the
// submitted value.
func (f *Field) problem(k jsonschema.ErrorKind) (rank int, msg string) {
	switch k := k.(type) {
	case *kind.Required:
		return rankType, "is required"
	case *kind.Type:
		return rankType, "must be " + article(strings.Join(k.Want, " or "))
	case *kind.Enum, *kind.Const, *kind.AnyOf, *kind.OneOf:
		return rankChoice, choicesMessage(f)
	case *kind.MinLength:
		return rankMinLength, "must be at least " + Plural(k.Want, "character", "characters")
	case *kind.MaxLength:
		return rankMaxLength, "must be at most " + Plural(k.Want, "character", "characters")
	case *kind.Pattern:
		return rankPattern, "must match the pattern " + k.Want
	case *kind.Format:
		return rankFormat, "must be " + formatWords(k.Want)
	case *kind.Minimum:
		return rankMinimum, "must be at least " + ratString(k.Want)
	case *kind.Maximum:
		return rankMaximum, "must be at most " + ratString(k.Want)
	case *kind.ExclusiveMinimum:
		return rankExclusiveMinimum, "must be greater than " + ratString(k.Want)
	case *kind.ExclusiveMaximum:
		return rankExclusiveMaximum, "must be less than " + ratString(k.Want)
	case *kind.MultipleOf:
		return rankMultipleOf, "must be a multiple of " + ratString(k.Want)
	case *kind.MinItems:
		return rankMinItems, countMessage(f, "needs at least", "choose at least", k.Want)
	case *kind.MaxItems:
		return rankMaxItems, countMessage(f, "takes at most", "choose at most", k.Want)
	case *kind.UniqueItems:
		return rankUniqueItems, "must not repeat a choice"
	case *kind.AdditionalProperties:
		return rankOther, "has a property the schema does not allow"
	}
	return rankOther, "is not valid (the schema's " + keyword(k) + " rule)"
}

// keyword is the schema keyword a problem is about.
func keyword(k jsonschema.ErrorKind) string {
	if _, ok := k.(*kind.Not); ok {
		return "not" // the validator gives no path for it
	}
	if p := k.KeywordPath(); len(p) > 0 && p[0] != "" {
		return p[0]
	}
	return "validation"
}

// choicesMessage words an answer that is none of a field's choices.
func choicesMessage(f *Field) string {
	if f == nil || len(f.Options) == 0 {
		return "is not one of the allowed values"
	}
	titles := make([]string, len(f.Options))
	for i, o := range f.Options {
		titles[i] = o.Title
	}
	if f.Kind == KindMultiSelect {
		return "each choice must be one of: " + strings.Join(titles, ", ")
	}
	return "must be one of: " + strings.Join(titles, ", ")
}

// ratString writes a bound as the schema's number reads in a message.
func ratString(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

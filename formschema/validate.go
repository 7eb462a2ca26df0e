package formschema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/mail"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// Validation has two parts. The form's own checks walk each field's
// schema and word what is wrong with its answer for a person; they cover
// the keywords a form's fields have, string formats and exact decimal
// multipleOf included. The schema as a whole is then checked by
// jsonschema-go, which has the last word: an answer it refuses is never
// sent, and what only it finds (a rule of the schema's root, such as
// allOf or dependentRequired) is reported too, by field where it names
// one. jsonschema-go prepares nothing when the program starts, which
// keeps a run that validates nothing as quick as one without a
// validator.

// compile reads a schema into jsonschema-go and resolves it. multipleOf
// is left to the form's own check on the fields it knows, which reads
// decimals exactly where jsonschema-go divides floats (0.3 is a multiple
// of 0.1).
func compile(raw []byte, fields []Field) (*jsonschema.Resolved, error) {
	var root jsonschema.Schema
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, err
	}
	switch root.Schema {
	case "", "http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft-07/schema#",
		"https://json-schema.org/draft/2020-12/schema":
	default:
		// Another draft's form schema reads the same in 2020-12 for
		// every keyword a form uses.
		root.Schema = ""
	}
	for _, f := range fields {
		sub := root.Properties[f.Key]
		if sub == nil {
			continue
		}
		sub.MultipleOf = nil
		if f.Item != nil && sub.Items != nil {
			sub.Items.MultipleOf = nil
		}
		for _, g := range f.Fields {
			if gs := sub.Properties[g.Key]; gs != nil {
				gs.MultipleOf = nil
			}
		}
	}
	return root.Resolve(nil)
}

// validateWhole checks the instance against the whole schema; a failure
// of jsonschema-go itself is an error, not a crash.
func validateWhole(r *jsonschema.Resolved, inst any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the schema could not be checked: %v", p)
		}
	}()
	return r.Validate(inst)
}

// property is the schema of a field of the compiled schema, or nil.
func (s *Schema) property(key string) *jsonschema.Schema {
	if s.compiled == nil {
		return nil
	}
	return s.compiled.Schema().Properties[key]
}

// checkFields words what is wrong with each field's answer, the first
// thing per field, into byKey.
func (s *Schema) checkFields(content map[string]any, byKey map[string]string) {
	for i := range s.Fields {
		f := &s.Fields[i]
		v, present := content[f.Key]
		if !present {
			if f.Required {
				byKey[f.Key] = "is required"
			}
			continue
		}
		sub := s.property(f.Key)
		if msg := valueMessage(f, sub, v); msg != "" {
			byKey[f.Key] = msg
			continue
		}
		if obj, ok := v.(map[string]any); ok && f.Kind == KindGroup && sub != nil {
			for j := range f.Fields {
				g := &f.Fields[j]
				gv, present := obj[g.Key]
				var msg string
				switch {
				case !present && g.Required:
					msg = "is required"
				case present:
					msg = valueMessage(g, sub.Properties[g.Key], gv)
				}
				if msg != "" {
					byKey[f.Key+subSep+g.Key] = msg
				}
			}
		}
	}
}

// valueMessage words the first thing wrong with one answer v (numbers as
// json.Number) to a field f whose schema is sub, or "".
func valueMessage(f *Field, sub *jsonschema.Schema, v any) string {
	if sub == nil {
		return ""
	}
	if types := schemaTypes(sub); len(types) > 0 && !slices.ContainsFunc(types, func(t string) bool { return hasType(v, t) }) {
		return "must be " + article(strings.Join(types, " or "))
	}
	if (sub.Enum != nil && !slices.ContainsFunc(sub.Enum, func(e any) bool { return sameValue(e, v) })) ||
		(sub.Const != nil && !sameValue(*sub.Const, v)) ||
		(f.Kind == KindSelect && len(f.Options) > 0 && !isChoice(f, v)) {
		return choicesMessage(f)
	}
	switch v := v.(type) {
	case string:
		return stringMessage(f, sub, v)
	case json.Number:
		return numberMessage(f, sub, v)
	case []any:
		return arrayMessage(f, sub, v)
	}
	return ""
}

func schemaTypes(sub *jsonschema.Schema) []string {
	if sub.Type != "" {
		return []string{sub.Type}
	}
	return sub.Types
}

// hasType reports whether v is of the JSON type t; a whole number is an
// integer, and an integer is a number.
func hasType(v any, t string) bool {
	switch v := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		if t == "number" {
			return true
		}
		r, ok := exact(v)
		return t == "integer" && ok && r.IsInt()
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

func stringMessage(f *Field, sub *jsonschema.Schema, v string) string {
	n := utf8.RuneCountInString(v)
	if sub.MinLength != nil && n < *sub.MinLength {
		return "must be at least " + Plural(*sub.MinLength, "character", "characters")
	}
	if sub.MaxLength != nil && n > *sub.MaxLength {
		return "must be at most " + Plural(*sub.MaxLength, "character", "characters")
	}
	if sub.Pattern != "" {
		if re, err := regexp.Compile(sub.Pattern); err == nil && !re.MatchString(v) {
			return "must match the pattern " + sub.Pattern
		}
	}
	if !formatFits(sub.Format, v) {
		return "must be " + formatWords(sub.Format)
	}
	return ""
}

// formatFits reports whether v is written in the string format: email,
// uri, date or date-time (the formats a form field may have); any other
// format is not checked.
func formatFits(format, v string) bool {
	switch format {
	case "email":
		a, err := mail.ParseAddress(v)
		return err == nil && a.Name == "" && a.Address == v
	case "uri":
		u, err := url.Parse(v)
		return err == nil && u.IsAbs()
	case "date":
		_, ok := ParseDate(v)
		return ok
	case "date-time":
		_, ok := ParseDateTime(v)
		return ok
	}
	return true
}

func numberMessage(f *Field, sub *jsonschema.Schema, v json.Number) string {
	n, ok := exact(v)
	if !ok {
		return "must be a number"
	}
	for _, b := range []struct {
		bound *float64
		fails func(c int) bool
		words string
	}{
		{sub.Minimum, func(c int) bool { return c < 0 }, "must be at least "},
		{sub.Maximum, func(c int) bool { return c > 0 }, "must be at most "},
		{sub.ExclusiveMinimum, func(c int) bool { return c <= 0 }, "must be greater than "},
		{sub.ExclusiveMaximum, func(c int) bool { return c >= 0 }, "must be less than "},
	} {
		if b.bound != nil && b.fails(n.Cmp(decimal(*b.bound))) {
			return b.words + numString(*b.bound)
		}
	}
	if f.MultipleOf != nil && *f.MultipleOf > 0 {
		if q := new(big.Rat).Quo(n, decimal(*f.MultipleOf)); !q.IsInt() {
			return "must be a multiple of " + numString(*f.MultipleOf)
		}
	}
	return ""
}

func arrayMessage(f *Field, sub *jsonschema.Schema, v []any) string {
	if sub.MinItems != nil && len(v) < *sub.MinItems {
		return countMessage(f, "needs at least", "choose at least", *sub.MinItems)
	}
	if sub.MaxItems != nil && len(v) > *sub.MaxItems {
		return countMessage(f, "takes at most", "choose at most", *sub.MaxItems)
	}
	if sub.UniqueItems {
		for i := range v {
			for j := i + 1; j < len(v); j++ {
				if sameValue(v[i], v[j]) {
					return "must not repeat a choice"
				}
			}
		}
	}
	switch {
	case f.Kind == KindMultiSelect:
		for _, e := range v {
			if !isChoice(f, e) {
				return choicesMessage(f)
			}
		}
	case f.Item != nil:
		for i, e := range v {
			if msg := valueMessage(f.Item, sub.Items, e); msg != "" {
				return fmt.Sprintf("item %d %s", i+1, msg)
			}
		}
	}
	return ""
}

func isChoice(f *Field, v any) bool {
	return slices.ContainsFunc(f.Options, func(o Option) bool { return sameValue(o.Value, v) })
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

// sameValue reports whether two JSON values are equal, numbers by value
// whether float64 or json.Number.
func sameValue(a, b any) bool {
	if ra, ok := number(a); ok {
		rb, ok := number(b)
		return ok && ra.Cmp(rb) == 0
	}
	if _, ok := number(b); ok {
		return false
	}
	switch a := a.(type) {
	case []any:
		bl, ok := b.([]any)
		return ok && slices.EqualFunc(a, bl, sameValue)
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			if bv, ok := bm[k]; !ok || !sameValue(av, bv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// number reads a JSON number (float64 or json.Number) exactly.
func number(v any) (*big.Rat, bool) {
	switch v := v.(type) {
	case float64:
		return decimal(v), true
	case json.Number:
		return exact(v)
	}
	return nil, false
}

// exact reads a number as written.
func exact(n json.Number) (*big.Rat, bool) {
	return new(big.Rat).SetString(string(n))
}

// decimal is a float64 as the decimal it was written as (0.1 is 1/10).
func decimal(f float64) *big.Rat {
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	if !ok { // NaN or an infinity, which no JSON holds
		return new(big.Rat)
	}
	return r
}

func numString(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// wholeSchemaError reports an error jsonschema-go found in an answer the
// form's own checks let through: on the field it names, else in general.
// Its own wording quotes the answer, so only its keyword is kept.
func (s *Schema) wholeSchemaError(err error, byKey map[string]string, general *[]string) {
	paths, leaf := splitChain(err.Error())
	kw := keyword(leaf)
	where := ""
	if len(paths) > 0 {
		where = paths[len(paths)-1]
	}
	key, sub, inField := s.fieldOf(where)
	switch {
	case kw == "additionalProperties" && !inField:
		return // Validate names each undeclared property itself
	case (kw == "required" || kw == "dependentRequired") && !inField:
		for _, k := range missingNames(leaf) {
			if s.Field(k) == nil {
				// Required by a root keyword such as allOf, but not a field:
				// no answer to this form can satisfy it.
				if msg := fmt.Sprintf("the schema requires %q, which is not a field of this form", Clean(k)); !slices.Contains(*general, msg) {
					*general = append(*general, msg)
				}
			} else if _, seen := byKey[k]; !seen {
				byKey[k] = "is required"
			}
		}
		return
	case inField:
		for k := range byKey {
			if k == key || strings.HasPrefix(k, key+subSep) {
				return // the form's own checks found what is wrong here
			}
		}
		if sub != "" {
			key += subSep + sub
		}
		msg := "is not valid (the schema's " + kw + " rule)"
		if kw == "additionalProperties" {
			msg = "has a property the schema does not allow"
		}
		if _, seen := byKey[key]; !seen {
			byKey[key] = msg
		}
		return
	}
	*general = append(*general, "the answer does not meet the schema's "+kw+" rule")
}

// splitChain takes jsonschema-go's error apart: the schema locations it
// went through ("validating /properties/x: …"), and the last message.
func splitChain(msg string) (paths []string, leaf string) {
	const prefix = "validating "
	for strings.HasPrefix(msg, prefix) {
		i := strings.Index(msg, ": ")
		if i < 0 {
			break
		}
		paths = append(paths, msg[len(prefix):i])
		msg = msg[i+2:]
	}
	return paths, msg
}

// keyword is the schema keyword a jsonschema-go message is about: the
// letters it starts with ("minLength: …").
func keyword(leaf string) string {
	if strings.HasPrefix(leaf, "unexpected additional properties") {
		return "additionalProperties"
	}
	end := strings.IndexFunc(leaf, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') })
	if end < 0 {
		end = len(leaf)
	}
	if end == 0 {
		return "validation"
	}
	return leaf[:end]
}

// quotedRE finds Go-quoted strings; compiled when first needed, not at
// start-up.
var quotedRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"(?:[^"\\]|\\.)*"`) })

// missingNames are the properties a "required" or "dependentRequired"
// message names as missing.
func missingNames(leaf string) []string {
	_, missing, ok := strings.Cut(leaf, "missing properties")
	if !ok {
		return nil
	}
	var out []string
	for _, q := range quotedRE().FindAllString(missing, -1) {
		if name, err := strconv.Unquote(q); err == nil {
			out = append(out, name)
		}
	}
	return out
}

// fieldOf reads a schema location ("/properties/a/properties/b") as the
// field it is in, and the group's field when it is in one.
func (s *Schema) fieldOf(where string) (key, sub string, ok bool) {
	parts := strings.Split(where, "/")
	if len(parts) < 3 || parts[0] != "" || parts[1] != "properties" {
		return "", "", false
	}
	key = unescapePointer(parts[2])
	f := s.Field(key)
	if f == nil {
		return "", "", false
	}
	if f.Kind == KindGroup && len(parts) >= 5 && parts[3] == "properties" {
		sub = unescapePointer(parts[4])
		if f.sub(sub) == nil {
			sub = ""
		}
	}
	return key, sub, true
}

func unescapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// Package nativeform models an elicitation's requested schema and validates
// answers against it. The terminal form built from the model lives here too.
package nativeform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Kind is the kind of control a field needs.
type Kind string

// The field kinds of the elicitation schema subset.
const (
	KindString      Kind = "string"
	KindNumber      Kind = "number"
	KindInteger     Kind = "integer"
	KindBoolean     Kind = "boolean"
	KindSelect      Kind = "select"
	KindMultiSelect Kind = "multiselect"
)

// Option is one choice of a select or multi-select field: Value is sent,
// Title is shown.
type Option struct {
	Value any
	Title string
}

// Field is one top-level property of a requested schema.
type Field struct {
	Key         string
	Kind        Kind
	Label       string
	Description string
	Required    bool
	// Default is the schema's default value, or nil.
	Default any
	// Format is the string format (email, uri, date, date-time), or "".
	Format  string
	Options []Option
}

// Schema is a parsed requested schema: its fields in the order the server
// sent them, and a compiled validator.
type Schema struct {
	Fields   []Field
	compiled *jsonschema.Schema
}

// FieldError is a validation problem with one field, worded for a person.
// It never contains the submitted value.
type FieldError struct {
	Key     string
	Label   string
	Message string
}

func (e FieldError) Error() string {
	if e.Label == "" {
		return e.Message
	}
	return e.Label + ": " + e.Message
}

// Parse reads a requested schema, given as decoded JSON (map[string]any) or
// as raw JSON bytes ([]byte or json.RawMessage, which keep property order).
// A schema outside the elicitation subset is an error naming the field.
func Parse(requested any) (*Schema, error) {
	raw, err := toRaw(requested)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("requested schema is not valid JSON: %w", err)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("requested schema must be a JSON object")
	}
	// The field model holds plain JSON values (float64 numbers), the same
	// kind of values an answer carries; the validator gets exact numbers.
	var plain map[string]any
	if err := json.Unmarshal(raw, &plain); err != nil {
		return nil, fmt.Errorf("requested schema is not valid JSON: %w", err)
	}
	if t, ok := root["type"]; ok && t != "object" {
		return nil, fmt.Errorf("requested schema must have type \"object\", not %v", t)
	}
	order, err := propertyOrder(raw)
	if err != nil {
		return nil, err
	}
	props, _ := plain["properties"].(map[string]any)
	if plain["properties"] != nil && props == nil {
		return nil, errors.New("requested schema: properties must be an object")
	}
	required := map[string]bool{}
	if r, ok := plain["required"]; ok {
		list, ok := r.([]any)
		if !ok {
			return nil, errors.New("requested schema: required must be an array of names")
		}
		for _, k := range list {
			name, ok := k.(string)
			if !ok {
				return nil, errors.New("requested schema: required must be an array of names")
			}
			required[name] = true
		}
	}
	s := &Schema{}
	for _, key := range order {
		def, ok := props[key].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("field %q: schema must be an object", key)
		}
		f, err := parseField(key, def, required[key])
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, f)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource("mcpeek:requested-schema", root); err != nil {
		return nil, fmt.Errorf("requested schema: %w", err)
	}
	s.compiled, err = c.Compile("mcpeek:requested-schema")
	if err != nil {
		return nil, fmt.Errorf("requested schema does not compile: %w", err)
	}
	return s, nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema %q is not loaded", url)
}

func toRaw(requested any) ([]byte, error) {
	switch v := requested.(type) {
	case nil:
		return []byte(`{"type":"object","properties":{}}`), nil
	case json.RawMessage:
		return v, nil
	case []byte:
		return v, nil
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("requested schema cannot be encoded: %w", err)
		}
		return b, nil
	}
}

// propertyOrder returns the keys of the top-level "properties" object in the
// order they appear in raw.
func propertyOrder(raw []byte) ([]string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("requested schema is not a JSON object: %w", err)
	}
	p, ok := top["properties"]
	if !ok {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(p))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("requested schema: properties must be an object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("requested schema: %w", err)
		}
		key, _ := tok.(string)
		if slices.Contains(keys, key) {
			return nil, fmt.Errorf("field %q is declared twice", key)
		}
		keys = append(keys, key)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, fmt.Errorf("field %q: %w", key, err)
		}
	}
	return keys, nil
}

func parseField(key string, def map[string]any, required bool) (Field, error) {
	f := Field{Key: key, Required: required, Default: def["default"]}
	f.Label, _ = def["title"].(string)
	if f.Label == "" {
		f.Label = Humanize(key)
	}
	f.Description, _ = def["description"].(string)
	typ, _ := def["type"].(string)
	switch {
	case def["enum"] != nil || def["oneOf"] != nil:
		opts, err := parseOptions(key, def)
		if err != nil {
			return f, err
		}
		f.Kind, f.Options = KindSelect, opts
	case typ == "string":
		f.Kind = KindString
		f.Format, _ = def["format"].(string)
		switch f.Format {
		case "", "email", "uri", "date", "date-time":
		default:
			return f, fmt.Errorf("field %q: string format %q is not supported", key, f.Format)
		}
	case typ == "number":
		f.Kind = KindNumber
	case typ == "integer":
		f.Kind = KindInteger
	case typ == "boolean":
		f.Kind = KindBoolean
	case typ == "array":
		items, _ := def["items"].(map[string]any)
		if items == nil {
			return f, fmt.Errorf("field %q: an array needs items with enum or anyOf", key)
		}
		opts, err := parseOptions(key, items)
		if err != nil {
			return f, err
		}
		f.Kind, f.Options = KindMultiSelect, opts
	case typ == "":
		return f, fmt.Errorf("field %q: type is missing", key)
	default:
		return f, fmt.Errorf("field %q: type %q is not supported", key, typ)
	}
	return f, nil
}

func parseOptions(key string, def map[string]any) ([]Option, error) {
	if list, ok := def["enum"].([]any); ok {
		names, _ := def["enumNames"].([]any)
		if names != nil && len(names) != len(list) {
			return nil, fmt.Errorf("field %q: enumNames has %d entries for %d enum values", key, len(names), len(list))
		}
		var opts []Option
		for i, v := range list {
			title := fmt.Sprint(v)
			if names != nil {
				title = fmt.Sprint(names[i])
			}
			opts = append(opts, Option{Value: v, Title: title})
		}
		return opts, nil
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		list, ok := def[kw].([]any)
		if !ok {
			continue
		}
		var opts []Option
		for _, e := range list {
			m, ok := e.(map[string]any)
			if !ok || m["const"] == nil {
				return nil, fmt.Errorf("field %q: every %s entry needs a const", key, kw)
			}
			title, _ := m["title"].(string)
			if title == "" {
				title = fmt.Sprint(m["const"])
			}
			opts = append(opts, Option{Value: m["const"], Title: title})
		}
		return opts, nil
	}
	return nil, fmt.Errorf("field %q: choices must be an enum or a list of {const,title}", key)
}

// Humanize turns a property key into a label: snake_case, kebab-case and
// camelCase become words, the first capitalised ("assignee_email" →
// "Assignee email").
func Humanize(key string) string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	runes := []rune(key)
	for i, r := range runes {
		switch {
		case r == '_' || r == '-' || r == ' ' || r == '.':
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) ||
			(i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1]))):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	if len(words) == 0 {
		return key
	}
	s := strings.Join(words, " ")
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// Field returns the field with the given key, or nil.
func (s *Schema) Field(key string) *Field {
	for i := range s.Fields {
		if s.Fields[i].Key == key {
			return &s.Fields[i]
		}
	}
	return nil
}

// Defaults returns the content made of every default the schema declares.
func (s *Schema) Defaults() map[string]any {
	out := map[string]any{}
	for _, f := range s.Fields {
		if f.Default != nil {
			out[f.Key] = f.Default
		}
	}
	return out
}

// Validate checks content against the schema, formats asserted, and returns
// one error per failing field, in field order. Messages never echo the value.
func (s *Schema) Validate(content map[string]any) []FieldError {
	inst, err := normalize(content)
	if err != nil {
		return []FieldError{{Message: err.Error()}}
	}
	err = s.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []FieldError{{Message: err.Error()}}
	}
	byKey := map[string]string{}
	var general []string
	s.collect(ve, byKey, &general)
	var out []FieldError
	for _, f := range s.Fields {
		if msg, ok := byKey[f.Key]; ok {
			out = append(out, FieldError{Key: f.Key, Label: f.Label, Message: msg})
			delete(byKey, f.Key)
		}
	}
	for key, msg := range byKey { // properties the schema does not declare
		out = append(out, FieldError{Key: key, Label: key, Message: msg})
	}
	for _, msg := range general {
		out = append(out, FieldError{Message: msg})
	}
	return out
}

// Check is Validate folded into one error, or nil.
func (s *Schema) Check(content map[string]any) error {
	errs := s.Validate(content)
	if len(errs) == 0 {
		return nil
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return errors.New(strings.Join(msgs, "; "))
}

func normalize(content map[string]any) (any, error) {
	if content == nil {
		content = map[string]any{}
	}
	b, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("content cannot be encoded as JSON: %w", err)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

// collect walks the error tree and keeps the first message per field.
func (s *Schema) collect(ve *jsonschema.ValidationError, byKey map[string]string, general *[]string) {
	if len(ve.Causes) == 0 || isLeafKind(ve.ErrorKind) {
		if req, ok := ve.ErrorKind.(*kindRequired); ok && len(ve.InstanceLocation) == 0 {
			for _, k := range req.Missing {
				if _, seen := byKey[k]; !seen {
					byKey[k] = "is required"
				}
			}
			return
		}
		msg := s.message(ve)
		if len(ve.InstanceLocation) == 0 {
			*general = append(*general, msg)
			return
		}
		key := ve.InstanceLocation[0]
		if _, seen := byKey[key]; !seen {
			byKey[key] = msg
		}
		return
	}
	for _, c := range ve.Causes {
		s.collect(c, byKey, general)
	}
}

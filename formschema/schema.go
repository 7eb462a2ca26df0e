package formschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpeek/mcpeek/internal/textclean"
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
	// KindList is a list of text or numbers the person adds to and
	// removes from: an array whose items are a string, number or integer
	// without choices. Only tool arguments have it ([ParseArguments]).
	KindList Kind = "list"
	// KindGroup is a nested object of simple fields, shown as a group.
	// Only tool arguments have it ([ParseArguments]).
	KindGroup Kind = "group"
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
	// Default is the value the field starts from: the schema's default
	// when it is a value this field may send, else nil. An empty string
	// is no value, and a default that fails the field's own constraints
	// (a "" or "tomorrow" with format date) is not sent either:
	// DefaultNote then says why.
	Default any
	// Declared is the default as the schema declares it, used or not.
	Declared any
	// DefaultNote says why a declared default is not used, for a person
	// ("" when it is, or when it is the empty string).
	DefaultNote string
	// Format is the string format (email, uri, date, date-time), or "".
	Format  string
	Options []Option
	// Constraints; nil when the schema sets none.
	MinLength, MaxLength *int
	Pattern              string
	Minimum, Maximum     *float64
	// MultipleOf is the step a number must be a multiple of (multipleOf).
	MultipleOf         *float64
	MinItems, MaxItems *int
	// FormatMinimum and FormatMaximum bound a date or date-time field
	// (formatMinimum, formatMaximum), as the schema gives them; "" when
	// it does not. Validate enforces them.
	FormatMinimum, FormatMaximum string
	// Item is a list's item (KindList): its kind (string, number or
	// integer), format and constraints.
	Item *Field
	// Fields are a group's fields (KindGroup), in the schema's order.
	Fields []Field
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
	Key string
	// Sub is the field of a group (KindGroup) the error is about, or "".
	Sub     string
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
	return ParseWithOrder(requested, nil)
}

// ParseArguments reads a tool's input schema into a form: the elicitation
// subset, and beyond it lists of text or numbers ([KindList]) and nested
// objects of simple fields ([KindGroup]), each in the schema's property
// order when given as raw JSON. A schema beyond that (a oneOf of objects,
// a $ref, an array of objects, a group in a group) is an error naming
// what a form cannot show.
func ParseArguments(input any) (*Schema, error) {
	raw, err := toRaw(input)
	if err != nil {
		return nil, err
	}
	key := "args\x00" + string(raw)
	if s, ok := parsed.get(key); ok {
		return s, nil
	}
	s, err := parser{args: true}.parse(raw, nil)
	if err == nil {
		parsed.put(key, s)
	}
	return s, err
}

// ParseWithOrder is [Parse] for a schema whose property order was lost in
// decoding: fields named in order come first, in that order, and the rest
// follow in the order Parse finds them.
func ParseWithOrder(requested any, order []string) (*Schema, error) {
	raw, err := toRaw(requested)
	if err != nil {
		return nil, err
	}
	key := string(raw) + "\x00" + strings.Join(order, "\x00")
	if s, ok := parsed.get(key); ok {
		return s, nil
	}
	s, err := parser{}.parse(raw, order)
	if err == nil {
		parsed.put(key, s)
	}
	return s, err
}

// parser reads a schema: an elicitation's requested schema, or with args
// a tool's input schema, which may also hold lists and groups.
type parser struct {
	args bool
}

func (p parser) parse(raw []byte, order []string) (*Schema, error) {
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("requested schema is not valid JSON: %w", err)
	}
	// The field model holds plain JSON values (float64 numbers), the same
	// kind of values an answer carries.
	plain, ok := doc.(map[string]any)
	if !ok {
		return nil, errors.New("requested schema must be a JSON object")
	}
	if t, ok := plain["type"]; ok && t != "object" {
		return nil, fmt.Errorf("requested schema must have type \"object\", not %v", t)
	}
	found, err := propertyOrder(raw)
	if err != nil {
		return nil, err
	}
	order = mergeOrder(order, found)
	props, _ := plain["properties"].(map[string]any)
	if plain["properties"] != nil && props == nil {
		return nil, errors.New("requested schema: properties must be an object")
	}
	required := map[string]bool{}
	var requiredNames []string // in the schema's order, so errors name the same one every time
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
			requiredNames = append(requiredNames, name)
		}
	}
	for _, name := range requiredNames {
		if _, ok := props[name]; !ok {
			return nil, fmt.Errorf("field %q is required but not declared in properties", name)
		}
	}
	s := &Schema{}
	rawProps := propertiesRaw(raw)
	for _, key := range order {
		def, ok := props[key].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("field %q: schema must be an object", key)
		}
		f, err := p.parseField(key, def, required[key], rawProps[key])
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, f)
	}
	s.compiled, err = Compile(raw)
	if err != nil {
		return nil, fmt.Errorf("requested schema does not compile: %w", err)
	}
	s.settleDefaults()
	return s, nil
}

// settleDefaults keeps of each declared default only a value the field
// may send: an empty string is no value, and a default its own field
// refuses is noted and left out, so that nothing mcpeek sends fails the
// server's schema.
func (s *Schema) settleDefaults() {
	for i := range s.Fields {
		f := &s.Fields[i]
		for j := range f.Fields {
			s.settleSubDefault(f, &f.Fields[j])
		}
		if f.Default == nil {
			continue
		}
		if f.Default == "" && f.Kind == KindString {
			f.Default = nil
			continue
		}
		for _, e := range s.Validate(map[string]any{f.Key: f.Default}) {
			if e.Key == f.Key {
				f.DefaultNote = fmt.Sprintf("the server's default %s is not used: it %s", quoteValue(f.Declared), e.Message)
				f.Default = nil
				break
			}
		}
	}
}

// settleSubDefault is settleDefaults for a field of a group.
func (s *Schema) settleSubDefault(group, g *Field) {
	if g.Default == "" && g.Kind == KindString {
		g.Default = nil
	}
	if g.Default == nil {
		return
	}
	for _, e := range s.Validate(map[string]any{group.Key: map[string]any{g.Key: g.Default}}) {
		if e.Key == group.Key && e.Sub == g.Key {
			g.DefaultNote = fmt.Sprintf("the server's default %s is not used: it %s", quoteValue(g.Declared), e.Message)
			g.Default = nil
			return
		}
	}
}

// quoteValue writes a value as JSON, cut to a readable length.
func quoteValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	out := Clean(string(b))
	if r := []rune(out); len(r) > 40 {
		out = string(r[:39]) + "…"
	}
	return out
}

// propertiesRaw is each property's schema in raw as written, which keeps
// the order of a nested object's properties; nil when raw has none.
func propertiesRaw(raw []byte) map[string]json.RawMessage {
	var top struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	return top.Properties
}

func mergeOrder(hint, found []string) []string {
	var out []string
	for _, k := range hint {
		if slices.Contains(found, k) && !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	for _, k := range found {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
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

func (p parser) parseField(key string, def map[string]any, required bool, raw json.RawMessage) (Field, error) {
	f := Field{Key: key, Required: required, Default: def["default"], Declared: def["default"]}
	unsupported := []string{"$ref", "allOf", "not", "if", "properties", "patternProperties", "additionalProperties"}
	if p.args && def["type"] == "object" {
		unsupported = []string{"$ref", "allOf", "not", "if", "patternProperties"}
	}
	for _, kw := range unsupported {
		if _, ok := def[kw]; ok {
			return f, fmt.Errorf("field %q: %s is not supported in a form", key, kw)
		}
	}
	if _, isList := def["type"].([]any); isList {
		return f, fmt.Errorf("field %q: a list of types is not supported; give one type", key)
	}
	if err := parseConstraints(&f, def); err != nil {
		return f, err
	}
	f.Label, _ = def["title"].(string)
	if f.Label == "" {
		f.Label = Humanize(key)
	}
	f.Label = Clean(f.Label)
	f.Description, _ = def["description"].(string)
	f.Description = Clean(f.Description)
	if err := p.parseKind(&f, def, raw); err != nil {
		return f, err
	}
	if err := parseFormatBounds(&f, def); err != nil {
		return f, err
	}
	if err := checkDefault(f); err != nil {
		return f, err
	}
	return f, nil
}

// parseConstraints reads the length, count, range and pattern keywords.
func parseConstraints(f *Field, def map[string]any) error {
	var err error
	for _, c := range []struct {
		kw  string
		dst **int
	}{{"minLength", &f.MinLength}, {"maxLength", &f.MaxLength}, {"minItems", &f.MinItems}, {"maxItems", &f.MaxItems}} {
		if *c.dst, err = intKeyword(f.Key, def, c.kw); err != nil {
			return err
		}
	}
	if f.Minimum, err = numKeyword(f.Key, def, "minimum"); err != nil {
		return err
	}
	if f.Maximum, err = numKeyword(f.Key, def, "maximum"); err != nil {
		return err
	}
	if f.MultipleOf, err = numKeyword(f.Key, def, "multipleOf"); err != nil {
		return err
	}
	if f.MultipleOf != nil && !(*f.MultipleOf > 0) {
		return fmt.Errorf("field %q: multipleOf must be greater than 0", f.Key)
	}
	p, ok := def["pattern"]
	if !ok {
		return nil
	}
	ps, isString := p.(string)
	if !isString {
		return fmt.Errorf("field %q: pattern must be a string", f.Key)
	}
	if _, err := regexp.Compile(ps); err != nil {
		return fmt.Errorf("field %q: pattern is not a regular expression mcpeek can check (RE2): %v", f.Key, err)
	}
	f.Pattern = ps
	return nil
}

// parseKind decides the field's kind from its type and choices.
func (p parser) parseKind(f *Field, def map[string]any, raw json.RawMessage) error {
	key := f.Key
	typ, _ := def["type"].(string)
	switch {
	case def["enum"] != nil || def["oneOf"] != nil || def["anyOf"] != nil:
		opts, err := parseOptions(key, def)
		if err != nil {
			return err
		}
		f.Kind, f.Options = KindSelect, opts
	case typ == "string":
		f.Kind = KindString
		f.Format, _ = def["format"].(string)
		switch f.Format {
		case "", "email", "uri", "date", "date-time":
		default:
			return fmt.Errorf("field %q: string format %q is not supported", key, f.Format)
		}
	case typ == "number":
		f.Kind = KindNumber
	case typ == "integer":
		f.Kind = KindInteger
	case typ == "boolean":
		f.Kind = KindBoolean
	case typ == "array":
		return p.parseArray(f, def)
	case typ == "":
		return fmt.Errorf("field %q: type is missing", key)
	case typ == "object" && p.args:
		return p.parseGroup(f, def, raw)
	case typ == "object":
		return fmt.Errorf("field %q: nested objects are not supported (elicitation forms are flat)", key)
	default:
		return fmt.Errorf("field %q: type %q is not supported", key, typ)
	}
	return nil
}

// parseArray reads an array: a multi-select when its items are choices
// (enum, or anyOf/oneOf of {const,title}, with or without an item type:
// FastMCP sends {"items":{"enum":[…]}}), and for tool arguments a list of
// text or numbers.
func (p parser) parseArray(f *Field, def map[string]any) error {
	key := f.Key
	items, _ := def["items"].(map[string]any)
	if items == nil {
		if p.args {
			return fmt.Errorf("field %q: an array needs items that say what each one is", key)
		}
		return fmt.Errorf("field %q: an array needs items with enum or anyOf (its choices)", key)
	}
	if items["enum"] != nil || items["anyOf"] != nil || items["oneOf"] != nil {
		opts, err := parseOptions(key, items)
		if err != nil {
			return err
		}
		f.Kind, f.Options = KindMultiSelect, opts
		return nil
	}
	itemType, _ := items["type"].(string)
	if !p.args {
		if itemType == "" {
			return fmt.Errorf("field %q: an array's items need enum or anyOf (its choices) to be a multi-select", key)
		}
		return fmt.Errorf("field %q: an array of %s items without enum or anyOf is not a multi-select; an elicitation form can only offer choices", key, itemType)
	}
	switch itemType {
	case "string", "number", "integer":
	case "object":
		return fmt.Errorf("field %q: a list of objects is more than a form can show", key)
	case "":
		return fmt.Errorf("field %q: the array's items have no type", key)
	default:
		return fmt.Errorf("field %q: a list of %s items is more than a form can show", key, itemType)
	}
	item, err := parser{}.parseField(key, items, false, nil)
	if err != nil {
		return fmt.Errorf("%w (in its items)", err)
	}
	item.Label, item.Description = f.Label, ""
	f.Kind, f.Item = KindList, &item
	return nil
}

// parseGroup reads a nested object of simple fields, in the order raw
// gives them.
func (p parser) parseGroup(f *Field, def map[string]any, raw json.RawMessage) error {
	key := f.Key
	props, ok := def["properties"].(map[string]any)
	if !ok || len(props) == 0 {
		return fmt.Errorf("field %q: an object without properties is more than a form can show", key)
	}
	required := map[string]bool{}
	if list, ok := def["required"].([]any); ok {
		for _, k := range list {
			if name, ok := k.(string); ok {
				required[name] = true
			}
		}
	}
	var order []string
	if raw != nil {
		order, _ = propertyOrder(raw)
	}
	nestedRaw := propertiesRaw(raw)
	for k := range props { // properties raw did not give (a decoded schema)
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	if raw == nil {
		slices.Sort(order)
	}
	for _, k := range order {
		sub, ok := props[k].(map[string]any)
		if !ok {
			return fmt.Errorf("field %q: property %q: schema must be an object", key, k)
		}
		if sub["type"] == "object" {
			return fmt.Errorf("field %q: an object in an object (%q) is more than a form can show", key, k)
		}
		g, err := parser{args: true}.parseField(k, sub, required[k], nestedRaw[k])
		if err != nil {
			return fmt.Errorf("field %q: %w", key, err)
		}
		f.Fields = append(f.Fields, g)
	}
	f.Kind = KindGroup
	return nil
}

func intKeyword(key string, def map[string]any, kw string) (*int, error) {
	v, ok := def[kw]
	if !ok {
		return nil, nil
	}
	n, isNum := v.(float64)
	if !isNum || n < 0 || n != float64(int(n)) {
		return nil, fmt.Errorf("field %q: %s must be a non-negative whole number", key, kw)
	}
	i := int(n)
	return &i, nil
}

func numKeyword(key string, def map[string]any, kw string) (*float64, error) {
	v, ok := def[kw]
	if !ok {
		return nil, nil
	}
	n, isNum := v.(float64)
	if !isNum {
		return nil, fmt.Errorf("field %q: %s must be a number", key, kw)
	}
	return &n, nil
}

// checkDefault rejects a default of the wrong JSON type for its field.
func checkDefault(f Field) error {
	if f.Default == nil {
		return nil
	}
	ok := true
	switch f.Kind {
	case KindString:
		_, ok = f.Default.(string)
	case KindNumber:
		_, ok = f.Default.(float64)
	case KindInteger:
		n, isNum := f.Default.(float64)
		ok = isNum && n == float64(int64(n))
	case KindBoolean:
		_, ok = f.Default.(bool)
	case KindSelect:
		ok = slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == f.Default })
	case KindMultiSelect:
		list, isList := f.Default.([]any)
		ok = isList
		for _, v := range list {
			ok = ok && slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == v })
		}
	case KindList:
		_, ok = f.Default.([]any)
	case KindGroup:
		_, ok = f.Default.(map[string]any)
	}
	if !ok {
		return fmt.Errorf("field %q: the default does not fit the field", f.Key)
	}
	return nil
}

func parseOptions(key string, def map[string]any) ([]Option, error) {
	if e, ok := def["enum"]; ok {
		list, isList := e.([]any)
		if !isList || len(list) == 0 {
			return nil, fmt.Errorf("field %q: enum must be a non-empty list", key)
		}
		for _, v := range list {
			switch v.(type) {
			case string, float64, bool:
			default:
				return nil, fmt.Errorf("field %q: enum values must be strings, numbers or booleans", key)
			}
		}
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
			opts = append(opts, Option{Value: v, Title: Clean(title)})
		}
		return opts, nil
	}
	for _, kw := range []string{"oneOf", "anyOf"} {
		raw, present := def[kw]
		if !present {
			continue
		}
		list, ok := raw.([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("field %q: %s must be a non-empty list of {const,title}", key, kw)
		}
		var opts []Option
		for _, e := range list {
			m, ok := e.(map[string]any)
			if ok && m["const"] == nil && (m["type"] == "object" || m["properties"] != nil) {
				return nil, fmt.Errorf("field %q: a %s of objects is more than a form can show (a choice needs a const in each entry)", key, kw)
			}
			if !ok || m["const"] == nil || isComposite(m["const"]) {
				return nil, fmt.Errorf("field %q: every %s entry needs a const", key, kw)
			}
			title, _ := m["title"].(string)
			if title == "" {
				title = fmt.Sprint(m["const"])
			}
			opts = append(opts, Option{Value: m["const"], Title: Clean(title)})
		}
		return opts, nil
	}
	return nil, fmt.Errorf("field %q: choices must be an enum or a list of {const,title}", key)
}

func isComposite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// Clean makes text from a server safe to draw on a terminal: escape
// sequences and other control characters become visible placeholders
// (newlines and tabs stay), and bytes that are not UTF-8 become U+FFFD, so
// nothing a server sends can move the cursor, clear the screen or restyle
// mcpeek's own framing. Bidirectional controls and zero-width characters
// show as \uXXXX (textclean.Clean).
func Clean(s string) string { return textclean.Clean(s) }

// Humanize turns a property key into a label: snake_case, kebab-case and
// camelCase become words, the first capitalised ("assignee_email" →
// "Assignee email").
func Humanize(key string) string {
	var words []string
	var cur []rune
	runes := []rune(key)
	flush := func() {
		if len(cur) == 0 {
			return
		}
		w := string(cur)
		// An acronym keeps its capitals ("userID" → "User ID"); a key in
		// capitals alone is a shouted word ("EMAIL" → "Email").
		if len(cur) == 1 || strings.ToUpper(w) != w || len(runes) == len(cur) {
			w = strings.ToLower(w)
		}
		words = append(words, w)
		cur = cur[:0]
	}
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
	found := findings{}
	var general []string
	if s.compiled != nil { // a zero Schema (URL mode) has no validator
		if err := validateWhole(s.compiled, inst); err != nil {
			var ve *jsonschema.ValidationError
			if errors.As(err, &ve) {
				s.collect(ve, found, &general)
			} else {
				general = append(general, err.Error())
			}
		}
	}
	byKey := found.messages()
	s.checkBounds(content, byKey)
	var out []FieldError
	for _, f := range s.Fields {
		if msg, ok := byKey[f.Key]; ok {
			out = append(out, FieldError{Key: f.Key, Label: f.Label, Message: msg})
		}
		for _, g := range f.Fields {
			if msg, ok := byKey[f.Key+subSep+g.Key]; ok {
				out = append(out, FieldError{Key: f.Key, Sub: g.Key, Label: f.Label + " › " + g.Label, Message: msg})
			}
		}
	}
	// Properties the schema does not declare, by name: a typo in an answer,
	// or data the person never saw in the form.
	var extra []string
	for key := range content {
		if s.Field(key) == nil {
			extra = append(extra, key)
		}
	}
	slices.Sort(extra)
	for _, key := range extra {
		out = append(out, FieldError{Key: key, Label: key, Message: "is not a field of this form"})
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

// normalize makes content the JSON the validator reads: numbers as
// written (json.Number), so that bounds and multipleOf are exact.
func normalize(content map[string]any) (any, error) {
	if content == nil {
		content = map[string]any{}
	}
	b, err := json.Marshal(content)
	if err != nil {
		return nil, fmt.Errorf("content cannot be encoded as JSON: %w", err)
	}
	inst, err := Instance(b)
	if err != nil {
		return nil, fmt.Errorf("content cannot be encoded as JSON: %w", err)
	}
	return inst, nil
}

// subSep joins a group's key and its field's key in byKey; JSON keys may
// hold any character but this one is no key's in practice.
const subSep = "\x00"

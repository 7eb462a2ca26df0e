package formschema

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func intp(n int) *int           { return &n }
func floatp(f float64) *float64 { return &f }

// mustParse parses a raw JSON schema and fails the test on error.
func mustParse(t *testing.T, raw string) *Schema {
	t.Helper()
	s, err := Parse(json.RawMessage(raw))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return s
}

// oneField wraps a single property definition into a requested schema.
func oneField(key, def string, required bool) string {
	req := ""
	if required {
		req = fmt.Sprintf(`,"required":[%q]`, key)
	}
	return fmt.Sprintf(`{"type":"object","properties":{%q:%s}%s}`, key, def, req)
}

func TestParseFieldKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		key       string
		def       string
		required  bool
		wantField Field
	}{
		{
			name:      "plain string, label humanized from snake_case",
			key:       "full_name",
			def:       `{"type":"string"}`,
			wantField: Field{Key: "full_name", Kind: KindString, Label: "Full name"},
		},
		{
			name: "title and description win over the key",
			key:  "nm",
			def:  `{"type":"string","title":"Your name","description":"As on your passport"}`,
			wantField: Field{Key: "nm", Kind: KindString, Label: "Your name",
				Description: "As on your passport"},
		},
		{
			name:      "empty title falls back to the humanized key",
			key:       "nickName",
			def:       `{"type":"string","title":""}`,
			wantField: Field{Key: "nickName", Kind: KindString, Label: "Nick name"},
		},
		{
			name:     "string minLength maxLength pattern, required",
			key:      "code",
			def:      `{"type":"string","minLength":2,"maxLength":8,"pattern":"^[a-z]+$"}`,
			required: true,
			wantField: Field{Key: "code", Kind: KindString, Label: "Code", Required: true,
				MinLength: intp(2), MaxLength: intp(8), Pattern: "^[a-z]+$"},
		},
		{
			name:      "minLength zero is kept as a constraint",
			key:       "note",
			def:       `{"type":"string","minLength":0}`,
			wantField: Field{Key: "note", Kind: KindString, Label: "Note", MinLength: intp(0)},
		},
		{
			name:      "format email",
			key:       "email",
			def:       `{"type":"string","format":"email"}`,
			wantField: Field{Key: "email", Kind: KindString, Label: "Email", Format: "email"},
		},
		{
			name:      "format uri",
			key:       "homepage",
			def:       `{"type":"string","format":"uri"}`,
			wantField: Field{Key: "homepage", Kind: KindString, Label: "Homepage", Format: "uri"},
		},
		{
			name:      "format date",
			key:       "birth-date",
			def:       `{"type":"string","format":"date"}`,
			wantField: Field{Key: "birth-date", Kind: KindString, Label: "Birth date", Format: "date"},
		},
		{
			name:      "format date-time",
			key:       "startsAt",
			def:       `{"type":"string","format":"date-time"}`,
			wantField: Field{Key: "startsAt", Kind: KindString, Label: "Starts at", Format: "date-time"},
		},
		{
			name: "string default",
			key:  "city",
			def:  `{"type":"string","default":"Lisbon"}`,
			wantField: Field{Key: "city", Kind: KindString, Label: "City",
				Default: "Lisbon"},
		},
		{
			name: "format with default",
			key:  "due",
			def:  `{"type":"string","format":"date","default":"2025-11-25"}`,
			wantField: Field{Key: "due", Kind: KindString, Label: "Due", Format: "date",
				Default: "2025-11-25"},
		},
		{
			name: "number with fractional minimum maximum and default",
			key:  "ratio",
			def:  `{"type":"number","minimum":0.5,"maximum":9.75,"default":1.25}`,
			wantField: Field{Key: "ratio", Kind: KindNumber, Label: "Ratio",
				Minimum: floatp(0.5), Maximum: floatp(9.75), Default: 1.25},
		},
		{
			name: "number with negative minimum only",
			key:  "temp",
			def:  `{"type":"number","minimum":-40}`,
			wantField: Field{Key: "temp", Kind: KindNumber, Label: "Temp",
				Minimum: floatp(-40)},
		},
		{
			name:     "integer minimum maximum default, required",
			key:      "age",
			def:      `{"type":"integer","minimum":18,"maximum":120,"default":30}`,
			required: true,
			wantField: Field{Key: "age", Kind: KindInteger, Label: "Age", Required: true,
				Minimum: floatp(18), Maximum: floatp(120), Default: float64(30)},
		},
		{
			name: "number with multipleOf",
			key:  "dose",
			def:  `{"type":"number","minimum":0,"maximum":2,"multipleOf":0.25}`,
			wantField: Field{Key: "dose", Kind: KindNumber, Label: "Dose",
				Minimum: floatp(0), Maximum: floatp(2), MultipleOf: floatp(0.25)},
		},
		{
			name: "date with formatMinimum and formatMaximum",
			key:  "due",
			def:  `{"type":"string","format":"date","formatMinimum":"2026-01-01","formatMaximum":"2026-12-31"}`,
			wantField: Field{Key: "due", Kind: KindString, Label: "Due", Format: "date",
				FormatMinimum: "2026-01-01", FormatMaximum: "2026-12-31"},
		},
		{
			name: "date-time with formatMinimum only",
			key:  "at",
			def:  `{"type":"string","format":"date-time","formatMinimum":"2026-01-01T09:00:00+01:00"}`,
			wantField: Field{Key: "at", Kind: KindString, Label: "At", Format: "date-time",
				FormatMinimum: "2026-01-01T09:00:00+01:00"},
		},
		{
			name:      "boolean without default",
			key:       "subscribe",
			def:       `{"type":"boolean","description":"Get the newsletter"}`,
			wantField: Field{Key: "subscribe", Kind: KindBoolean, Label: "Subscribe", Description: "Get the newsletter"},
		},
		{
			name:      "boolean default false is a default",
			key:       "agree",
			def:       `{"type":"boolean","default":false}`,
			wantField: Field{Key: "agree", Kind: KindBoolean, Label: "Agree", Default: false},
		},
		{
			name:      "boolean default true",
			key:       "agree",
			def:       `{"type":"boolean","default":true}`,
			wantField: Field{Key: "agree", Kind: KindBoolean, Label: "Agree", Default: true},
		},
		{
			name: "untitled enum: titles are the values",
			key:  "color",
			def:  `{"type":"string","enum":["red","green","blue"]}`,
			wantField: Field{Key: "color", Kind: KindSelect, Label: "Color", Options: []Option{
				{Value: "red", Title: "red"}, {Value: "green", Title: "green"}, {Value: "blue", Title: "blue"},
			}},
		},
		{
			name: "untitled enum with default",
			key:  "color",
			def:  `{"type":"string","enum":["red","green"],"default":"green"}`,
			wantField: Field{Key: "color", Kind: KindSelect, Label: "Color", Default: "green", Options: []Option{
				{Value: "red", Title: "red"}, {Value: "green", Title: "green"},
			}},
		},
		{
			name: "numeric enum",
			key:  "stars",
			def:  `{"type":"integer","enum":[1,2,3],"default":2}`,
			wantField: Field{Key: "stars", Kind: KindSelect, Label: "Stars", Default: float64(2), Options: []Option{
				{Value: float64(1), Title: "1"}, {Value: float64(2), Title: "2"}, {Value: float64(3), Title: "3"},
			}},
		},
		{
			name: "titled oneOf: consts sent, titles shown, default",
			key:  "size",
			def: `{"type":"string","title":"T-shirt size","oneOf":[
				{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l"}],"default":"m"}`,
			required: true,
			wantField: Field{Key: "size", Kind: KindSelect, Label: "T-shirt size", Required: true, Default: "m",
				Options: []Option{{Value: "s", Title: "Small"}, {Value: "m", Title: "Medium"}, {Value: "l", Title: "l"}}},
		},
		{
			name: "oneOf const false is a real const",
			key:  "mode",
			def:  `{"type":"boolean","oneOf":[{"const":true,"title":"On"},{"const":false,"title":"Off"}]}`,
			wantField: Field{Key: "mode", Kind: KindSelect, Label: "Mode",
				Options: []Option{{Value: true, Title: "On"}, {Value: false, Title: "Off"}}},
		},
		{
			name: "legacy enum with enumNames and default",
			key:  "plan",
			def:  `{"type":"string","enum":["free","pro"],"enumNames":["Free tier","Pro tier"],"default":"pro"}`,
			wantField: Field{Key: "plan", Kind: KindSelect, Label: "Plan", Default: "pro",
				Options: []Option{{Value: "free", Title: "Free tier"}, {Value: "pro", Title: "Pro tier"}}},
		},
		{
			name: "multi-select items.enum with minItems maxItems default",
			key:  "tags",
			def: `{"type":"array","items":{"type":"string","enum":["a","b","c"]},
				"minItems":1,"maxItems":2,"default":["a","c"]}`,
			wantField: Field{Key: "tags", Kind: KindMultiSelect, Label: "Tags",
				MinItems: intp(1), MaxItems: intp(2), Default: []any{"a", "c"},
				Options: []Option{{Value: "a", Title: "a"}, {Value: "b", Title: "b"}, {Value: "c", Title: "c"}}},
		},
		{
			name: "multi-select items.anyOf with titles, empty default",
			key:  "languages",
			def: `{"type":"array","title":"Languages you use","items":{"anyOf":[
				{"const":"go","title":"Go"},{"const":"rs","title":"Rust"}]},"maxItems":2,"default":[]}`,
			required: true,
			wantField: Field{Key: "languages", Kind: KindMultiSelect, Label: "Languages you use", Required: true,
				MaxItems: intp(2), Default: []any{},
				Options: []Option{{Value: "go", Title: "Go"}, {Value: "rs", Title: "Rust"}}},
		},
		{
			name: "multi-select items.enum with enumNames",
			key:  "days",
			def:  `{"type":"array","items":{"type":"string","enum":["mo","tu"],"enumNames":["Monday","Tuesday"]}}`,
			wantField: Field{Key: "days", Kind: KindMultiSelect, Label: "Days",
				Options: []Option{{Value: "mo", Title: "Monday"}, {Value: "tu", Title: "Tuesday"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mustParse(t, oneField(tt.key, tt.def, tt.required))
			if len(s.Fields) != 1 {
				t.Fatalf("got %d fields, want 1", len(s.Fields))
			}
			want := tt.wantField
			if want.Declared == nil {
				want.Declared = want.Default // a default that is used is the one declared
			}
			if got := s.Fields[0]; !reflect.DeepEqual(got, want) {
				t.Errorf("field mismatch\n got: %s\nwant: %s", showField(got), showField(want))
			}
			if got := s.Field(tt.key); got == nil || got.Key != tt.key {
				t.Errorf("Field(%q) = %v", tt.key, got)
			}
			if s.Field("no-such-field") != nil {
				t.Error("Field of an unknown key is not nil")
			}
		})
	}
}

// showField prints a Field with its pointers dereferenced.
func showField(f Field) string {
	deref := func(p any) string {
		switch v := p.(type) {
		case *int:
			if v != nil {
				return fmt.Sprint(*v)
			}
		case *float64:
			if v != nil {
				return fmt.Sprint(*v)
			}
		}
		return "nil"
	}
	return fmt.Sprintf("{Key:%q Kind:%s Label:%q Desc:%q Req:%v Default:%#v Format:%q Options:%+v "+
		"MinLength:%s MaxLength:%s Pattern:%q Minimum:%s Maximum:%s MinItems:%s MaxItems:%s}",
		f.Key, f.Kind, f.Label, f.Description, f.Required, f.Default, f.Format, f.Options,
		deref(f.MinLength), deref(f.MaxLength), f.Pattern, deref(f.Minimum), deref(f.Maximum),
		deref(f.MinItems), deref(f.MaxItems))
}

func TestParseRequiredAndShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		schema       any
		wantKeys     []string
		wantRequired []string
	}{
		{
			name: "required marks only the named fields",
			schema: json.RawMessage(`{"type":"object","properties":{
				"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"boolean"}},"required":["c","a"]}`),
			wantKeys:     []string{"a", "b", "c"},
			wantRequired: []string{"a", "c"},
		},
		{
			name:     "root type may be left out",
			schema:   json.RawMessage(`{"properties":{"a":{"type":"string"}}}`),
			wantKeys: []string{"a"},
		},
		{
			name:   "no properties is an empty form",
			schema: json.RawMessage(`{"type":"object"}`),
		},
		{
			name:   "nil is an empty form",
			schema: nil,
		},
		{
			name:         "decoded map with Go ints",
			schema:       map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": 1}}, "required": []string{"n"}},
			wantKeys:     []string{"n"},
			wantRequired: []string{"n"},
		},
		{
			name:     "[]byte input",
			schema:   []byte(`{"type":"object","properties":{"x":{"type":"number"}}}`),
			wantKeys: []string{"x"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse(tt.schema)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var keys, req []string
			for _, f := range s.Fields {
				keys = append(keys, f.Key)
				if f.Required {
					req = append(req, f.Key)
				}
			}
			if !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("keys = %q, want %q", keys, tt.wantKeys)
			}
			if !slices.Equal(req, tt.wantRequired) {
				t.Errorf("required = %q, want %q", req, tt.wantRequired)
			}
			if errs := s.Validate(map[string]any{}); len(errs) != len(tt.wantRequired) {
				t.Errorf("Validate({}) = %v, want %d 'is required' errors", errs, len(tt.wantRequired))
			}
		})
	}
}

func TestParseOrder(t *testing.T) {
	t.Parallel()
	const raw = `{"type":"object","properties":{
		"zeta":{"type":"string"},"alpha":{"type":"integer"},"mid":{"type":"boolean"},"beta":{"type":"number"}}}`
	var decoded map[string]any
	if err := json.Unmarshal([]byte(raw), &decoded); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		schema   any
		hint     []string
		wantKeys []string
	}{
		{
			name:     "raw message keeps the written order",
			schema:   json.RawMessage(raw),
			wantKeys: []string{"zeta", "alpha", "mid", "beta"},
		},
		{
			name:     "raw bytes keep the written order",
			schema:   []byte(raw),
			wantKeys: []string{"zeta", "alpha", "mid", "beta"},
		},
		{
			name:     "decoded map without a hint is in key order",
			schema:   decoded,
			wantKeys: []string{"alpha", "beta", "mid", "zeta"},
		},
		{
			name:     "full hint restores a decoded map's order",
			schema:   decoded,
			hint:     []string{"zeta", "alpha", "mid", "beta"},
			wantKeys: []string{"zeta", "alpha", "mid", "beta"},
		},
		{
			name:     "partial hint first, the rest after in found order",
			schema:   decoded,
			hint:     []string{"mid", "zeta"},
			wantKeys: []string{"mid", "zeta", "alpha", "beta"},
		},
		{
			name:     "unknown and repeated hint keys are ignored",
			schema:   decoded,
			hint:     []string{"nope", "beta", "", "beta", "ALPHA", "alpha"},
			wantKeys: []string{"beta", "alpha", "mid", "zeta"},
		},
		{
			name:     "hint only of unknown keys changes nothing",
			schema:   json.RawMessage(raw),
			hint:     []string{"x", "y"},
			wantKeys: []string{"zeta", "alpha", "mid", "beta"},
		},
		{
			name:     "hint also applies to raw input",
			schema:   json.RawMessage(raw),
			hint:     []string{"beta"},
			wantKeys: []string{"beta", "zeta", "alpha", "mid"},
		},
		{
			name:     "empty hint is no hint",
			schema:   json.RawMessage(raw),
			hint:     []string{},
			wantKeys: []string{"zeta", "alpha", "mid", "beta"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseWithOrder(tt.schema, tt.hint)
			if err != nil {
				t.Fatalf("ParseWithOrder: %v", err)
			}
			var keys []string
			for _, f := range s.Fields {
				keys = append(keys, f.Key)
			}
			if !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("keys = %q, want %q", keys, tt.wantKeys)
			}
		})
	}
}

func TestParseMalformed(t *testing.T) {
	t.Parallel()
	f := func(key, def string) json.RawMessage { return json.RawMessage(oneField(key, def, false)) }
	tests := []struct {
		name      string
		schema    any
		wantField string   // the field the error must name, or ""
		wantErr   []string // substrings the error must contain
	}{
		{"nested object with properties", f("address", `{"type":"object","properties":{"street":{"type":"string"}}}`),
			"address", []string{"properties is not supported"}},
		{"nested object without properties", f("address", `{"type":"object"}`),
			"address", []string{"nested objects are not supported"}},
		{"array without items", f("tags", `{"type":"array"}`),
			"tags", []string{"an array needs items with enum or anyOf"}},
		{"array items is a list", f("tags", `{"type":"array","items":[{"type":"string"}]}`),
			"tags", []string{"an array needs items with enum or anyOf"}},
		{"array items without enum or anyOf", f("tags", `{"type":"array","items":{"type":"string"}}`),
			"tags", []string{"an array of string items without enum or anyOf is not a multi-select"}},
		{"type list", f("name", `{"type":["string","null"]}`),
			"name", []string{"a list of types is not supported"}},
		{"missing type", f("name", `{"title":"Name"}`),
			"name", []string{"type is missing"}},
		{"type null", f("nothing", `{"type":"null"}`),
			"nothing", []string{`type "null" is not supported`}},
		{"type not a string", f("name", `{"type":7}`),
			"name", []string{"type is missing"}},
		{"unsupported format", f("ip", `{"type":"string","format":"ipv4"}`),
			"ip", []string{`string format "ipv4" is not supported`}},
		{"multipleOf zero", f("n", `{"type":"number","multipleOf":0}`),
			"n", []string{"multipleOf must be greater than 0"}},
		{"multipleOf not a number", f("n", `{"type":"number","multipleOf":"2"}`),
			"n", []string{"multipleOf must be a number"}},
		{"formatMinimum on a plain string", f("s", `{"type":"string","formatMinimum":"2026-01-01"}`),
			"s", []string{"formatMinimum applies only to a date or date-time string"}},
		{"formatMaximum not a date", f("d", `{"type":"string","format":"date","formatMaximum":"soon"}`),
			"d", []string{"formatMaximum must be a date as YYYY-MM-DD"}},
		{"formatMinimum not a string", f("d", `{"type":"string","format":"date","formatMinimum":20260101}`),
			"d", []string{"formatMinimum must be a date as YYYY-MM-DD"}},
		{"formatMinimum of a date-time is a date", f("d", `{"type":"string","format":"date-time","formatMinimum":"2026-01-01"}`),
			"d", []string{"formatMinimum must be a date and time"}},
		{"formatMaximum before formatMinimum", f("d", `{"type":"string","format":"date","formatMinimum":"2026-02-01","formatMaximum":"2026-01-31"}`),
			"d", []string{"formatMaximum is before formatMinimum"}},
		{"lookahead pattern is not RE2", f("code", `{"type":"string","pattern":"^(?=a)a+$"}`),
			"code", []string{"pattern is not a regular expression mcpeek can check (RE2)"}},
		{"backreference pattern is not RE2", f("code", `{"type":"string","pattern":"(a)\\1"}`),
			"code", []string{"RE2"}},
		{"pattern not a string", f("code", `{"type":"string","pattern":5}`),
			"code", []string{"pattern must be a string"}},
		{"enum empty", f("color", `{"type":"string","enum":[]}`),
			"color", []string{"enum must be a non-empty list"}},
		{"enum not a list", f("color", `{"type":"string","enum":"red"}`),
			"color", []string{"enum must be a non-empty list"}},
		{"enum of objects", f("color", `{"type":"string","enum":[{"r":1}]}`),
			"color", []string{"enum values must be strings, numbers or booleans"}},
		{"enum with null", f("color", `{"type":"string","enum":["red",null]}`),
			"color", []string{"enum values must be strings, numbers or booleans"}},
		{"items.enum of lists", f("tags", `{"type":"array","items":{"enum":[["a"]]}}`),
			"tags", []string{"enum values must be strings, numbers or booleans"}},
		{"oneOf entry without const", f("size", `{"type":"string","oneOf":[{"const":"s","title":"Small"},{"title":"Large"}]}`),
			"size", []string{"every oneOf entry needs a const"}},
		{"oneOf entry not an object", f("size", `{"type":"string","oneOf":["s"]}`),
			"size", []string{"every oneOf entry needs a const"}},
		{"oneOf empty", f("size", `{"type":"string","oneOf":[]}`),
			"size", []string{"oneOf must be a non-empty list of {const,title}"}},
		{"items.anyOf entry with an object const", f("tags", `{"type":"array","items":{"anyOf":[{"const":{"a":1},"title":"A"}]}}`),
			"tags", []string{"every anyOf entry needs a const"}},
		{"enumNames length mismatch", f("plan", `{"type":"string","enum":["f","p"],"enumNames":["Free"]}`),
			"plan", []string{"enumNames has 1 entries for 2 enum values"}},
		{"$ref", json.RawMessage(`{"type":"object","$defs":{"s":{"type":"string"}},"properties":{"name":{"$ref":"#/$defs/s"}}}`),
			"name", []string{"$ref is not supported"}},
		{"allOf", f("name", `{"allOf":[{"type":"string"}]}`),
			"name", []string{"allOf is not supported"}},
		{"not", f("name", `{"type":"string","not":{"const":"x"}}`),
			"name", []string{"not is not supported"}},
		{"required name not in properties", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}`),
			"ghost", []string{"is required but not declared in properties"}},
		{"required not a list", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":"a"}`),
			"", []string{"required must be an array of names"}},
		{"required with a non-string", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"required":[1]}`),
			"", []string{"required must be an array of names"}},
		{"schema is a list", json.RawMessage(`[{"type":"object"}]`),
			"", []string{"requested schema must be a JSON object"}},
		{"schema is null", json.RawMessage(`null`),
			"", []string{"requested schema must be a JSON object"}},
		{"schema is a Go string", "hello",
			"", []string{"requested schema must be a JSON object"}},
		{"root type is not object", json.RawMessage(`{"type":"array","items":{"enum":["a"]}}`),
			"", []string{`requested schema must have type "object"`}},
		{"properties is a list", json.RawMessage(`{"type":"object","properties":[{"type":"string"}]}`),
			"", []string{"properties must be an object"}},
		{"properties is null", json.RawMessage(`{"type":"object","properties":null}`),
			"", []string{"properties must be an object"}},
		{"property schema is not an object", f("flag", `true`),
			"flag", []string{"schema must be an object"}},
		{"property declared twice", json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`),
			"a", []string{"declared twice"}},
		{"string default is a number", f("name", `{"type":"string","default":5}`),
			"name", []string{"the default does not fit the field"}},
		{"number default is a string", f("ratio", `{"type":"number","default":"1.5"}`),
			"ratio", []string{"the default does not fit the field"}},
		{"integer default is a fraction", f("age", `{"type":"integer","default":2.5}`),
			"age", []string{"the default does not fit the field"}},
		{"boolean default is a string", f("agree", `{"type":"boolean","default":"yes"}`),
			"agree", []string{"the default does not fit the field"}},
		{"enum default not an option", f("color", `{"type":"string","enum":["red"],"default":"blue"}`),
			"color", []string{"the default does not fit the field"}},
		{"oneOf default is a title, not a const", f("size", `{"type":"string","oneOf":[{"const":"s","title":"Small"}],"default":"Small"}`),
			"size", []string{"the default does not fit the field"}},
		{"multi-select default not a list", f("tags", `{"type":"array","items":{"enum":["a"]},"default":"a"}`),
			"tags", []string{"the default does not fit the field"}},
		{"multi-select default has a stranger", f("tags", `{"type":"array","items":{"enum":["a"]},"default":["a","z"]}`),
			"tags", []string{"the default does not fit the field"}},
		{"minLength negative", f("name", `{"type":"string","minLength":-1}`),
			"name", []string{"minLength must be a non-negative whole number"}},
		{"minLength fraction", f("name", `{"type":"string","minLength":1.5}`),
			"name", []string{"minLength must be a non-negative whole number"}},
		{"maxLength a string", f("name", `{"type":"string","maxLength":"10"}`),
			"name", []string{"maxLength must be a non-negative whole number"}},
		{"minItems negative", f("tags", `{"type":"array","items":{"enum":["a"]},"minItems":-2}`),
			"tags", []string{"minItems must be a non-negative whole number"}},
		{"maxItems fraction", f("tags", `{"type":"array","items":{"enum":["a"]},"maxItems":0.5}`),
			"tags", []string{"maxItems must be a non-negative whole number"}},
		{"minimum a string", f("age", `{"type":"integer","minimum":"0"}`),
			"age", []string{"minimum must be a number"}},
		{"maximum a bool", f("age", `{"type":"integer","maximum":true}`),
			"age", []string{"maximum must be a number"}},
		{"non-JSON bytes", []byte(`type: object`),
			"", []string{"requested schema is not valid JSON"}},
		{"truncated JSON", json.RawMessage(`{"type":"object","properties":{`),
			"", []string{"requested schema is not valid JSON"}},
		{"empty bytes", []byte{},
			"", []string{"requested schema is not valid JSON"}},
		{"trailing garbage", json.RawMessage(`{"type":"object"} {}`),
			"", []string{"not valid JSON"}},
		{"Go value that cannot be encoded", map[string]any{"type": "object", "properties": map[string]any{"f": func() {}}},
			"", []string{"requested schema cannot be encoded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := Parse(tt.schema)
			if err == nil {
				t.Fatalf("Parse succeeded with %d fields, want an error", len(s.Fields))
			}
			if s != nil {
				t.Errorf("Parse returned a schema with its error")
			}
			msg := err.Error()
			for _, want := range tt.wantErr {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q does not contain %q", msg, want)
				}
			}
			if tt.wantField != "" && !strings.Contains(msg, fmt.Sprintf("field %q", tt.wantField)) {
				t.Errorf("error %q does not name field %q", msg, tt.wantField)
			}
		})
	}
}

// TestParseOddInputsDoNotPanic feeds Parse (and Validate, when a schema
// comes out) odd inputs; any result is fine as long as nothing panics.
func TestParseOddInputsDoNotPanic(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	deepObj := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	inputs := []any{
		nil, 0, -1.5, math.MaxInt64, true, "", "object", []any{}, []any{nil}, []string{"type"},
		map[string]any{}, map[int]string{1: "a"}, map[string]any{"type": nil}, struct{ Type string }{"object"},
		json.RawMessage(`null`), json.RawMessage(`1e999`), json.RawMessage(`"\u0000"`), []byte{0xff, 0xfe},
		json.RawMessage(`{"type":{}}`), json.RawMessage(`{"type":["object"]}`), json.RawMessage(`{"required":{}}`),
		json.RawMessage(`{"required":[null]}`), json.RawMessage(`{"properties":{"a":null}}`),
		json.RawMessage(`{"properties":{"a":[]}}`), json.RawMessage(`{"properties":{"":{"type":"string"}}}`),
		json.RawMessage(`{"properties":{"a":{"type":{}}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"array","items":[]}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"array","items":{"anyOf":[null]}}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"array","items":{"oneOf":[{"const":null}]}}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","enum":{"x":1}}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","oneOf":[[1]]}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","enum":["a"],"enumNames":"x"}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","enum":["a"],"enumNames":[{}]}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"integer","minimum":1e400}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"array","items":{"enum":["x"]},"maxItems":1e300}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"integer","default":1e300}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","enum":["x"],"default":{"x":1}}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"array","items":{"enum":["x"]},"default":[{"x":1},["x"]]}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","default":` + deep + `}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","default":` + deepObj + `}}}`),
		json.RawMessage(`{"properties":{"a":{"type":"string","pattern":"["}}}`),
		json.RawMessage(`{"$ref":"https://example.com/schema.json"}`),
		json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`),
	}
	contents := []map[string]any{
		nil, {}, {"a": nil}, {"a": []any{nil, map[string]any{}}}, {"a": math.NaN()}, {"a": "x", "b": 1},
	}
	for i, in := range inputs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("Parse(%.80v) panicked: %v", in, r)
				}
			}()
			s, err := Parse(in)
			if err != nil {
				if s != nil {
					t.Errorf("Parse returned a schema with its error %v", err)
				}
				return
			}
			for _, c := range contents {
				_ = s.Validate(c)
				_ = s.Check(c)
			}
			_ = s.Defaults()
		})
	}
}

// allKinds is a schema with every kind and constraint of the subset.
const allKinds = `{"type":"object","properties":{
	"name":{"type":"string","title":"Name","minLength":2,"maxLength":8},
	"code":{"type":"string","pattern":"^[a-z]+$"},
	"email":{"type":"string","title":"Email","format":"email"},
	"site":{"type":"string","format":"uri"},
	"birthday":{"type":"string","format":"date"},
	"meeting_at":{"type":"string","format":"date-time"},
	"score":{"type":"number","minimum":0.5,"maximum":9.5},
	"age":{"type":"integer","minimum":18,"maximum":120},
	"agree":{"type":"boolean"},
	"color":{"type":"string","enum":["red","green"]},
	"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}]},
	"plan":{"type":"string","enum":["f","p"],"enumNames":["Free","Pro"]},
	"tags":{"type":"array","items":{"type":"string","enum":["a","b","c"]},"minItems":1,"maxItems":2},
	"langs":{"type":"array","items":{"anyOf":[{"const":"go","title":"Go"},{"const":"rs","title":"Rust"}]}}
},"required":["name","email"]}`

// secret marks submitted values that no message may repeat.
const secret = "s3cr3t"

func TestValidate(t *testing.T) {
	t.Parallel()
	all := mustParse(t, allKinds)
	valid := func(over map[string]any) map[string]any {
		c := map[string]any{
			"name": "Ada", "code": "abc", "email": "ada@example.com", "site": "https://example.com/x",
			"birthday": "1815-12-10", "meeting_at": "2025-11-25T10:00:00Z", "score": 7.5, "age": 36,
			"agree": true, "color": "red", "size": "s", "plan": "p", "tags": []any{"a", "c"}, "langs": []any{"go", "rs"},
		}
		for k, v := range over {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	unique := mustParse(t, oneField("tags", `{"type":"array","uniqueItems":true,"items":{"enum":["a","b"]}}`, false))
	closed := mustParse(t, `{"type":"object","properties":{"name":{"type":"string"}},"additionalProperties":false}`)
	bounded := mustParse(t, `{"type":"object","properties":{
		"day":{"type":"string","format":"date","formatMinimum":"2026-01-01","formatMaximum":"2026-12-31"},
		"at":{"type":"string","format":"date-time","formatMinimum":"2026-03-01T09:00:00Z"}}}`)
	stepped := mustParse(t, oneField("dose", `{"type":"number","multipleOf":0.25}`, false))
	tests := []struct {
		name     string
		schema   *Schema
		content  map[string]any
		wantErrs []string // FieldError.Error() of each error, in order
		wantKeys []string // FieldError.Key of each error, when checked
	}{
		{name: "every field valid", schema: all, content: valid(nil)},
		{name: "only the required fields", schema: all, content: map[string]any{"name": "Ada", "email": "a@b.co"}},
		{name: "Go ints and typed slices are fine", schema: all,
			content: valid(map[string]any{"age": int64(40), "score": 3, "tags": []string{"b"}})},
		{name: "integer as a whole float", schema: all, content: valid(map[string]any{"age": 40.0})},
		{name: "boundaries are inclusive", schema: all,
			content: valid(map[string]any{"name": "Al", "score": 9.5, "age": 18, "tags": []any{"a"}})},
		{name: "boolean false is an answer", schema: all, content: valid(map[string]any{"agree": false})},
		{name: "missing required fields", schema: all, content: map[string]any{},
			wantErrs: []string{"Name: is required", "Email: is required"}, wantKeys: []string{"name", "email"}},
		{name: "nil content", schema: all, content: nil,
			wantErrs: []string{"Name: is required", "Email: is required"}},
		{name: "required and optional errors in field order", schema: all,
			content:  map[string]any{"tags": []any{}, "age": 2.5, "email": secret + "-value"},
			wantErrs: []string{"Name: is required", "Email: must be a valid email address", "Age: must be a whole number", "Tags: choose at least 1"},
			wantKeys: []string{"name", "email", "age", "tags"}},
		{name: "string too short", schema: all, content: valid(map[string]any{"name": "s"}),
			wantErrs: []string{"Name: must be at least 2 characters"}},
		{name: "string too long", schema: all, content: valid(map[string]any{"name": secret + "-value"}),
			wantErrs: []string{"Name: must be at most 8 characters"}},
		{name: "string given a number", schema: all, content: valid(map[string]any{"name": 31337}),
			wantErrs: []string{"Name: must be text"}},
		{name: "pattern mismatch", schema: all, content: valid(map[string]any{"code": "S3CR3T-" + secret}),
			wantErrs: []string{"Code: must match the pattern ^[a-z]+$"}},
		{name: "email", schema: all, content: valid(map[string]any{"email": secret + "-value"}),
			wantErrs: []string{"Email: must be a valid email address"}},
		{name: "uri relative", schema: all, content: valid(map[string]any{"site": secret + "/path"}),
			wantErrs: []string{"Site: must be a valid URI (for example https://example.com)"}},
		{name: "date garbage", schema: all, content: valid(map[string]any{"birthday": secret + "-value"}),
			wantErrs: []string{"Birthday: must be a date as YYYY-MM-DD"}},
		{name: "date impossible", schema: all, content: valid(map[string]any{"birthday": "2023-02-30"}),
			wantErrs: []string{"Birthday: must be a date as YYYY-MM-DD"}},
		{name: "date-time without time", schema: all, content: valid(map[string]any{"meeting_at": "2025-11-25"}),
			wantErrs: []string{"Meeting at: must be a date and time as YYYY-MM-DDTHH:MM:SSZ"}},
		{name: "date-time garbage", schema: all, content: valid(map[string]any{"meeting_at": secret}),
			wantErrs: []string{"Meeting at: must be a date and time as YYYY-MM-DDTHH:MM:SSZ"}},
		{name: "number below minimum", schema: all, content: valid(map[string]any{"score": 0.25}),
			wantErrs: []string{"Score: must be at least 0.5"}},
		{name: "number above maximum", schema: all, content: valid(map[string]any{"score": 9.75}),
			wantErrs: []string{"Score: must be at most 9.5"}},
		{name: "number given as a string", schema: all, content: valid(map[string]any{"score": secret + "7"}),
			wantErrs: []string{"Score: must be a number"}},
		{name: "numeric string is still a string", schema: all, content: valid(map[string]any{"score": "7"}),
			wantErrs: []string{"Score: must be a number"}},
		{name: "integer given a fraction", schema: all, content: valid(map[string]any{"age": 2.5}),
			wantErrs: []string{"Age: must be a whole number"}},
		{name: "integer given a string", schema: all, content: valid(map[string]any{"age": "30"}),
			wantErrs: []string{"Age: must be a whole number"}},
		{name: "integer below minimum", schema: all, content: valid(map[string]any{"age": 17}),
			wantErrs: []string{"Age: must be at least 18"}},
		{name: "integer above maximum", schema: all, content: valid(map[string]any{"age": 121}),
			wantErrs: []string{"Age: must be at most 120"}},
		{name: "boolean given a string", schema: all, content: valid(map[string]any{"agree": secret}),
			wantErrs: []string{"Agree: must be yes or no"}},
		{name: "enum stranger", schema: all, content: valid(map[string]any{"color": secret + "-value"}),
			wantErrs: []string{"Color: must be one of: red, green"}},
		{name: "oneOf stranger", schema: all, content: valid(map[string]any{"size": secret}),
			wantErrs: []string{"Size: must be one of: Small, Large"}},
		{name: "oneOf title instead of const", schema: all, content: valid(map[string]any{"size": "Small"}),
			wantErrs: []string{"Size: must be one of: Small, Large"}},
		{name: "enumNames title instead of value", schema: all, content: valid(map[string]any{"plan": "Pro"}),
			wantErrs: []string{"Plan: must be one of: Free, Pro"}},
		{name: "multi-select too few", schema: all, content: valid(map[string]any{"tags": []any{}}),
			wantErrs: []string{"Tags: choose at least 1"}},
		{name: "multi-select too many", schema: all, content: valid(map[string]any{"tags": []any{"a", "b", "c"}}),
			wantErrs: []string{"Tags: choose at most 2"}},
		{name: "multi-select enum stranger", schema: all, content: valid(map[string]any{"tags": []any{"a", secret + "-value"}}),
			wantErrs: []string{"Tags: each choice must be one of: a, b, c"}},
		{name: "multi-select anyOf stranger", schema: all, content: valid(map[string]any{"langs": []any{secret}}),
			wantErrs: []string{"Langs: each choice must be one of: Go, Rust"}},
		{name: "multi-select given a string", schema: all, content: valid(map[string]any{"tags": "a"}),
			wantErrs: []string{"Tags: must be a list of choices"}},
		{name: "many errors at once, one per field, in field order", schema: all,
			content: map[string]any{
				"langs": []any{"py-" + secret}, "size": secret, "agree": "yes-" + secret, "age": 2.5, "score": "x" + secret,
				"meeting_at": secret, "birthday": secret, "site": secret, "email": secret + "@", "code": secret, "name": secret + "-value",
				"color": secret, "plan": secret, "tags": []any{secret, secret, secret},
			},
			wantErrs: []string{
				"Name: must be at most 8 characters",
				"Code: must match the pattern ^[a-z]+$",
				"Email: must be a valid email address",
				"Site: must be a valid URI (for example https://example.com)",
				"Birthday: must be a date as YYYY-MM-DD",
				"Meeting at: must be a date and time as YYYY-MM-DDTHH:MM:SSZ",
				"Score: must be a number",
				"Age: must be a whole number",
				"Agree: must be yes or no",
				"Color: must be one of: red, green",
				"Size: must be one of: Small, Large",
				"Plan: must be one of: Free, Pro",
				"Tags: choose at most 2",
				"Langs: each choice must be one of: Go, Rust",
			}},
		{name: "undeclared extra keys", schema: all,
			content:  valid(map[string]any{"zz_extra": secret, "nickname": secret}),
			wantErrs: []string{"nickname: is not a field of this form", "zz_extra: is not a field of this form"},
			wantKeys: []string{"nickname", "zz_extra"}},
		{name: "undeclared key after field errors", schema: all,
			content:  map[string]any{"emial": "ada@example.com", "name": "Ada"},
			wantErrs: []string{"Email: is required", "emial: is not a field of this form"}},
		{name: "undeclared key with additionalProperties false is reported once", schema: closed,
			content:  map[string]any{"name": "x", "other": secret},
			wantErrs: []string{"other: is not a field of this form"}},
		{name: "repeated choice with uniqueItems", schema: unique, content: map[string]any{"tags": []any{"a", "a"}},
			wantErrs: []string{"Tags: must not repeat a choice"}},
		{name: "distinct choices with uniqueItems", schema: unique, content: map[string]any{"tags": []any{"a", "b"}}},
		{name: "repeated choice without uniqueItems is allowed", schema: all, content: valid(map[string]any{"tags": []any{"a", "a"}})},
		{name: "a date inside its bounds", schema: bounded, content: map[string]any{"day": "2026-01-01", "at": "2026-03-01T10:00:00+01:00"}},
		{name: "a date before its formatMinimum", schema: bounded, content: map[string]any{"day": "2025-12-31"},
			wantErrs: []string{"Day: must be on or after 2026-01-01"}},
		{name: "a date after its formatMaximum", schema: bounded, content: map[string]any{"day": "2027-01-01"},
			wantErrs: []string{"Day: must be on or before 2026-12-31"}},
		{name: "a date-time bound compares instants", schema: bounded, content: map[string]any{"at": "2026-03-01T09:59:00+01:00"},
			wantErrs: []string{"At: must be at or after 2026-03-01T09:00:00Z"}},
		{name: "a malformed date is a format error, not a bounds error", schema: bounded, content: map[string]any{"day": secret},
			wantErrs: []string{"Day: must be a date as YYYY-MM-DD"}},
		{name: "a number off its multipleOf", schema: stepped, content: map[string]any{"dose": 0.3},
			wantErrs: []string{"Dose: must be a multiple of 0.25"}},
		{name: "a number on its multipleOf", schema: stepped, content: map[string]any{"dose": 1.75}},
		{name: "zero Schema accepts empty content", schema: &Schema{}, content: map[string]any{}},
		{name: "zero Schema rejects any key", schema: &Schema{}, content: map[string]any{"x": secret},
			wantErrs: []string{"x: is not a field of this form"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			errs := tt.schema.Validate(tt.content)
			var got, keys []string
			for _, e := range errs {
				got = append(got, e.Error())
				keys = append(keys, e.Key)
				if strings.Contains(e.Error(), secret) || strings.Contains(e.Message, secret) || strings.Contains(e.Label, secret) {
					t.Errorf("message %q echoes the submitted value", e.Error())
				}
			}
			if !slices.Equal(got, tt.wantErrs) {
				t.Errorf("Validate errors\n got: %q\nwant: %q", got, tt.wantErrs)
			}
			if tt.wantKeys != nil && !slices.Equal(keys, tt.wantKeys) {
				t.Errorf("error keys = %q, want %q", keys, tt.wantKeys)
			}
			err := tt.schema.Check(tt.content)
			switch {
			case len(tt.wantErrs) == 0 && err != nil:
				t.Errorf("Check = %v, want nil", err)
			case len(tt.wantErrs) > 0 && (err == nil || err.Error() != strings.Join(tt.wantErrs, "; ")):
				t.Errorf("Check = %v, want %q", err, strings.Join(tt.wantErrs, "; "))
			}
		})
	}
}

func TestValidateDoesNotChangeContent(t *testing.T) {
	t.Parallel()
	s := mustParse(t, allKinds)
	content := map[string]any{"name": "Ada", "email": "ada@example.com", "age": 40, "tags": []any{"a"}}
	_ = s.Validate(content)
	want := map[string]any{"name": "Ada", "email": "ada@example.com", "age": 40, "tags": []any{"a"}}
	if !reflect.DeepEqual(content, want) {
		t.Errorf("content changed to %#v", content)
	}
}

func TestValidateUnencodableContent(t *testing.T) {
	t.Parallel()
	s := mustParse(t, allKinds)
	errs := s.Validate(map[string]any{"name": "Ada", "email": "a@b.co", "score": math.Inf(1)})
	if len(errs) != 1 || errs[0].Key != "" || !strings.Contains(errs[0].Message, "cannot be encoded as JSON") {
		t.Errorf("Validate = %q, want one general 'cannot be encoded' error", errs)
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		schema       string
		wantDefaults map[string]any
	}{
		{
			name:         "no defaults",
			schema:       `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"boolean"}}}`,
			wantDefaults: map[string]any{},
		},
		{
			name:         "empty form",
			schema:       `{"type":"object"}`,
			wantDefaults: map[string]any{},
		},
		{
			name: "a default on every kind",
			schema: `{"type":"object","properties":{
				"s":{"type":"string","default":"hi"},
				"e":{"type":"string","format":"email","default":"a@b.co"},
				"n":{"type":"number","default":2.5},
				"i":{"type":"integer","default":3},
				"zero":{"type":"integer","default":0},
				"b":{"type":"boolean","default":false},
				"empty":{"type":"string","default":""},
				"sel":{"type":"string","enum":["x","y"],"default":"y"},
				"one":{"type":"string","oneOf":[{"const":"c1","title":"C one"}],"default":"c1"},
				"legacy":{"type":"string","enum":["p"],"enumNames":["P"],"default":"p"},
				"multi":{"type":"array","items":{"enum":["a","b"]},"default":["b","a"]},
				"multiAny":{"type":"array","items":{"anyOf":[{"const":"g","title":"G"}]},"default":[]},
				"none":{"type":"string"}
			}}`,
			wantDefaults: map[string]any{
				"s": "hi", "e": "a@b.co", "n": 2.5, "i": float64(3), "zero": float64(0), "b": false, // "empty" is no value
				"sel": "y", "one": "c1", "legacy": "p", "multi": []any{"b", "a"}, "multiAny": []any{},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mustParse(t, tt.schema)
			got := s.Defaults()
			if !reflect.DeepEqual(got, tt.wantDefaults) {
				t.Errorf("Defaults() = %#v\nwant %#v", got, tt.wantDefaults)
			}
			if errs := s.Validate(got); len(errs) != 0 {
				t.Errorf("the defaults do not validate: %q", errs)
			}
		})
	}
}

func TestHumanize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key  string
		want string
	}{
		{"assignee_email", "Assignee email"},
		{"first_name_", "First name"},
		{"__private", "Private"},
		{"due-date", "Due date"},
		{"max--retries", "Max retries"},
		{"dotted.key", "Dotted key"},
		{"spaced key", "Spaced key"},
		{"firstName", "First name"},
		{"createdAtTime", "Created at time"},
		{"FirstName", "First name"},
		{"userID", "User ID"},
		{"HTTPServer", "HTTP server"},
		{"parseHTTPResponse", "Parse HTTP response"},
		{"URL", "Url"},
		{"address2", "Address2"},
		{"line_2", "Line 2"},
		{"v2Api", "V2api"},
		{"2fa_code", "2fa code"},
		{"email", "Email"},
		{"Email", "Email"},
		{"EMAIL", "Email"},
		{"x", "X"},
		{"ñandú_count", "Ñandú count"},
		{"", ""},
		{"_", "_"},
		{"--", "--"},
		{" ", " "},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			t.Parallel()
			if got := Humanize(tt.key); got != tt.want {
				t.Errorf("Humanize(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
}

// TestValidateWholeSchema covers what the form's own field checks leave to
// the whole schema's validator, and the drafts a server may name.
func TestValidateWholeSchema(t *testing.T) {
	t.Parallel()
	group, err := ParseArguments(json.RawMessage(`{"type":"object","properties":{
		"limits":{"type":"object","properties":{"max":{"type":"integer","minimum":1}},"additionalProperties":false}}}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		schema   *Schema
		content  map[string]any
		wantErrs []string
	}{
		{name: "a decimal multipleOf is exact, not float division",
			schema: mustParse(t, oneField("s", `{"type":"number","multipleOf":0.1}`, false)), content: map[string]any{"s": 0.3}},
		{name: "off a decimal multipleOf",
			schema: mustParse(t, oneField("s", `{"type":"number","multipleOf":0.1}`, false)), content: map[string]any{"s": 0.35},
			wantErrs: []string{"S: must be a multiple of 0.1"}},
		{name: "exclusive bounds",
			schema: mustParse(t, oneField("n", `{"type":"number","exclusiveMinimum":0}`, false)), content: map[string]any{"n": 0},
			wantErrs: []string{"N: must be greater than 0"}},
		{name: "required by a root allOf, field or not",
			schema:   mustParse(t, `{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"required":["a","zz"]}]}`),
			content:  map[string]any{},
			wantErrs: []string{"A: is required", `the schema requires "zz", which is not a field of this form`}},
		{name: "required by dependentRequired",
			schema:   mustParse(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"dependentRequired":{"a":["b"]}}`),
			content:  map[string]any{"a": secret},
			wantErrs: []string{"B: is required"}},
		{name: "a root rule no field holds",
			schema:   mustParse(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"not":{"required":["a","b"]}}`),
			content:  map[string]any{"a": secret, "b": secret},
			wantErrs: []string{"the answer does not meet the schema's not rule"}},
		{name: "a group's property its schema does not allow", schema: group,
			content:  map[string]any{"limits": map[string]any{"max": 2, "other": secret}},
			wantErrs: []string{"Limits: has a property the schema does not allow"}},
		{name: "draft-07 named, formats checked",
			schema:   mustParse(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"e":{"type":"string","format":"email"}}}`),
			content:  map[string]any{"e": secret},
			wantErrs: []string{"E: must be a valid email address"}},
		{name: "draft 2019-09 named, read as 2020-12",
			schema:  mustParse(t, `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{"e":{"type":"string","format":"email"}},"required":["e"]}`),
			content: map[string]any{"e": "ada@example.com"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, e := range tt.schema.Validate(tt.content) {
				got = append(got, e.Error())
				if strings.Contains(e.Error(), secret) {
					t.Errorf("message %q echoes the submitted value", e.Error())
				}
			}
			if !slices.Equal(got, tt.wantErrs) {
				t.Errorf("Validate errors\n got: %q\nwant: %q", got, tt.wantErrs)
			}
		})
	}
}

package formschema

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpeek/mcpeek/fixture"
)

// The fuzz targets here hold Parse and Validate to what the form, the
// headless mode and the router rely on. Run one with
//
//	go test -run='^$' -fuzz='^FuzzParse$' -fuzztime=60s -fuzzminimizetime=20x ./formschema
//
// The short -fuzzminimizetime keeps the fuzzer fuzzing: coverage here
// varies a little from run to run (map order inside encoding/json and the
// validator), and the default minimization, a minute per new input, would
// stall it for most of a short run.
//
// Seeds live in testdata/fuzz/<FuzzName>/ and below in f.Add; a crasher
// the fuzzer finds is kept there so that plain `go test` replays it.

// echoMarker is put into every submitted string, so that a message that
// repeats a submitted value is easy to spot.
const echoMarker = "Zq7xECHOq"

// parseSeeds are requested schemas from the tests, the fixture and the
// odd corners Parse has to refuse clearly.
func parseSeeds() []string {
	return []string{
		allKinds,
		string(fixture.AllFieldsSchema()),
		`{"type":"object","properties":{"choice":{"type":"string","title":"Choice","enum":["option-a","option-b"]}},"required":["choice"]}`,
		`{"type":"object","properties":{"name":{"type":"string","title":"Name","minLength":1}},"required":["name"]}`,
		`{"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm"}},"required":["confirm"]}`,
		`{"type":"object"}`,
		`{}`,
		`null`,
		`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
		`{"type":"object","properties":{"tags":{"type":"array","uniqueItems":true,"items":{"enum":["a","b"]},"default":["a"]}}}`,
		`{"type":"object","properties":{"size":{"type":"string","oneOf":[{"const":"s","title":"Small"},{"const":"l","title":"Large"}],"default":"s"}}}`,
		`{"type":"object","properties":{"plan":{"type":"string","enum":["f","p"],"enumNames":["Free","Pro"]}}}`,
		`{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":5,"default":0},"x":{"type":"number","exclusiveMinimum":0,"multipleOf":0.5}}}`,
		`{"type":"object","properties":{"a/b":{"type":"string","minLength":3},"c~d":{"type":"boolean"}},"required":["a/b"]}`,
		`{"type":"object","properties":{"t":{"type":"string","title":"\u001b[2JTitle","description":"line\u0007bell","pattern":"^x+$"}}}`,
		`{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer"}}}`,
		`{"type":"object","properties":{"address":{"type":"object","properties":{"street":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"code":{"type":"string","pattern":"^(?=a)a+$"}}}`,
		`{"type":"object","properties":{"a":{"type":"integer","default":1e300}}}`,
		`{"type":"object","properties":{"e":{"type":"string","enum":[1,true,"x"],"default":true}}}`,
		`{"type":"object","properties":{"d":{"type":"string","format":"date-time","default":"2025-11-25T10:00:00Z"}}}`,
		`{"type":"object","properties":{"d":{"type":"string","format":"date","formatMinimum":"2026-01-01","formatMaximum":"2026-12-31"},"t":{"type":"string","format":"date-time","formatMaximum":"2026-01-01T00:00:00+02:00"}}}`,
		`{"type":"object","properties":{"s":{"type":"number","minimum":0,"maximum":1,"multipleOf":0.1,"default":0.3}}}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"required":["a","ghost"]}`,
		`{"type":"array","items":{"enum":["a"]}}`,
		`{"type":"object","properties":{`,
		`{"type":"object"} {}`,
		`{"$ref":"https://example.com/schema.json"}`,
	}
}

func FuzzParse(f *testing.F) {
	contents := []string{
		`{}`,
		`{"name":"Ada","email":"ada@example.com","age":36,"tags":["a","c"],"langs":["go"]}`,
		`{"choice":"option-a"}`,
		`{"choice":"option-z","extra":1}`,
		`{"a":null,"b":[null,{}],"c":{"d":"e"}}`,
		`{"name":31337,"tags":"a","size":"Small","n":2.5}`,
		`[]`,
	}
	for i, s := range parseSeeds() {
		f.Add([]byte(s), []byte(contents[i%len(contents)]))
	}
	f.Fuzz(func(t *testing.T, raw, content []byte) {
		s, err := Parse(raw)
		if (s == nil) == (err == nil) {
			t.Fatalf("Parse = %v, %v: want exactly one of a schema and an error", s, err)
		}
		if err != nil {
			checkParseError(t, err)
			if _, again := Parse(raw); again == nil || again.Error() != err.Error() {
				t.Fatalf("Parse is not deterministic: %v, then %v", err, again)
			}
			return
		}
		if again, err := Parse(raw); err != nil || !reflect.DeepEqual(again.Fields, s.Fields) {
			t.Fatalf("Parse is not deterministic: second parse gave %v", err)
		}
		checkFields(t, raw, s)
		checkOrderHint(t, raw, s)

		defaults := s.Defaults()
		for key := range defaults {
			if f := s.Field(key); f == nil || f.Default == nil {
				t.Fatalf("Defaults has %q, which is not a field with a default", key)
			}
		}
		for _, f := range s.Fields {
			if _, ok := defaults[f.Key]; ok != (f.Default != nil) {
				t.Fatalf("Defaults and field %q disagree about its default", f.Key)
			}
		}
		checkValidate(t, s, defaults)

		// Every field given a submitted string, and a list of one: wrong
		// for most fields, so messages come out for all of them.
		if !containsMarker(raw) {
			asString, asList := map[string]any{}, map[string]any{}
			for _, f := range s.Fields {
				asString[f.Key] = echoMarker + "-" + f.Key
				asList[f.Key] = []any{echoMarker, f.Key + echoMarker}
			}
			checkNoEcho(t, s, asString)
			checkNoEcho(t, s, asList)
		}

		var c map[string]any
		if json.Unmarshal(content, &c) != nil {
			return
		}
		checkValidate(t, s, c)
		if !containsMarker(raw) && !bytes.Contains(content, []byte(echoMarker)) {
			checkNoEcho(t, s, markStrings(c).(map[string]any))
		}
	})
}

// FuzzValidate checks arbitrary content against the fixture's all_fields
// schema, whose every field the model describes completely: Validate must
// then agree exactly with a plain reading of the field model, except for
// string formats, where it must at least ask for text.
func FuzzValidate(f *testing.F) {
	all, err := Parse(fixture.AllFieldsSchema())
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range []string{
		`{}`,
		`{"name":"Ada Lovelace","nickname":"Ada","birthday":"1815-12-10","rating":4.5,"copies":3,"subscribe":true,"colour":"green","toppings":["cheese"]}`,
		`{"name":"Ada","nickname":"A","code":"ABC-123","email":"ada@example.com","website":"https://example.com","meeting":"2025-11-25T10:00:00Z"}`,
		`{"name":"Ada","code":"abc-123","email":"not an email","website":"relative/path","birthday":"2023-02-30","meeting":"2025-11-25"}`,
		`{"name":"Ada","rating":5.5,"copies":2.5,"subscribe":"yes","terms":null}`,
		`{"name":"Ada","rating":0,"copies":10,"size":"Small","priority":"High","colour":"purple"}`,
		`{"name":"Ada","toppings":[],"languages":["en","fr","de"]}`,
		`{"name":"Ada","toppings":["cheese","cheese","olives","peppers"],"languages":["xx"]}`,
		`{"name":"Ada","toppings":"cheese","languages":{"en":true},"nickname":"abcdefghijklmnopq"}`,
		`{"name":"Ada","emial":"ada@example.com","zz":[1,2,3]}`,
		`{"name":"\u00e9\u00e9","nickname":"\ud83d\ude00\ud83d\ude00","code":"ABC-123\n"}`,
		`{"name":1e308,"copies":1e300,"rating":-0}`,
	} {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		var c map[string]any
		if json.Unmarshal(content, &c) != nil {
			return
		}
		errs := checkValidate(t, all, c)
		byKey := map[string]string{}
		for _, e := range errs {
			byKey[e.Key] = e.Message
		}
		for _, f := range all.Fields {
			v, present := c[f.Key]
			valid, sure := modelAccepts(f, v, present)
			msg, reported := byKey[f.Key]
			switch {
			case !sure:
			case valid && reported:
				t.Errorf("field %q = %#v fits the field model, but Validate reports %q", f.Key, v, msg)
			case !valid && !reported:
				t.Errorf("field %q = %#v does not fit the field model, but Validate reports nothing", f.Key, v)
			}
		}
		if !bytes.Contains(content, []byte(echoMarker)) {
			checkNoEcho(t, all, markStrings(c).(map[string]any))
		}
	})
}

// checkParseError holds Parse's errors to the form the router passes on to
// the server: one clear sentence that says where the schema went wrong.
func checkParseError(t *testing.T, err error) {
	t.Helper()
	msg := err.Error()
	if !strings.HasPrefix(msg, "requested schema") && !strings.HasPrefix(msg, "field \"") {
		t.Fatalf("Parse error %q names neither the schema nor a field", msg)
	}
}

// checkFields compares the field model with an independent reading of the
// schema's properties and required list.
func checkFields(t *testing.T, raw []byte, s *Schema) {
	t.Helper()
	// Member by member: "Required" is not "required" in a schema, though
	// encoding/json would take it for one in a struct.
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		t.Fatalf("Parse accepted a schema that does not decode: %v", err)
	}
	var root struct {
		Properties map[string]json.RawMessage
		Required   []string
	}
	if json.Unmarshal(members["properties"], &root.Properties) != nil && members["properties"] != nil ||
		json.Unmarshal(members["required"], &root.Required) != nil && members["required"] != nil {
		t.Fatalf("Parse accepted properties %s and required %s", members["properties"], members["required"])
	}
	if len(s.Fields) != len(root.Properties) {
		t.Fatalf("Parse made %d fields of %d properties", len(s.Fields), len(root.Properties))
	}
	seen := map[string]bool{}
	for _, f := range s.Fields {
		if seen[f.Key] {
			t.Fatalf("field %q appears twice", f.Key)
		}
		seen[f.Key] = true
		if _, ok := root.Properties[f.Key]; !ok {
			t.Fatalf("field %q is not a property of the schema", f.Key)
		}
		if f.Required != slices.Contains(root.Required, f.Key) {
			t.Fatalf("field %q: Required = %v, but the schema's required list is %q", f.Key, f.Required, root.Required)
		}
		for what, text := range map[string]string{"label": f.Label, "description": f.Description} {
			if Clean(text) != text {
				t.Fatalf("field %q: %s %q is not clean for a terminal", f.Key, what, text)
			}
		}
		switch f.Kind {
		case KindString, KindNumber, KindInteger, KindBoolean:
			if len(f.Options) != 0 {
				t.Fatalf("field %q of kind %s has options", f.Key, f.Kind)
			}
		case KindSelect, KindMultiSelect:
			if len(f.Options) == 0 {
				t.Fatalf("field %q of kind %s has no options", f.Key, f.Kind)
			}
			for _, o := range f.Options {
				if Clean(o.Title) != o.Title {
					t.Fatalf("field %q: option title %q is not clean for a terminal", f.Key, o.Title)
				}
				switch o.Value.(type) {
				case string, float64, bool:
				default:
					t.Fatalf("field %q: option value %#v is not a string, number or boolean", f.Key, o.Value)
				}
			}
		default:
			t.Fatalf("field %q has kind %q, outside the closed set", f.Key, f.Kind)
		}
		if f.Default != nil && !fitsType(f, f.Default) {
			t.Fatalf("field %q: default %#v does not fit a %s field", f.Key, f.Default, f.Kind)
		}
	}
	for _, name := range root.Required {
		if !seen[name] {
			t.Fatalf("required %q is not a field", name)
		}
	}
}

// checkOrderHint parses again with the fields hinted in reverse: the same
// fields must come out, in the hinted order.
func checkOrderHint(t *testing.T, raw []byte, s *Schema) {
	t.Helper()
	var hint []string
	for i := len(s.Fields) - 1; i >= 0; i-- {
		hint = append(hint, s.Fields[i].Key)
	}
	r, err := ParseWithOrder(raw, append(hint, "not-a-field"))
	if err != nil {
		t.Fatalf("ParseWithOrder with a reversed hint failed where Parse did not: %v", err)
	}
	for i, f := range r.Fields {
		if f.Key != hint[i] {
			t.Fatalf("ParseWithOrder field %d = %q, want %q", i, f.Key, hint[i])
		}
		if !reflect.DeepEqual(f, *s.Field(f.Key)) {
			t.Fatalf("field %q differs with an order hint:\n%#v\n%#v", f.Key, f, *s.Field(f.Key))
		}
	}
	if len(r.Fields) != len(s.Fields) {
		t.Fatalf("ParseWithOrder made %d fields, Parse %d", len(r.Fields), len(s.Fields))
	}
}

// checkValidate holds Validate's errors to their contract and returns them.
func checkValidate(t *testing.T, s *Schema, content map[string]any) []FieldError {
	t.Helper()
	errs := validateTwice(t, s, content)
	declared, undeclared := sortFieldErrors(t, s, content, errs)
	checkFieldOrder(t, s, declared)
	checkUndeclared(t, s, content, undeclared)
	if err := s.Check(content); (err == nil) != (len(errs) == 0) {
		t.Fatalf("Check = %v, but Validate gave %d errors", err, len(errs))
	}
	if len(errs) > 0 {
		return errs
	}
	checkAccepted(t, s, content)
	return nil
}

// validateTwice validates the content twice: Validate must leave it as it
// was and say the same both times.
func validateTwice(t *testing.T, s *Schema, content map[string]any) []FieldError {
	t.Helper()
	before := deepCopy(content)
	errs := s.Validate(content)
	if !reflect.DeepEqual(content, before) {
		t.Fatalf("Validate changed the content:\n%#v\n%#v", before, content)
	}
	if again := s.Validate(content); !reflect.DeepEqual(again, errs) {
		t.Fatalf("Validate is not deterministic:\n%q\n%q", errs, again)
	}
	return errs
}

// sortFieldErrors checks each error on its own and returns, in the order
// reported, the keys of the errors about fields (declared) and about keys
// of the content that are not fields (undeclared).
func sortFieldErrors(t *testing.T, s *Schema, content map[string]any, errs []FieldError) (declared, undeclared []string) {
	t.Helper()
	for _, e := range errs {
		if e.Message == "" {
			t.Fatalf("error %#v has no message", e)
		}
		switch f := s.Field(e.Key); {
		case e.Key == "" && f == nil && e.Message == "is not a field of this form" && hasKey(content, ""):
			undeclared = append(undeclared, e.Key)
		case e.Key == "" && f == nil:
			if e.Label != "" {
				t.Fatalf("general error %#v has a label", e)
			}
		case f != nil:
			if e.Label != f.Label {
				t.Fatalf("error %#v: label is not the field's %q", e, f.Label)
			}
			declared = append(declared, e.Key)
		default:
			if _, ok := content[e.Key]; !ok || e.Label != e.Key || e.Message != "is not a field of this form" {
				t.Fatalf("error %#v is about a key that is neither a field nor in the content", e)
			}
			undeclared = append(undeclared, e.Key)
		}
	}
	return declared, undeclared
}

// checkFieldOrder holds the field errors to one per field, in field order.
func checkFieldOrder(t *testing.T, s *Schema, declared []string) {
	t.Helper()
	var order []string
	for _, f := range s.Fields {
		if slices.Contains(declared, f.Key) {
			order = append(order, f.Key)
		}
	}
	if !slices.Equal(declared, order) {
		t.Fatalf("field errors %q are not one per field in field order %q", declared, order)
	}
}

// checkUndeclared holds the errors about keys that are not fields to one
// for each such key of the content, in key order.
func checkUndeclared(t *testing.T, s *Schema, content map[string]any, undeclared []string) {
	t.Helper()
	var extra []string
	for k := range content {
		if s.Field(k) == nil {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	if !slices.Equal(undeclared, extra) {
		t.Fatalf("undeclared keys reported %q, want %q", undeclared, extra)
	}
}

// checkAccepted is for content Validate reported nothing about: the
// compiled validator must agree, and every field must hold what the form
// model promises, so what mcpeek sends is what the person was asked for.
func checkAccepted(t *testing.T, s *Schema, content map[string]any) {
	t.Helper()
	if inst, err := normalize(content); err != nil || validateWhole(s.compiled, inst) != nil {
		t.Fatalf("Validate reported nothing, but the schema rejects the content: %v %v", err, validateWhole(s.compiled, inst))
	}
	for _, f := range s.Fields {
		v, present := content[f.Key]
		if ok, _ := modelAccepts(f, v, present); !ok {
			t.Fatalf("Validate accepted field %q = %#v, which the %s field's model refuses", f.Key, v, f.Kind)
		}
	}
}

// modelAccepts reads the field model alone: whether v (present or not) is
// a valid answer for f, and whether the model is sure of it (it is not
// about string formats, which it leaves to the validator).
func modelAccepts(f Field, v any, present bool) (ok, sure bool) {
	if !present {
		return !f.Required, true
	}
	if !fitsType(f, v) {
		return false, true
	}
	switch f.Kind {
	case KindString:
		s := v.(string)
		n := utf8.RuneCountInString(s)
		if f.MinLength != nil && n < *f.MinLength || f.MaxLength != nil && n > *f.MaxLength {
			return false, true
		}
		if f.Pattern != "" && !regexp.MustCompile(f.Pattern).MatchString(s) {
			return false, true
		}
		return true, f.Format == ""
	case KindNumber, KindInteger:
		n := v.(float64)
		// multipleOf is exact arithmetic on the JSON number, which a float
		// cannot read plainly: the model is not sure of it.
		return !(f.Minimum != nil && n < *f.Minimum || f.Maximum != nil && n > *f.Maximum), f.MultipleOf == nil
	case KindMultiSelect:
		n := len(v.([]any))
		return !(f.MinItems != nil && n < *f.MinItems || f.MaxItems != nil && n > *f.MaxItems), true
	}
	return true, true
}

// fitsType reports whether v is the JSON type the field's control
// produces, and one of its options where it has options.
func fitsType(f Field, v any) bool {
	switch f.Kind {
	case KindString:
		_, ok := v.(string)
		return ok
	case KindNumber:
		_, ok := v.(float64)
		return ok
	case KindInteger:
		n, ok := v.(float64)
		return ok && n == math.Trunc(n)
	case KindBoolean:
		_, ok := v.(bool)
		return ok
	case KindSelect:
		return isOption(f, v)
	case KindMultiSelect:
		list, ok := v.([]any)
		return ok && !slices.ContainsFunc(list, func(e any) bool { return !isOption(f, e) })
	}
	return false
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

func isOption(f Field, v any) bool {
	return slices.ContainsFunc(f.Options, func(o Option) bool { return o.Value == v })
}

// checkNoEcho validates content whose every string carries echoMarker and
// fails if any message repeats it.
func checkNoEcho(t *testing.T, s *Schema, content map[string]any) {
	t.Helper()
	for _, e := range s.Validate(content) {
		if strings.Contains(e.Error(), echoMarker) || strings.Contains(e.Key, echoMarker) {
			t.Fatalf("error %q echoes a submitted value", e.Error())
		}
	}
	if err := s.Check(content); err != nil && strings.Contains(err.Error(), echoMarker) {
		t.Fatalf("Check error %q echoes a submitted value", err)
	}
}

// containsMarker reports whether the schema itself says echoMarker, in
// which case a message may rightly quote it.
func containsMarker(raw []byte) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return bytes.Contains(raw, []byte(echoMarker))
	}
	b, _ := json.Marshal(v)
	return bytes.Contains(bytes.ToLower(b), bytes.ToLower([]byte(echoMarker))) || bytes.Contains(raw, []byte(echoMarker))
}

// markStrings returns v with echoMarker put into every string value.
func markStrings(v any) any {
	switch v := v.(type) {
	case string:
		return echoMarker + v
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = markStrings(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = markStrings(e)
		}
		return out
	}
	return v
}

func deepCopy(v map[string]any) map[string]any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

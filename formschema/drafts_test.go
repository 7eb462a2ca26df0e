package formschema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The draft a schema declares is the one it is read in, every draft the
// validator knows, with formats asserted in each (2019-09 and 2020-12
// would leave them as annotations).
func TestValidateByDeclaredDraft(t *testing.T) {
	t.Parallel()
	const draft04 = `{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{
		"n":{"type":"number","maximum":10,"exclusiveMaximum":true}}}`
	tests := []struct {
		name     string
		schema   string
		content  map[string]any
		wantErrs []string
	}{
		{"draft-04: exclusiveMaximum true makes maximum exclusive", draft04, map[string]any{"n": 10},
			[]string{"N: must be less than 10"}},
		{"draft-04: below the exclusive maximum", draft04, map[string]any{"n": 9.99}, nil},
		{"draft-06: exclusiveMaximum is a number", `{"$schema":"http://json-schema.org/draft-06/schema#","type":"object","properties":{
			"n":{"type":"number","exclusiveMaximum":10}}}`, map[string]any{"n": 10}, []string{"N: must be less than 10"}},
		{"draft 2019-09: format asserted", `{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object","properties":{
			"e":{"type":"string","format":"email"}}}`, map[string]any{"e": secret}, []string{"E: must be a valid email address"}},
		{"draft 2020-12: format asserted", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{
			"u":{"type":"string","format":"uri"}}}`, map[string]any{"u": secret}, []string{"U: must be a valid URI (for example https://example.com)"}},
		{"no $schema is 2020-12: dependentRequired applies", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
			"dependentRequired":{"a":["b"]}}`, map[string]any{"a": "x"}, []string{"B: is required"}},
		{"draft-07: dependentRequired is no keyword of it", `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},
			"dependentRequired":{"a":["b"]}}`, map[string]any{"a": "x"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, e := range mustParse(t, tt.schema).Validate(tt.content) {
				got = append(got, e.Error())
			}
			if !slices.Equal(got, tt.wantErrs) {
				t.Errorf("Validate errors\n got: %q\nwant: %q", got, tt.wantErrs)
			}
		})
	}
}

// A schema is checked on its own: a $ref or a $schema that points
// elsewhere is not fetched, not even from a file, and the schema does not
// compile.
func TestNothingOutsideTheSchemaIsLoaded(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"$ref":"file:///etc/passwd"}]}`,
		`{"type":"object","properties":{"a":{"type":"string"}},"allOf":[{"$ref":"https://example.com/s.json"}]}`,
		`{"$schema":"https://example.com/my-meta","type":"object","properties":{"a":{"type":"string"}}}`,
	} {
		_, err := Parse(json.RawMessage(raw))
		if err == nil || !strings.Contains(err.Error(), "mcpeek loads nothing outside the schema") {
			t.Errorf("Parse(%s) = %v, want an error saying nothing outside it is loaded", raw, err)
		}
	}
}

// The same schema written with other spacing or key order is compiled
// once.
func TestCompiledOncePerSchema(t *testing.T) {
	t.Parallel()
	a, err := Compile([]byte(`{"type":"object","properties":{"q":{"type":"string","minLength":1}},"required":["q"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compile([]byte(`{ "required": ["q"], "properties": { "q": { "minLength": 1, "type": "string" } }, "type": "object" }`))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Error("the same schema, written differently, was compiled twice")
	}
	if err := ValidateJSON(a, []byte(`{"q":""}`)); err == nil || !strings.Contains(err.Error(), "at '/q'") {
		t.Errorf("ValidateJSON = %v, want a problem at /q", err)
	}
	if err := ValidateJSON(a, []byte(`{"q":"x"}`)); err != nil {
		t.Errorf("ValidateJSON of a valid document = %v", err)
	}
}

// The cache holds at most its bound, forgetting the oldest first.
func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	c := cache[int]{max: 3}
	for i := range 5 {
		c.put(fmt.Sprint(i), i)
	}
	for i := range 5 {
		_, ok := c.get(fmt.Sprint(i))
		if want := i >= 2; ok != want {
			t.Errorf("entry %d kept = %v, want %v", i, ok, want)
		}
	}
	if len(c.items) != 3 || len(c.order) != 3 {
		t.Errorf("%d items, %d in order, want 3", len(c.items), len(c.order))
	}
}

package author

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A starter's arguments pass the tool's own schema: its bounds, lengths,
// counts, nested required members, enums, formats and simple patterns.
func TestSampleArgsSatisfyTheSchema(t *testing.T) {
	t.Parallel()
	schemas := map[string]string{
		"minimum":           `{"type":"integer","minimum":1,"maximum":30}`,
		"exclusive":         `{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1}`,
		"negative":          `{"type":"integer","maximum":-3}`,
		"multipleOf":        `{"type":"integer","minimum":7,"multipleOf":5}`,
		"lengths":           `{"type":"string","minLength":3,"maxLength":5}`,
		"minItems":          `{"type":"array","minItems":2,"uniqueItems":true,"items":{"type":"string","minLength":1}}`,
		"nested":            `{"type":"object","required":["where"],"properties":{"where":{"type":"object","required":["lat","lon"],"properties":{"lat":{"type":"number","minimum":-90,"maximum":90},"lon":{"type":"number"}}}}}`,
		"enum":              `{"type":"string","enum":["c","d"]}`,
		"email":             `{"type":"string","format":"email"}`,
		"date":              `{"type":"string","format":"date-time"}`,
		"pattern":           `{"type":"string","pattern":"^[A-Z]{3}-\\d{2}$"}`,
		"ref":               `{"$ref":"#/$defs/Day"}`,
		"nullable":          `{"type":["null","integer"],"minimum":2}`,
		"anyOf":             `{"anyOf":[{"type":"null"},{"type":"string","minLength":2}]}`,
		"zodInt":            `{"type":"integer","minimum":1,"maximum":9007199254740991}`,
		"minimumAndDefault": `{"type":"integer","minimum":5,"default":6}`,
		"allOf":             `{"allOf":[{"type":"object","required":["a"],"properties":{"a":{"type":"integer","minimum":3}}},{"required":["b"],"properties":{"b":{"type":"string","format":"uuid"}}}]}`,
	}
	props := map[string]any{}
	var required []string
	for name, text := range schemas {
		var v any
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		props[name], required = v, append(required, name)
	}
	schema := map[string]any{"type": "object", "required": required, "properties": props,
		"$defs": map[string]any{"Day": map[string]any{"type": "integer", "minimum": 1}}}
	args := SampleArgs(schema)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	data, _ := json.Marshal(schema)
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err := c.AddResource("tool.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("tool.json")
	if err != nil {
		t.Fatal(err)
	}
	data, _ = json.Marshal(args)
	inst, _ := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err := sch.Validate(inst); err != nil {
		t.Errorf("the arguments %s break their schema: %v", data, err)
	}
	if args["minimumAndDefault"] != 6.0 || args["enum"] != "c" {
		t.Errorf("a default or an enum is taken as given: %s", data)
	}
	if len(SampleArgs(nil)) != 0 || len(SampleArgs(map[string]any{"type": "object"})) != 0 {
		t.Error("a schema that declares nothing gives arguments")
	}
}

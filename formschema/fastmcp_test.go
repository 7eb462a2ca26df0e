package formschema

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// fastMCP reads one of FastMCP's requested schemas (testdata/fastmcp).
func fastMCP(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../testdata/fastmcp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A FastMCP model's empty default is no value and a default its own
// format refuses is not used (and says why), so that neither is ever
// sent; the defaults that fit are kept, in the model's order.
func TestFastMCPDefaultsThatFailTheirSchema(t *testing.T) {
	t.Parallel()
	s, err := Parse(fastMCP(t, "booking.json"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range s.Fields {
		keys = append(keys, f.Key)
	}
	if want := []string{"name", "start", "end", "nights", "includeTests"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("fields %q, want %q", keys, want)
	}
	if got, want := s.Defaults(), map[string]any{"nights": float64(1), "includeTests": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("Defaults() = %v, want %v", got, want)
	}
	start, end := s.Field("start"), s.Field("end")
	if start.Default != nil || start.Declared != "" || start.DefaultNote != "" {
		t.Errorf("start: default %#v, declared %#v, note %q; want no default, \"\" declared, no note", start.Default, start.Declared, start.DefaultNote)
	}
	if end.Default != nil || end.Declared != "tomorrow" {
		t.Errorf("end: default %#v, declared %#v; want none used, \"tomorrow\" declared", end.Default, end.Declared)
	}
	for _, want := range []string{`"tomorrow"`, "not used", "YYYY-MM-DD"} {
		if !strings.Contains(end.DefaultNote, want) {
			t.Errorf("end's note %q does not say %q", end.DefaultNote, want)
		}
	}
	if errs := s.Validate(map[string]any{"name": "Ada"}); len(errs) != 0 {
		t.Errorf("a name alone is refused: %v", errs)
	}
}

// FastMCP's multi-select shorthand, items with an enum and no type, is a
// multi-select; an array that offers no choices is refused with a message
// saying so, not one about titled enums.
func TestFastMCPMultiSelectShorthand(t *testing.T) {
	t.Parallel()
	s, err := Parse(fastMCP(t, "labels.json"))
	if err != nil {
		t.Fatal(err)
	}
	f := s.Field("value")
	if f.Kind != KindMultiSelect || len(f.Options) != 3 || f.Options[2].Value != "docs" {
		t.Fatalf("value: kind %s, options %v; want a multi-select of bug, feature, docs", f.Kind, f.Options)
	}
	if errs := s.Validate(map[string]any{"value": []any{"bug", "docs"}}); len(errs) != 0 {
		t.Errorf("two labels are refused: %v", errs)
	}
	if errs := s.Validate(map[string]any{"value": []any{"wontfix"}}); len(errs) != 1 || !strings.Contains(errs[0].Message, "bug, feature, docs") {
		t.Errorf("an unknown label: %v; want one error naming the choices", errs)
	}
	for _, tt := range []struct{ def, want string }{
		{`{"type":"array","items":{"type":"string"}}`, "without enum or anyOf is not a multi-select"},
		{`{"type":"array","items":{}}`, "need enum or anyOf (its choices)"},
		{`{"type":"array"}`, "needs items with enum or anyOf"},
	} {
		_, err := Parse([]byte(oneField("tags", tt.def, false)))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "titled") {
			t.Errorf("%s: error %v, want one saying %q", tt.def, err, tt.want)
		}
	}
}

package widget

import (
	"testing"

	"github.com/mcpeek/mcpeek/formschema"
)

// A group's secret field is marked in the form as a top-level one is.
func TestGroupSecretFieldsAreMarked(t *testing.T) {
	input := map[string]any{"type": "object", "properties": map[string]any{
		"auth": map[string]any{"type": "object", "properties": map[string]any{
			"user":  map[string]any{"type": "string"},
			"token": map[string]any{"type": "string"},
		}},
	}}
	s, err := formschema.ParseArguments(input)
	if err != nil {
		t.Fatal(err)
	}
	marked := MarkSecrets(s, input)
	group := marked.Field("auth")
	for _, f := range group.Fields {
		if got, want := f.Description == NotRemembered, f.Key == "token"; got != want {
			t.Errorf("auth › %s: description %q", f.Key, f.Description)
		}
	}
	for _, f := range s.Field("auth").Fields {
		if f.Description != "" {
			t.Errorf("marking changed the shared parsed schema: auth › %s says %q", f.Key, f.Description)
		}
	}
}

// Tests of the one change from upstream: metaschemas compiled on first use.
package jsonschema

import (
	"strings"
	"sync"
	"testing"
)

// compileText compiles a schema given as JSON text.
func compileText(t *testing.T, text string) (*Schema, error) {
	t.Helper()
	doc, err := UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	c := NewCompiler()
	if err := c.AddResource("mem://schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("mem://schema.json")
}

// TestMetaschemasLoadOnFirstUse checks that no draft's metaschemas exist
// before a schema of that draft is compiled, that they are there after, and
// that schemas are still checked against them (an invalid one is refused),
// with schemas of two drafts compiled at once (run under -race).
func TestMetaschemasLoadOnFirstUse(t *testing.T) {
	for _, d := range []*Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020} {
		if d.sch != nil {
			t.Fatalf("%s: metaschema compiled before any schema of its draft", d)
		}
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := compileText(t, `{"type":"object","properties":{"a":{"type":"string"}}}`); err != nil {
				t.Errorf("a valid 2020-12 schema: %v", err)
			}
		})
		wg.Go(func() {
			if _, err := compileText(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":5}`); err == nil {
				t.Error("a draft-07 schema with \"type\": 5 compiled; want it refused by the metaschema")
			}
		})
	}
	wg.Wait()
	if Draft2020.sch == nil || Draft7.sch == nil || Draft2020.vocabSchemas["validation"] == nil {
		t.Fatal("metaschemas of the drafts used were not compiled")
	}
	if Draft4.sch != nil {
		t.Fatal("draft-04's metaschema was compiled though no schema used it")
	}
	sch, err := compileText(t, `{"type":"object","required":["a"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(map[string]any{}); err == nil {
		t.Fatal("an object without the required property validated")
	}
	if _, err := compileText(t, `{"type":"object","minProperties":"x"}`); err == nil {
		t.Fatal("a 2020-12 schema with \"minProperties\": \"x\" compiled; want it refused")
	}
}

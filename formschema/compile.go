package formschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/mcpeek/mcpeek/internal/textclean"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Compile reads a JSON Schema document (raw JSON) into a validator: the
// draft its $schema declares (draft-04, -06, -07, 2019-09 or 2020-12;
// 2020-12 when it declares none), formats asserted, and nothing outside
// the document loaded (a $ref or a $schema elsewhere is an error, never a
// file or a network read). A server sends the same schema many times, so
// compiled schemas are kept, by the schema's canonical bytes (keys sorted,
// no spacing), in a bounded cache; a compiled schema is never changed and
// may be used by several goroutines at once.
func Compile(raw []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	// The key keeps numbers as written (json.Number), unlike
	// jsondoc.Canonical's float64: two schemas whose bounds differ past a
	// float's precision are not taken for one.
	canon, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("the schema is not valid JSON: %w", err)
	}
	key := string(canon)
	if sch, ok := compiled.get(key); ok {
		return sch, nil
	}
	sch, err := compile(doc)
	if err != nil {
		return nil, err
	}
	compiled.put(key, sch)
	return sch, nil
}

// compile compiles a decoded schema document, without the cache.
func compile(doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	const loc = "mcpeek:schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// Instance reads raw JSON as the validator reads an instance: numbers as
// written (json.Number), so that bounds and multipleOf are exact.
func Instance(raw []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(raw))
}

// ValidateJSON checks raw JSON against a compiled schema ([Compile]),
// its numbers read as written. The error says each problem where it is,
// on one line ("at '/name': got number, want string; …"); the
// validator's wording quotes the values it refuses.
func ValidateJSON(sch *jsonschema.Schema, raw []byte) error {
	inst, err := Instance(raw)
	if err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if err := validateWhole(sch, inst); err != nil {
		return errors.New(problems(err))
	}
	return nil
}

// problems says on one line what the validator found, each problem where
// it is, without the validator's heading.
func problems(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return textclean.OneLine(err.Error())
	}
	var parts []string
	for i, line := range strings.Split(ve.Error(), "\n") {
		if i == 0 && len(ve.Causes) > 0 {
			continue // "jsonschema validation failed with …"
		}
		if line = strings.TrimPrefix(strings.TrimSpace(line), "- "); line != "" {
			parts = append(parts, line)
		}
	}
	return textclean.OneLine(strings.Join(parts, "; "))
}

// noLoader loads nothing: a schema from a server is checked on its own.
type noLoader struct{}

func (noLoader) Load(string) (any, error) {
	return nil, errors.New("mcpeek loads nothing outside the schema (it knows the drafts 4, 6, 7, 2019-09 and 2020-12 itself)")
}

// compiled caches compiled schemas by their canonical bytes.
var compiled = cache[*jsonschema.Schema]{max: 128}

// parsed caches parsed schemas: servers ask with the same schema again and
// again. A Schema is never changed after parsing, so sharing one is safe.
var parsed = cache[*Schema]{max: 128}

// cache is a bounded map that forgets its oldest entry when full.
type cache[V any] struct {
	mu    sync.Mutex
	max   int
	items map[string]V
	order []string
}

func (c *cache[V]) get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	return v, ok
}

func (c *cache[V]) put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string]V{}
	}
	if _, ok := c.items[key]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.items, c.order[0])
		c.order = c.order[1:]
	}
	c.items[key] = v
	c.order = append(c.order, key)
}

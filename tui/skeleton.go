package tui

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/mcpeek/mcpeek/tui/widget"
)

// A tool whose input schema no form can show is called with JSON typed in
// an editor; the editor starts from a skeleton of the arguments: every
// required property and every property with a default, in the schema's
// order, a nested object's alike, each a placeholder of its type where it
// has no default.

// maxSkeletonDepth bounds how deep the skeleton follows nested objects (a
// schema may nest without end through $ref, which it does not follow).
const maxSkeletonDepth = 8

// skeleton is the arguments to start editing from, as indented JSON; an
// empty object, the cursor's line inside, when the schema asks for none.
func skeleton(input any) string {
	raw := rawSchema(input)
	obj := skeletonObject(raw, 0)
	var b bytes.Buffer
	if obj == nil || json.Indent(&b, obj, "", "  ") != nil || b.String() == "{}" {
		return "{\n  \n}"
	}
	return b.String()
}

// rawSchema is a schema as raw JSON (a decoded one re-encoded).
func rawSchema(input any) json.RawMessage {
	switch v := input.(type) {
	case json.RawMessage:
		return v
	case []byte:
		return v
	}
	b, err := json.Marshal(input)
	if err != nil {
		return nil
	}
	return b
}

// indentedSchema is a schema as indented JSON, in its own order.
func indentedSchema(input any) string {
	var b bytes.Buffer
	if json.Indent(&b, rawSchema(input), "", "  ") != nil {
		return widget.PrettyJSON(input)
	}
	return b.String()
}

// skeletonObject is the skeleton of an object schema as compact JSON, or
// nil when the schema is no object with properties.
func skeletonObject(raw json.RawMessage, depth int) json.RawMessage {
	var def struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if depth > maxSkeletonDepth || json.Unmarshal(raw, &def) != nil {
		return nil
	}
	keys, props := orderedProperties(def.Properties)
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, k := range keys {
		v := skeletonValue(props[k], slices.Contains(def.Required, k), depth)
		if v == nil {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(v)
		n++
	}
	b.WriteByte('}')
	return b.Bytes()
}

// skeletonValue is a property's value in the skeleton: its default, else
// when it is required a placeholder of its type; nil to leave it out.
func skeletonValue(raw json.RawMessage, required bool, depth int) json.RawMessage {
	var def map[string]json.RawMessage
	if json.Unmarshal(raw, &def) != nil {
		return nil
	}
	if d, ok := def["default"]; ok {
		return d
	}
	if !required {
		return nil
	}
	if c, ok := def["const"]; ok {
		return c
	}
	var enum []json.RawMessage
	if json.Unmarshal(def["enum"], &enum) == nil && len(enum) > 0 {
		return enum[0]
	}
	for _, kw := range []string{"oneOf", "anyOf"} { // the first alternative
		var alts []json.RawMessage
		if json.Unmarshal(def[kw], &alts) == nil && len(alts) > 0 {
			return skeletonValue(alts[0], true, depth+1)
		}
	}
	var typ string
	_ = json.Unmarshal(def["type"], &typ)
	switch typ {
	case "string":
		return json.RawMessage(`""`)
	case "number", "integer":
		return json.RawMessage(`0`)
	case "boolean":
		return json.RawMessage(`false`)
	case "array":
		return json.RawMessage(`[]`)
	case "object":
		if obj := skeletonObject(raw, depth+1); obj != nil {
			return obj
		}
		return json.RawMessage(`{}`)
	}
	return json.RawMessage(`null`)
}

// orderedProperties are the keys of a properties object in the order
// written, and each one's schema.
func orderedProperties(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	props := map[string]json.RawMessage{}
	if json.Unmarshal(raw, &props) != nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		k, _ := tok.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			break
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) != len(props) { // not as decoded: fall back to sorted keys
		keys = keys[:0]
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
	}
	return keys, props
}

package surface

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// emitter records one finding of a rule row's key (see [Rules]) at a
// pointer into the item, at the level the table gives the row.
type emitter func(key, pointer, message string)

// schemaDiff compares two versions of one schema in one direction: an
// input schema is what a client sends (narrowing it breaks clients), an
// output schema what a client receives (widening it does).
type schemaDiff struct {
	dir  Direction
	emit emitter
}

// unjudged are the keywords whose meaning the rules cannot weigh (a
// reference, a combination, a condition): a change to one is reported as
// schema-not-compared, never passed over.
var unjudged = []string{
	"$ref", "$dynamicRef", "$defs", "definitions", "allOf", "anyOf", "oneOf", "not",
	"if", "then", "else", "patternProperties", "dependentSchemas", "dependentRequired",
	"prefixItems", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
}

// lowerBounds and upperBounds are the numeric constraints a higher (lower)
// value tightens; exact are those any new or changed value tightens.
var (
	lowerBounds = []string{"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
	upperBounds = []string{"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
	exact       = []string{"pattern", "format", "multipleOf", "contentMediaType", "contentEncoding"}
)

// judged are the keywords compare weighs; a change to any other keyword
// (description, default, an unknown one) is reported as
// schema-annotation-changed.
var judged = func() map[string]bool {
	m := map[string]bool{"type": true, "enum": true, "const": true, "properties": true, "required": true,
		"additionalProperties": true, "items": true, "uniqueItems": true}
	for _, k := range slices.Concat(unjudged, lowerBounds, upperBounds, exact) {
		m[k] = true
	}
	return m
}()

// compare compares the schema at ptr.
func (d *schemaDiff) compare(ptr string, old, new any) {
	if jsonEqual(old, new) {
		return
	}
	o, okO := old.(map[string]any)
	n, okN := new.(map[string]any)
	if !okO || !okN {
		d.emit("schema-not-compared", ptr, "the schema changed in a form mcpeek cannot compare (not an object); check it by hand")
		return
	}
	for _, k := range unjudged {
		if !jsonEqual(o[k], n[k]) {
			d.emit("schema-not-compared", ptr+"/"+k, fmt.Sprintf("%s changed, which mcpeek cannot judge; check it by hand", k))
		}
	}
	d.types(ptr, o, n)
	d.enums(ptr, o, n)
	d.constraints(ptr, o, n)
	d.objects(ptr, o, n)
	d.items(ptr, o, n)
	for _, k := range slices.Sorted(maps.Keys(union(o, n))) {
		if !judged[k] && !jsonEqual(o[k], n[k]) {
			d.emit("schema-annotation-changed", ptr+"/"+escapePointer(k), fmt.Sprintf("%s changed", k))
		}
	}
}

func union(a, b map[string]any) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

// typeSet is the schema's types; nil means any type.
func typeSet(s map[string]any) []string {
	switch t := s["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, v := range t {
			if v, ok := v.(string); ok {
				out = append(out, v)
			}
		}
		return out
	}
	return nil
}

// typesWithin reports whether every value of types a is a value of types
// b (an integer is a number).
func typesWithin(a, b []string) bool {
	if b == nil {
		return true
	}
	if a == nil {
		return false
	}
	for _, t := range a {
		if !slices.Contains(b, t) && (t != "integer" || !slices.Contains(b, "number")) {
			return false
		}
	}
	return true
}

func typeWords(t []string) string {
	if t == nil {
		return "any type"
	}
	return strings.Join(t, "|")
}

func (d *schemaDiff) types(ptr string, o, n map[string]any) {
	ot, nt := typeSet(o), typeSet(n)
	oldInNew, newInOld := typesWithin(ot, nt), typesWithin(nt, ot)
	if oldInNew && newInOld {
		return
	}
	change := fmt.Sprintf("type %s → %s", typeWords(ot), typeWords(nt))
	p := ptr + "/type"
	switch {
	case d.dir == ClientSends && !oldInNew:
		d.emit("input-type-narrowed", p, change+": a client sending the old type is refused")
	case d.dir == ClientSends:
		d.emit("input-type-widened", p, change+": more is accepted")
	case !newInOld:
		d.emit("output-type-widened", p, change+": a client may receive a type it does not expect")
	default:
		d.emit("output-type-narrowed", p, change)
	}
}

// enumSet is the schema's allowed values (enum, or const), each as JSON;
// nil when it has none.
func enumSet(s map[string]any) []string {
	var vals []any
	if c, ok := s["const"]; ok {
		vals = []any{c}
	} else if e, ok := s["enum"].([]any); ok {
		vals = e
	} else {
		return nil
	}
	out := []string{}
	for _, v := range vals {
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return out
}

func missing(from, in []string) []string {
	var out []string
	for _, v := range from {
		if !slices.Contains(in, v) {
			out = append(out, v)
		}
	}
	return out
}

func (d *schemaDiff) enums(ptr string, o, n map[string]any) {
	oe, ne := enumSet(o), enumSet(n)
	p := ptr + "/enum"
	if _, ok := n["const"]; ok {
		p = ptr + "/const"
	} else if _, ok := o["const"]; ok && n["enum"] == nil {
		p = ptr + "/const"
	}
	switch {
	case oe == nil && ne == nil:
	case oe == nil: // a new set of allowed values
		if d.dir == ClientSends {
			d.emit("input-constraint-tightened", p, "now only "+strings.Join(ne, ", ")+" are accepted")
		} else {
			d.emit("output-enum-narrowed", p, "now only "+strings.Join(ne, ", ")+" are sent")
		}
	case ne == nil: // any value now
		if d.dir == ClientSends {
			d.emit("input-enum-widened", p, "no longer limited to "+strings.Join(oe, ", "))
		} else {
			d.emit("output-enum-value-added", p, "no longer limited to "+strings.Join(oe, ", ")+": a client may receive a value it does not expect")
		}
	default:
		removed, added := missing(oe, ne), missing(ne, oe)
		if len(removed) > 0 {
			if d.dir == ClientSends {
				d.emit("input-enum-value-removed", p, strings.Join(removed, ", ")+" no longer accepted")
			} else {
				d.emit("output-enum-narrowed", p, strings.Join(removed, ", ")+" no longer sent")
			}
		}
		if len(added) > 0 {
			if d.dir == ClientSends {
				d.emit("input-enum-widened", p, strings.Join(added, ", ")+" now accepted")
			} else {
				d.emit("output-enum-value-added", p, strings.Join(added, ", ")+" may now be sent: a client may not expect it")
			}
		}
	}
}

// constraint reports a tightened or relaxed constraint, at the level its
// direction gives it.
func (d *schemaDiff) constraint(p string, tightened bool, message string) {
	switch {
	case d.dir == ClientSends && tightened:
		d.emit("input-constraint-tightened", p, message+": a client sending what was valid may be refused")
	case d.dir == ClientSends:
		d.emit("input-constraint-relaxed", p, message)
	case tightened:
		d.emit("output-constraint-tightened", p, message)
	default:
		d.emit("output-constraint-relaxed", p, message+": a client may receive what it does not expect")
	}
}

func number(v any) (float64, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		return f, err == nil
	case float64:
		return v, true
	}
	return 0, false
}

// maxSafeInteger is 2^53−1, the largest integer a JSON number holds
// exactly everywhere (JavaScript's Number.MAX_SAFE_INTEGER).
const maxSafeInteger = 1<<53 - 1

// noBound reports whether v, a lower (or, with lower false, an upper)
// bound, bounds nothing a client sends or receives: at or beyond
// ±(2^53−1), as schema generators write for "an integer" (zod's .int()).
func noBound(v any, lower bool) bool {
	f, ok := number(v)
	if !ok {
		return false
	}
	if lower {
		return f <= -maxSafeInteger
	}
	return f >= maxSafeInteger
}

func shown(v any) string {
	if v == nil {
		return "none"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (d *schemaDiff) constraints(ptr string, o, n map[string]any) {
	bound := func(k string, tighterIfHigher bool) {
		ov, okO := o[k]
		nv, okN := n[k]
		okO = okO && !noBound(ov, tighterIfHigher)
		okN = okN && !noBound(nv, tighterIfHigher)
		if jsonEqual(ov, nv) || !okO && !okN {
			return
		}
		msg := fmt.Sprintf("%s %s → %s", k, shown(ov), shown(nv))
		of, numO := number(ov)
		nf, numN := number(nv)
		switch {
		case !okO:
			d.constraint(ptr+"/"+k, true, msg)
		case !okN:
			d.constraint(ptr+"/"+k, false, msg)
		case numO && numN && of != nf:
			d.constraint(ptr+"/"+k, (nf > of) == tighterIfHigher, msg)
		case !numO || !numN:
			d.emit("schema-not-compared", ptr+"/"+k, msg+", not numbers; check it by hand")
		}
	}
	for _, k := range lowerBounds {
		bound(k, true)
	}
	for _, k := range upperBounds {
		bound(k, false)
	}
	for _, k := range exact {
		ov := o[k]
		nv, okN := n[k]
		if jsonEqual(ov, nv) {
			continue
		}
		// New or changed: what matched may not; gone: everything does.
		d.constraint(ptr+"/"+k, okN, fmt.Sprintf("%s %s → %s", k, shown(ov), shown(nv)))
	}
	if ou, nu := o["uniqueItems"] == true, n["uniqueItems"] == true; ou != nu {
		d.constraint(ptr+"/uniqueItems", nu, fmt.Sprintf("uniqueItems %t → %t", ou, nu))
	}
}

// names is a schema's property names and its required ones.
func names(s map[string]any) (props map[string]any, required []string) {
	props, _ = s["properties"].(map[string]any)
	if r, ok := s["required"].([]any); ok {
		for _, v := range r {
			if v, ok := v.(string); ok {
				required = append(required, v)
			}
		}
	}
	return props, required
}

func (d *schemaDiff) objects(ptr string, o, n map[string]any) {
	op, or := names(o)
	np, nr := names(n)
	all := union(op, np)
	for _, r := range slices.Concat(or, nr) {
		all[r] = true
	}
	closed := n["additionalProperties"] == false
	for _, name := range slices.Sorted(maps.Keys(all)) {
		p := ptr + "/properties/" + escapePointer(name)
		_, inO := op[name]
		_, inN := np[name]
		reqO, reqN := slices.Contains(or, name), slices.Contains(nr, name)
		if d.dir == ClientSends {
			d.inputProperty(p, name, inO || reqO, inN || reqN, reqO, reqN, closed)
		} else {
			d.outputProperty(p, name, inO, inN, reqO, reqN)
		}
		if inO && inN {
			d.compare(p, op[name], np[name])
		}
	}
	d.additional(ptr, o, n)
}

func (d *schemaDiff) inputProperty(p, name string, inO, inN, reqO, reqN, closed bool) {
	switch {
	case reqN && !reqO && !inO:
		d.emit("input-required-added", p, fmt.Sprintf("new required property %q: a client that does not send it is refused", name))
	case reqN && !reqO:
		d.emit("input-required-added", p, fmt.Sprintf("property %q is now required: a client that does not send it is refused", name))
	case reqO && !reqN && inN:
		d.emit("input-required-relaxed", p, fmt.Sprintf("property %q is now optional", name))
	case !inO && inN:
		d.emit("input-optional-added", p, fmt.Sprintf("new optional property %q", name))
	case inO && !inN && closed:
		d.emit("input-property-removed/closed", p, fmt.Sprintf("property %q removed, and additionalProperties is false: a client still sending it is refused", name))
	case inO && !inN:
		d.emit("input-property-removed", p, fmt.Sprintf("property %q removed: what a client sends for it is ignored or refused", name))
	}
}

func (d *schemaDiff) outputProperty(p, name string, inO, inN, reqO, reqN bool) {
	switch {
	case inO && !inN:
		d.emit("output-property-removed", p, fmt.Sprintf("property %q removed: a client reading it finds nothing", name))
	case reqO && !reqN:
		d.emit("output-required-removed", p, fmt.Sprintf("property %q is no longer required: a client relying on it may find nothing", name))
	case !inO && inN:
		d.emit("output-property-added", p, fmt.Sprintf("new property %q", name))
	case reqN && !reqO:
		d.emit("output-required-added", p, fmt.Sprintf("property %q is now always sent", name))
	}
}

// additional compares additionalProperties: false closes an object.
func (d *schemaDiff) additional(ptr string, o, n map[string]any) {
	ov, nv := o["additionalProperties"], n["additionalProperties"]
	if jsonEqual(ov, nv) {
		return
	}
	p := ptr + "/additionalProperties"
	om, okO := ov.(map[string]any)
	nm, okN := nv.(map[string]any)
	switch {
	case okO && okN:
		d.compare(p, om, nm)
	case nv == false:
		d.constraint(p, true, "additionalProperties "+shown(ov)+" → false: properties the schema does not name are refused")
	case ov == false:
		d.constraint(p, false, "additionalProperties false → "+shown(nv))
	default:
		d.emit("schema-not-compared", p, "additionalProperties "+shown(ov)+" → "+shown(nv)+", which mcpeek cannot judge; check it by hand")
	}
}

func (d *schemaDiff) items(ptr string, o, n map[string]any) {
	ov, okO := o["items"]
	nv, okN := n["items"]
	if jsonEqual(ov, nv) {
		return
	}
	p := ptr + "/items"
	om, mapO := ov.(map[string]any)
	nm, mapN := nv.(map[string]any)
	switch {
	case mapO && mapN:
		d.compare(p, om, nm)
	case !okO && mapN:
		d.constraint(p, true, "items now constrained")
	case mapO && !okN:
		d.constraint(p, false, "items no longer constrained")
	default:
		d.emit("schema-not-compared", p, "items changed in a form mcpeek cannot judge; check it by hand")
	}
}

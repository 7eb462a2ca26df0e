// Values that satisfy a JSON Schema: a starter's arguments and the
// answers it gives the questions a tool asks.

package author

import (
	"encoding/json"
	"maps"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
)

// sampler makes a value for a schema within one document: its local
// references ($defs, definitions) resolve against root.
type sampler struct {
	root  map[string]any
	depth int
}

// SampleArgs are the required properties of an input schema, each with a
// value its schema accepts: its default, const, first enum value or
// example, else the simplest value of its type within its bounds
// (minimum/maximum and their exclusive forms, multipleOf, lengths,
// minItems, the required members of an object, a simple pattern, a
// format). A schema that declares nothing gives an empty object.
func SampleArgs(schema any) map[string]any {
	root := asObject(schema)
	if root == nil {
		return map[string]any{}
	}
	s := &sampler{root: root}
	v, _ := s.object(s.resolve(root)).(map[string]any)
	if v == nil {
		v = map[string]any{}
	}
	return v
}

// asObject is a schema (any Go value of a JSON object) as decoded JSON.
func asObject(v any) map[string]any {
	var data []byte
	switch t := v.(type) {
	case json.RawMessage:
		data = t
	case []byte:
		data = t
	default:
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	return m
}

// resolve follows a local $ref and merges allOf, so that one map holds
// what the value must satisfy (the first of anyOf/oneOf stands for them).
func (s *sampler) resolve(p map[string]any) map[string]any {
	for range 8 {
		ref, _ := p["$ref"].(string)
		if !strings.HasPrefix(ref, "#/") {
			break
		}
		target, _ := jsondoc.Lookup(s.root, ref[1:])
		m, ok := target.(map[string]any)
		if !ok {
			break
		}
		merged := map[string]any{}
		for k, v := range m {
			merged[k] = v
		}
		for k, v := range p {
			if k != "$ref" {
				merged[k] = v
			}
		}
		p = merged
	}
	if all, ok := p["allOf"].([]any); ok {
		p = s.mergeAll(p, all)
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		alts, _ := p[k].([]any)
		for _, a := range alts {
			sub, _ := a.(map[string]any)
			if sub != nil && sub["type"] != "null" {
				merged := map[string]any{}
				for k2, v := range p {
					if k2 != k {
						merged[k2] = v
					}
				}
				for k2, v := range s.resolve(sub) {
					merged[k2] = v
				}
				return merged
			}
		}
	}
	return p
}

// mergeAll is p with the parts of its allOf merged in: their required
// members and properties added, their other keywords where p has none.
func (s *sampler) mergeAll(p map[string]any, all []any) map[string]any {
	merged := map[string]any{}
	for k, v := range p {
		if k != "allOf" {
			merged[k] = v
		}
	}
	for _, part := range all {
		sub, _ := part.(map[string]any)
		for k, v := range s.resolve(sub) {
			switch k {
			case "required":
				r, _ := merged[k].([]any)
				extra, _ := v.([]any)
				merged[k] = append(append([]any(nil), r...), extra...)
			case "properties":
				out := map[string]any{}
				props, _ := merged[k].(map[string]any)
				extra, _ := v.(map[string]any)
				maps.Copy(out, props)
				maps.Copy(out, extra)
				merged[k] = out
			default:
				if _, ok := merged[k]; !ok {
					merged[k] = v
				}
			}
		}
	}
	return merged
}

// value is a value p accepts.
func (s *sampler) value(p map[string]any) any {
	if p == nil {
		return ""
	}
	if s.depth > 16 {
		return nil
	}
	s.depth++
	defer func() { s.depth-- }()
	p = s.resolve(p)
	if v, ok := p["const"]; ok {
		return v
	}
	if v, ok := p["default"]; ok {
		return v
	}
	if e, ok := p["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if ex, ok := p["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	switch typeOf(p) {
	case "integer":
		return s.number(p, true)
	case "number":
		return s.number(p, false)
	case "boolean":
		return false
	case "array":
		return s.array(p)
	case "object":
		return s.object(p)
	case "null":
		return nil
	}
	return str(p)
}

// typeOf is p's type: the first that is not null of a list, else what
// its keywords imply.
func typeOf(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		return t
	case []any:
		for _, x := range t {
			if s, _ := x.(string); s != "" && s != "null" {
				return s
			}
		}
	}
	switch {
	case p["properties"] != nil || p["required"] != nil:
		return "object"
	case p["items"] != nil || p["minItems"] != nil:
		return "array"
	case p["minimum"] != nil || p["maximum"] != nil || p["exclusiveMinimum"] != nil || p["exclusiveMaximum"] != nil:
		return "number"
	}
	return "string"
}

func num(v any) (float64, bool) {
	f, ok := v.(float64)
	if !ok {
		if i, isInt := v.(int); isInt {
			return float64(i), true
		}
	}
	return f, ok
}

// bounds are p's numeric bounds and whether each is exclusive (either
// form: a number of its own, or a flag on minimum/maximum).
func bounds(p map[string]any) (lo, hi float64, loEx, hiEx bool) {
	lo, hi = math.Inf(-1), math.Inf(1)
	if v, ok := num(p["minimum"]); ok {
		lo = v
	}
	if v, ok := num(p["maximum"]); ok {
		hi = v
	}
	if v, ok := num(p["exclusiveMinimum"]); ok && v >= lo {
		lo, loEx = v, true
	} else if b, _ := p["exclusiveMinimum"].(bool); b {
		loEx = true
	}
	if v, ok := num(p["exclusiveMaximum"]); ok && v <= hi {
		hi, hiEx = v, true
	} else if b, _ := p["exclusiveMaximum"].(bool); b {
		hiEx = true
	}
	return lo, hi, loEx, hiEx
}

// number is the value nearest 0 within p's bounds, a multiple of its
// multipleOf when it has one, whole for an integer.
func (s *sampler) number(p map[string]any, integer bool) any {
	lo, hi, loEx, hiEx := bounds(p)
	step := 1.0
	if m, ok := num(p["multipleOf"]); ok && m > 0 {
		step = m
	} else if !integer {
		step = 0
	}
	fits := func(x float64) bool {
		return (x > lo || (!loEx && x == lo)) && (x < hi || (!hiEx && x == hi))
	}
	x := 0.0
	switch {
	case fits(x):
	case step > 0 && x < lo:
		x = math.Ceil(lo/step) * step
		if !fits(x) {
			x += step
		}
	case step > 0:
		x = math.Floor(hi/step) * step
		if !fits(x) {
			x -= step
		}
	case x < lo:
		x = lo
		if loEx {
			x = lo + math.Min(1, (hi-lo)/2)
		}
	default:
		x = hi
		if hiEx {
			x = hi - math.Min(1, (hi-lo)/2)
		}
	}
	if integer || x == math.Trunc(x) {
		return int64(x)
	}
	return x
}

func (s *sampler) array(p map[string]any) any {
	n, _ := num(p["minItems"])
	out := []any{}
	if n <= 0 {
		return out
	}
	items, _ := p["items"].(map[string]any)
	for i := 0; i < int(math.Min(n, 64)); i++ {
		v := s.value(items)
		if p["uniqueItems"] == true {
			v = s.distinct(items, v, i)
		}
		out = append(out, v)
	}
	return out
}

// distinct is v told apart as the i-th of unique items, where its type
// allows.
func (s *sampler) distinct(items map[string]any, v any, i int) any {
	if i == 0 {
		return v
	}
	if e, ok := s.resolve(items)["enum"].([]any); ok && i < len(e) {
		return e[i]
	}
	switch t := v.(type) {
	case int64:
		return t + int64(i)
	case float64:
		return t + float64(i)
	case string:
		return t + strings.Repeat("a", i)
	}
	return v
}

func (s *sampler) object(p map[string]any) any {
	out := map[string]any{}
	props, _ := p["properties"].(map[string]any)
	req, _ := p["required"].([]any)
	for _, r := range req {
		name, _ := r.(string)
		sub, _ := props[name].(map[string]any)
		if sub == nil {
			out[name] = ""
			continue
		}
		out[name] = s.value(sub)
	}
	return out
}

// formats are values of the string formats a client is most likely to be
// asked for.
var formats = map[string]string{
	"date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z",
	"email": "user@example.com", "idn-email": "user@example.com",
	"uri": "https://example.com/", "iri": "https://example.com/", "uri-reference": "https://example.com/", "url": "https://example.com/",
	"uuid": "00000000-0000-4000-8000-000000000000", "hostname": "example.com", "idn-hostname": "example.com",
	"ipv4": "192.0.2.1", "ipv6": "2001:db8::1", "duration": "PT1S", "regex": ".*",
}

// str is a string p accepts: a format's value, else one of a few plain
// candidates that fits its lengths and pattern, else one of its lengths.
func str(p map[string]any) string {
	minLen, _ := num(p["minLength"])
	maxLen, hasMax := num(p["maxLength"])
	fitsLen := func(v string) bool {
		n := float64(len([]rune(v)))
		return n >= minLen && (!hasMax || n <= maxLen)
	}
	var re *regexp.Regexp
	if pat, ok := p["pattern"].(string); ok {
		re, _ = regexp.Compile(pat)
	}
	fits := func(v string) bool { return fitsLen(v) && (re == nil || re.MatchString(v)) }
	format, _ := p["format"].(string)
	if f, ok := formats[format]; ok && fitsLen(f) {
		return f
	}
	candidates := []string{"", "a", "example", "abc", "0", "1", "a1", "A", "example-1", "example_1"}
	if re != nil {
		candidates = append(candidates, patternSample(re.String()))
	}
	for _, c := range candidates {
		if fits(c) {
			return c
		}
	}
	for _, c := range []string{"a", "0", "A"} {
		v := strings.Repeat(c, int(math.Max(minLen, 1)))
		if fits(v) {
			return v
		}
	}
	return strings.Repeat("a", int(minLen))
}

// patternSample is a string a simple pattern matches: its literal text
// with each class or wildcard replaced by one member (a pattern of
// alternatives, groups or counts gives a guess that may not match).
func patternSample(pat string) string {
	var b strings.Builder
	var last rune
	write := func(r rune) { b.WriteRune(r); last = r }
	rs := []rune(strings.TrimSuffix(strings.TrimPrefix(pat, "^"), "$"))
	for i := 0; i < len(rs); i++ {
		switch r := rs[i]; r {
		case '\\':
			if i+1 < len(rs) {
				i++
				switch rs[i] {
				case 'd':
					write('0')
				case 'w':
					write('a')
				case 's':
					write(' ')
				default:
					write(rs[i])
				}
			}
		case '[':
			j := i + 1
			if j < len(rs) && rs[j] == '^' {
				write('_')
			} else if j < len(rs) {
				write(rs[j])
			}
			for i < len(rs) && rs[i] != ']' {
				i++
			}
		case '.':
			write('a')
		case '+', '*', '?', '(', ')':
		case '{':
			j := i
			for i < len(rs) && rs[i] != '}' {
				i++
			}
			n, _ := strconv.Atoi(strings.SplitN(string(rs[min(j+1, len(rs)):i]), ",", 2)[0])
			for k := 1; k < n && last != 0; k++ {
				b.WriteRune(last)
			}
		default:
			write(r)
		}
	}
	return b.String()
}

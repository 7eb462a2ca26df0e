// Predicates: what a value in a step's result must be. A bare value means
// equals; a mapping whose keys are all operators is a predicate.

package suite

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/mcpeek/mcpeek/internal/textclean"
)

// Operators a predicate may use.
var operators = []string{"equals", "contains", "matches", "type", "length", "gte", "gt", "lte", "lt", "includes", "exists", "absent"}

// jsonTypes are the values of the type operator.
var jsonTypes = []string{"string", "number", "integer", "boolean", "array", "object", "null"}

// Predicate is every check a value must pass.
type Predicate struct {
	ops []op
}

type op struct {
	name string
	arg  any
	sub  *Predicate     // length
	re   *regexp.Regexp // matches
}

// parsePredicate reads a predicate from a node; file names errors.
func parsePredicate(file string, n *yaml.Node) (*Predicate, error) {
	fail := func(line int, format string, args ...any) error {
		return &Error{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if !isOperatorMap(n) {
		v, err := nodeValue(n)
		if err != nil {
			return nil, fail(n.Line, "%v", err)
		}
		return &Predicate{ops: []op{{name: "equals", arg: v}}}, nil
	}
	p := &Predicate{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		o := op{name: k.Value}
		var err error
		switch o.name {
		case "length":
			o.sub, err = parsePredicate(file, vn)
		default:
			o.arg, err = nodeValue(vn)
		}
		if err != nil {
			return nil, err
		}
		if err := o.check(vn); err != nil {
			return nil, fail(vn.Line, "%s: %v", o.name, err)
		}
		p.ops = append(p.ops, o)
	}
	return p, nil
}

// check refuses an operator's argument of the wrong kind, and compiles a
// regular expression.
func (o *op) check(n *yaml.Node) error {
	switch o.name {
	case "matches":
		s, ok := o.arg.(string)
		if !ok {
			return fmt.Errorf("needs a regular expression (RE2) as a string")
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return fmt.Errorf("%q does not compile: %v", s, err)
		}
		o.re = re
	case "type":
		if s, ok := o.arg.(string); !ok || !slices.Contains(jsonTypes, s) {
			return fmt.Errorf("want one of %s", strings.Join(jsonTypes, ", "))
		}
	case "exists", "absent":
		if _, ok := o.arg.(bool); !ok {
			return fmt.Errorf("want true or false")
		}
	case "gte", "gt", "lte", "lt":
		if _, ok := number(o.arg, true); !ok {
			return fmt.Errorf("want a number or a duration (got %s)", n.Value)
		}
	}
	return nil
}

func isOperatorMap(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if !slices.Contains(operators, n.Content[i].Value) {
			return false
		}
	}
	return true
}

// Check reports whether actual (present: whether anything was found at
// all) passes every operator, after expanding captures in the expected
// values; why says what was expected when it does not.
func (p *Predicate) Check(actual any, present bool, vs vars) (ok bool, why string, err error) {
	for _, o := range p.ops {
		arg, err := vs.expandValue(o.arg)
		if err != nil {
			return false, "", err
		}
		ok, why, err := o.eval(arg, actual, present, vs)
		if err != nil || !ok {
			return false, why, err
		}
	}
	return true, "", nil
}

func (o *op) eval(arg, actual any, present bool, vs vars) (bool, string, error) {
	switch o.name {
	case "exists":
		return present == arg.(bool), fmt.Sprintf("exists: %t", arg), nil
	case "absent":
		return present != arg.(bool), fmt.Sprintf("absent: %t", arg), nil
	}
	if !present {
		return false, o.describe(arg), nil
	}
	switch o.name {
	case "equals":
		return equal(arg, actual), "equals " + show(arg), nil
	case "contains":
		return contains(actual, arg), "contains " + show(arg), nil
	case "matches":
		s, ok := actual.(string)
		return ok && o.re.MatchString(s), "matches " + show(arg), nil
	case "type":
		return typeOf(actual) == arg || arg == "number" && typeOf(actual) == "integer", "type " + arg.(string), nil
	case "length":
		n, ok := length(actual)
		if !ok {
			return false, "a string, an array or an object (for length)", nil
		}
		ok, why, err := o.sub.Check(float64(n), true, vs)
		return ok, "length " + why, err
	case "gte", "gt", "lte", "lt":
		a, ok1 := number(actual, false)
		b, ok2 := number(arg, true)
		if !ok1 || !ok2 {
			return false, o.describe(arg), nil
		}
		return compare(o.name, a, b), o.describe(arg), nil
	case "includes":
		return includes(actual, arg), "includes " + show(arg), nil
	}
	return false, "", fmt.Errorf("unknown operator %s", o.name)
}

func (o *op) describe(arg any) string {
	switch o.name {
	case "gte":
		return ">= " + show(arg)
	case "gt":
		return "> " + show(arg)
	case "lte":
		return "<= " + show(arg)
	case "lt":
		return "< " + show(arg)
	}
	return o.name + " " + show(arg)
}

// String says what the predicate wants, for a report.
func (p *Predicate) String() string {
	parts := make([]string, len(p.ops))
	for i, o := range p.ops {
		if o.sub != nil {
			parts[i] = "length " + o.sub.String()
			continue
		}
		parts[i] = o.describe(o.arg)
		if o.name == "equals" {
			parts[i] = show(o.arg)
		}
	}
	return strings.Join(parts, ", ")
}

func compare(name string, a, b float64) bool {
	switch name {
	case "gte":
		return a >= b
	case "gt":
		return a > b
	case "lte":
		return a <= b
	}
	return a < b
}

// number reads v as a number; a duration (time.Duration, or a string such
// as 2s when durations are allowed) as milliseconds.
func number(v any, durations bool) (float64, bool) {
	switch t := v.(type) {
	case float64:
		return t, true
	case int:
		return float64(t), true
	case time.Duration:
		return float64(t) / float64(time.Millisecond), true
	case string:
		if d, err := time.ParseDuration(t); durations && err == nil {
			return float64(d) / float64(time.Millisecond), true
		}
	}
	return 0, false
}

func typeOf(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if t == math.Trunc(t) && !math.IsInf(t, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func length(v any) (int, bool) {
	switch t := v.(type) {
	case string:
		return utf8.RuneCountInString(t), true
	case []any:
		return len(t), true
	case map[string]any:
		return len(t), true
	}
	return 0, false
}

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

// contains: a substring of a string, an element of an array, a key of an
// object.
func contains(actual, arg any) bool {
	switch t := actual.(type) {
	case string:
		s, ok := arg.(string)
		return ok && strings.Contains(t, s)
	case []any:
		return slices.ContainsFunc(t, func(e any) bool { return equal(e, arg) })
	case map[string]any:
		s, ok := arg.(string)
		_, has := t[s]
		return ok && has
	}
	return false
}

// includes: an array has an element that includes arg; an object has
// every member arg has, each including arg's; anything else equals it.
func includes(actual, arg any) bool {
	switch t := actual.(type) {
	case []any:
		if sub, ok := arg.([]any); ok {
			for _, want := range sub {
				if !includes(t, want) {
					return false
				}
			}
			return true
		}
		return slices.ContainsFunc(t, func(e any) bool { return includes(e, arg) })
	case map[string]any:
		want, ok := arg.(map[string]any)
		if !ok {
			return false
		}
		for k, w := range want {
			got, has := t[k]
			if !has || !includes(got, w) {
				return false
			}
		}
		return true
	}
	return equal(actual, arg)
}

// show is v as compact JSON, cut to a line.
func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return textclean.Cut(string(b), 200, textclean.InBytes())
}

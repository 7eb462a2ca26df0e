// Predicates: what a value in a step's result must be. A bare value means
// equals; a mapping whose keys are all operators is a predicate.

package suite

import (
	"encoding/json"
	"errors"
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

// jsonTypes are the values of the type operator.
var jsonTypes = []string{"string", "number", "integer", "boolean", "array", "object", "null"}

// Predicate is every check a value must pass.
type Predicate struct {
	ops []op
}

// op is one operator of a predicate, with its argument.
type op struct {
	kind *operator
	arg  any
	sub  *Predicate     // length
	re   *regexp.Regexp // matches
}

// parsePredicate reads a predicate from a node; file names errors.
func parsePredicate(file string, n *yaml.Node) (*Predicate, error) {
	if !isOperatorMap(n) {
		v, err := nodeValue(n)
		if err != nil {
			return nil, &Error{File: file, Line: n.Line, Msg: err.Error()}
		}
		return &Predicate{ops: []op{{kind: operatorByName["equals"], arg: v}}}, nil
	}
	p := &Predicate{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		o := op{kind: operatorByName[k.Value]}
		if err := o.kind.parse(file, vn, &o); err != nil {
			var bad argError
			if errors.As(err, &bad) {
				return nil, &Error{File: file, Line: vn.Line, Msg: fmt.Sprintf("%s: %v", o.kind.name, bad.error)}
			}
			return nil, err
		}
		p.ops = append(p.ops, o)
	}
	return p, nil
}

func isOperatorMap(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		return false
	}
	for i := 0; i < len(n.Content); i += 2 {
		if operatorByName[n.Content[i].Value] == nil {
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
		if !present && !o.kind.onAbsent {
			return false, o.kind.describe(&o, arg), nil
		}
		ok, why, err := o.kind.eval(&o, arg, actual, present, vs)
		if err != nil || !ok {
			return false, why, err
		}
	}
	return true, "", nil
}

// Got is actual as a report shows it beside what p wanted: as the
// operator that refused it says (a length as "length 9"), else the value.
func (p *Predicate) Got(actual any, present bool, vs vars) string {
	for _, o := range p.ops {
		arg, err := vs.expandValue(o.arg)
		if err != nil || !present && !o.kind.onAbsent {
			break
		}
		if ok, _, err := o.kind.eval(&o, arg, actual, present, vs); err != nil || !ok {
			if o.kind.got != nil {
				return o.kind.got(actual)
			}
			break
		}
	}
	return show(actual)
}

// String says what the predicate wants, for a report: equals as its
// bare value, as a suite may write it.
func (p *Predicate) String() string {
	parts := make([]string, len(p.ops))
	for i, o := range p.ops {
		parts[i] = o.kind.describe(&o, o.arg)
		if o.kind.bare {
			parts[i] = show(o.arg)
		}
	}
	return strings.Join(parts, ", ")
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

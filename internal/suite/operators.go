// The predicate operators, one entry each: how its argument is read, how a
// value is checked against it, and how it is said in a report. Adding an
// operator is adding an entry here (and a word in the README's predicate
// list: TestOperatorsComplete checks both).

package suite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// operator is one predicate operator.
type operator struct {
	name string
	// parse reads the operator's argument from its node into o: a JSON
	// value (checked) or, for length, a predicate. An error is the
	// suite's mistake, worded without the operator's name.
	parse func(file string, n *yaml.Node, o *op) error
	// eval checks actual (present: whether anything was found at all)
	// against the expanded argument; why says what was expected.
	eval func(o *op, arg, actual any, present bool, vs vars) (ok bool, why string, err error)
	// describe says what the operator wants of a value, for a report.
	describe func(o *op, arg any) string
	// onAbsent: eval also judges nothing found (exists, absent); for the
	// others nothing found fails, saying describe.
	onAbsent bool
	// bare: a predicate's summary says the argument alone, as a suite
	// may write it (a bare value means equals).
	bare bool
	// got says what a report shows of a value this operator refused (nil:
	// the value itself).
	got func(actual any) string
}

// operatorList is every operator, in the order the README lists them.
var operatorList []*operator

// operatorByName finds an operator in operatorList.
var operatorByName map[string]*operator

// The table refers to parsePredicate and Check, which read it: it is
// filled in when the package starts rather than in its declaration.
func init() {
	operatorList = []*operator{
		{name: "equals", parse: valueArg(nil), describe: named, bare: true,
			eval: whenPresent(func(arg, actual any) bool { return equal(arg, actual) })},
		{name: "contains", parse: valueArg(nil), describe: named,
			eval: whenPresent(func(arg, actual any) bool { return contains(actual, arg) })},
		{name: "matches", parse: parseMatches, describe: named, eval: evalMatches},
		{name: "type", parse: valueArg(checkType), describe: named, eval: evalType},
		{name: "length", parse: parseLength, describe: describeLength, eval: evalLength, got: gotLength},
		comparison("gte", ">=", func(a, b float64) bool { return a >= b }),
		comparison("gt", ">", func(a, b float64) bool { return a > b }),
		comparison("lte", "<=", func(a, b float64) bool { return a <= b }),
		comparison("lt", "<", func(a, b float64) bool { return a < b }),
		{name: "includes", parse: valueArg(nil), describe: named,
			eval: whenPresent(func(arg, actual any) bool { return includes(actual, arg) })},
		{name: "exists", parse: valueArg(checkBool), describe: named, onAbsent: true,
			eval: func(_ *op, arg, _ any, present bool, _ vars) (bool, string, error) {
				return present == arg.(bool), fmt.Sprintf("exists: %t", arg), nil
			}},
		{name: "absent", parse: valueArg(checkBool), describe: named, onAbsent: true,
			eval: func(_ *op, arg, _ any, present bool, _ vars) (bool, string, error) {
				return present != arg.(bool), fmt.Sprintf("absent: %t", arg), nil
			}},
	}
	operatorByName = map[string]*operator{}
	for _, o := range operatorList {
		operatorByName[o.name] = o
	}
}

// valueArg reads the argument as a JSON value, then has check (if any)
// refuse one of the wrong kind.
func valueArg(check func(arg any, n *yaml.Node) error) func(string, *yaml.Node, *op) error {
	return func(_ string, n *yaml.Node, o *op) error {
		v, err := nodeValue(n)
		if err != nil {
			return err
		}
		o.arg = v
		if check == nil {
			return nil
		}
		if err := check(v, n); err != nil {
			return argError{err}
		}
		return nil
	}
}

// argError is an argument of the wrong kind: parsePredicate words it with
// the operator's name and the argument's line.
type argError struct{ error }

// whenPresent is an eval that compares a value that was found with the
// argument, the operator named in what it wanted.
func whenPresent(test func(arg, actual any) bool) func(*op, any, any, bool, vars) (bool, string, error) {
	return func(o *op, arg, actual any, _ bool, _ vars) (bool, string, error) {
		return test(arg, actual), o.kind.name + " " + show(arg), nil
	}
}

// named describes an operator as its name and its argument.
func named(o *op, arg any) string { return o.kind.name + " " + show(arg) }

func parseMatches(_ string, n *yaml.Node, o *op) error {
	v, err := nodeValue(n)
	if err != nil {
		return err
	}
	o.arg = v
	s, ok := v.(string)
	if !ok {
		return argError{fmt.Errorf("needs a regular expression (RE2) as a string")}
	}
	re, err := regexp.Compile(s)
	if err != nil {
		return argError{fmt.Errorf("%q does not compile: %v", s, err)}
	}
	o.re = re
	return nil
}

func evalMatches(o *op, arg, actual any, _ bool, _ vars) (bool, string, error) {
	s, ok := actual.(string)
	return ok && o.re.MatchString(s), "matches " + show(arg), nil
}

func checkType(arg any, _ *yaml.Node) error {
	if s, ok := arg.(string); !ok || !slices.Contains(jsonTypes, s) {
		return fmt.Errorf("want one of %s", strings.Join(jsonTypes, ", "))
	}
	return nil
}

func evalType(_ *op, arg, actual any, _ bool, _ vars) (bool, string, error) {
	return typeOf(actual) == arg || arg == "number" && typeOf(actual) == "integer", "type " + arg.(string), nil
}

func checkBool(arg any, _ *yaml.Node) error {
	if _, ok := arg.(bool); !ok {
		return fmt.Errorf("want true or false")
	}
	return nil
}

func parseLength(file string, n *yaml.Node, o *op) (err error) {
	o.sub, err = parsePredicate(file, n)
	return err
}

func evalLength(o *op, _, actual any, _ bool, vs vars) (bool, string, error) {
	n, ok := length(actual)
	if !ok {
		return false, "a string, an array or an object (for length)", nil
	}
	ok, why, err := o.sub.Check(float64(n), true, vs)
	return ok, "length " + why, err
}

func describeLength(o *op, _ any) string { return "length " + o.sub.String() }

// gotLength is a value a length refused, as its length: the failure says
// "got length 9", not the whole array.
func gotLength(actual any) string {
	if n, ok := length(actual); ok {
		return fmt.Sprintf("length %d", n)
	}
	return show(actual)
}

// comparison is an operator comparing numbers (durations as
// milliseconds), said with its symbol.
func comparison(name, symbol string, holds func(a, b float64) bool) *operator {
	describe := func(_ *op, arg any) string { return symbol + " " + show(arg) }
	return &operator{name: name, describe: describe,
		parse: valueArg(func(arg any, n *yaml.Node) error {
			if _, ok := number(arg, true); !ok {
				return fmt.Errorf("want a number or a duration (got %s)", n.Value)
			}
			return nil
		}),
		eval: func(o *op, arg, actual any, _ bool, _ vars) (bool, string, error) {
			a, ok1 := number(actual, false)
			b, ok2 := number(arg, true)
			return ok1 && ok2 && holds(a, b), describe(o, arg), nil
		}}
}

// Package jsondoc answers the small questions mcpeek's testing tools ask
// of decoded JSON documents: where two documents differ ([FirstDiff],
// [AllDiffs]), how a place in one is named (a [Path], as a JSON pointer or
// a JSONPath), the canonical bytes of a value ([Canonical]) and a value
// without its _meta members ([StripMeta]). A decoded document is what
// encoding/json decodes into an any: map[string]any, []any, string,
// float64, bool and nil. See docs/architecture.md, "JSON documents".
package jsondoc

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// Step is one step down into a document: a member name, an array index,
// or the element of an array whose key member has a value ([Keyed]).
type Step struct {
	name    string
	index   int
	isIndex bool
	// keyBy is the member a keyed step's element is named by (name is
	// its value); "" for the other steps.
	keyBy string
}

// Member is the step to the member name of an object.
func Member(name string) Step { return Step{name: name} }

// Element is the step to the element i of an array.
func Element(i int) Step { return Step{index: i, isIndex: true} }

// Keyed is the step to the element of an array whose member keyBy is
// value: an item of a list named by its name (a tool by "name", a
// resource by "uri").
func Keyed(keyBy, value string) Step { return Step{name: value, keyBy: keyBy} }

// Name is the member name the step goes to, and false for an array index
// or a keyed element.
func (s Step) Name() (string, bool) { return s.name, !s.isIndex && s.keyBy == "" }

// Key is the member a keyed element is named by and its value, and false
// for the other steps.
func (s Step) Key() (keyBy, value string, ok bool) { return s.keyBy, s.name, s.keyBy != "" }

// Index is the array index the step goes to, and false for a member name.
func (s Step) Index() (int, bool) { return s.index, s.isIndex }

// Path is a place in a document: the steps from its root (none: the root
// itself).
type Path []Step

// Child is the path one step further down; p itself is not changed.
func (p Path) Child(s Step) Path {
	return append(p[:len(p):len(p)], s)
}

// Pointer is the path as a JSON pointer (RFC 6901): "" for the root,
// "/content/0/text" for a member below it. A keyed element is spelled by
// its key's value ("/tools/read_file/description"), which names it for a
// person; such a pointer does not resolve in the document.
func (p Path) Pointer() string {
	var b strings.Builder
	for _, s := range p {
		b.WriteByte('/')
		if s.isIndex {
			b.WriteString(strconv.Itoa(s.index))
		} else {
			b.WriteString(EscapeToken(s.name))
		}
	}
	return b.String()
}

// identifier is a member name JSONPath's shorthand (.name) spells as is.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// JSONPath is the path as a normalized JSONPath (RFC 9535), the notation
// a suite's redact: takes and mcpeek's messages show: "$" for the root,
// $.content[0].text below it, and a name that is not an identifier as a
// quoted selector ($["odd key"]), and a keyed element as a filter
// ($.tools[?@.name=="read_file"]).
func (p Path) JSONPath() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range p {
		switch {
		case s.isIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case s.keyBy != "":
			b.WriteString("[?@")
			b.WriteString(memberSelector(s.keyBy))
			q, _ := json.Marshal(s.name)
			b.WriteString("==")
			b.Write(q)
			b.WriteByte(']')
		default:
			b.WriteString(memberSelector(s.name))
		}
	}
	return b.String()
}

// memberSelector spells the step to a member in JSONPath: .name for an
// identifier, else a quoted name selector (["odd key"]).
func memberSelector(name string) string {
	if identifier.MatchString(name) {
		return "." + name
	}
	q, _ := json.Marshal(name) // a JSON string is a JSONPath name selector
	return "[" + string(q) + "]"
}

// String is the path as a JSONPath.
func (p Path) String() string { return p.JSONPath() }

// EscapeToken escapes a member name as a JSON pointer's reference token
// (RFC 6901): "~" becomes "~0" and "/" becomes "~1".
func EscapeToken(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

// ErrBadEscape is a reference token with a "~" not followed by 0 or 1.
var ErrBadEscape = errors.New(`a JSON pointer's "~" is followed by neither 0 nor 1`)

// UnescapeToken reads a JSON pointer's reference token back as the name
// it escapes (RFC 6901: "~1" is "/", then "~0" is "~").
func UnescapeToken(token string) (string, error) {
	if !strings.Contains(token, "~") {
		return token, nil
	}
	var b strings.Builder
	for i := 0; i < len(token); i++ {
		c := token[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(token) {
			return "", ErrBadEscape
		}
		switch token[i+1] {
		case '0':
			b.WriteByte('~')
		case '1':
			b.WriteByte('/')
		default:
			return "", ErrBadEscape
		}
		i++
	}
	return b.String(), nil
}

// SplitPointer reads a JSON pointer (RFC 6901) as its reference tokens,
// unescaped: nil for "" (the root). Whether a token is a member name or
// an array index depends on the document it is used on.
func SplitPointer(pointer string) ([]string, error) {
	if pointer == "" {
		return nil, nil
	}
	if pointer[0] != '/' {
		return nil, errors.New(`a JSON pointer is "" or begins with "/"`)
	}
	raw := strings.Split(pointer[1:], "/")
	out := make([]string, len(raw))
	for i, t := range raw {
		name, err := UnescapeToken(t)
		if err != nil {
			return nil, err
		}
		out[i] = name
	}
	return out, nil
}

// Lookup is the value a JSON pointer (RFC 6901) names in a decoded JSON
// document (maps, slices, scalars), and whether the document has one
// there: a member of an object, or an index of an array written as a
// decimal number within it.
func Lookup(doc any, pointer string) (any, bool) {
	tokens, err := SplitPointer(pointer)
	if err != nil {
		return nil, false
	}
	cur := doc
	for _, tok := range tokens {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || strconv.Itoa(i) != tok {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

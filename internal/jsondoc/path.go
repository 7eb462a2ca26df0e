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

// Step is one step down into a document: a member name or an array index.
type Step struct {
	name    string
	index   int
	isIndex bool
}

// Member is the step to the member name of an object.
func Member(name string) Step { return Step{name: name} }

// Element is the step to the element i of an array.
func Element(i int) Step { return Step{index: i, isIndex: true} }

// Name is the member name the step goes to, and false for an array index.
func (s Step) Name() (string, bool) { return s.name, !s.isIndex }

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
// "/content/0/text" for a member below it.
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
// quoted selector ($["odd key"]).
func (p Path) JSONPath() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, s := range p {
		switch {
		case s.isIndex:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
		case identifier.MatchString(s.name):
			b.WriteByte('.')
			b.WriteString(s.name)
		default:
			q, _ := json.Marshal(s.name) // a JSON string is a JSONPath name selector
			b.WriteByte('[')
			b.Write(q)
			b.WriteByte(']')
		}
	}
	return b.String()
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

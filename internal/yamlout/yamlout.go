// Package yamlout writes YAML that reads back as what was written.
//
// go.yaml.in/yaml/v3 picks a scalar's style from its text, and some of
// its choices do not load again: a text that begins with a line break is
// written as a block scalar (|4-) whose first line is empty, which the
// same library then refuses ("did not find expected key"). Everything
// mcpeek writes as YAML (suites, snapshots, starters) goes through
// [Encode] or [Marshal], which check the round trip and, where the
// library's choice does not survive, write the strings double-quoted,
// a style that holds any text.
package yamlout

import (
	"bytes"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Marshal is v as YAML (as yaml.Marshal writes it: maps sorted by key,
// four spaces a level) that decodes to what v encodes to.
func Marshal(v any) ([]byte, error) {
	n, err := Node(v)
	if err != nil {
		return nil, err
	}
	return Encode(n, 4)
}

// Node is v as a YAML node, maps sorted by key. yaml.Node.Encode goes
// through the library's text, so it fails on the strings whose text does
// not read back; Node builds the strings, lists and maps of a decoded
// JSON value itself, and leaves the rest (numbers, booleans, structs) to
// the library.
func Node(v any) (*yaml.Node, error) {
	switch t := v.(type) {
	case string:
		if !strings.ContainsAny(t, lineBreaks) {
			// The library's own choice (it quotes "n" and "on", which
			// YAML 1.1 readers take for booleans), checked by Encode.
			n := &yaml.Node{}
			if n.Encode(t) == nil {
				return n, nil
			}
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t}, nil
	case []string:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range t {
			c, _ := Node(e)
			n.Content = append(n.Content, c)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, e := range t {
			c, err := Node(e)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			c, err := Node(t[k])
			if err != nil {
				return nil, err
			}
			key, _ := Node(k)
			n.Content = append(n.Content, key, c)
		}
		return n, nil
	}
	n := &yaml.Node{}
	if err := n.Encode(v); err != nil {
		return nil, err
	}
	return n, nil
}

// Encode is n as YAML, indent spaces a level, that decodes to what n
// decodes to. When the library's choice of style for a string does not
// survive the round trip, the strings with a line break (then, if that is
// not enough, every string) are written double-quoted: their Style in n
// is changed. An error says the text would not read back either way.
func Encode(n *yaml.Node, indent int) ([]byte, error) {
	var want any
	if err := n.Decode(&want); err != nil {
		return nil, err
	}
	for _, quote := range []func(*yaml.Node) bool{nil, multiLine, anyString} {
		if quote != nil && !restyle(n, quote) {
			continue
		}
		out, err := encode(n, indent)
		if err != nil {
			return nil, err
		}
		if readsBack(out, want) {
			return out, nil
		}
	}
	return nil, errors.New("the YAML written would not read back as the values given")
}

func encode(n *yaml.Node, indent int) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(indent)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// readsBack reports whether out decodes to want.
func readsBack(out []byte, want any) bool {
	var got any
	if yaml.Unmarshal(out, &got) != nil {
		return false
	}
	return reflect.DeepEqual(got, want)
}

// multiLine holds a string scalar whose text has a line break (as YAML
// counts them) or that is written as a block.
func multiLine(n *yaml.Node) bool {
	return n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		strings.ContainsAny(n.Value, lineBreaks)
}

// lineBreaks are the characters YAML reads as a line break.
const lineBreaks = "\n\r\u0085\u2028\u2029"

func anyString(*yaml.Node) bool { return true }

// restyle double-quotes the string scalars under n that pick selects;
// false when it changed none.
func restyle(n *yaml.Node, pick func(*yaml.Node) bool) bool {
	changed := false
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && n.Style&yaml.DoubleQuotedStyle == 0 && pick(n) {
		n.Style = yaml.DoubleQuotedStyle
		changed = true
	}
	for _, c := range n.Content {
		if restyle(c, pick) {
			changed = true
		}
	}
	return changed
}

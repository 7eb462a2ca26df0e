package surface

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// A rename hint pairs an item removed with one added that is likely the
// same under a new name: each removed item with at most one added, the
// likeliest first.
//
//   - names alike: the same words, whatever the case or separator
//     (getTinyImage, get-tiny-image, get_tiny_image), a leading generic
//     verb aside (structuredContent, get-structured-content); hinted even
//     when the new schema would refuse what the old accepted, which the
//     hint then says;
//   - names that share a word (printEnv, get-env; sampleLLM,
//     trigger-sampling-request), with a compatible schema: the new one
//     accepts what the old did;
//   - other names, when the schemas are compatible and of one shape (the
//     same properties, the same required) and no other pair's are.
type renameCandidate struct {
	old, new   string
	alike      bool
	shared     int  // words the names share
	compatible bool // the new schema accepts what the old did
	sameShape  bool // the schemas are compatible and of one shape
}

// genericWords are words a name may gain or lose in a rename without
// naming something else: verbs every tool has, the kind of item.
var genericWords = map[string]bool{"get": true, "set": true, "do": true, "run": true, "trigger": true,
	"fetch": true, "make": true, "tool": true, "prompt": true}

// nameWords are a name's words, in lower case and stemmed, its generic
// words left out: getTinyImage, get-tiny-image and get_tiny_image are
// [tiny imag].
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			if w := stem(strings.ToLower(string(cur))); !genericWords[w] {
				words = append(words, w)
			}
			cur = cur[:0]
		}
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) ||
			unicode.IsUpper(runes[i-1]) && i+1 < len(runes) && unicode.IsLower(runes[i+1])):
			flush() // fooBar, or the Bar of HTTPBar
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// stem drops an English inflection, so that sample and sampling, or link
// and links, are one word.
func stem(w string) string {
	for _, suffix := range []string{"ing", "ed", "es", "s", "e"} {
		if len(w) > len(suffix)+2 && strings.HasSuffix(w, suffix) {
			return strings.TrimSuffix(w, suffix)
		}
	}
	return w
}

// sharedWords counts the words two names share.
func sharedWords(a, b []string) int {
	n := 0
	for _, w := range slices.Compact(slices.Sorted(slices.Values(a))) {
		if slices.Contains(b, w) {
			n++
		}
	}
	return n
}

// renames pairs removed items with added ones (see renameCandidate);
// compatible and sameShape judge a pair's schemas.
func renames(removed, added []string, compatible, sameShape func(old, new string) bool) []renameCandidate {
	var cands []renameCandidate
	shapes := map[string]int{} // the pairs of one shape each item is in
	for _, o := range removed {
		ow := nameWords(o)
		for _, n := range added {
			nw := nameWords(n)
			c := renameCandidate{old: o, new: n, alike: len(ow) > 0 && slices.Equal(ow, nw),
				shared: sharedWords(ow, nw), compatible: compatible(o, n)}
			c.sameShape = c.compatible && sameShape(o, n)
			if c.sameShape {
				shapes[o]++
				shapes[n]++
			}
			if c.rank() > 0 {
				cands = append(cands, c)
			}
		}
	}
	// A shape alone hints only a pair no other pair shares it with.
	cands = slices.DeleteFunc(cands, func(c renameCandidate) bool {
		return c.rank() == 1 && (shapes[c.old] > 1 || shapes[c.new] > 1)
	})
	slices.SortFunc(cands, func(a, b renameCandidate) int {
		return cmp.Or(cmp.Compare(b.rank(), a.rank()), cmp.Compare(b.shared, a.shared), cmp.Compare(boolInt(b.compatible), boolInt(a.compatible)),
			cmp.Compare(a.old, b.old), cmp.Compare(a.new, b.new))
	})
	taken := map[string]bool{}
	var out []renameCandidate
	for _, c := range cands {
		if taken["old "+c.old] || taken["new "+c.new] {
			continue
		}
		taken["old "+c.old], taken["new "+c.new] = true, true
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b renameCandidate) int { return cmp.Compare(a.old, b.old) })
	return out
}

// rank is the kind of pair: 3 names alike, 2 a shared word and a
// compatible schema, 1 a compatible schema of one shape, 0 none.
func (c renameCandidate) rank() int {
	switch {
	case c.alike:
		return 3
	case c.shared > 0 && c.compatible:
		return 2
	case c.sameShape:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hint is the rename hint's message, of an item of kind; sameShape says
// what a pair of the third kind shares, and refuses what a new schema does
// that is not compatible.
func (c renameCandidate) hint(kind, sameShape, refuses string) string {
	why := "named alike"
	switch c.rank() {
	case 2:
		why = "a name that shares a word"
	case 1:
		why = sameShape
	}
	msg := fmt.Sprintf("%s %s was removed and %s added, %s: renamed?", kind, c.old, c.new, why)
	if !c.compatible {
		msg += " (but " + refuses + ")"
	}
	return msg
}

// breaking is an emitter that only notes whether a rule of level ERR
// fired.
func breaking(broke *bool) emitter {
	return func(key, _, _ string) {
		if rulesByKey[key].Level == ERR {
			*broke = true
		}
	}
}

// shape is what a schema names: its properties and which are required,
// or a prompt's arguments and which are.
type shape struct{ names, required []string }

// schemaShape is an input or output schema's shape.
func schemaShape(schema any) shape {
	m, _ := schema.(map[string]any)
	props, required := names(m)
	slices.Sort(required)
	return shape{slices.Sorted(maps.Keys(props)), required}
}

// argumentsShape is a prompt's shape.
func argumentsShape(p Item) shape {
	var sh shape
	args := promptArgs(p)
	for _, name := range slices.Sorted(maps.Keys(args)) {
		sh.names = append(sh.names, name)
		if a, _ := args[name].(map[string]any); a["required"] == true {
			sh.required = append(sh.required, name)
		}
	}
	return sh
}

func (a shape) equal(b shape) bool {
	return slices.Equal(a.names, b.names) && slices.Equal(a.required, b.required)
}

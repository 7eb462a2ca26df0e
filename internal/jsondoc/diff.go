package jsondoc

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"

	"github.com/theory/jsonpath"
	"github.com/theory/jsonpath/spec"
)

// Placeholder replaces a redacted value.
const Placeholder = "[redacted]"

// Options say what a comparison leaves out.
type Options struct {
	// IgnoreMeta leaves every _meta member out, at any depth.
	IgnoreMeta bool
	// Redactions replace what each selects with [Placeholder] in both
	// documents (copies) before they are compared.
	Redactions []*jsonpath.Path
	// KeyBy compares the arrays at these JSON pointers (as [Path.Pointer]
	// spells them; "" for the root) item by item, each named by its
	// member of this name, whatever their order: a list of tools by
	// "name", of resources by "uri". A difference inside an item is at
	// its [Keyed] step (/tools/read_file/description), an item on one
	// side only is there as a whole. An array whose items are not each an
	// object with a distinct string of that member is compared as any
	// other.
	KeyBy map[string]string
}

// Diff is one place where two documents differ, and the value of each
// there (nil: absent or null).
type Diff struct {
	Path Path
	A, B any
}

// FirstDiff is the first place where a and b differ, members in the order
// of their names and elements in order, or false when they are equal.
// Neither argument is changed.
//
// Objects are compared member by member (an absent member and a null one
// are the same) and arrays of one length element by element; anything
// else (an array whose length differs, two values of different kinds, two
// scalars) differs where it is as a whole when it does not encode to the
// same JSON.
func FirstDiff(a, b any, opts Options) (Diff, bool) {
	var first Diff
	found := false
	a, b = opts.prepare(a, b)
	w := walker{Options: opts, found: func(d Diff) bool {
		first, found = d, true
		return false
	}}
	w.walk(a, b, nil)
	return first, found
}

// AllDiffs are all the places where a and b differ, as [FirstDiff] finds
// the first, in the same order: the leaves that differ, arrays whose
// length differs and values of different kinds, each once.
func AllDiffs(a, b any, opts Options) []Diff {
	var out []Diff
	a, b = opts.prepare(a, b)
	w := walker{Options: opts, found: func(d Diff) bool {
		out = append(out, d)
		return true
	}}
	w.walk(a, b, nil)
	return out
}

// prepare is the two documents as compared: redacted copies when there
// are redactions, else themselves.
func (o Options) prepare(a, b any) (any, any) {
	if len(o.Redactions) == 0 {
		return a, b
	}
	return Redact(Copy(a), o.Redactions), Redact(Copy(b), o.Redactions)
}

// walker is one comparison: its options, and what it calls for each
// difference until that returns false.
type walker struct {
	Options
	found func(Diff) bool
}

// walk reports each difference under at, in order; it returns false when
// stopped.
func (w walker) walk(a, b any, at Path) bool {
	switch ta := a.(type) {
	case map[string]any:
		if tb, ok := b.(map[string]any); ok {
			return w.members(ta, tb, at)
		}
	case []any:
		tb, ok := b.([]any)
		if !ok {
			break
		}
		if key := w.KeyBy[at.Pointer()]; key != "" {
			if ia, ib, ok := itemsBy(key, ta, tb); ok {
				return w.items(key, ia, ib, at)
			}
		}
		if len(ta) != len(tb) {
			break
		}
		for i := range ta {
			if !w.walk(ta[i], tb[i], at.Child(Element(i))) {
				return false
			}
		}
		return true
	}
	if sameJSON(a, b) {
		return true
	}
	return w.found(Diff{Path: at, A: a, B: b})
}

// members compares two objects member by member, in the order of their
// names.
func (w walker) members(ta, tb map[string]any, at Path) bool {
	keys := slices.Collect(maps.Keys(ta))
	for k := range tb {
		if _, ok := ta[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if w.IgnoreMeta && k == "_meta" {
			continue
		}
		if !w.walk(ta[k], tb[k], at.Child(Member(k))) {
			return false
		}
	}
	return true
}

// keyedItem is an array's item and the value of its key member.
type keyedItem struct {
	key  string
	item any
}

// items compares two keyed arrays item by item: those of a in a's order
// (absent from b: there as a whole), then those only in b in b's order.
func (w walker) items(keyBy string, a, b []keyedItem, at Path) bool {
	inB := make(map[string]any, len(b))
	for _, it := range b {
		inB[it.key] = it.item
	}
	inA := make(map[string]bool, len(a))
	for _, it := range a {
		inA[it.key] = true
		if !w.walk(it.item, inB[it.key], at.Child(Keyed(keyBy, it.key))) {
			return false
		}
	}
	for _, it := range b {
		if !inA[it.key] && !w.found(Diff{Path: at.Child(Keyed(keyBy, it.key)), B: it.item}) {
			return false
		}
	}
	return true
}

// itemsBy are both arrays' items with their keys; false unless every item
// is an object with a string member keyBy, distinct within its array.
func itemsBy(keyBy string, a, b []any) (ia, ib []keyedItem, ok bool) {
	key := func(arr []any) ([]keyedItem, bool) {
		out := make([]keyedItem, 0, len(arr))
		seen := make(map[string]bool, len(arr))
		for _, e := range arr {
			m, _ := e.(map[string]any)
			k, isString := m[keyBy].(string)
			if !isString || seen[k] {
				return nil, false
			}
			seen[k] = true
			out = append(out, keyedItem{key: k, item: e})
		}
		return out, true
	}
	ia, okA := key(a)
	ib, okB := key(b)
	return ia, ib, okA && okB
}

// sameJSON reports whether two values are equal, or encode to the same
// JSON (an int and the float64 of the same number).
func sameJSON(a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// Redact is doc (a copy the caller owns) with what each path selects
// replaced by [Placeholder].
func Redact(doc any, paths []*jsonpath.Path) any {
	if len(paths) == 0 || doc == nil {
		return doc
	}
	for _, p := range paths {
		for _, n := range p.SelectLocated(doc) {
			doc = setAt(doc, n.Path, Placeholder)
		}
	}
	return doc
}

// setAt sets the value at a normalized path.
func setAt(doc any, path spec.NormalizedPath, v any) any {
	if len(path) == 0 {
		return v
	}
	switch sel := path[0].(type) {
	case spec.Name:
		if m, ok := doc.(map[string]any); ok {
			m[string(sel)] = setAt(m[string(sel)], path[1:], v)
		}
	case spec.Index:
		if a, ok := doc.([]any); ok && int(sel) < len(a) {
			a[sel] = setAt(a[sel], path[1:], v)
		}
	}
	return doc
}

// Copy is a deep copy of a decoded document.
func Copy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = Copy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = Copy(e)
		}
		return out
	}
	return v
}

// StripMeta removes every _meta member from v, at any depth, in place,
// and returns it.
func StripMeta(v any) any {
	switch t := v.(type) {
	case map[string]any:
		delete(t, "_meta")
		for k, e := range t {
			t[k] = StripMeta(e)
		}
	case []any:
		for i, e := range t {
			t[i] = StripMeta(e)
		}
	}
	return v
}

// Canonical is the canonical JSON of a document's text: decoded and
// encoded again, members sorted by name, no insignificant space, numbers
// as float64 spells them. Two texts of the same document have the same
// canonical JSON.
func Canonical(data []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

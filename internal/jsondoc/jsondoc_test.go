package jsondoc

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/theory/jsonpath"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestFirstDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		a, b       string
		meta       bool
		equal      bool
		pointer    string
		jsonPath   string
		wantA      any
		wantB      any
		redactions []string
	}{
		{name: "equal", a: `{"a":[1,{"b":"x"}]}`, b: `{"a":[1,{"b":"x"}]}`, equal: true},
		{name: "an absent member is a null one", a: `{"a":null}`, b: `{}`, equal: true},
		{name: "a scalar", a: `{"a":{"b":1}}`, b: `{"a":{"b":2}}`, pointer: "/a/b", jsonPath: "$.a.b", wantA: 1.0, wantB: 2.0},
		{name: "members in name order", a: `{"z":1,"b":1}`, b: `{"z":2,"b":2}`, pointer: "/b", jsonPath: "$.b", wantA: 1.0, wantB: 2.0},
		{name: "a member only in b comes in its order", a: `{"z":1}`, b: `{"a":true,"z":2}`, pointer: "/a", jsonPath: "$.a", wantA: nil, wantB: true},
		{name: "an element", a: `[1,[2,3]]`, b: `[1,[2,4]]`, pointer: "/1/1", jsonPath: "$[1][1]", wantA: 3.0, wantB: 4.0},
		{name: "an array's length", a: `{"l":[1]}`, b: `{"l":[1,2]}`, pointer: "/l", jsonPath: "$.l", wantA: []any{1.0}, wantB: []any{1.0, 2.0}},
		{name: "kinds", a: `{"v":{}}`, b: `{"v":[]}`, pointer: "/v", jsonPath: "$.v", wantA: map[string]any{}, wantB: []any{}},
		{name: "the root", a: `1`, b: `"1"`, pointer: "", jsonPath: "$", wantA: 1.0, wantB: "1"},
		{name: "escaped names", a: `{"a/b":{"c~d":1,"odd key":0}}`, b: `{"a/b":{"c~d":2,"odd key":0}}`, pointer: "/a~1b/c~0d", jsonPath: `$["a/b"]["c~d"]`, wantA: 1.0, wantB: 2.0},
		{name: "_meta compared", a: `{"_meta":{"x":1},"v":1}`, b: `{"_meta":{"x":2},"v":1}`, pointer: "/_meta/x", jsonPath: "$._meta.x", wantA: 1.0, wantB: 2.0},
		{name: "_meta ignored at any depth", a: `{"_meta":1,"v":[{"_meta":1}]}`, b: `{"v":[{"_meta":2}]}`, meta: true, equal: true},
		{name: "redacted in both", a: `{"id":"a1","v":1}`, b: `{"id":"b2","v":1}`, redactions: []string{"$.id"}, equal: true},
		{name: "redacted, the rest compared", a: `{"id":"a1","v":1}`, b: `{"id":"b2","v":2}`, redactions: []string{"$.id"}, pointer: "/v", jsonPath: "$.v", wantA: 1.0, wantB: 2.0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := Options{IgnoreMeta: tt.meta}
			for _, r := range tt.redactions {
				opts.Redactions = append(opts.Redactions, jsonpath.MustParse(r))
			}
			a, b := decode(t, tt.a), decode(t, tt.b)
			d, differ := FirstDiff(a, b, opts)
			if differ == tt.equal {
				t.Fatalf("differ = %v (%+v), want %v", differ, d, !tt.equal)
			}
			if tt.equal {
				return
			}
			if got := d.Path.Pointer(); got != tt.pointer {
				t.Errorf("Pointer() = %q, want %q", got, tt.pointer)
			}
			if got := d.Path.JSONPath(); got != tt.jsonPath {
				t.Errorf("JSONPath() = %q, want %q", got, tt.jsonPath)
			}
			if !reflect.DeepEqual(d.A, tt.wantA) || !reflect.DeepEqual(d.B, tt.wantB) {
				t.Errorf("values %#v, %#v; want %#v, %#v", d.A, d.B, tt.wantA, tt.wantB)
			}
			if !reflect.DeepEqual(a, decode(t, tt.a)) || !reflect.DeepEqual(b, decode(t, tt.b)) {
				t.Error("an argument was changed")
			}
		})
	}
}

// Leaves that encode to the same JSON are equal: a number a YAML file
// gave as an int and the float64 a JSON result has.
func TestFirstDiffComparesLeavesAsJSON(t *testing.T) {
	t.Parallel()
	if d, differ := FirstDiff(map[string]any{"n": 2}, map[string]any{"n": 2.0}, Options{}); differ {
		t.Errorf("2 and 2.0 differ at %s", d.Path)
	}
}

func TestAllDiffs(t *testing.T) {
	t.Parallel()
	a := decode(t, `{"content":[{"text":"at 10:01"},{"text":"same"}],"s":{"id":"a1","odd key":1,"list":[1],"gone":{"x":1}}}`)
	b := decode(t, `{"content":[{"text":"at 10:02"},{"text":"same"}],"s":{"id":"b2","odd key":2,"list":[1,2]}}`)
	var got []string
	for _, d := range AllDiffs(a, b, Options{}) {
		got = append(got, d.Path.JSONPath())
	}
	want := []string{"$.content[0].text", "$.s.gone", "$.s.id", "$.s.list", `$.s["odd key"]`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("AllDiffs = %q, want %q", got, want)
	}
	first, _ := FirstDiff(a, b, Options{})
	if first.Path.JSONPath() != want[0] {
		t.Errorf("FirstDiff at %s, want AllDiffs' first", first.Path)
	}
	if d := AllDiffs(a, a, Options{}); len(d) != 0 {
		t.Errorf("a document differs from itself: %+v", d)
	}
}

func TestPathNotations(t *testing.T) {
	t.Parallel()
	p := Path{Member("content"), Element(0), Member("a~/b"), Member("_x1"), Member("1x"), Member(`q"`)}
	if got, want := p.Pointer(), `/content/0/a~0~1b/_x1/1x/q"`; got != want {
		t.Errorf("Pointer() = %q, want %q", got, want)
	}
	if got, want := p.JSONPath(), `$.content[0]["a~/b"]._x1["1x"]["q\""]`; got != want {
		t.Errorf("JSONPath() = %q, want %q", got, want)
	}
	// Every JSONPath it spells parses, and selects the place.
	doc := decode(t, `{"content":[{"a~/b":{"_x1":{"1x":{"q\"":"here"}}}}]}`)
	if got := jsonpath.MustParse(p.JSONPath()).Select(doc); len(got) != 1 || got[0] != "here" {
		t.Errorf("%s selects %v", p.JSONPath(), got)
	}
	if (Path{}).Pointer() != "" || (Path{}).JSONPath() != "$" {
		t.Error("the root")
	}
	base := Path{Member("a")}
	x, y := base.Child(Member("x")), base.Child(Member("y"))
	if x.Pointer() != "/a/x" || y.Pointer() != "/a/y" || base.Pointer() != "/a" {
		t.Errorf("Child shares its steps: %s %s %s", x.Pointer(), y.Pointer(), base.Pointer())
	}
	if n, ok := Member("m").Name(); !ok || n != "m" {
		t.Error("Member's Name")
	}
	if i, ok := Element(3).Index(); !ok || i != 3 {
		t.Error("Element's Index")
	}
	if _, ok := Element(3).Name(); ok {
		t.Error("an Element has a name")
	}
}

func TestTokens(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, token string }{
		{"", ""}, {"a", "a"}, {"a/b", "a~1b"}, {"m~n", "m~0n"}, {"~1", "~01"}, {"/~", "~1~0"},
	} {
		if got := EscapeToken(tt.name); got != tt.token {
			t.Errorf("EscapeToken(%q) = %q, want %q", tt.name, got, tt.token)
		}
		if got, err := UnescapeToken(tt.token); err != nil || got != tt.name {
			t.Errorf("UnescapeToken(%q) = %q, %v; want %q", tt.token, got, err, tt.name)
		}
	}
	for _, bad := range []string{"~", "a~", "~2", "~a"} {
		if _, err := UnescapeToken(bad); err == nil {
			t.Errorf("UnescapeToken(%q) took it", bad)
		}
	}
	tokens, err := SplitPointer("/a~1b/0//m~0")
	if err != nil || !reflect.DeepEqual(tokens, []string{"a/b", "0", "", "m~"}) {
		t.Errorf("SplitPointer = %q, %v", tokens, err)
	}
	if tokens, err := SplitPointer(""); err != nil || tokens != nil {
		t.Errorf("SplitPointer(\"\") = %q, %v", tokens, err)
	}
	for _, bad := range []string{"a", "/~"} {
		if _, err := SplitPointer(bad); err == nil {
			t.Errorf("SplitPointer(%q) took it", bad)
		}
	}
}

// FuzzTokenRoundTrip: any name escapes to a token with no "/" and reads
// back as itself, and a path of names reads back from its pointer.
func FuzzTokenRoundTrip(f *testing.F) {
	for _, s := range []string{"", "a", "a/b", "~", "~0", "~1", "/~/", "~01", "é/~"} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		tok := EscapeToken(a)
		if strings.Contains(tok, "/") {
			t.Fatalf("EscapeToken(%q) = %q holds a /", a, tok)
		}
		if back, err := UnescapeToken(tok); err != nil || back != a {
			t.Fatalf("UnescapeToken(EscapeToken(%q)) = %q, %v", a, back, err)
		}
		tokens, err := SplitPointer(Path{Member(a), Member(b)}.Pointer())
		if err != nil || len(tokens) != 2 || tokens[0] != a || tokens[1] != b {
			t.Fatalf("SplitPointer of [%q %q] = %q, %v", a, b, tokens, err)
		}
	})
}

func TestCanonicalAndStripMeta(t *testing.T) {
	t.Parallel()
	c, err := Canonical([]byte(` { "b" : [1.0, 2] , "a" : {"y":null,"x":"s"} } `))
	if err != nil || string(c) != `{"a":{"x":"s","y":null},"b":[1,2]}` {
		t.Errorf("Canonical = %s, %v", c, err)
	}
	if _, err := Canonical([]byte(`{`)); err == nil {
		t.Error("Canonical took malformed JSON")
	}
	v := StripMeta(decode(t, `{"_meta":1,"a":[{"_meta":{},"b":{"_meta":2,"c":3}}]}`))
	if got, _ := json.Marshal(v); string(got) != `{"a":[{"b":{"c":3}}]}` {
		t.Errorf("StripMeta = %s", got)
	}
	orig := decode(t, `{"a":[{"b":1}]}`)
	cp := Copy(orig)
	cp.(map[string]any)["a"].([]any)[0].(map[string]any)["b"] = 2.0
	if got, _ := json.Marshal(orig); string(got) != `{"a":[{"b":1}]}` {
		t.Errorf("Copy shares: %s", got)
	}
	red := Redact(decode(t, `{"a":[{"id":1},{"id":2}],"k":"v"}`), []*jsonpath.Path{jsonpath.MustParse("$.a[*].id")})
	if got, _ := json.Marshal(red); string(got) != `{"a":[{"id":"[redacted]"},{"id":"[redacted]"}],"k":"v"}` {
		t.Errorf("Redact = %s", got)
	}
}

// A keyed array is compared item by item by its key member, whatever the
// order: a difference is named by the item's key, an item on one side
// only is there as a whole; an array that cannot be keyed is compared by
// index, as any other.
func TestKeyBy(t *testing.T) {
	t.Parallel()
	opts := Options{KeyBy: map[string]string{"/tools": "name"}}
	tests := []struct {
		name     string
		a, b     string
		pointers []string
		jsonPath string
	}{
		{name: "another order is the same list",
			a: `{"tools":[{"name":"a"},{"name":"b"}]}`, b: `{"tools":[{"name":"b"},{"name":"a"}]}`},
		{name: "a member of an item",
			a: `{"tools":[{"name":"a","d":1},{"name":"read_file","d":1}]}`, b: `{"tools":[{"name":"read_file","d":2},{"name":"a","d":1}]}`,
			pointers: []string{"/tools/read_file/d"}, jsonPath: `$.tools[?@.name=="read_file"].d`},
		{name: "an item removed and one added, the list's length aside",
			a: `{"tools":[{"name":"a"},{"name":"gone/old"}]}`, b: `{"tools":[{"name":"new"},{"name":"a"},{"name":"z"}]}`,
			pointers: []string{"/tools/gone~1old", "/tools/new", "/tools/z"}, jsonPath: `$.tools[?@.name=="gone/old"]`},
		{name: "an item without its key: by index",
			a: `{"tools":[{"name":"a"},{"x":1}]}`, b: `{"tools":[{"name":"a"},{"x":2}]}`,
			pointers: []string{"/tools/1/x"}, jsonPath: `$.tools[1].x`},
		{name: "a key twice: by index",
			a: `{"tools":[{"name":"a"},{"name":"a"}]}`, b: `{"tools":[{"name":"a"}]}`,
			pointers: []string{"/tools"}, jsonPath: `$.tools`},
		{name: "another array is not keyed",
			a: `{"other":[{"name":"a"},{"name":"b"}]}`, b: `{"other":[{"name":"b"},{"name":"a"}]}`,
			pointers: []string{"/other/0/name", "/other/1/name"}, jsonPath: `$.other[0].name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := decode(t, tt.a), decode(t, tt.b)
			var got []string
			for _, d := range AllDiffs(a, b, opts) {
				got = append(got, d.Path.Pointer())
			}
			if !reflect.DeepEqual(got, tt.pointers) {
				t.Errorf("AllDiffs at %q, want %q", got, tt.pointers)
			}
			first, differ := FirstDiff(a, b, opts)
			if differ != (len(tt.pointers) > 0) {
				t.Fatalf("FirstDiff differs = %v, want %v", differ, len(tt.pointers) > 0)
			}
			if differ && first.Path.JSONPath() != tt.jsonPath {
				t.Errorf("FirstDiff at %s, want %s", first.Path.JSONPath(), tt.jsonPath)
			}
		})
	}
	// An item on one side only is there whole, the other side nothing.
	d, _ := FirstDiff(decode(t, `{"tools":[{"name":"x"}]}`), decode(t, `{"tools":[]}`), opts)
	if !reflect.DeepEqual(d.A, map[string]any{"name": "x"}) || d.B != nil {
		t.Errorf("a removed item: %#v, %#v", d.A, d.B)
	}
	// The JSONPath of a keyed step selects the item.
	p := Path{Member("tools"), Keyed("name", `q"x`), Member("d")}
	doc := decode(t, `{"tools":[{"name":"a","d":0},{"name":"q\"x","d":"here"}]}`)
	if got := jsonpath.MustParse(p.JSONPath()).Select(doc); len(got) != 1 || got[0] != "here" {
		t.Errorf("%s selects %v", p.JSONPath(), got)
	}
	if k, v, ok := p[1].Key(); !ok || k != "name" || v != `q"x` {
		t.Errorf("Key() = %q, %q, %v", k, v, ok)
	}
	if _, ok := p[1].Name(); ok {
		t.Error("a keyed step has a member name")
	}
	if _, _, ok := p[0].Key(); ok {
		t.Error("a member step has a key")
	}
}

// Lookup finds what a pointer names, escapes read back, and nothing where
// the document has nothing: a missing member, an index out of range or
// not written as a plain decimal, a step into a scalar, a malformed pointer.
func TestLookup(t *testing.T) {
	doc := decode(t, `{"$defs":{"a/b":{"type":"string"},"m~n":[10,20]},"s":"x"}`)
	for _, tc := range []struct {
		pointer string
		want    string // the value as JSON; "" for none
	}{
		{"", `{"$defs":{"a/b":{"type":"string"},"m~n":[10,20]},"s":"x"}`},
		{"/$defs/a~1b", `{"type":"string"}`},
		{"/$defs/m~0n/1", `20`},
		{"/$defs/m~0n/2", ""},
		{"/$defs/m~0n/01", ""},
		{"/$defs/m~0n/-1", ""},
		{"/$defs/missing", ""},
		{"/s/0", ""},
		{"/$defs/a~2b", ""},
		{"$defs", ""},
	} {
		got, ok := Lookup(doc, tc.pointer)
		if tc.want == "" {
			if ok {
				t.Errorf("Lookup(%q) = %v, want nothing", tc.pointer, got)
			}
			continue
		}
		b, _ := json.Marshal(got)
		if !ok || string(b) != tc.want {
			t.Errorf("Lookup(%q) = %s, %v; want %s", tc.pointer, b, ok, tc.want)
		}
	}
}

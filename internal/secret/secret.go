// Package secret is mcpeek's one rule of what holds a secret in the
// arguments of a request and the answers to a question: a field its
// schema marks as a password (format: password) or write-only (writeOnly:
// true), through local references ($ref) and allOf, anyOf, oneOf; a field
// whose name says it holds a secret; and a value the session knows as a
// secret. Every writer of what a person may commit or what mcpeek
// remembers goes through it: the arguments remembered for a tool's next
// call, a test saved with + and the snapshot written with it, a suite
// made from a recording (mcpeek record --to-suite) and a starter suite
// (mcpeek test init). It draws nothing: the inspector's forms say which
// fields it holds secret (tui/widget).
package secret

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpeek/mcpeek/formschema"
	"github.com/mcpeek/mcpeek/internal/jsondoc"
)

// A field's name says it holds a secret (Name) by its words, split
// at case changes, digits and punctuation:
//   - secretWords anywhere, whole (cookie_jar, db_credentials, pwd);
//   - a word ending as one of secretEnds (clientSecret, dbPassword,
//     openaiapikey);
//   - as the last word, token or a word ending so (GITHUB_TOKEN,
//     accessToken; not max_tokens or token_limit), or auth or
//     authorization (Authorization, basic_auth; not auth_type);
//   - as the last word, key or keys after a word of secretKeyKinds
//     (api_key, apiKey, ssh_key; not a cache's key, an object's
//     object_key or a public_key).
var (
	secretWords    = []string{"pwd", "cookie", "cookies", "credential", "credentials"}
	secretEnds     = []string{"secret", "secrets", "password", "passwords", "passwd", "passphrase", "apikey", "privatekey", "secretkey", "accesskey"}
	secretLast     = []string{"auth", "authorization"}
	secretKeyKinds = []string{"api", "private", "access", "secret", "signing", "sign", "encryption", "decryption", "ssh", "gpg", "pgp", "hmac", "license", "licence", "client", "master", "session", "auth", "app", "service", "account", "subscription", "deploy", "developer", "consumer", "shared"}
)

// Name reports whether a field's name says it holds a secret.
func Name(name string) bool {
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		if slices.Contains(secretWords, w) || slices.ContainsFunc(secretEnds, func(end string) bool { return strings.HasSuffix(w, end) }) {
			return true
		}
	}
	last := words[len(words)-1]
	switch {
	case strings.HasSuffix(last, "token"), slices.Contains(secretLast, last):
		return true
	case last == "key" || last == "keys":
		return len(words) > 1 && slices.Contains(secretKeyKinds, words[len(words)-2])
	}
	return false
}

// nameWords splits a field's name into lower-case words: at anything but
// a letter or a digit, between a lower-case letter and an upper-case one,
// before the last capital of a run followed by a lower-case letter
// (APIKey: api, key) and between letters and digits.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 && len(cur) > 0 && wordBreak(rs[i-1], r, rs[i+1:]) {
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// wordBreak reports whether a new word starts at r, after prev and
// before rest.
func wordBreak(prev, r rune, rest []rune) bool {
	switch {
	case unicode.IsDigit(prev) != unicode.IsDigit(r):
		return true
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsUpper(prev) && unicode.IsUpper(r) && len(rest) > 0 && unicode.IsLower(rest[0]):
		return true
	}
	return false
}

// Field reports whether a property holds a secret: its name says so, or
// its schema (def, which may be nil) marks it a password or write-only.
func Field(name string, def map[string]any) bool {
	return schemaDoc{}.secretField(name, []map[string]any{def})
}

// marksSecret reports whether a schema marks its value a password
// (format: password) or write-only (writeOnly: true).
func marksSecret(s map[string]any) bool {
	format, _ := s["format"].(string)
	writeOnly, _ := s["writeOnly"].(bool)
	return strings.EqualFold(format, "password") || writeOnly
}

// A schemaDoc is a tool's input schema as a whole, in which a field's
// schema may be a reference ($ref) to another of its parts (in $defs or
// definitions) and may be made of others (allOf, anyOf, oneOf): a field
// any of these marks secret is secret.
type schemaDoc struct {
	root map[string]any
	left *int // the schemas it may still visit; nil: no bound
}

// maxSchemaVisits bounds the schemas a schemaDoc visits (parts) for one
// tool's arguments: a server's schema of many references to each other
// could make them countless. Past it, names alone tell.
const maxSchemaVisits = 100000

// newSchemaDoc is the schemaDoc of a tool's input schema, which may be nil.
func newSchemaDoc(root map[string]any) schemaDoc {
	left := maxSchemaVisits
	return schemaDoc{root: root, left: &left}
}

// secretField reports whether a property holds a secret: its name says
// so, or one of its schemas (defs, any of which may be nil), or what they
// refer to or are made of, marks it a password or write-only.
func (d schemaDoc) secretField(name string, defs []map[string]any) bool {
	if Name(name) {
		return true
	}
	return slices.ContainsFunc(d.allParts(defs, map[string]bool{}), marksSecret)
}

// ref is the schema a local reference of s names ("#", "#/$defs/Name",
// any JSON pointer into the document) and the reference, or nil when s
// has none or it leads nowhere. Other documents are not fetched.
func (d schemaDoc) ref(s map[string]any) (string, map[string]any) {
	r, _ := s["$ref"].(string)
	pointer, ok := strings.CutPrefix(r, "#")
	if !ok || pointer != "" && !strings.HasPrefix(pointer, "/") {
		return "", nil
	}
	cur, _ := jsondoc.Lookup(d.root, pointer)
	target, _ := cur.(map[string]any)
	return r, target
}

// parts are the schemas a value s describes is described by: s, the
// schema its reference names and those of its allOf, anyOf and oneOf,
// and theirs in turn. A reference in seen is not followed again; those
// followed are added to it.
func (d schemaDoc) parts(s map[string]any, seen map[string]bool) []map[string]any {
	if s == nil || d.left != nil && *d.left <= 0 {
		return nil
	}
	if d.left != nil {
		*d.left--
	}
	out := []map[string]any{s}
	if r, target := d.ref(s); target != nil && !seen[r] {
		seen[r] = true
		out = append(out, d.parts(target, seen)...)
	}
	for _, kw := range []string{"allOf", "anyOf", "oneOf"} {
		list, _ := s[kw].([]any)
		for _, x := range list {
			if sub, ok := x.(map[string]any); ok {
				out = append(out, d.parts(sub, seen)...)
			}
		}
	}
	return out
}

// allParts are the parts of each of schemas.
func (d schemaDoc) allParts(schemas []map[string]any, seen map[string]bool) []map[string]any {
	var out []map[string]any
	for _, s := range schemas {
		out = append(out, d.parts(s, seen)...)
	}
	return out
}

// fieldDefs are the schemas parts give a property: its entry in their
// properties, or their additionalProperties where they do not name it.
func fieldDefs(parts []map[string]any, name string) []map[string]any {
	var out []map[string]any
	for _, p := range parts {
		props, _ := p["properties"].(map[string]any)
		def, ok := props[name].(map[string]any)
		if !ok {
			def, ok = p["additionalProperties"].(map[string]any)
		}
		if ok {
			out = append(out, def)
		}
	}
	return out
}

// itemDefs are the schemas parts give an array's items.
func itemDefs(parts []map[string]any) []map[string]any {
	var out []map[string]any
	for _, p := range parts {
		if items, ok := p["items"].(map[string]any); ok {
			out = append(out, items)
		}
	}
	return out
}

// schemaObject is a JSON Schema as decoded JSON, or nil.
func schemaObject(schema any) map[string]any {
	switch s := schema.(type) {
	case nil:
		return nil
	case map[string]any:
		return s
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}

// Forget is args (a JSON object) without the values of its secret fields,
// at any depth, as compact JSON; schema is the tool's input schema (nil:
// names alone tell). ok is false when args is no JSON.
func Forget(schema any, args json.RawMessage) (kept json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // numbers are kept as they were written
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the JSON editor shows them as typed
	root := schemaObject(schema)
	if enc.Encode(newSchemaDoc(root).dropSecrets([]map[string]any{root}, v)) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}

// dropSecrets removes the secret fields from v, a decoded JSON value
// described by schemas (none: names alone tell), and returns it.
func (d schemaDoc) dropSecrets(schemas []map[string]any, v any) any {
	parts := d.allParts(schemas, map[string]bool{})
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			defs := fieldDefs(parts, k)
			if d.secretField(k, defs) {
				delete(v, k)
				continue
			}
			v[k] = d.dropSecrets(defs, x)
		}
	case []any:
		items := itemDefs(parts)
		for i, x := range v {
			v[i] = d.dropSecrets(items, x)
		}
	}
	return v
}

// Fields are the names of the secret properties of a tool's input
// schema, nested ones as a path (auth.token), sorted. A reference is not
// followed again inside what it names.
func Fields(schema any) []string {
	root := schemaObject(schema)
	d := newSchemaDoc(root)
	var out []string
	var walk func(prefix string, schemas []map[string]any, seen map[string]bool)
	walk = func(prefix string, schemas []map[string]any, seen map[string]bool) {
		parts := d.allParts(schemas, seen)
		var keys []string
		for _, p := range parts {
			props, _ := p["properties"].(map[string]any)
			for k := range props {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range slices.Compact(keys) {
			defs := fieldDefs(parts, k)
			if d.secretField(k, defs) {
				out = append(out, prefix+k)
			} else {
				walk(prefix+k+".", defs, maps.Clone(seen))
			}
		}
		if items := itemDefs(parts); len(items) > 0 {
			walk(prefix, items, maps.Clone(seen))
		}
	}
	walk("", []map[string]any{root}, map[string]bool{})
	slices.Sort(out)
	return slices.Compact(out)
}

// MarkFields is fields (a copy, a group's own fields alike) with mark
// applied to each secret one, by the tool's input schema (nil: names
// alone tell): the arguments form says by them that they are not
// remembered. Parsed schemas are shared: mark changes the copy.
func MarkFields(fields []formschema.Field, input any, mark func(*formschema.Field)) []formschema.Field {
	root := schemaObject(input)
	d := newSchemaDoc(root)
	return d.markFields(fields, d.parts(root, map[string]bool{}), mark)
}

// markFields is fields (a copy) with mark applied to each secret one, a
// group's own fields alike; parts are the schemas of the object that
// declares them (see parts).
func (d schemaDoc) markFields(fields []formschema.Field, parts []map[string]any, mark func(*formschema.Field)) []formschema.Field {
	own := slices.Clone(fields)
	for i, f := range own {
		defs := fieldDefs(parts, f.Key)
		if f.Kind == formschema.KindGroup {
			own[i].Fields = d.markFields(f.Fields, d.allParts(defs, map[string]bool{}), mark)
		}
		if d.secretField(f.Key, defs) {
			mark(&own[i])
		}
	}
	return own
}

// Flag reports whether a command-line flag's name (api-key for
// --api-key) says its value is a secret: a name the rule holds secret
// (Name), or one holding key, token, secret or password anywhere
// (--key, --license-key-file, --token-value). A server's command written
// into a suite (mcpeek test init) holds such a flag's value as an
// {{env.X}} template.
func Flag(name string) bool {
	n := strings.ToLower(name)
	return Name(name) || slices.ContainsFunc([]string{"key", "token", "secret", "password", "passwd"}, func(w string) bool { return strings.Contains(n, w) })
}

// FlagValue is the value of a flag a command's words give.
type FlagValue struct {
	// Index is the word holding the value; Name is the flag's, without
	// its dashes; Prefix is what precedes the value in that word
	// ("--api-key=" for --api-key=VALUE, "" for --api-key VALUE).
	Index        int
	Name, Prefix string
}

// FlagValues are the values of the flags among a command's arguments (its
// words after the first) whose names say they hold a secret ([Flag]),
// given as --name=VALUE or as --name VALUE (the next word, when it is
// not a flag itself).
func FlagValues(words []string) []FlagValue {
	var out []FlagValue
	for i := 1; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			continue
		}
		name, ok := strings.CutPrefix(w, "--")
		if !ok {
			if name, ok = strings.CutPrefix(w, "-"); !ok || len(name) < 2 {
				continue
			}
		}
		if name, value, eq := strings.Cut(name, "="); eq {
			if Flag(name) && value != "" {
				out = append(out, FlagValue{Index: i, Name: name, Prefix: w[:len(w)-len(value)]})
			}
			continue
		}
		if Flag(name) && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") && words[i+1] != "" {
			out = append(out, FlagValue{Index: i + 1, Name: name})
			i++
		}
	}
	return out
}

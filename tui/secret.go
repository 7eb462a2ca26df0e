package tui

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpeek/mcpeek/formschema"
)

// A tool's arguments are remembered for its next call (remember.go), but
// never the value of a secret field: one the schema marks as a password
// (format: password) or write-only (writeOnly: true), or one whose name
// says it holds a secret. The arguments form says so by such a field.

// notRemembered is the note by a secret field in the arguments form.
const notRemembered = "not remembered"

// secretWords are the words of a field's name that make it secret, whole
// (api_key, apiKey, GITHUB_TOKEN; not keyboard, monkey or max_tokens);
// secretEnds are the ends of a word that do (accesstoken, clientsecret).
var (
	secretWords = []string{"key", "keys", "pass", "pwd", "pin", "auth", "authorization", "cookie", "credential", "credentials"}
	secretEnds  = []string{"token", "secret", "secrets", "password", "passwords", "passwd", "passphrase", "apikey", "privatekey", "secretkey", "accesskey"}
)

// secretName reports whether a field's name says it holds a secret: one
// of its words, split at case changes, digits and punctuation, is a
// secret word or ends as one.
func secretName(name string) bool {
	for _, w := range nameWords(name) {
		if slices.Contains(secretWords, w) {
			return true
		}
		for _, end := range secretEnds {
			if strings.HasSuffix(w, end) {
				return true
			}
		}
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

// secretField reports whether a property holds a secret: its name says
// so, or its schema (def, which may be nil) marks it a password or
// write-only.
func secretField(name string, def map[string]any) bool {
	if secretName(name) {
		return true
	}
	format, _ := def["format"].(string)
	writeOnly, _ := def["writeOnly"].(bool)
	return strings.EqualFold(format, "password") || writeOnly
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

// forgetSecrets is args (a JSON object) without the values of its secret
// fields, at any depth, as compact JSON; schema is the tool's input
// schema (nil: names alone tell). ok is false when args is no JSON.
func forgetSecrets(schema any, args json.RawMessage) (kept json.RawMessage, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber() // numbers are kept as they were written
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the JSON editor shows them as typed
	if enc.Encode(dropSecrets(schemaObject(schema), v)) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}

// dropSecrets removes the secret fields from v, a decoded JSON value
// described by schema (which may be nil), and returns it.
func dropSecrets(schema map[string]any, v any) any {
	switch v := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for k, x := range v {
			def, _ := props[k].(map[string]any)
			if def == nil {
				def, _ = schema["additionalProperties"].(map[string]any)
			}
			if secretField(k, def) {
				delete(v, k)
				continue
			}
			v[k] = dropSecrets(def, x)
		}
	case []any:
		items, _ := schema["items"].(map[string]any)
		for i, x := range v {
			v[i] = dropSecrets(items, x)
		}
	}
	return v
}

// secretFields are the names of the secret properties of a tool's input
// schema, nested ones as a path (auth.token), sorted.
func secretFields(schema any) []string {
	var out []string
	var walk func(prefix string, s map[string]any)
	walk = func(prefix string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			def, _ := props[k].(map[string]any)
			switch {
			case secretField(k, def):
				out = append(out, prefix+k)
			case def != nil:
				walk(prefix+k+".", def)
			}
		}
		if items, ok := s["items"].(map[string]any); ok {
			walk(prefix, items)
		}
	}
	walk("", schemaObject(schema))
	return out
}

// markSecrets is a schema whose secret fields (those secretField finds in
// the tool's input schema) say by their description that they are not
// remembered. It is a copy: parsed schemas are shared.
func markSecrets(schema *formschema.Schema, input any) *formschema.Schema {
	own := *schema
	own.Fields = markSecretFields(schema.Fields, schemaObject(input))
	return &own
}

// markSecretFields is fields (a copy) with each secret one marked, a
// group's own fields alike; schema is the object that declares them.
func markSecretFields(fields []formschema.Field, schema map[string]any) []formschema.Field {
	props, _ := schema["properties"].(map[string]any)
	own := slices.Clone(fields)
	for i, f := range own {
		def, _ := props[f.Key].(map[string]any)
		if f.Kind == formschema.KindGroup {
			own[i].Fields = markSecretFields(f.Fields, def)
		}
		if !secretField(f.Key, def) {
			continue
		}
		if f.Description == "" {
			own[i].Description = notRemembered
		} else {
			own[i].Description = f.Description + " · " + notRemembered
		}
	}
	return own
}

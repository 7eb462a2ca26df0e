package secret

import (
	"fmt"
	"slices"
	"testing"
)

// Which fields hold a secret: by name, as whole words of it, or by the
// schema's password format or writeOnly.
func TestSecretFieldClassification(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		def  map[string]any
		want bool
	}{
		{"apiKey", nil, true},
		{"api_key", nil, true},
		{"APIKey", nil, true},
		{"x-api-key", nil, true},
		{"api_keys", nil, true},
		{"private_key", nil, true},
		{"privateKey", nil, true},
		{"access_key", nil, true},
		{"secret_key", nil, true},
		{"signing_key", nil, true},
		{"encryption_key", nil, true},
		{"ssh_key", nil, true},
		{"license_key", nil, true},
		{"token", nil, true},
		{"GITHUB_TOKEN", nil, true},
		{"access_token", nil, true},
		{"accessToken", nil, true},
		{"accesstoken", nil, true},
		{"oauth2Token", nil, true},
		{"client_secret", nil, true},
		{"clientSecret", nil, true},
		{"password", nil, true},
		{"dbPassword", nil, true},
		{"passwd", nil, true},
		{"pwd", nil, true},
		{"passphrase", nil, true},
		{"auth", nil, true},
		{"Authorization", nil, true},
		{"basic_auth", nil, true},
		{"proxyAuthorization", nil, true},
		{"credentials", nil, true},
		{"session_cookie", nil, true},
		{"anything", map[string]any{"type": "string", "format": "password"}, true},
		{"anything", map[string]any{"type": "string", "writeOnly": true}, true},
		// Near misses: the words are not secret ones, or not where they
		// would be.
		{"key", nil, false},
		{"keys", nil, false},
		{"cache_key", nil, false},
		{"objectKey", nil, false},
		{"public_key", nil, false},
		{"primary_key", nil, false},
		{"access_key_id", nil, false},
		{"keyboard_layout", nil, false},
		{"monkey", nil, false},
		{"hotkey", nil, false},
		{"keyword", nil, false},
		{"token_limit", nil, false},
		{"token_count", nil, false},
		{"tokens", nil, false},
		{"max_tokens", nil, false},
		{"tokenizer", nil, false},
		{"pin", nil, false},
		{"pass", nil, false},
		{"db_pass", nil, false},
		{"auth_type", nil, false},
		{"authorization_url", nil, false},
		{"author", nil, false},
		{"secretary", nil, false},
		{"compass", nil, false},
		{"bypass_cache", nil, false},
		{"query", nil, false},
		{"anything", map[string]any{"type": "string", "format": "email"}, false},
		{"anything", map[string]any{"type": "string", "writeOnly": false}, false},
	} {
		if got := Field(tc.name, tc.def); got != tc.want {
			t.Errorf("Field(%q, %v) = %v, want %v", tc.name, tc.def, got, tc.want)
		}
	}
}

// A field marked secret through what its schema refers to or is made of
// ($ref into $defs or definitions, allOf, anyOf, oneOf), at any depth, is
// not remembered and is named as not remembered; references that lead
// back to themselves end.
func TestSecretsThroughReferencesAreNotRemembered(t *testing.T) {
	t.Parallel()
	writeOnly := map[string]any{"type": "string", "writeOnly": true}
	password := map[string]any{"type": "string", "format": "password"}
	ref := func(to string) map[string]any { return map[string]any{"$ref": to} }
	object := func(props map[string]any) map[string]any {
		return map[string]any{"type": "object", "properties": props}
	}
	node := object(map[string]any{"value": ref("#/$defs/Secret"), "note": map[string]any{"type": "string"}, "kids": map[string]any{"type": "array", "items": ref("#/$defs/Node")}})
	for _, tc := range []struct {
		name   string
		schema map[string]any
		args   string
		want   string // what is remembered
		field  string // the field named as not remembered
	}{
		{"a $ref into $defs", map[string]any{"$defs": map[string]any{"Secret": writeOnly}, "properties": map[string]any{"value": ref("#/$defs/Secret")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a $ref into definitions", map[string]any{"definitions": map[string]any{"Secret": password}, "properties": map[string]any{"value": ref("#/definitions/Secret")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"allOf", object(map[string]any{"value": map[string]any{"allOf": []any{map[string]any{"type": "string"}, map[string]any{"writeOnly": true}}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"anyOf", object(map[string]any{"value": map[string]any{"anyOf": []any{password, map[string]any{"type": "null"}}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"oneOf", object(map[string]any{"value": map[string]any{"oneOf": []any{map[string]any{"type": "integer"}, writeOnly}}}),
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"properties in an allOf", map[string]any{"allOf": []any{object(map[string]any{"value": writeOnly})}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a nested object by $ref", map[string]any{"$defs": map[string]any{"Login": object(map[string]any{"value": password})}, "properties": map[string]any{"login": ref("#/$defs/Login")}},
			`{"login":{"value":"s3cret-value","user":"ada"}}`, `{"login":{"user":"ada"}}`, "login.value"},
		{"a recursive $ref", map[string]any{"$defs": map[string]any{"Secret": writeOnly, "Node": node}, "$ref": "#/$defs/Node"},
			`{"kids":[{"kids":[{"value":"s3cret-value","note":"kept"}]}]}`, `{"kids":[{"kids":[{"note":"kept"}]}]}`, "value"},
		{"references in a cycle", map[string]any{"$defs": map[string]any{"A": ref("#/$defs/B"), "B": map[string]any{"allOf": []any{ref("#/$defs/A"), writeOnly}}}, "properties": map[string]any{"value": ref("#/$defs/A")}},
			`{"value":"s3cret-value","note":"kept"}`, `{"note":"kept"}`, "value"},
		{"a $ref to the root", map[string]any{"properties": map[string]any{"value": writeOnly, "next": ref("#")}},
			`{"next":{"next":{"value":"s3cret-value","note":"kept"}}}`, `{"next":{"next":{"note":"kept"}}}`, "value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept, ok := Forget(tc.schema, []byte(tc.args))
			if !ok || string(kept) != tc.want {
				t.Errorf("remembered %s (%v), want %s", kept, ok, tc.want)
			}
			if got := Fields(tc.schema); !slices.Contains(got, tc.field) {
				t.Errorf("named as not remembered: %q, want %q among them", got, tc.field)
			}
		})
	}
}

// A schema whose references to each other make countless paths is
// walked only so far: the arguments form and the JSON editor still open.
func TestSecretFieldsOfACountlessSchema(t *testing.T) {
	t.Parallel()
	defs := map[string]any{}
	for i := range 60 {
		next := map[string]any{"$ref": fmt.Sprintf("#/$defs/D%d", i+1)}
		defs[fmt.Sprintf("D%d", i)] = map[string]any{"properties": map[string]any{"a": next, "b": next, "c": next}}
	}
	schema := map[string]any{"$defs": defs, "properties": map[string]any{"token": map[string]any{"type": "string"}, "tree": map[string]any{"$ref": "#/$defs/D0"}}}
	if got := Fields(schema); !slices.Contains(got, "token") {
		t.Errorf("Fields = %q, want token among them", got)
	}
	if kept, ok := Forget(schema, []byte(`{"token":"t0ken-value","tree":{"a":{"b":{}}}}`)); !ok || string(kept) != `{"tree":{"a":{"b":{}}}}` {
		t.Errorf("remembered %s (%v)", kept, ok)
	}
}

// A flag's name says it holds a secret when it holds key, token, secret
// or password anywhere, or the rule holds the name secret; not otherwise.
func TestFlag(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"api-key": true, "key": true, "license-key-file": true, "token": true, "access_token": true, "client-secret": true,
		"password": true, "db-passwd": true, "credentials": true, "cookie": true,
		"port": false, "verbose": false, "host": false, "user": false, "config": false,
	} {
		if got := Flag(name); got != want {
			t.Errorf("Flag(%q) = %v, want %v", name, got, want)
		}
	}
}

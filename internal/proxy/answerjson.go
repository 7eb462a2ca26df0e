package proxy

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The proxy changes a message it forwards only where --answer says so,
// and then only the member it must: these splice one member into or
// out of a message's bytes, leaving every other byte as it was (a
// re-encoding would reorder keys and respell numbers and strings).

// memberAt finds the value of obj's member key: its bytes are
// obj[start:end]. ok is false when obj is no object or has no such
// member.
func memberAt(obj []byte, key string) (start, end int, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, false
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return 0, 0, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return 0, 0, false
		}
		if k == key {
			end := int(dec.InputOffset())
			return end - len(v), end, true
		}
	}
	return 0, 0, false
}

// member is the value of obj's member key (nil: none).
func member(obj []byte, key string) json.RawMessage {
	start, end, ok := memberAt(obj, key)
	if !ok {
		return nil
	}
	return json.RawMessage(obj[start:end])
}

// setMember is obj with its member key set to value: the old value's
// bytes replaced, or the member added first when obj has none.
func setMember(obj []byte, key string, value []byte) ([]byte, error) {
	if start, end, ok := memberAt(obj, key); ok {
		return splice(obj, start, end, value), nil
	}
	open := bytes.IndexByte(obj, '{')
	if open < 0 || !bytes.HasPrefix(bytes.TrimSpace(obj), []byte("{")) {
		return nil, errors.New("not a JSON object")
	}
	name, _ := json.Marshal(key)
	add := append(append(append(name, ':'), value...), ',')
	if rest := bytes.TrimSpace(obj[open+1:]); bytes.HasPrefix(rest, []byte("}")) {
		add = add[:len(add)-1] // the object was empty: no comma
	}
	return splice(obj, open+1, open+1, add), nil
}

// setPath is obj with the member at path (each key an object's member
// in the one before) set to value; every object on the way must exist.
func setPath(obj []byte, path []string, value []byte) ([]byte, error) {
	if len(path) == 1 {
		return setMember(obj, path[0], value)
	}
	start, end, ok := memberAt(obj, path[0])
	if !ok {
		return nil, errors.New("no member " + path[0])
	}
	inner, err := setPath(obj[start:end], path[1:], value)
	if err != nil {
		return nil, err
	}
	return splice(obj, start, end, inner), nil
}

// getPath is the value at path in obj (nil: none).
func getPath(obj []byte, path ...string) json.RawMessage {
	for _, key := range path {
		if obj = member(obj, key); obj == nil {
			return nil
		}
	}
	return obj
}

// splice is b with b[start:end] replaced by with, in a new slice.
func splice(b []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(with))
	out = append(out, b[:start]...)
	out = append(out, with...)
	return append(out, b[end:]...)
}

// hasMember reports whether obj (an object) has a member key that is
// not null.
func hasMember(obj []byte, key string) bool {
	v := member(obj, key)
	return v != nil && string(v) != "null"
}

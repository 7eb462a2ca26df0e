// Package surface is a server's surface — what a client of it relies on:
// its identity, capabilities and revisions, its tools, resources, templates
// and prompts — as canonical JSON meant to be committed, and the
// direction-aware rules that tell which changes between two surfaces break
// clients (docs/architecture.md, "Surfaces and the breaking-change gate").
package surface

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpeek/mcpeek/internal/jsondoc"
)

// FormatVersion is the version of the surface file format, written in every
// surface; a file of another version is refused rather than misread.
const FormatVersion = 1

// Surface is one server's surface for one protocol revision. Each item and
// schema is kept as decoded JSON (objects as map[string]any, numbers as
// json.Number), so that nothing a server wrote is lost to a struct.
type Surface struct {
	Format            int      `json:"mcpeekSurface"`
	ProtocolVersion   string   `json:"protocolVersion"`
	SupportedVersions []string `json:"supportedVersions"`
	// ProbedRevisions is what a probe found of each revision mcpeek
	// speaks, "accepted" or "refused" (Probe); nil in a surface taken
	// without one.
	ProbedRevisions   map[string]string `json:"probedRevisions,omitempty"`
	ServerInfo        map[string]any    `json:"serverInfo"`
	Capabilities      map[string]any    `json:"capabilities"`
	Tools             []Item            `json:"tools"`
	Resources         []Item            `json:"resources"`
	ResourceTemplates []Item            `json:"resourceTemplates"`
	Prompts           []Item            `json:"prompts"`
}

// Item is one tool, resource, resource template or prompt as listed.
type Item = map[string]any

// Lists names the surface's lists of items, in the file's order, with the
// key that identifies an item of each.
var Lists = []struct{ Name, Key, Kind string }{
	{"tools", "name", KindTool},
	{"resources", "uri", KindResource},
	{"resourceTemplates", "uriTemplate", KindTemplate},
	{"prompts", "name", KindPrompt},
}

// Kinds of item, as a finding names its location.
const (
	KindTool     = "tool"
	KindResource = "resource"
	KindTemplate = "template"
	KindPrompt   = "prompt"
)

// list returns the surface's list called name.
func (s *Surface) list(name string) *[]Item {
	switch name {
	case "tools":
		return &s.Tools
	case "resources":
		return &s.Resources
	case "resourceTemplates":
		return &s.ResourceTemplates
	case "prompts":
		return &s.Prompts
	}
	panic("surface: no list " + name)
}

// Canonicalize puts the surface in its canonical form, in place: items
// sorted by their identifying key, every volatile _meta dropped (an item
// keeps only _meta.ui, which says which app renders it), the sets of a
// schema (required, a list of types) sorted, and supported revisions
// newest first. Object keys need no sorting: encoding/json writes a map's
// keys in order.
func (s *Surface) Canonicalize() {
	s.Format = FormatVersion
	s.SupportedVersions = slices.Clone(s.SupportedVersions)
	slices.Sort(s.SupportedVersions)
	slices.Reverse(s.SupportedVersions)
	s.SupportedVersions = slices.Compact(s.SupportedVersions)
	if s.SupportedVersions == nil {
		s.SupportedVersions = []string{}
	}
	if s.ServerInfo == nil {
		s.ServerInfo = map[string]any{}
	}
	delete(s.ServerInfo, "_meta")
	if s.Capabilities == nil {
		s.Capabilities = map[string]any{}
	}
	for _, l := range Lists {
		items := s.list(l.Name)
		if *items == nil {
			*items = []Item{}
		}
		for _, item := range *items {
			canonicalItem(item)
		}
		slices.SortStableFunc(*items, func(a, b Item) int { return cmp.Compare(str(a[l.Key]), str(b[l.Key])) })
	}
}

// canonicalItem drops the item's volatile _meta and sorts the sets of its
// schemas.
func canonicalItem(item Item) {
	if meta, ok := item["_meta"].(map[string]any); ok {
		if ui, ok := meta["ui"]; ok {
			item["_meta"] = map[string]any{"ui": ui}
		} else {
			delete(item, "_meta")
		}
	} else {
		delete(item, "_meta")
	}
	for _, key := range []string{"inputSchema", "outputSchema"} {
		sortSets(item[key])
	}
}

// sortSets sorts, throughout a schema, the arrays whose order means
// nothing: required and a list of types.
func sortSets(v any) {
	switch v := v.(type) {
	case map[string]any:
		for key, sub := range v {
			if arr, ok := sub.([]any); ok && (key == "required" || key == "type") && allStrings(arr) {
				slices.SortFunc(arr, func(a, b any) int { return cmp.Compare(a.(string), b.(string)) })
				continue
			}
			sortSets(sub)
		}
	case []any:
		for _, sub := range v {
			sortSets(sub)
		}
	}
}

func allStrings(arr []any) bool {
	for _, v := range arr {
		if _, ok := v.(string); !ok {
			return false
		}
	}
	return true
}

// Marshal is the surface as canonical JSON: the same surface gives the same
// bytes, two-space indented, with a final newline.
func (s *Surface) Marshal() ([]byte, error) {
	c := *s
	c.Canonicalize()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, fmt.Errorf("encode the surface: %w", err)
	}
	return b.Bytes(), nil
}

// Parse reads a surface file.
func Parse(data []byte) (*Surface, error) {
	var head struct {
		Format *int `json:"mcpeekSurface"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a surface file (JSON): %w", err)
	}
	if head.Format == nil {
		return nil, errors.New(`not a surface file: no "mcpeekSurface" key (make one with mcpeek surface)`)
	}
	if *head.Format != FormatVersion {
		return nil, fmt.Errorf("a surface file of format %d; this mcpeek reads format %d", *head.Format, FormatVersion)
	}
	s := &Surface{}
	if err := decode(data, s); err != nil {
		return nil, fmt.Errorf("surface file: %w", err)
	}
	for _, l := range Lists {
		for i, item := range *s.list(l.Name) {
			if str(item[l.Key]) == "" {
				return nil, fmt.Errorf("surface file: %s[%d] has no %s", l.Name, i, l.Key)
			}
		}
	}
	s.Canonicalize()
	return s, nil
}

// decode decodes JSON into v, numbers as json.Number: a schema's bounds
// compare exactly, and print as they were written.
func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// str is v when it is a string, else "".
func str(v any) string {
	s, _ := v.(string)
	return s
}

// jsonEqual reports whether two decoded JSON values are equal.
func jsonEqual(a, b any) bool {
	ab, errA := json.Marshal(a)
	bb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ab, bb)
}

// escapePointer escapes a key for a JSON pointer (RFC 6901).
func escapePointer(key string) string { return jsondoc.EscapeToken(key) }

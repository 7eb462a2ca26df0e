package mcpconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/tailscale/hujson"
)

// jsonEntry is a server entry of a JSON config, in any of its dialects,
// as read and as written (Write).
type jsonEntry struct {
	Type      string            `json:"type,omitempty"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	EnvFile   string            `json:"envFile,omitempty"`
	Cwd       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	ServerURL string            `json:"serverUrl,omitempty"` // Windsurf's name for url
	Headers   map[string]string `json:"headers,omitempty"`
	Disabled  bool              `json:"disabled,omitempty"`
}

// jsonInput is a VS Code input; a pickString's options are strings or
// {"label", "value"} objects.
type jsonInput struct {
	ID          string            `json:"id"`
	Type        string            `json:"type"`
	Description string            `json:"description"`
	Default     string            `json:"default"`
	Password    bool              `json:"password"`
	Options     []json.RawMessage `json:"options"`
}

// jsonDoc is a JSON config being read: the standardized text (comments and
// trailing commas blanked, offsets kept) for decoding and error positions.
type jsonDoc struct {
	path string
	std  []byte
	opts Options
	file *File
}

func loadJSON(path string, data []byte, opts Options) (*File, error) {
	ast, err := hujson.Parse(data)
	if err != nil {
		return nil, jsonSyntaxError(path, err)
	}
	ast.Standardize()
	d := &jsonDoc{path: path, std: ast.Pack(), opts: opts, file: &File{Path: path}}
	top, ok := ast.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("%s: not an MCP config: the top level is not a JSON object", path)
	}
	if mcp := member(top, "mcp"); mcp != nil && member(top, "servers") == nil {
		// VS Code's settings.json keeps them under "mcp".
		if inner, ok := mcp.Value.(*hujson.Object); ok {
			top = inner
		}
	}
	var inputs []Input
	if v := member(top, "inputs"); v != nil {
		if inputs, err = d.inputs(v); err != nil {
			return nil, err
		}
	}
	if v := member(top, "projects"); v != nil {
		if err := d.projectServers(v); err != nil {
			return nil, err
		}
	}
	for _, key := range []struct {
		name   string
		format Format
	}{{"mcpServers", FormatMCPServers}, {"servers", FormatVSCode}} {
		if v := member(top, key.name); v != nil {
			if err := d.servers(v, key.format, "", inputs); err != nil {
				return nil, err
			}
		}
	}
	if d.file.Format == "" {
		d.file.Format = FormatMCPServers
		if member(top, "servers") != nil {
			d.file.Format = FormatVSCode
		}
	}
	return d.file, nil
}

// member is the value of the object's member name, or nil.
func member(obj *hujson.Object, name string) *hujson.Value {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == name {
			return &obj.Members[i].Value
		}
	}
	return nil
}

// servers reads an object of server entries.
func (d *jsonDoc) servers(v *hujson.Value, format Format, scope string, inputs []Input) error {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return d.errorAt(v.StartOffset, "%s is not an object of servers", format)
	}
	if d.file.Format == "" {
		d.file.Format = format
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		name := m.Name.Value.(hujson.Literal).String()
		s := &Server{Name: name, File: d.path, Format: format, Scope: scope, inputs: inputs}
		var e jsonEntry
		raw := d.std[m.Value.StartOffset:m.Value.EndOffset]
		if err := json.Unmarshal(raw, &e); err != nil {
			s.Problem = d.entryError(name, m.Value.StartOffset, err)
		}
		s.Type, s.Command, s.Args, s.Env = e.Type, e.Command, e.Args, e.Env
		s.EnvFile, s.Cwd, s.URL, s.Headers, s.Disabled = e.EnvFile, e.Cwd, e.URL, e.Headers, e.Disabled
		if s.URL == "" {
			s.URL = e.ServerURL
		}
		d.add(s)
	}
	return nil
}

// add adds a server; a name given twice in one place keeps the later
// entry, as JSON readers do.
func (d *jsonDoc) add(s *Server) {
	for i, old := range d.file.Servers {
		if old.Name == s.Name && old.Scope == s.Scope {
			d.file.Servers[i] = s
			return
		}
	}
	d.file.Servers = append(d.file.Servers, s)
}

// projectServers reads ~/.claude.json's entries for the project the
// working directory is in: the longest project path that holds it.
func (d *jsonDoc) projectServers(v *hujson.Value) error {
	obj, ok := v.Value.(*hujson.Object)
	if !ok || d.opts.Dir == "" {
		return nil
	}
	best, bestLen := (*hujson.Object)(nil), -1
	var bestPath string
	for i := range obj.Members {
		p := obj.Members[i].Name.Value.(hujson.Literal).String()
		if !within(d.opts.Dir, p) || len(p) <= bestLen {
			continue
		}
		if proj, ok := obj.Members[i].Value.Value.(*hujson.Object); ok {
			best, bestLen, bestPath = proj, len(p), p
		}
	}
	if best == nil {
		return nil
	}
	servers := member(best, "mcpServers")
	if servers == nil {
		return nil
	}
	n := len(d.file.Servers)
	if err := d.servers(servers, FormatMCPServers, "project "+bestPath, nil); err != nil {
		return err
	}
	for _, s := range d.file.Servers[n:] {
		s.project = bestPath
	}
	return nil
}

// within reports whether dir is root or inside it.
func within(dir, root string) bool {
	if root == "" || !filepath.IsAbs(root) {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(dir))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// inputs reads VS Code's input declarations.
func (d *jsonDoc) inputs(v *hujson.Value) ([]Input, error) {
	var raw []jsonInput
	if err := json.Unmarshal(d.std[v.StartOffset:v.EndOffset], &raw); err != nil {
		return nil, d.decodeError("inputs", v.StartOffset, err)
	}
	inputs := make([]Input, 0, len(raw))
	for _, r := range raw {
		in := Input{ID: r.ID, Type: r.Type, Description: r.Description, Default: r.Default, Password: r.Password}
		for _, o := range r.Options {
			var s string
			var obj struct {
				Value string `json:"value"`
			}
			switch {
			case json.Unmarshal(o, &s) == nil:
				in.Options = append(in.Options, s)
			case json.Unmarshal(o, &obj) == nil:
				in.Options = append(in.Options, obj.Value)
			}
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// entryError words a server entry whose values are of the wrong kind.
func (d *jsonDoc) entryError(name string, start int, err error) error {
	return d.decodeError(fmt.Sprintf("server %q", name), start, err)
}

func (d *jsonDoc) decodeError(what string, start int, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		// The offset is where the value of the wrong kind ends.
		off := start + int(te.Offset)
		field := ""
		if te.Field != "" {
			field = fmt.Sprintf(" %q:", te.Field)
		}
		return d.errorAt(off, "%s:%s got a %s, want %s", what, field, te.Value, kindWord(te.Type))
	}
	return d.errorAt(start, "%s: %v", what, err)
}

// errorAt is an error at a byte offset of the file: FILE:LINE:COL: text.
func (d *jsonDoc) errorAt(off int, format string, args ...any) error {
	line, col := lineCol(d.std, off)
	return fmt.Errorf("%s:%d:%d: %s", d.path, line, col, fmt.Sprintf(format, args...))
}

// kindWord names the kind of JSON value a Go type takes.
func kindWord(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "an array of " + strings.TrimPrefix(kindWord(t.Elem()), "a ") + "s"
	case reflect.Map:
		return "an object of " + strings.TrimPrefix(kindWord(t.Elem()), "a ") + "s"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

var hujsonPosition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`) })

// jsonSyntaxError words a JSON syntax error as FILE:LINE:COL: text.
func jsonSyntaxError(path string, err error) error {
	if m := hujsonPosition().FindStringSubmatch(err.Error()); m != nil {
		return fmt.Errorf("%s:%s:%s: invalid JSON: %s", path, m[1], m[2], m[3])
	}
	return fmt.Errorf("%s: invalid JSON: %v", path, err)
}

package surface

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Level is how much a finding matters to a client.
type Level string

// Levels, most severe first.
const (
	ERR  Level = "ERR"  // breaks a client that relied on the old surface
	WARN Level = "WARN" // may break one, or changes what a model is told
	INFO Level = "INFO" // a change no client can notice going wrong
)

// Levels are the levels, most severe first.
var Levels = []Level{ERR, WARN, INFO}

// rank orders levels: a higher rank is more severe.
func (l Level) rank() int {
	switch l {
	case ERR:
		return 3
	case WARN:
		return 2
	case INFO:
		return 1
	}
	return 0
}

// AtLeast reports whether l is at least as severe as min.
func (l Level) AtLeast(min Level) bool { return l.rank() >= min.rank() }

// ParseLevel reads a level, in any case.
func ParseLevel(s string) (Level, error) {
	l := Level(strings.ToUpper(s))
	if l.rank() == 0 {
		return "", fmt.Errorf("unknown level %q (want ERR, WARN or INFO)", s)
	}
	return l, nil
}

// Finding is one difference between two surfaces, as a rule classifies it.
type Finding struct {
	// ID names the rule; stable across releases, for configs and scripts.
	ID    string `json:"id"`
	Level Level  `json:"level"`
	// Where: the tool, resource (by URI), template (by URI template) or
	// prompt; none for the server's own (capabilities, revisions).
	Tool     string `json:"tool,omitempty"`
	Resource string `json:"resource,omitempty"`
	Template string `json:"template,omitempty"`
	Prompt   string `json:"prompt,omitempty"`
	// Pointer is a JSON pointer into the item (/inputSchema/properties/q)
	// or, for the server's own, into the surface (/capabilities/logging).
	Pointer string `json:"pointer,omitempty"`
	// Message says, in one line, what a client would notice.
	Message string `json:"message"`
	// Accepted is the config's acceptance of the finding, when one holds;
	// Expired is one that no longer does (the finding counts again).
	Accepted *Acceptance `json:"accepted,omitempty"`
	Expired  *Acceptance `json:"expired,omitempty"`

	// item is the list ("tools", …) and key of the item the finding is
	// on, to find its line in a surface file.
	list string
}

// Kind is the kind of item the finding is on, and its name; "" for the
// server's own.
func (f *Finding) Kind() (kind, name string) {
	switch {
	case f.Tool != "":
		return KindTool, f.Tool
	case f.Resource != "":
		return KindResource, f.Resource
	case f.Template != "":
		return KindTemplate, f.Template
	case f.Prompt != "":
		return KindPrompt, f.Prompt
	}
	return "", ""
}

// Where is the finding's location in one phrase: "tool search
// /inputSchema/properties/q", "server /capabilities/logging".
func (f *Finding) Where() string {
	kind, name := f.Kind()
	if kind == "" {
		kind, name = "server", ""
	}
	parts := []string{kind}
	if name != "" {
		parts = append(parts, name)
	}
	if f.Pointer != "" {
		parts = append(parts, f.Pointer)
	}
	return strings.Join(parts, " ")
}

// Counts counts findings per level; accepted ones are counted apart.
type Counts struct {
	ERR      int `json:"ERR"`
	WARN     int `json:"WARN"`
	INFO     int `json:"INFO"`
	Accepted int `json:"accepted"`
}

// Count counts the findings.
func Count(findings []Finding) Counts {
	var c Counts
	for _, f := range findings {
		switch {
		case f.Accepted != nil:
			c.Accepted++
		case f.Level == ERR:
			c.ERR++
		case f.Level == WARN:
			c.WARN++
		case f.Level == INFO:
			c.INFO++
		}
	}
	return c
}

// Failing are the findings at or above min that no acceptance holds; a
// min of "" fails on nothing.
func Failing(findings []Finding, min Level) []Finding {
	var out []Finding
	if min == "" {
		return nil
	}
	for _, f := range findings {
		if f.Accepted == nil && f.Level.AtLeast(min) {
			out = append(out, f)
		}
	}
	return out
}

// sortFindings orders findings by level, then location, then rule: the
// same two surfaces give the same report.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		if c := cmp.Compare(b.Level.rank(), a.Level.rank()); c != 0 {
			return c
		}
		ak, an := a.Kind()
		bk, bn := b.Kind()
		return cmp.Or(cmp.Compare(ak, bk), cmp.Compare(an, bn), cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.ID, b.ID))
	})
}

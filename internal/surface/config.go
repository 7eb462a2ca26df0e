package surface

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/mcpeek/mcpeek/internal/safefile"
	"go.yaml.in/yaml/v3"
)

// DefaultConfig is where a project keeps its diff config, from its root.
const DefaultConfig = "mcpeek/diff.yaml"

// Config is a diff config (mcpeek/diff.yaml): a level per rule, and the
// findings a project accepts, each with a reason and a date it holds until.
//
//	levels:
//	  tool-description-changed: ERR
//	accept:
//	  - id: tool-removed
//	    tool: legacy_search
//	    reason: replaced by search, announced in 2.0
//	    until: 2027-03-01
type Config struct {
	Levels map[string]Level `yaml:"levels"`
	Accept []Acceptance     `yaml:"accept"`
}

// Acceptance accepts the findings of one rule at one place until a date:
// each location it names must match; those it leaves out match any.
type Acceptance struct {
	ID       string `yaml:"id" json:"id"`
	Tool     string `yaml:"tool,omitempty" json:"tool,omitempty"`
	Resource string `yaml:"resource,omitempty" json:"resource,omitempty"`
	Template string `yaml:"template,omitempty" json:"template,omitempty"`
	Prompt   string `yaml:"prompt,omitempty" json:"prompt,omitempty"`
	Pointer  string `yaml:"pointer,omitempty" json:"pointer,omitempty"`
	Reason   string `yaml:"reason" json:"reason"`
	Until    Date   `yaml:"until" json:"until"`
}

// Date is a calendar day, written 2027-03-01. An acceptance holds through
// the whole of its day, in UTC.
type Date struct{ time.Time }

// UnmarshalYAML reads a date as written, whatever YAML would make of it.
func (d *Date) UnmarshalYAML(n *yaml.Node) error {
	t, err := time.Parse(time.DateOnly, n.Value)
	if err != nil {
		return fmt.Errorf("line %d: until %q is not a date such as 2027-03-01", n.Line, n.Value)
	}
	d.Time = t
	return nil
}

// MarshalJSON writes the date as it is written in a config.
func (d Date) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

func (d Date) String() string { return d.Format(time.DateOnly) }

// holds reports whether an acceptance until d still holds at now.
func (d Date) holds(now time.Time) bool { return now.UTC().Before(d.AddDate(0, 0, 1)) }

// ParseConfig reads a diff config; a key it does not know, a rule id that
// is not one of [RuleIDs], a level that is not ERR, WARN or INFO, or an
// acceptance without an id, a reason or a date is an error.
func ParseConfig(data []byte) (*Config, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	cfg := &Config{}
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, configError(err)
	}
	for id, l := range cfg.Levels {
		if !KnownRule(id) {
			// A misspelt id would leave the gate as it was, in silence.
			return nil, fmt.Errorf("levels: %s: no rule of mcpeek diff has this id", id)
		}
		level, err := ParseLevel(string(l))
		if err != nil {
			return nil, fmt.Errorf("levels: %s: %w", id, err)
		}
		cfg.Levels[id] = level
	}
	for i, a := range cfg.Accept {
		switch {
		case a.ID == "":
			return nil, fmt.Errorf("accept entry %d: no id (the rule it accepts)", i+1)
		case !KnownRule(a.ID):
			return nil, fmt.Errorf("accept entry %d: %s: no rule of mcpeek diff has this id", i+1, a.ID)
		case a.Reason == "":
			return nil, fmt.Errorf("accept entry %d (%s): no reason", i+1, a.ID)
		case a.Until.IsZero():
			return nil, fmt.Errorf("accept entry %d (%s): no until date (an acceptance expires, to be looked at again)", i+1, a.ID)
		}
	}
	return cfg, nil
}

// unknownKey is how the YAML decoder words a key the config does not know.
var unknownKey = regexp.MustCompile(`field (\S+) not found in type \S+`)

// configError is a decoder's error in the config's words: "line 3:
// unknown key "ignore"", not the Go type it was decoded into.
func configError(err error) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		return err
	}
	msgs := make([]string, len(te.Errors))
	for i, m := range te.Errors {
		msgs[i] = unknownKey.ReplaceAllString(m, `unknown key "$1"`)
	}
	return errors.New(strings.Join(msgs, "; "))
}

// LoadConfig reads the diff config at path.
func LoadConfig(path string) (*Config, error) {
	data, err := safefile.Read(path)
	if err != nil {
		return nil, err
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// matches reports whether the acceptance covers the finding.
func (a *Acceptance) matches(f *Finding) bool {
	return a.ID == f.ID && (a.Tool == "" || a.Tool == f.Tool) && (a.Resource == "" || a.Resource == f.Resource) &&
		(a.Template == "" || a.Template == f.Template) && (a.Prompt == "" || a.Prompt == f.Prompt) &&
		(a.Pointer == "" || a.Pointer == f.Pointer)
}

// apply sets each finding's level from the config and marks it accepted,
// or expired when its only acceptances have lapsed (it counts again).
func (c *Config) apply(fs []Finding, now time.Time) {
	if c == nil {
		return
	}
	for i := range fs {
		f := &fs[i]
		if l, ok := c.Levels[f.ID]; ok {
			f.Level = l
		}
		for j := range c.Accept {
			a := &c.Accept[j]
			if !a.matches(f) {
				continue
			}
			if a.Until.holds(now) {
				f.Accepted, f.Expired = a, nil
				break
			}
			f.Expired = a
		}
	}
}

// Unused are the acceptances no finding matched: a config that accepts
// what no longer happens is worth tidying.
func (c *Config) Unused(fs []Finding) []Acceptance {
	if c == nil {
		return nil
	}
	var out []Acceptance
	for _, a := range c.Accept {
		used := false
		for i := range fs {
			if a.matches(&fs[i]) {
				used = true
				break
			}
		}
		if !used {
			out = append(out, a)
		}
	}
	return out
}

package surface

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the rules table in docs/architecture.md from Rules")

// areas are the groups of the documented table, in its order.
var areas = []string{"items", "input schema", "output schema", "any schema", "tools", "prompts", "server"}

// TestRuleTable: each row of Rules is one rule (or one case of a rule)
// with a level, an area and words for the documented table; RuleIDs is
// its ids, sorted, which is what a config may name.
func TestRuleTable(t *testing.T) {
	keys := map[string]bool{}
	lastArea := 0
	for _, r := range Rules {
		if keys[r.key()] {
			t.Errorf("%s: two rows", r.key())
		}
		keys[r.key()] = true
		if _, err := ParseLevel(string(r.Level)); err != nil || r.Level != Level(strings.ToUpper(string(r.Level))) {
			t.Errorf("%s: level %q", r.key(), r.Level)
		}
		area := slices.Index(areas, r.Area)
		if area < lastArea {
			t.Errorf("%s: area %q is not one of %q, or not with the rest of its area", r.key(), r.Area, areas)
		}
		lastArea = area
		if r.Doc == "" || strings.ContainsAny(r.Doc, "|\n") {
			t.Errorf("%s: doc %q is not one cell of a table", r.key(), r.Doc)
		}
		switch r.Direction {
		case NoDirection, ClientSends, ClientReceives, EitherWay:
		default:
			t.Errorf("%s: direction %q", r.key(), r.Direction)
		}
	}
	for _, r := range Rules {
		if r.Case != "" && !keys[r.ID] {
			t.Errorf("%s: a case of a rule that has no row of its own", r.key())
		}
	}
	if !slices.IsSorted(RuleIDs) || len(slices.Compact(slices.Clone(RuleIDs))) != len(RuleIDs) {
		t.Fatal("RuleIDs is not sorted and without repeats (KnownRule searches it)")
	}
	for _, r := range Rules {
		if !KnownRule(r.ID) {
			t.Errorf("%s: KnownRule refuses it", r.ID)
		}
	}
	if KnownRule("tool-remove") || KnownRule("input-property-removed/closed") {
		t.Error("KnownRule accepts what is no rule's id")
	}
}

// TestEveryRuleFires: the rules' cases fire every row of Rules, at its
// level, and nothing the table lacks; a finding in a schema is of a rule
// of that schema's direction. So the table is exactly what the rules'
// code gives, and a config's levels and acceptances name rules that are.
func TestEveryRuleFires(t *testing.T) {
	type fired struct {
		id    string
		level Level
	}
	want := map[fired]bool{}
	for _, r := range Rules {
		want[fired{r.ID, r.Level}] = true
	}
	// Where data flows one way, the rules that fire are of that way.
	flows := map[string][]Direction{"/inputSchema": {ClientSends, EitherWay}, "/arguments/": {ClientSends},
		"/outputSchema": {ClientReceives, EitherWay}}
	got := map[fired]bool{}
	for _, c := range ruleCases() {
		for _, f := range c.diff(t) {
			got[fired{f.ID, f.Level}] = true
			for prefix, ways := range flows {
				if d := rulesByKey[f.ID].Direction; strings.HasPrefix(f.Pointer, prefix) && !slices.Contains(ways, d) {
					t.Errorf("%s: %s at %s, a rule of direction %q", c.name, f.ID, f.Pointer, d)
				}
			}
		}
	}
	for _, r := range Rules {
		if !got[fired{r.ID, r.Level}] {
			t.Errorf("no case fires %s at %s", r.key(), r.Level)
		}
	}
	for f := range got {
		if !want[f] {
			t.Errorf("%s fired at %s, which no row of Rules gives", f.id, f.level)
		}
	}
}

// TestRulesDoc: the rules table in docs/architecture.md is the one Rules
// makes; -update rewrites it.
func TestRulesDoc(t *testing.T) {
	const path = "../../docs/architecture.md"
	const begin, end = "<!-- rules table: generated from internal/surface/rules.go (go test ./internal/surface -run TestRulesDoc -update) -->\n",
		"<!-- end of the rules table -->\n"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := bytes.Cut(doc, []byte(begin))
	if !ok {
		t.Fatalf("%s has no line %q", path, begin)
	}
	table, after, ok := bytes.Cut(rest, []byte(end))
	if !ok {
		t.Fatalf("%s has no line %q after the table", path, end)
	}
	want := rulesMarkdown()
	if string(table) == want {
		return
	}
	if !*update {
		t.Fatalf("the rules table in %s is not the one Rules makes (go test ./internal/surface -run TestRulesDoc -update rewrites it); want:\n%s", path, want)
	}
	out := slices.Concat(before, []byte(begin), []byte(want), []byte(end), after)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rulesMarkdown is the documented table of Rules: a row per rule (and per
// case), its area named once.
func rulesMarkdown() string {
	var b strings.Builder
	b.WriteString("\n| area | rule | level | the client | fires on |\n| --- | --- | --- | --- | --- |\n")
	area := ""
	for _, r := range Rules {
		shown := ""
		if r.Area != area {
			shown, area = r.Area, r.Area
		}
		dir := map[Direction]string{ClientSends: "sends", ClientReceives: "receives", EitherWay: "sends or receives"}[r.Direction]
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", shown, r.ID, r.Level, dir, r.Doc)
	}
	b.WriteString("\n")
	return b.String()
}

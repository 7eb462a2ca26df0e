package surface

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRuleIDs: RuleIDs is sorted and is exactly the ids the rules' code
// gives findings, so a config naming a rule is checked against the rules
// there are (the resources' and templates' ids are made from their kind).
func TestRuleIDs(t *testing.T) {
	if !slices.IsSorted(RuleIDs) {
		t.Fatal("RuleIDs is not sorted (KnownRule searches it)")
	}
	literal := regexp.MustCompile(`(?:\b(?:add|at|emit)\(|ID: )"([a-z]+(?:-[a-z]+)+\??)"`)
	fromKind := regexp.MustCompile(`\bat\(kind\+"(-[a-z-]+)"`)
	var found []string
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(src), -1) {
			found = append(found, m[1])
		}
		for _, m := range fromKind.FindAllStringSubmatch(string(src), -1) {
			found = append(found, KindResource+m[1], KindTemplate+m[1])
		}
	}
	slices.Sort(found)
	found = slices.Compact(found)
	if !slices.Equal(found, RuleIDs) {
		t.Errorf("the rules' code gives\n%q\nRuleIDs lists\n%q", found, RuleIDs)
	}
	if !KnownRule("tool-removed") || KnownRule("tool-remove") {
		t.Error("KnownRule")
	}
}

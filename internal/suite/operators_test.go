package suite

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every operator is one complete entry, and a suite writer can find it in
// the README's list of predicates.
func TestOperatorsComplete(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	// The list runs from "Predicates:" to the sentence after it.
	text := string(readme)
	start := strings.Index(text, "Predicates: a bare value")
	if start < 0 {
		t.Fatal("the README has no list of predicates (\"Predicates: a bare value …\")")
	}
	list := text[start:]
	if end := strings.Index(list, ". "); end > 0 {
		list = list[:end]
	}
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z]+)`").FindAllStringSubmatch(list, -1) {
		documented[m[1]] = true
	}
	if len(operatorList) == 0 {
		t.Fatal("the operator table is empty")
	}
	for _, o := range operatorList {
		if o.parse == nil || o.eval == nil || o.describe == nil {
			t.Errorf("operator %q lacks parse, eval or describe", o.name)
		}
		if !documented[o.name] {
			t.Errorf("operator %q is not in the README's list of predicates", o.name)
		}
		if operatorByName[o.name] != o {
			t.Errorf("operator %q is in the table twice", o.name)
		}
	}
}

package suite

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// readmePart is the README's text from start up to end (or its end).
func readmePart(t *testing.T, start, end string) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(readme), start)
	if i < 0 {
		t.Fatalf("the README has no %q", start)
	}
	part := string(readme)[i:]
	if j := strings.Index(part, end); j > 0 {
		part = part[:j]
	}
	return part
}

// Every operator is one complete entry, and a suite writer can find it in
// the README's list of predicates.
func TestOperatorsComplete(t *testing.T) {
	list := readmePart(t, "Predicates: a bare value", ". ")
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

// Every step kind is one complete entry, named in the README's list of
// steps, and a replay finds the kind of each request it sends.
func TestStepKindsComplete(t *testing.T) {
	list := readmePart(t, "Steps are `", "Predicates:")
	for _, k := range stepKinds {
		if k.Name == "" || k.do == nil {
			t.Errorf("step kind %q lacks a name or a request", k.Name)
		}
		if !strings.Contains(list, "`"+k.Name) {
			t.Errorf("step kind %q is not in the README's list of steps", k.Name)
		}
		if StepKindOf(k.Name) != k {
			t.Errorf("step kind %q is in the table twice", k.Name)
		}
		if len(k.Replays) > 0 && k.replayTarget == nil {
			t.Errorf("step kind %q replays requests but reads no target from them", k.Name)
		}
		for _, m := range k.Replays {
			if got, _ := ReplayStep(m, "n", "u"); got != k {
				t.Errorf("a replayed %s is not sent as a %s step", m, k.Name)
			}
		}
	}
	if k, target := ReplayStep("resources/read", "", "file:///a"); k == nil || k.Name != StepRead || target != "file:///a" {
		t.Errorf("a recorded resources/read replays as %v %q, want a read of its uri", k, target)
	}
	if k, _ := ReplayStep("completion/complete", "", ""); k != nil {
		t.Errorf("a replay sends a recorded completion again, as a %s step; it sends none", k.Name)
	}
}

package surface

import "slices"

// RuleIDs are the ids of every rule diff applies, sorted: what a diff
// config's levels and acceptances may name (TestRuleIDs holds the list to
// the rules' code).
var RuleIDs = []string{
	"annotation-destructive-added", "annotation-idempotent-dropped", "annotation-openworld-added",
	"annotation-readonly-dropped", "annotation-relaxed",
	"capability-added", "capability-changed", "capability-removed",
	"extension-added", "extension-removed",
	"input-constraint-relaxed", "input-constraint-tightened", "input-enum-value-removed", "input-enum-widened",
	"input-optional-added", "input-property-removed", "input-required-added", "input-required-relaxed",
	"input-type-narrowed", "input-type-widened",
	"output-constraint-relaxed", "output-constraint-tightened", "output-enum-narrowed", "output-enum-value-added",
	"output-property-added", "output-property-removed", "output-required-added", "output-required-removed",
	"output-schema-added", "output-schema-removed", "output-type-narrowed", "output-type-widened",
	"prompt-added", "prompt-arg-relaxed", "prompt-arg-removed", "prompt-description-changed",
	"prompt-optional-arg-added", "prompt-removed", "prompt-required-arg-added",
	"protocol-revision-added", "protocol-revision-dropped", "protocol-version-changed",
	"resource-added", "resource-mime-type-changed", "resource-removed", "resource-ui-changed",
	"schema-annotation-changed", "schema-not-compared",
	"task-support-changed", "task-support-required",
	"template-added", "template-mime-type-changed", "template-removed", "template-ui-changed",
	"tool-added", "tool-description-changed", "tool-removed", "tool-renamed?", "tool-title-changed", "tool-ui-changed",
	"version-not-bumped",
}

// KnownRule reports whether id names a rule of diff.
func KnownRule(id string) bool {
	_, found := slices.BinarySearch(RuleIDs, id)
	return found
}

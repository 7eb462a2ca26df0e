package surface

import (
	"fmt"
	"slices"
)

// Rule is one rule of diff, as the table [Rules] holds it: the finding's
// id, the level it gives, which way the data it weighs flows, and what it
// catches. A rule that weighs more in one case has a second row with that
// Case (input-property-removed: WARN, and ERR when the object is closed).
type Rule struct {
	// ID names the rule in findings, reports and diff configs.
	ID string
	// Case is "" for the rule's row, or the case a second row of the same
	// rule gives another level.
	Case string
	// Level is the level of the rule's findings, before a config's.
	Level Level
	// Direction is which way the data the rule weighs flows.
	Direction Direction
	// Area is what the rule compares: items, input schema, output schema,
	// any schema, tools, prompts or server (the documented table's groups).
	Area string
	// Doc says when the rule fires, in the words of the documented table.
	Doc string
}

// Direction is which way the data a rule weighs flows between server and
// client: narrowing what a client sends breaks it, and so does widening
// or removing what it receives.
type Direction string

// Directions.
const (
	NoDirection    Direction = ""         // the item or the server itself
	ClientSends    Direction = "sends"    // input schemas, prompt arguments
	ClientReceives Direction = "receives" // output schemas, resources, capabilities
	EitherWay      Direction = "either"   // any schema, sent or received
)

// key is the row's key, what the rules' code emits: the id, and the case
// after a slash when the row has one ("input-property-removed/closed").
func (r Rule) key() string {
	if r.Case == "" {
		return r.ID
	}
	return r.ID + "/" + r.Case
}

// Rules is every rule of diff, grouped by area: the levels the code gives
// findings and the table docs/architecture.md shows are both read from it
// (TestRulesDoc), so that moving a rule's level is one edit here.
var Rules = []Rule{
	{ID: "tool-removed", Level: ERR, Area: "items", Doc: "a tool is gone"},
	{ID: "resource-removed", Level: ERR, Direction: ClientReceives, Area: "items", Doc: "a resource is gone"},
	{ID: "template-removed", Level: ERR, Direction: ClientReceives, Area: "items", Doc: "a resource template is gone"},
	{ID: "prompt-removed", Level: ERR, Area: "items", Doc: "a prompt is gone"},
	{ID: "resource-mime-type-changed", Level: WARN, Direction: ClientReceives, Area: "items", Doc: "a resource's `mimeType` changed"},
	{ID: "template-mime-type-changed", Level: WARN, Direction: ClientReceives, Area: "items", Doc: "a template's `mimeType` changed"},
	{ID: "tool-added", Level: INFO, Area: "items", Doc: "a new tool"},
	{ID: "resource-added", Level: INFO, Direction: ClientReceives, Area: "items", Doc: "a new resource"},
	{ID: "template-added", Level: INFO, Direction: ClientReceives, Area: "items", Doc: "a new resource template"},
	{ID: "prompt-added", Level: INFO, Area: "items", Doc: "a new prompt"},
	{ID: "tool-renamed?", Level: INFO, Area: "items", Doc: "a tool removed and one added under a name alike (case, `camelCase`, `kebab-case`, `snake_case`, a verb such as get), or sharing a word with a compatible schema, or else with the only compatible schema of its shape"},
	{ID: "prompt-renamed?", Level: INFO, Area: "items", Doc: "a prompt removed and one added, paired as tools are, by their arguments"},
	{ID: "tool-title-changed", Level: INFO, Area: "items", Doc: "a tool's `title` changed"},
	{ID: "tool-ui-changed", Level: INFO, Area: "items", Doc: "a tool's `_meta.ui` changed"},
	{ID: "resource-ui-changed", Level: INFO, Direction: ClientReceives, Area: "items", Doc: "a resource's `_meta.ui` changed"},
	{ID: "template-ui-changed", Level: INFO, Direction: ClientReceives, Area: "items", Doc: "a template's `_meta.ui` changed"},
	{ID: "prompt-description-changed", Level: INFO, Area: "items", Doc: "a prompt's `description` changed"},

	{ID: "input-required-added", Level: ERR, Direction: ClientSends, Area: "input schema", Doc: "a new required property, or an optional one now required"},
	{ID: "input-type-narrowed", Level: ERR, Direction: ClientSends, Area: "input schema", Doc: "a type no longer accepted"},
	{ID: "input-enum-value-removed", Level: ERR, Direction: ClientSends, Area: "input schema", Doc: "an `enum` value no longer accepted"},
	{ID: "input-constraint-tightened", Level: ERR, Direction: ClientSends, Area: "input schema", Doc: "a tighter or new bound, `pattern`, `format`, `multipleOf`, `uniqueItems`, a new `enum`, `additionalProperties: false`, `items`"},
	{ID: "input-schema-declared", Level: WARN, Direction: ClientSends, Area: "input schema", Doc: "the old input schema declared nothing (any object) and the new one requires or constrains what is sent: said once per tool, not per property"},
	{ID: "input-property-removed", Case: "closed", Level: ERR, Direction: ClientSends, Area: "input schema", Doc: "a property removed when `additionalProperties` is false"},
	{ID: "input-property-removed", Level: WARN, Direction: ClientSends, Area: "input schema", Doc: "a property removed"},
	{ID: "input-optional-added", Level: INFO, Direction: ClientSends, Area: "input schema", Doc: "a new optional property"},
	{ID: "input-required-relaxed", Level: INFO, Direction: ClientSends, Area: "input schema", Doc: "a required property now optional"},
	{ID: "input-type-widened", Level: INFO, Direction: ClientSends, Area: "input schema", Doc: "a type now accepted"},
	{ID: "input-enum-widened", Level: INFO, Direction: ClientSends, Area: "input schema", Doc: "an `enum` value now accepted, or no `enum` any more"},
	{ID: "input-constraint-relaxed", Level: INFO, Direction: ClientSends, Area: "input schema", Doc: "a looser or dropped constraint"},

	{ID: "output-schema-removed", Level: ERR, Direction: ClientReceives, Area: "output schema", Doc: "a tool's `outputSchema` is gone"},
	{ID: "output-property-removed", Level: ERR, Direction: ClientReceives, Area: "output schema", Doc: "a property removed"},
	{ID: "output-required-removed", Level: ERR, Direction: ClientReceives, Area: "output schema", Doc: "a required property now optional"},
	{ID: "output-type-widened", Level: WARN, Direction: ClientReceives, Area: "output schema", Doc: "a type that may now be sent"},
	{ID: "output-enum-value-added", Level: WARN, Direction: ClientReceives, Area: "output schema", Doc: "an `enum` value that may now be sent, or no `enum` any more"},
	{ID: "output-constraint-relaxed", Level: WARN, Direction: ClientReceives, Area: "output schema", Doc: "a looser or dropped constraint"},
	{ID: "output-schema-added", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "a tool now declares an `outputSchema`"},
	{ID: "output-property-added", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "a new property"},
	{ID: "output-required-added", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "a property now always sent"},
	{ID: "output-type-narrowed", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "a type no longer sent"},
	{ID: "output-enum-narrowed", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "an `enum` value no longer sent, or a new `enum`"},
	{ID: "output-constraint-tightened", Level: INFO, Direction: ClientReceives, Area: "output schema", Doc: "a tighter or new constraint"},

	{ID: "schema-not-compared", Level: WARN, Direction: EitherWay, Area: "any schema", Doc: "`$ref`, `$defs`, `allOf`/`anyOf`/`oneOf`/`not`, conditions, `patternProperties`, … changed; or a bound that is not a number"},
	{ID: "schema-annotation-changed", Level: INFO, Direction: EitherWay, Area: "any schema", Doc: "any other keyword changed: `description`, `default`, …"},

	{ID: "annotation-readonly-dropped", Level: ERR, Area: "tools", Doc: "no longer read-only (the spec's default: not read-only)"},
	{ID: "annotation-destructive-added", Level: ERR, Area: "tools", Doc: "now destructive (the spec's default: destructive unless read-only)"},
	{ID: "task-support-required", Level: ERR, Area: "tools", Doc: "`execution.taskSupport` now required (from optional or forbidden)"},
	{ID: "tool-description-changed", Level: WARN, Area: "tools", Doc: "a tool's `description` changed: it steers models"},
	{ID: "annotation-idempotent-dropped", Level: WARN, Area: "tools", Doc: "no longer idempotent"},
	{ID: "annotation-openworld-added", Level: WARN, Area: "tools", Doc: "now reaches the open world"},
	{ID: "annotation-relaxed", Level: INFO, Area: "tools", Doc: "the hints promise more safety"},
	{ID: "task-support-changed", Level: INFO, Area: "tools", Doc: "`execution.taskSupport` changed otherwise"},

	{ID: "prompt-required-arg-added", Level: ERR, Direction: ClientSends, Area: "prompts", Doc: "a new required argument, or an optional one now required"},
	{ID: "prompt-arg-removed", Level: WARN, Direction: ClientSends, Area: "prompts", Doc: "an argument removed"},
	{ID: "prompt-optional-arg-added", Level: INFO, Direction: ClientSends, Area: "prompts", Doc: "a new optional argument"},
	{ID: "prompt-arg-relaxed", Level: INFO, Direction: ClientSends, Area: "prompts", Doc: "a required argument now optional"},

	{ID: "capability-removed", Level: ERR, Direction: ClientReceives, Area: "server", Doc: "a capability, or a setting such as `subscribe`, no longer offered"},
	{ID: "extension-removed", Level: ERR, Direction: ClientReceives, Area: "server", Doc: "an extension no longer offered"},
	{ID: "protocol-revision-dropped", Level: ERR, Area: "server", Doc: "a protocol revision the old server accepted is refused by the new one (each revision probed on its own connection: `initialize`, `server/discover`)"},
	{ID: "version-not-bumped", Level: ERR, Area: "server", Doc: "an ERR finding stands and `serverInfo.version`'s major (for 0.x its minor) did not move"},
	{ID: "capability-changed", Level: WARN, Direction: ClientReceives, Area: "server", Doc: "a capability's or extension's setting changed value"},
	{ID: "protocol-version-changed", Level: WARN, Area: "server", Doc: "the surfaces were taken on different revisions"},
	{ID: "server-name-changed", Level: WARN, Area: "server", Doc: "`serverInfo.name` changed: a client may know the server by it (allow-lists, stored approvals, logs)"},
	{ID: "capability-added", Level: INFO, Direction: ClientReceives, Area: "server", Doc: "a capability or setting now offered"},
	{ID: "extension-added", Level: INFO, Direction: ClientReceives, Area: "server", Doc: "an extension now offered"},
	{ID: "protocol-revision-added", Level: INFO, Area: "server", Doc: "a protocol revision the old server refused is accepted by the new one"},
	{ID: "protocol-revision-unknown", Level: INFO, Area: "server", Doc: "a revision one side accepted or refused that the other side's surface shows nothing of (taken without probes, by an older mcpeek): said, not judged"},
}

// rulesByKey indexes [Rules] by the keys the rules' code emits.
var rulesByKey = func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.key()] = r
	}
	return m
}()

// RuleIDs are the ids of every rule diff applies, sorted: what a diff
// config's levels and acceptances may name.
var RuleIDs = func() []string {
	ids := make([]string, 0, len(Rules))
	for _, r := range Rules {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}()

// KnownRule reports whether id names a rule of diff.
func KnownRule(id string) bool {
	_, found := slices.BinarySearch(RuleIDs, id)
	return found
}

// finding is a finding of the row key ("tool-removed",
// "input-property-removed/closed"), at the level the table gives it; the
// caller says where it is. A key the table lacks is a bug in the rules'
// code (TestRules fires every emit).
func finding(key, pointer, message string) Finding {
	r, ok := rulesByKey[key]
	if !ok {
		panic(fmt.Sprintf("surface: rule %q is not in the rules table", key))
	}
	return Finding{ID: r.ID, Level: r.Level, Pointer: pointer, Message: message}
}

package surface

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// toolFindings compares tools: removed and added ones (a pair likely the
// same tool is hinted as a rename, see renames), their schemas in their directions, their
// annotations, task support, description and app.
func toolFindings(old, new []Item) []Finding {
	var fs []Finding
	om, nm := byKey(old, "name"), byKey(new, "name")
	var removed, added []string
	for _, name := range slices.Sorted(maps.Keys(om)) {
		n, ok := nm[name]
		if !ok {
			removed = append(removed, name)
			fs = append(fs, toolFinding("tool-removed", name, "", fmt.Sprintf("tool %s is gone: a client calling it fails", name)))
			continue
		}
		fs = append(fs, toolChanges(name, om[name], n)...)
	}
	for _, name := range slices.Sorted(maps.Keys(nm)) {
		if _, ok := om[name]; !ok {
			added = append(added, name)
			fs = append(fs, toolFinding("tool-added", name, "", fmt.Sprintf("new tool %s", name)))
		}
	}
	compatible := func(o, n string) bool { return !schemasBreak(om[o], nm[n]) }
	sameShape := func(o, n string) bool {
		return schemaShape(om[o]["inputSchema"]).equal(schemaShape(nm[n]["inputSchema"])) &&
			schemaShape(om[o]["outputSchema"]).equal(schemaShape(nm[n]["outputSchema"]))
	}
	for _, c := range renames(removed, added, compatible, sameShape) {
		fs = append(fs, toolFinding("tool-renamed?", c.old, "", c.hint(KindTool, "a compatible schema of the same properties", "its new schema breaks a client of the old one")))
	}
	return fs
}

// schemasBreak reports whether a client of tool o's schemas breaks on
// tool n's: what it sends refused, or what it receives widened or gone.
func schemasBreak(o, n Item) bool {
	var broke bool
	emit := breaking(&broke)
	inputFindings(o["inputSchema"], n["inputSchema"], emit)
	_, hadOut := o["outputSchema"]
	_, hasOut := n["outputSchema"]
	if hadOut && !hasOut {
		return true
	}
	if hadOut {
		(&schemaDiff{dir: ClientReceives, emit: emit}).compare("/outputSchema", o["outputSchema"], n["outputSchema"])
	}
	return broke
}

// toolFinding is a finding of the rule row key on the tool name.
func toolFinding(key, name, ptr, msg string) Finding {
	f := finding(key, ptr, msg)
	f.Tool, f.list = name, "tools"
	return f
}

// toolChanges compares two versions of one tool.
func toolChanges(name string, o, n Item) []Finding {
	var fs []Finding
	emit := func(key, ptr, msg string) { fs = append(fs, toolFinding(key, name, ptr, msg)) }
	inputFindings(o["inputSchema"], n["inputSchema"], emit)
	_, hadOut := o["outputSchema"]
	_, hasOut := n["outputSchema"]
	switch {
	case hadOut && !hasOut:
		emit("output-schema-removed", "/outputSchema", "no output schema any more: a client relying on structured content loses its guarantee")
	case !hadOut && hasOut:
		emit("output-schema-added", "/outputSchema", "now declares an output schema")
	case hadOut:
		out := &schemaDiff{dir: ClientReceives, emit: emit}
		out.compare("/outputSchema", o["outputSchema"], n["outputSchema"])
	}
	annotations(o, n, emit)
	if ot, nt := taskSupport(o), taskSupport(n); ot != nt {
		if nt == "required" {
			emit("task-support-required", "/execution/taskSupport", fmt.Sprintf("taskSupport %s → required: a client that cannot run tasks can no longer call it", ot))
		} else {
			emit("task-support-changed", "/execution/taskSupport", fmt.Sprintf("taskSupport %s → %s", ot, nt))
		}
	}
	if !jsonEqual(o["description"], n["description"]) {
		emit("tool-description-changed", "/description", "its description changed: it steers how models use the tool (check it says what the tool does)")
	}
	if !jsonEqual(o["title"], n["title"]) {
		emit("tool-title-changed", "/title", fmt.Sprintf("title %s → %s", shown(o["title"]), shown(n["title"])))
	}
	if !jsonEqual(o["_meta"], n["_meta"]) {
		emit("tool-ui-changed", "/_meta/ui", "its _meta.ui (the app it names, who may call it) changed")
	}
	return fs
}

// taskSupport is the tool's execution.taskSupport; the spec's default is
// forbidden.
func taskSupport(t Item) string {
	if e, ok := t["execution"].(map[string]any); ok {
		if s := str(e["taskSupport"]); s != "" {
			return s
		}
	}
	return "forbidden"
}

// hints are a tool's behaviour hints with the spec's defaults applied;
// destructive means only when the tool is not read-only.
type hints struct{ readOnly, destructive, idempotent, openWorld bool }

// Destructive reports whether a tool (as listed: its annotations) may
// change or lose data by its hints and the spec's defaults, read as the
// annotation rules read them: a tool not marked read-only is destructive
// unless it says destructiveHint: false. test init skips such a tool.
func Destructive(tool Item) bool { return toolHints(tool).destructive }

func toolHints(t Item) hints {
	a, _ := t["annotations"].(map[string]any)
	flag := func(k string, def bool) bool {
		if v, ok := a[k].(bool); ok {
			return v
		}
		return def
	}
	h := hints{readOnly: flag("readOnlyHint", false), idempotent: flag("idempotentHint", false), openWorld: flag("openWorldHint", true)}
	h.destructive = !h.readOnly && flag("destructiveHint", true)
	return h
}

// annotations compares the behaviour hints a client decides by (whether to
// ask before a call, whether to retry one).
func annotations(o, n Item, emit emitter) {
	oh, nh := toolHints(o), toolHints(n)
	if oh.readOnly && !nh.readOnly {
		emit("annotation-readonly-dropped", "/annotations/readOnlyHint", "no longer read-only: a client that calls it without asking may now change data")
	}
	if !oh.destructive && nh.destructive {
		emit("annotation-destructive-added", "/annotations/destructiveHint", "now destructive: a client that calls it without asking may now lose data")
	}
	if oh.idempotent && !nh.idempotent {
		emit("annotation-idempotent-dropped", "/annotations/idempotentHint", "no longer idempotent: a client that retries it may repeat its effect")
	}
	if !oh.openWorld && nh.openWorld {
		emit("annotation-openworld-added", "/annotations/openWorldHint", "now reaches the open world (outside systems)")
	}
	if oh != nh && (!oh.readOnly || nh.readOnly) && (oh.destructive || !nh.destructive) &&
		(!oh.idempotent || nh.idempotent) && (oh.openWorld || !nh.openWorld) {
		emit("annotation-relaxed", "/annotations", "its hints now promise more safety (read-only, not destructive, idempotent or closed-world)")
	}
}

// inputFindings compares a tool's input schemas. When the old one declared
// nothing (any object), what the new one requires is said once, not as one
// ERR per property: no client could rely on what was never declared.
func inputFindings(old, new any, emit emitter) {
	if !declaresNothing(old) {
		(&schemaDiff{dir: ClientSends, emit: emit}).compare("/inputSchema", old, new)
		return
	}
	var breaking bool
	(&schemaDiff{dir: ClientSends, emit: func(key, ptr, msg string) {
		if rulesByKey[key].Level == ERR {
			breaking = true
			return
		}
		emit(key, ptr, msg)
	}}).compare("/inputSchema", old, new)
	if breaking {
		nm, _ := new.(map[string]any)
		_, required := names(nm)
		what := "constrains what a client sends"
		if len(required) > 0 {
			what = "requires " + strings.Join(required, ", ")
		}
		emit("input-schema-declared", "/inputSchema", "the old input schema declared nothing (any object); the new one "+what+": check what clients send against it")
	}
}

// declaresNothing reports whether an input schema says nothing of what is
// sent: an object schema with no properties, required members or
// constraints, only annotations.
func declaresNothing(schema any) bool {
	s, ok := schema.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range s {
		switch k {
		case "$schema", "$id", "title", "description", "$comment":
		case "type":
			if v != "object" {
				return false
			}
		case "additionalProperties":
			if v == false {
				return false
			}
		default:
			return false
		}
	}
	return true
}

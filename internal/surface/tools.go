package surface

import (
	"fmt"
	"maps"
	"slices"
)

// toolFindings compares tools: removed and added ones (a pair with equal
// schemas is hinted as a rename), their schemas in their directions, their
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
	for _, r := range removed {
		for _, a := range added {
			if jsonEqual(om[r]["inputSchema"], nm[a]["inputSchema"]) && jsonEqual(om[r]["outputSchema"], nm[a]["outputSchema"]) {
				fs = append(fs, toolFinding("tool-renamed?", r, "", fmt.Sprintf("tool %s was removed and %s added with the same schemas: renamed?", r, a)))
			}
		}
	}
	return fs
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
	in := &schemaDiff{dir: ClientSends, emit: emit}
	in.compare("/inputSchema", o["inputSchema"], n["inputSchema"])
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
